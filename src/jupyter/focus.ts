/**
 * Where the user is in a notebook: active and selected cells, the cursor and
 * the exact text selected (IFocusContext).
 */
import { type ICellModel } from '@jupyterlab/cells';
import { type CodeEditor } from '@jupyterlab/codeeditor';
import { type NotebookPanel } from '@jupyterlab/notebook';

import { storedCellAccess } from '../access/read';
import { partitionVisible } from '../access/policy';
import { LIMITS } from '../limits';
import { boundUtf8 } from '../common/text';
import { type PartsFilter, SHOW_PARTS } from './secrets';

/** A position in a cell's source, zero-based. */
export interface IPosition {
  line: number;
  column: number;
}

/** The text the user has selected in the active cell's editor. */
export interface ITextSelection {
  start: IPosition;
  end: IPosition;
  text: string;
  truncated?: boolean;
}

/** The focus state a tool reports. */
export interface IFocusContext {
  activeCellId: string | null;
  activeCellIndex: number | null;
  activeCellType: string | null;
  selectedCellIds: string[];
  hiddenSelectedCellCount: number;
  hiddenActiveCell: boolean;
  cursor: IPosition | null;
  textSelection: ITextSelection | null;
}

/**
 * The focus state of an open notebook, as the agent may see it: cells the
 * owner hid never appear by id. A hidden active cell reads as no active cell
 * with `hiddenActiveCell: true`; hidden selected cells are only counted.
 */
export function focusContext(
  panel: NotebookPanel,
  parts: PartsFilter = SHOW_PARTS
): IFocusContext {
  const notebook = panel.content;
  const selected = notebook.widgets
    .filter(cell => notebook.isSelectedOrActive(cell))
    .map(cell => cell.model);
  const { visible, hiddenCount } = partitionVisible(selected, accessOf);
  const candidate = notebook.activeCell;
  const hiddenActiveCell =
    candidate !== null && !visible.includes(candidate.model);
  const active = hiddenActiveCell ? null : candidate;
  const editor = active?.editor ?? null;
  return {
    activeCellId: active ? active.model.id : null,
    activeCellIndex: active ? notebook.activeCellIndex : null,
    activeCellType: active ? active.model.type : null,
    selectedCellIds: visible.map(model => model.id),
    hiddenSelectedCellCount: hiddenCount,
    hiddenActiveCell,
    cursor: editor ? toPosition(editor.getCursorPosition()) : null,
    textSelection: editor ? textSelection(editor, parts) : null
  };
}

function accessOf(model: ICellModel) {
  return storedCellAccess(model);
}

function toPosition(position: CodeEditor.IPosition): IPosition {
  return { line: position.line, column: position.column };
}

/** The editor's selection, or null when it is empty. */
function textSelection(
  editor: CodeEditor.IEditor,
  parts: PartsFilter
): ITextSelection | null {
  const range = editor.getSelection();
  let startOffset = editor.getOffsetAt(range.start);
  let endOffset = editor.getOffsetAt(range.end);
  if (startOffset === endOffset) {
    return null;
  }
  let start = range.start;
  let end = range.end;
  if (startOffset > endOffset) {
    [startOffset, endOffset] = [endOffset, startOffset];
    [start, end] = [end, start];
  }
  const source = editor.model.sharedModel.getSource();
  // secrets withheld in the whole source, so a selection cutting one
  // shows none of it
  const [, selected] =
    parts === SHOW_PARTS
      ? ['', source.slice(startOffset, endOffset)]
      : parts(
          [
            source.slice(0, startOffset),
            source.slice(startOffset, endOffset),
            source.slice(endOffset)
          ],
          [1]
        );
  const bounded = boundUtf8(selected, LIMITS.MAX_SELECTED_TEXT_BYTES);
  const selection: ITextSelection = {
    start: toPosition(start),
    end: toPosition(end),
    text: bounded.text
  };
  if (bounded.truncated) {
    selection.truncated = true;
  }
  return selection;
}
