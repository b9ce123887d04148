/**
 * The source hash of a cell, cached on the cell and dropped when its source
 * changes, so repeated reads of a large notebook hash only what changed. (A
 * cell's access has its own cached reader in `../access/read`.)
 */
import { type ISharedCell } from '@jupyter/ydoc';

import { sourceHash } from '../common/hash';

const hashes = new WeakMap<ISharedCell, { hash: string | null }>();

/** The source hash of a cell, from its type and current source. */
export function cellHash(cell: ISharedCell): string {
  let cache = hashes.get(cell);
  if (!cache) {
    const created: { hash: string | null } = { hash: null };
    cache = created;
    hashes.set(cell, created);
    cell.changed.connect((_, change) => {
      if (change.sourceChange) {
        created.hash = null;
      }
    });
  }
  if (cache.hash === null) {
    cache.hash = sourceHash(cell.cell_type, cell.getSource());
  }
  return cache.hash;
}
