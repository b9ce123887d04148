/**
 * Source hashes and revisions. Pure: no JupyterLab import at run time.
 *
 * A source hash is a function of the cell's type and source only, so a hash
 * read in one session (or browser) still guards a write in another. SHA-256
 * from @noble/hashes is synchronous and identical everywhere; 64 bits of it
 * are plenty for a change token and keep results small.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

const HASH_HEX_CHARS = 16;

function digest(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text))).slice(0, HASH_HEX_CHARS);
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
