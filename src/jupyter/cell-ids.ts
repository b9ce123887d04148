/**
 * Cell ids for notebooks written before nbformat 4.5, which carry none.
 * Pure: no JupyterLab import at run time.
 *
 * `@jupyter/ydoc` gives every cell without an id a random one each time it
 * builds a model, so a notebook read from its file would show the agent new
 * ids on every read, and other ids again once JupyterLab opens it. Content
 * goes through `withStableCellIds` before it becomes a model, both when a
 * tool reads a closed file (`src/jupyter/notebook.ts`) and when JupyterLab
 * loads the file into an open notebook (`src/jupyter/cell-ids-plugin.ts`), so
 * both see the same ids, derived from the file.
 *
 * An id is derived from the cell's content (its type and source), not its
 * position: a cell inserted, deleted or moved elsewhere in the file, between
 * two reads, leaves every other cell's id as it was, so an id the agent holds
 * can never come to name another cell. Identical cells are told apart by
 * their order among themselves: the first keeps the plain id, the next ones
 * get `-1`, `-2`, ... (see docs/legacy-notebooks.md).
 */
import type * as nbformat from '@jupyterlab/nbformat';

import { digest } from '../common/hash';

/** The nbformat minor version from which cells carry ids. */
export const CELL_ID_MINOR = 5;

/** The source of a cell as stored: a string, or a list of lines to join. */
function sourceText(source: unknown): string {
  if (Array.isArray(source)) {
    return source.join('');
  }
  return typeof source === 'string' ? source : '';
}

/** Whether a cell already carries an id (kept as it is, as JupyterLab keeps it). */
function hasId(cell: nbformat.ICell): boolean {
  return typeof cell.id === 'string' && cell.id !== '';
}

/**
 * The id a cell without one gets before disambiguation: 16 hex digits of a
 * SHA-256 over its type and source. The `cell-id` prefix keeps it from
 * equalling the digest inside the cell's source hash.
 */
export function baseCellId(cellType: string, source: string): string {
  return digest(`cell-id\n${cellType}\n${source}`);
}

/**
 * The ids of the cells of a notebook, in order: a cell's own id when it has
 * one, else one derived from its content, unique within the notebook (never
 * equal to another cell's id, its own or derived). The same cells give the
 * same ids, in every session and browser.
 */
export function stableCellIds(cells: readonly nbformat.ICell[]): string[] {
  const taken = new Set<string>();
  for (const cell of cells) {
    if (hasId(cell)) {
      taken.add(cell.id as string);
    }
  }
  // The next suffix to try for each base id.
  const next = new Map<string, number>();
  return cells.map(cell => {
    if (hasId(cell)) {
      return cell.id as string;
    }
    const base = baseCellId(String(cell.cell_type), sourceText(cell.source));
    let count = next.get(base) ?? 0;
    let id = count === 0 ? base : `${base}-${count}`;
    while (taken.has(id)) {
      count += 1;
      id = `${base}-${count}`;
    }
    next.set(base, count + 1);
    taken.add(id);
    return id;
  });
}

/**
 * The notebook with an id on every cell, upgraded to nbformat 4.5 as
 * JupyterLab upgrades a notebook it opens (which is also what makes
 * `@jupyter/ydoc` keep the ids instead of dropping them). Content that needs
 * nothing is returned as it is; otherwise a copy, the input left untouched.
 * Only nbformat 4 is touched: the server converts older files before any
 * page sees them.
 */
export function withStableCellIds(
  content: nbformat.INotebookContent
): nbformat.INotebookContent {
  if (content.nbformat !== 4 || !Array.isArray(content.cells)) {
    return content;
  }
  const minor =
    typeof content.nbformat_minor === 'number' ? content.nbformat_minor : 0;
  if (minor >= CELL_ID_MINOR && content.cells.every(hasId)) {
    return content;
  }
  const ids = stableCellIds(content.cells);
  return {
    ...content,
    nbformat_minor: Math.max(minor, CELL_ID_MINOR),
    cells: content.cells.map((cell, index) =>
      hasId(cell) ? cell : { ...cell, id: ids[index] }
    )
  };
}
