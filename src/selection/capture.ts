/**
 * Output-selection capture: what text the human last selected inside one
 * rendered cell output, recorded from the document's `selectionchange`
 * events (no polling).
 *
 * A selection is recorded only when it is non-empty, is one range, lies
 * wholly inside ONE rendered output (`.jp-OutputArea-output`) of one code
 * cell's own output area in a notebook panel the tracker knows, is not in an
 * editable element, and its text is at most MAX_SELECTED_TEXT_BYTES of UTF-8.
 * Every other selection, a collapsed one (a click elsewhere) included, makes
 * the record null: the record always describes the selection the page shows
 * now, never an older one the human has since moved away from.
 *
 * Visibility to the agent (hidden cells, stale outputs) is decided at read
 * time by `./visible`, not here.
 */
import type { ICodeCellModel } from '@jupyterlab/cells';
import type * as nbformat from '@jupyterlab/nbformat';
import type { INotebookTracker } from '@jupyterlab/notebook';
import type { IDisposable } from '@lumino/disposable';
import { Signal, type ISignal } from '@lumino/signaling';

import { outputFingerprint } from '../common/fingerprint';
import { utf8Length } from '../common/text';
import { panelPath } from '../access/panels';
import { LIMITS } from '../limits';
import { type IOutputSelectionTracker } from '../tokens';
import { selectedOutput, textOffset } from './locate';
import type { IOutputSelectionRecord, ISelectionRange } from './visible';

/**
 * Records the human's selection inside one rendered output of an open
 * notebook. Construct one per app; dispose it with the app.
 */
export class OutputSelectionTracker
  implements IOutputSelectionTracker, IDisposable
{
  constructor(options: OutputSelectionTracker.IOptions) {
    this._tracker = options.tracker;
    document.addEventListener('selectionchange', this);
  }

  /**
   * The current selection record, or null. The output fingerprint is
   * computed from the output as it was at capture time, on first read, so
   * dragging a selection across a large output never hashes it per event.
   * Each read returns a fresh copy.
   */
  get current(): IOutputSelectionRecord | null {
    const capture = this._capture;
    if (!capture) {
      return null;
    }
    if (capture.fingerprint === null) {
      capture.fingerprint = outputFingerprint(capture.output);
    }
    return {
      cellId: capture.cellId,
      outputIndex: capture.outputIndex,
      text: capture.text,
      range: { ...capture.range },
      outputFingerprint: capture.fingerprint,
      capturedAt: capture.capturedAt,
      notebookPath: capture.notebookPath
    };
  }

  /** Emitted when the record changes (to another selection, or to null). */
  get changed(): ISignal<this, void> {
    return this._changed;
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /** Handles the document's `selectionchange`. */
  handleEvent(event: Event): void {
    if (event.type === 'selectionchange') {
      this._onSelectionChange();
    }
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    document.removeEventListener('selectionchange', this);
    this._capture = null;
    Signal.clearData(this);
  }

  private _onSelectionChange(): void {
    let next: Private.ICapture | null;
    try {
      next = Private.capture(document.getSelection(), this._tracker);
    } catch {
      // An event listener must not throw: an unreadable selection is none.
      next = null;
    }
    const previous = this._capture;
    if (next === null ? previous === null : Private.samePlace(previous, next)) {
      // The same selection again (selectionchange also fires on focus
      // changes): keep its first capture time, tell no one.
      return;
    }
    this._capture = next;
    this._changed.emit();
  }

  private _tracker: INotebookTracker;
  private _capture: Private.ICapture | null = null;
  private _isDisposed = false;
  private _changed = new Signal<this, void>(this);
}

/** The options of an OutputSelectionTracker. */
export namespace OutputSelectionTracker {
  export interface IOptions {
    /** The notebooks whose outputs a selection may be recorded in. */
    tracker: INotebookTracker;
  }
}

namespace Private {
  /** A recorded selection, its output kept to fingerprint on first read. */
  export interface ICapture {
    notebookPath: string;
    cellId: string;
    outputIndex: number;
    text: string;
    range: ISelectionRange;
    capturedAt: string;
    /** The output's nbformat JSON at capture time. */
    output: nbformat.IOutput;
    fingerprint: string | null;
  }

  /** Whether two captures are the same selection of the same output. */
  export function samePlace(a: ICapture | null, b: ICapture): boolean {
    return (
      !!a &&
      a.notebookPath === b.notebookPath &&
      a.cellId === b.cellId &&
      a.outputIndex === b.outputIndex &&
      a.text === b.text &&
      a.range.start === b.range.start &&
      a.range.end === b.range.end
    );
  }

  /**
   * The capture a selection gives, or null when it does not qualify. The
   * structural checks come first; the text is read only for a selection
   * already known to lie inside one output.
   */
  export function capture(
    selection: Selection | null,
    tracker: INotebookTracker
  ): ICapture | null {
    if (!selection || selection.rangeCount !== 1 || selection.isCollapsed) {
      return null;
    }
    const found = selectedOutput(selection.getRangeAt(0), tracker);
    if (!found) {
      return null;
    }
    const { location, range } = found;
    const text = range.toString();
    if (text.trim() === '') {
      return null;
    }
    // A UTF-16 code unit is at least one UTF-8 byte: no need to measure a
    // string that is already too long.
    const max = LIMITS.MAX_SELECTED_TEXT_BYTES;
    if (text.length > max || utf8Length(text) > max) {
      return null;
    }
    const model = location.cell.model as ICodeCellModel;
    if (location.outputIndex >= model.outputs.length) {
      return null;
    }
    const output = model.outputs.get(location.outputIndex).toJSON();
    const start = textOffset(location.node, range);
    return {
      notebookPath: panelPath(location.panel),
      cellId: model.id,
      outputIndex: location.outputIndex,
      text,
      range: { start, end: start + text.length },
      capturedAt: new Date().toISOString(),
      output,
      fingerprint: null
    };
  }
}
