/**
 * Source hashes and revisions. Pure: no JupyterLab import at run time.
 *
 * A source hash is a function of the cell's type and source only, so a hash
 * read in one session (or browser) still guards a write in another. SHA-256
 * is synchronous and identical everywhere (Web Crypto's digest is neither
 * synchronous nor available outside secure contexts); 64 bits of it are
 * plenty for a change token and keep results small.
 */
import { sha256 } from './sha256';

const HASH_HEX_CHARS = 16;

const encoder = new TextEncoder();

/**
 * The first 16 hex digits of the SHA-256 of the UTF-8 bytes of `text` (a lone
 * surrogate encodes as U+FFFD, as TextEncoder does).
 */
export function digest(text: string): string {
  const bytes = sha256(encoder.encode(text));
  let hex = '';
  for (let i = 0; i < HASH_HEX_CHARS / 2; i++) {
    hex += bytes[i].toString(16).padStart(2, '0');
  }
  return hex;
}

/** The hash an agent must send back to edit or delete a cell. */
export function sourceHash(cellType: string, source: string): string {
  return `sha256:${digest(`${cellType}\n${source}`)}`;
}

/** One agent-visible cell as the revision sees it. */
export interface IRevisionPart {
  id: string;
  sourceHash: string;
}

/** How many visible cells one chunk digest of a revision covers. */
export const REVISION_CHUNK = 64;

/** The digest of one chunk of consecutive visible cells. */
export function chunkDigest(parts: Iterable<IRevisionPart>): string {
  let text = '';
  for (const part of parts) {
    text += `${part.id}:${part.sourceHash};`;
  }
  return digest(text);
}

/** The revision made of the chunk digests, in order. */
export function revisionFromChunks(digests: readonly string[]): string {
  return `rev:${digest(digests.join(''))}`;
}

/**
 * A change token over the agent-visible cells: their order, ids and source
 * hashes. Informational only; writes are guarded per cell.
 *
 * It is hashed in two levels, chunks of `REVISION_CHUNK` cells and then the
 * chunk digests, so that an edit of one cell of a large notebook re-hashes
 * one chunk and the list of chunk digests, not every cell (model-index.ts
 * keeps it up to date that way; this is the definition it must equal).
 */
export function revisionOf(parts: Iterable<IRevisionPart>): string {
  const digests: string[] = [];
  let chunk: IRevisionPart[] = [];
  for (const part of parts) {
    chunk.push(part);
    if (chunk.length === REVISION_CHUNK) {
      digests.push(chunkDigest(chunk));
      chunk = [];
    }
  }
  if (chunk.length) {
    digests.push(chunkDigest(chunk));
  }
  return revisionFromChunks(digests);
}
