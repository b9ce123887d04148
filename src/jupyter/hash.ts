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

/**
 * A change token over the agent-visible cells: their order, ids and source
 * hashes. Informational only; writes are guarded per cell.
 */
export function revisionOf(parts: Iterable<IRevisionPart>): string {
  let text = '';
  for (const part of parts) {
    text += `${part.id}:${part.sourceHash};`;
  }
  return `rev:${digest(text)}`;
}
