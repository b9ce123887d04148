/**
 * Writing a cell's source as the smallest edit: only the part between the
 * common prefix and the common suffix of the old and new text is replaced,
 * so a collaborator's cursor (and the undo history) outside it stays put.
 * Pure: a type-only import.
 */
import type { ISharedCell } from '@jupyter/ydoc';

/** Replace a cell's source with the smallest edit that gives `next`. */
export function replaceSource(cell: ISharedCell, next: string): void {
  const current = cell.getSource();
  let start = 0;
  const limit = Math.min(current.length, next.length);
  while (start < limit && current[start] === next[start]) {
    start++;
  }
  let end = 0;
  while (
    end < limit - start &&
    current[current.length - 1 - end] === next[next.length - 1 - end]
  ) {
    end++;
  }
  cell.updateSource(
    start,
    current.length - end,
    next.slice(start, next.length - end)
  );
}
