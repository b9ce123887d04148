/**
 * Which recorded output selection the agent may see: the visibility filter of
 * `jupyter_get_output_selection`. Pure: no JupyterLab runtime import, so it is
 * tested with a real `YNotebook` and no widgets.
 *
 * A record is re-checked against the live notebook on every call, never
 * trusted from capture time: the notebook must still be open, neither it nor
 * the cell may be hidden from the agent (access `none`), and the output the
 * text was selected in must still be there with the same content. A hidden
 * cell or notebook reads exactly like no selection at all: null, never its
 * cell id, text or fingerprint.
 */
import type {
  ISharedCell,
  ISharedCodeCell,
  ISharedNotebook
} from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';

import { isHidden } from '../access/policy';
import { notebookAccess, storedCellAccess } from '../access/read';
import { outputFingerprint } from '../common/fingerprint';

/** Character offsets (JavaScript string indices) within an output's text. */
export interface ISelectionRange {
  start: number;
  end: number;
}

/** What `jupyter_get_output_selection` returns when a selection is visible. */
export interface IOutputSelection {
  cellId: string;
  /** The output's index among the cell's outputs. */
  outputIndex: number;
  /** The selected text, at most MAX_SELECTED_TEXT_BYTES of UTF-8. */
  text: string;
  /**
   * Where `text` lies in the output element's `textContent`:
   * `textContent.slice(start, end) === text`.
   */
  range?: ISelectionRange;
  /** `outputFingerprint` of the output at capture time. */
  outputFingerprint: string;
  /** When the selection was made, ISO 8601. */
  capturedAt: string;
}

/** The tracker's record: a selection and the notebook it was made in. */
export interface IOutputSelectionRecord extends IOutputSelection {
  /** The notebook's workspace path; internal, never returned to the agent. */
  notebookPath: string;
}

/**
 * The live shared model of the notebook open at a path, or null when no
 * notebook is open there. Reading a file is never a substitute: a selection
 * exists only in an open notebook.
 */
export type NotebookModelLookup = (path: string) => ISharedNotebook | null;

/**
 * The part of `record` the agent may see, or null: when there is no record,
 * the notebook is no longer open (or is hidden), the cell is gone (or is
 * hidden), or the output at `outputIndex` is gone or no longer has the
 * recorded fingerprint (a re-run that changed or cleared it). Read-only cells
 * and notebooks stay visible: reading is what they permit.
 */
export function visibleSelection(
  record: IOutputSelectionRecord | null,
  lookup: NotebookModelLookup
): IOutputSelection | null {
  if (!record) {
    return null;
  }
  const notebook = lookup(record.notebookPath);
  if (!notebook || isHidden(notebookAccess(notebook))) {
    return null;
  }
  const cell = findCell(notebook, record.cellId);
  if (!cell || isHidden(storedCellAccess(cell))) {
    return null;
  }
  const output = outputAt(cell, record.outputIndex);
  if (!output || outputFingerprint(output) !== record.outputFingerprint) {
    return null;
  }
  const { cellId, outputIndex, text, range, capturedAt } = record;
  return {
    cellId,
    outputIndex,
    text,
    ...(range ? { range: { start: range.start, end: range.end } } : {}),
    outputFingerprint: record.outputFingerprint,
    capturedAt
  };
}

function findCell(
  notebook: ISharedNotebook,
  cellId: string
): ISharedCell | null {
  for (const cell of notebook.cells) {
    if (cell.id === cellId) {
      return cell;
    }
  }
  return null;
}

/** The current output at `index` of a code cell, or null. */
function outputAt(cell: ISharedCell, index: number): nbformat.IOutput | null {
  if (cell.cell_type !== 'code' || !Number.isInteger(index) || index < 0) {
    return null;
  }
  const outputs = (cell as ISharedCodeCell).getOutputs();
  return index < outputs.length ? outputs[index] : null;
}
