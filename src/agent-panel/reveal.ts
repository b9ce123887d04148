/**
 * Bringing a cell up in its notebook: the Activity tab's cell links, the
 * Access tab's rows and the Comments tab's "Go to". The notebook is found
 * through the access service (the one rule for finding a notebook's panel),
 * opened with the document manager when it is not open yet.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { Notebook, NotebookPanel } from '@jupyterlab/notebook';

import { type ISourceRange } from '../review/anchors';
import { type IAgentAccess } from '../tokens';

/**
 * Makes cell `index` the notebook's only selected, active cell and scrolls
 * it into view. Focus stays where it is.
 */
export async function selectCellAt(
  notebook: Notebook,
  index: number
): Promise<void> {
  if (index < 0 || index >= notebook.widgets.length) {
    return;
  }
  notebook.deselectAll();
  notebook.activeCellIndex = index;
  try {
    await notebook.scrollToItem(index, 'smart');
  } catch {
    // scrolling is best effort: the cell is selected either way
  }
}

/**
 * Opens (or brings to the front) the notebook at `path` and selects the cell
 * with id `cellId`. Resolves with false when the notebook did not open in
 * this app (Notebook 7 opens it in another browser tab) or has no such cell.
 */
export async function revealCell(
  app: JupyterFrontEnd,
  access: IAgentAccess,
  path: string,
  cellId: string
): Promise<boolean> {
  let panel: NotebookPanel | null = access.findPanel(path);
  if (!panel) {
    await app.commands.execute('docmanager:open', { path });
    panel = access.findPanel(path);
  }
  if (!panel) {
    return false;
  }
  app.shell.activateById(panel.id);
  await panel.context.ready;
  const notebook = panel.content;
  const index = notebook.widgets.findIndex(cell => cell.model.id === cellId);
  if (index < 0) {
    return false;
  }
  await selectCellAt(notebook, index);
  return true;
}

/**
 * Brings what a review thread is about before the person's eyes: its cell
 * selected as `revealCell` does, then the keyboard focus in the notebook,
 * and for a source range that still resolves, that range selected in the
 * cell's editor with the focus there. Resolves with false when the cell
 * could not be shown.
 */
export async function revealAnchor(
  app: JupyterFrontEnd,
  access: IAgentAccess,
  path: string,
  cellId: string,
  options: { range: ISourceRange | null }
): Promise<boolean> {
  if (!(await revealCell(app, access, path, cellId))) {
    return false;
  }
  const notebook = access.findPanel(path)?.content;
  const cell = notebook?.activeCell;
  if (!notebook || !cell) {
    return false;
  }
  const { range } = options;
  if (range && cell.editor) {
    notebook.mode = 'edit';
    cell.editor.setSelection({
      start: { line: range.start.line, column: range.start.column },
      end: { line: range.end.line, column: range.end.column }
    });
    cell.editor.focus();
  } else {
    notebook.mode = 'command';
    notebook.node.focus();
  }
  return true;
}
