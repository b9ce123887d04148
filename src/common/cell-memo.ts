/**
 * A fact computed from a cell and kept on it until the cell changes in a way
 * that matters to it (its source, its metadata), so repeated reads of a large
 * notebook compute only what changed. Pure: no app import.
 */
import { type CellChange, type ISharedCell } from '@jupyter/ydoc';

/**
 * A reader of `compute(cell)`, remembered per cell and forgotten when the
 * cell emits a change for which `stale(change)` is true.
 */
export function cellMemo<T>(
  compute: (cell: ISharedCell) => T,
  stale: (change: CellChange) => boolean
): (cell: ISharedCell) => T {
  const memos = new WeakMap<ISharedCell, { value: T; fresh: boolean }>();
  return (cell: ISharedCell): T => {
    let memo = memos.get(cell);
    if (!memo) {
      const created = { value: undefined as T, fresh: false };
      memo = created;
      memos.set(cell, created);
      cell.changed.connect((_, change) => {
        if (stale(change)) {
          created.fresh = false;
        }
      });
    }
    if (!memo.fresh) {
      memo.value = compute(cell);
      memo.fresh = true;
    }
    return memo.value;
  };
}
