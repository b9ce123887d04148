/**
 * Changing only what is on screen: `jupyter_focus_cell`, and revealing a cell
 * for `jupyter_open_notebook`.
 *
 * Notebooks are windowed: a cell far off screen has no editor until it is
 * scrolled to, so a cell is scrolled into view and rendered before its
 * editor gets the selection or cursor.
 */
import { type MarkdownCell } from '@jupyterlab/cells';
import { type NotebookPanel } from '@jupyterlab/notebook';

import { findCell } from './cells';
import { type IJupyterEnvironment } from './environment';
import { ToolError } from './errors';
import { focusContext, type IFocusContext, type IPosition } from './focus';
import {
  notebookInfo,
  otherTabError,
  type INotebookInfo,
  type NotebookResolver
} from './notebook';

/** Arguments of `jupyter_focus_cell`. */
export interface IFocusCellArgs {
  notebookPath?: string | null;
  cellId: string;
  cursor?: IPosition;
  selection?: { start: IPosition; end: IPosition };
}

/** What `jupyter_focus_cell` returns. */
export interface IFocusCellResult {
  notebook: INotebookInfo;
  focus: IFocusContext;
}

/** Scroll a cell into view and make it the only selected, active cell. */
export async function revealCell(
  panel: NotebookPanel,
  index: number
): Promise<void> {
  const notebook = panel.content;
  notebook.activeCellIndex = index;
  notebook.deselectAll();
  await notebook.scrollToItem(index, 'smart');
}

/**
 * Check a position against a cell's source: the line must exist and the
 * column must lie within it (its end included).
 */
function checkPosition(
  lines: string[],
  position: IPosition,
  key: string
): void {
  const line = lines[position.line];
  if (line === undefined) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `Invalid argument "${key}.line": the cell has ${lines.length} line(s), numbered from 0.`,
      { field: `${key}.line`, rule: 'range' }
    );
  }
  if (position.column > line.length) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `Invalid argument "${key}.column": line ${position.line} has ${line.length} character(s).`,
      { field: `${key}.column`, rule: 'range' }
    );
  }
}

/** The editor range a call asks for (selection wins over cursor), checked. */
function requestedRange(
  source: string,
  args: IFocusCellArgs
): { start: IPosition; end: IPosition } | null {
  const lines = source.split('\n');
  if (args.selection) {
    checkPosition(lines, args.selection.start, 'selection.start');
    checkPosition(lines, args.selection.end, 'selection.end');
    return args.selection;
  }
  if (args.cursor) {
    checkPosition(lines, args.cursor, 'cursor');
    return { start: args.cursor, end: args.cursor };
  }
  return null;
}

/**
 * Bring a cell to the user's eyes, optionally with a cursor or a selection in
 * its editor. Everything is checked before anything on screen changes.
 */
export async function focusCell(
  env: IJupyterEnvironment,
  resolver: NotebookResolver,
  args: IFocusCellArgs
): Promise<IFocusCellResult> {
  const resolved = await resolver.resolveNotebook(args.notebookPath);
  let range: { start: IPosition; end: IPosition } | null;
  try {
    const { cell } = findCell(resolved.model, args.cellId, 'read');
    range = requestedRange(cell.getSource(), args);
  } finally {
    if (!resolved.panel) {
      resolved.release();
    }
  }
  let panel = resolved.panel;
  if (!panel) {
    if (!env.multiDocument) {
      throw otherTabError(resolved.path);
    }
    panel = await resolver.openPanel(resolved.path, { activate: true });
  }
  env.app.shell.activateById(panel.id);
  // Re-found in the live model: the index may have moved meanwhile.
  const live = resolver.fromPanel(panel);
  const { index } = findCell(live.model, args.cellId, 'read');
  await revealCell(panel, index);
  const widget = panel.content.widgets[index];
  await widget.ready;
  if (range) {
    if (widget.model.type === 'markdown') {
      (widget as MarkdownCell).rendered = false;
    }
    panel.content.mode = 'edit';
    const editor = widget.editor;
    if (editor) {
      editor.focus();
      const start = { line: range.start.line, column: range.start.column };
      const end = { line: range.end.line, column: range.end.column };
      if (args.selection) {
        editor.setSelection({ start, end });
      } else {
        editor.setCursorPosition(start);
      }
    }
  }
  return { notebook: notebookInfo(live), focus: focusContext(panel) };
}
