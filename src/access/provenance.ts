/**
 * Provenance: who last changed each cell, kept in the cell's own metadata as
 * a bounded, coalesced history.
 *
 * Agent actions are recorded by the tool paths (`recordAgentAction`). Human
 * edits are recorded by a debounced listener that skips the changes a tool
 * call made (`isAgentAttributed`), follows cells by id across moves, and,
 * under real-time collaboration, records only the edits made in this
 * browser: a remote collaborator's browser records its own. History writes
 * never enter the undo history.
 */
import { type ISharedCell, type ISharedNotebook } from '@jupyter/ydoc';
import { type IDisposable } from '@lumino/disposable';

import { isAgentAttributed } from './guard';
import {
  ACCESS_METADATA_KEY,
  appendHistory,
  readHistory,
  withHistory,
  type HistoryAction,
  type IHistoryEntry
} from './model';

/** Append an entry to a cell's history, outside the undo history. */
export function recordHistory(cell: ISharedCell, entry: IHistoryEntry): void {
  const current = cell.getMetadata(ACCESS_METADATA_KEY);
  const next = withHistory(current, appendHistory(readHistory(current), entry));
  if (next === current) {
    return;
  }
  // `undoable: false`: the change carries no origin the undo manager tracks.
  cell.transact(() => {
    if (next === undefined) {
      cell.deleteMetadata(ACCESS_METADATA_KEY);
    } else {
      cell.setMetadata(ACCESS_METADATA_KEY, next);
    }
  }, false);
}

/** Record what a tool call did to a cell. */
export function recordAgentAction(
  cell: ISharedCell,
  action: HistoryAction,
  tool: string
): void {
  recordHistory(cell, {
    at: new Date().toISOString(),
    actor: 'agent',
    action,
    tool
  });
}

/** The part of a Yjs document the recorder listens to. */
interface IYDocLike {
  on(event: 'beforeObserverCalls', f: (tr: { local: boolean }) => void): void;
  off(event: 'beforeObserverCalls', f: (tr: { local: boolean }) => void): void;
}

/**
 * Records human source edits of one notebook, debounced per burst of typing.
 */
export class ProvenanceRecorder implements IDisposable {
  constructor(options: ProvenanceRecorder.IOptions) {
    this._model = options.model;
    this._debounceMs = options.debounceMs ?? 1000;
    this._ydoc = (this._model as unknown as { ydoc?: IYDocLike }).ydoc ?? null;
    this._ydoc?.on('beforeObserverCalls', this._onTransaction);
    this._model.changed.connect(this._onNotebookChanged, this);
    this._model.cells.forEach(cell => this._watch(cell));
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  /** Write every pending edit now (also done on dispose). */
  flush(): void {
    if (this._timer !== null) {
      clearTimeout(this._timer);
      this._timer = null;
    }
    if (this._pending.size === 0) {
      return;
    }
    const pending = new Map(this._pending);
    this._pending.clear();
    // By id, so a cell moved meanwhile is still found; a deleted one is not.
    for (const cell of this._model.cells) {
      const at = pending.get(cell.id);
      if (at) {
        recordHistory(cell, { at, actor: 'human', action: 'edited' });
      }
    }
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    if (!(this._model as { isDisposed?: boolean }).isDisposed) {
      this.flush();
    }
    this._disposed = true;
    this._ydoc?.off('beforeObserverCalls', this._onTransaction);
    this._model.changed.disconnect(this._onNotebookChanged, this);
    for (const cell of this._watched) {
      cell.changed.disconnect(this._onCellChanged, this);
    }
    this._watched.clear();
  }

  private _onTransaction = (transaction: { local: boolean }): void => {
    this._local = transaction.local;
  };

  private _onNotebookChanged(
    _: ISharedNotebook,
    change: { cellsChange?: Array<{ insert?: unknown }> }
  ): void {
    if (!change.cellsChange) {
      return;
    }
    // Moved cells come back as new shared cells: watch whatever is there,
    // and let go of what is gone.
    const current = new Set(this._model.cells);
    for (const cell of this._watched) {
      if (!current.has(cell)) {
        cell.changed.disconnect(this._onCellChanged, this);
        this._watched.delete(cell);
      }
    }
    current.forEach(cell => this._watch(cell));
  }

  private _watch(cell: ISharedCell): void {
    if (!this._watched.has(cell)) {
      this._watched.add(cell);
      cell.changed.connect(this._onCellChanged, this);
    }
  }

  private _onCellChanged(
    cell: ISharedCell,
    change: { sourceChange?: unknown }
  ): void {
    if (!change.sourceChange || !this._local || isAgentAttributed()) {
      return;
    }
    this._pending.set(cell.id, new Date().toISOString());
    if (this._timer !== null) {
      clearTimeout(this._timer);
    }
    this._timer = setTimeout(() => this.flush(), this._debounceMs);
  }

  private readonly _model: ISharedNotebook;
  private readonly _debounceMs: number;
  private readonly _ydoc: IYDocLike | null;
  private readonly _watched = new Set<ISharedCell>();
  private readonly _pending = new Map<string, string>();
  private _timer: ReturnType<typeof setTimeout> | null = null;
  /** Whether the transaction being observed was made in this browser. */
  private _local = true;
  private _disposed = false;
}

/** The namespace of {@link ProvenanceRecorder}. */
export namespace ProvenanceRecorder {
  export interface IOptions {
    /** The notebook whose human edits are recorded. */
    model: ISharedNotebook;
    /** Quiet time after the last keystroke before an edit is written. */
    debounceMs?: number;
  }
}
