/**
 * Changing only what is on screen: `jupyter_focus_cell`, and revealing a cell
 * for `jupyter_open_notebook`.
 *
 * Notebooks are windowed: a cell far off screen has no editor until it is
 * scrolled to, so a cell is scrolled into view and rendered before its
 * editor gets the selection or cursor.
 */
import { type Cell, type MarkdownCell } from '@jupyterlab/cells';
import { type Notebook, type NotebookPanel } from '@jupyterlab/notebook';

import { findCell } from './cells';
import { type IJupyterEnvironment } from './environment';
import { ToolError } from '../common/errors';
import { type ICallTrace, NO_CALL } from './call';
import { focusContext, type IFocusContext, type IPosition } from './focus';
import { secretPartsFilter } from './secrets';
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

/**
 * Render a cell the notebook has not rendered yet, ahead of its turn.
 *
 * Under the default windowing ('contentVisibility', and 'defer') the notebook
 * renders its cells in order whenever the browser is idle, so in a large
 * notebook a far cell stays an unattached placeholder for many seconds, and
 * scrolling to it has nothing to scroll to. It is attached now at its place,
 * as the notebook itself does for search (`Notebook.renderCellOutputs`); the
 * cells before it follow in their turn (see `holdInView`). Under full
 * windowing the windowed list renders whatever it scrolls to.
 */
function renderNow(notebook: Notebook, index: number): boolean {
  const cell = notebook.widgets[index];
  if (
    !cell ||
    !cell.isPlaceholder() ||
    notebook.notebookConfig.windowingMode === 'full'
  ) {
    return false;
  }
  cell.dataset.windowedListIndex = `${index}`;
  notebook.layout.insertWidget(index, cell);
  return true;
}

/** Gestures by which the human scrolls the notebook themselves. */
const SCROLL_GESTURES = ['wheel', 'touchmove', 'keydown', 'pointerdown'];
const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'Home', 'End']);

/** The hold each notebook has on a cell, released by calling it. */
const holds = new WeakMap<Notebook, () => void>();

/**
 * Keep a cell that was rendered ahead of its turn where it is on screen while
 * the notebook renders the cells before it, each of which pushes it down.
 * (The browser's scroll anchoring does this only once the notebook is
 * scrolled away from its top.) The hold ends when those cells are rendered,
 * another cell becomes active, the human scrolls, the notebook is hidden, or
 * another cell is revealed in it.
 */
function holdInView(notebook: Notebook, cell: Cell): void {
  holds.get(notebook)?.();
  const outer = notebook.outerNode;
  const offset = () =>
    cell.node.getBoundingClientRect().top - outer.getBoundingClientRect().top;
  const pinned = offset();
  // cells render in order: every cell before `next` is rendered
  let next = 0;
  const caughtUp = () => {
    const index = notebook.widgets.indexOf(cell);
    while (next < index && !notebook.widgets[next].isPlaceholder()) {
      next++;
    }
    return next >= index;
  };
  let frame = 0;
  const adjust = () => {
    frame = 0;
    if (
      cell.isDisposed ||
      notebook.activeCell !== cell ||
      !notebook.isVisible
    ) {
      release();
      return;
    }
    const shift = offset() - pinned;
    if (shift) {
      outer.scrollTop += shift;
    }
    if (caughtUp()) {
      release();
    }
  };
  const observer = new MutationObserver(() => {
    if (!frame) {
      frame = requestAnimationFrame(adjust);
    }
  });
  const onGesture = (event: Event) => {
    if (
      event.type === 'keydown' &&
      !SCROLL_KEYS.has((event as KeyboardEvent).key)
    ) {
      return;
    }
    if (event.type === 'pointerdown' && event.target !== outer) {
      return; // a click in the notebook, not on its scrollbar
    }
    release();
  };
  const release = () => {
    observer.disconnect();
    if (frame) {
      cancelAnimationFrame(frame);
      frame = 0;
    }
    for (const type of SCROLL_GESTURES) {
      outer.removeEventListener(type, onGesture);
    }
    notebook.activeCellChanged.disconnect(release);
    notebook.disposed.disconnect(release);
    if (holds.get(notebook) === release) {
      holds.delete(notebook);
    }
  };
  if (caughtUp()) {
    return;
  }
  observer.observe(notebook.viewportNode, { childList: true });
  for (const type of SCROLL_GESTURES) {
    outer.addEventListener(type, onGesture, { passive: true });
  }
  notebook.activeCellChanged.connect(release);
  notebook.disposed.connect(release);
  holds.set(notebook, release);
}

/**
 * Scroll a cell into view and make it the only selected, active cell; it is
 * rendered (its editor exists) when this resolves, and stays on screen while
 * the notebook renders the cells before it. The scroll is best-effort: one
 * overtaken by another reveal never fails the call.
 */
export async function revealCell(
  panel: NotebookPanel,
  index: number
): Promise<void> {
  const notebook = panel.content;
  const ahead = renderNow(notebook, index);
  notebook.activeCellIndex = index;
  notebook.deselectAll();
  // The windowed list rejects a scroll that a newer one overtakes ("Scrolling
  // to a new item is requested."), as when calls reveal cells at the same
  // time: the newer scroll owns the screen, and this cell is still active.
  await notebook.scrollToItem(index, 'smart').catch(() => undefined);
  const cell = notebook.widgets[index];
  if (cell) {
    await cell.ready;
    if (notebook.activeCell === cell) {
      bringOnScreen(notebook, cell);
      if (ahead) {
        holdInView(notebook, cell);
      }
    }
  }
}

/**
 * Scroll a rendered cell onto the screen if it is not there. The windowed
 * list scrolls by estimated heights; once the cells around the target are
 * rendered at their real heights it may have landed beside it.
 */
function bringOnScreen(notebook: Notebook, cell: Cell): void {
  const outer = notebook.outerNode;
  if (!cell.node.isConnected || !notebook.isVisible) {
    return;
  }
  const view = outer.getBoundingClientRect();
  const box = cell.node.getBoundingClientRect();
  if (box.top < view.bottom && box.bottom > view.top) {
    return;
  }
  // its top a quarter of the way down, as the notebook's 'smart' scroll does
  outer.scrollTop += box.top - view.top - view.height / 4;
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
  args: IFocusCellArgs,
  call: ICallTrace = NO_CALL
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
  return {
    notebook: notebookInfo(live),
    focus: focusContext(panel, secretPartsFilter(resolver, live.model, call))
  };
}
