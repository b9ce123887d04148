/**
 * The Propose mode service: the human's Direct/Propose switch, and the
 * proposals waiting in open notebooks, each watched for what ends it
 * without the human: the call's abort signal (withdrawn), the cell deleted,
 * the notebook's last view closed, the notebook renamed or moved
 * (auto-denied, the reason saying which).
 */
import { PathExt } from '@jupyterlab/coreutils';
import type { DocumentRegistry } from '@jupyterlab/docregistry';
import type { INotebookModel } from '@jupyterlab/notebook';
import { type ISignal, Signal } from '@lumino/signaling';

import { ToolError } from '../common/errors';
import type { IProposals, ProposeMode } from '../tokens';
import {
  type AutoDenyCause,
  type IProposal,
  type ProposalOutcome,
  ProposalStore
} from './store';

type Context = DocumentRegistry.IContext<INotebookModel>;

export class ProposalService implements IProposals {
  constructor(options: ProposalService.IOptions = {}) {
    this._mode = options.mode ?? 'direct';
    this._persist = options.persist ?? null;
    this._store.changed.connect(
      (_, proposal) => this._changed.emit(proposal),
      this
    );
  }

  get mode(): ProposeMode {
    return this._mode;
  }

  get modeChanged(): ISignal<this, ProposeMode> {
    return this._modeChanged;
  }

  get changed(): ISignal<this, IProposal> {
    return this._changed;
  }

  /** The store (its settled history too). */
  get store(): ProposalStore {
    return this._store;
  }

  setMode(mode: ProposeMode): void {
    this.applyMode(mode);
    this._persist?.(mode);
  }

  /** Take a mode without saving it (a settings change read back). */
  applyMode(mode: ProposeMode): void {
    if (mode !== 'direct' && mode !== 'propose') {
      return;
    }
    if (mode !== this._mode) {
      this._mode = mode;
      this._modeChanged.emit(mode);
    }
  }

  pending(): readonly IProposal[] {
    return this._store.pending();
  }

  /** The key of a notebook: one per document context, for its life. */
  notebookKey(context: Context): string {
    let key = this._keys.get(context);
    if (!key) {
      key = `notebook-${++this._keyCount}`;
      this._keys.set(context, key);
    }
    return key;
  }

  async propose(request: IProposals.IRequest): Promise<ProposalOutcome> {
    const { panel, signal } = request;
    if (signal.aborted) {
      throw new ToolError(
        'ABORTED',
        'The call was aborted before the proposal was shown.'
      );
    }
    const context = panel.context;
    const { proposal, outcome } = this._store.create({
      notebookKey: this.notebookKey(context),
      notebookPath: context.path,
      cellId: request.cellId,
      original: request.original,
      proposed: request.proposed,
      apply: request.apply
    });
    const id = proposal.id;
    const autoDeny = (cause: AutoDenyCause, detail: string | null = null) =>
      this._store.autoDeny(id, cause, detail);
    const onAbort = () => this._store.withdraw(id);
    const model = context.model;
    const onCells = () => {
      const cells = model.sharedModel.cells;
      if (!cells.some(cell => cell.id === request.cellId)) {
        autoDeny('cell-deleted');
      }
    };
    const onClosed = () => autoDeny('notebook-closed');
    const onPath = (_: unknown, path: string) => {
      const moved =
        PathExt.dirname(path) !== PathExt.dirname(proposal.notebookPath);
      autoDeny(moved ? 'notebook-moved' : 'notebook-renamed', path);
    };
    signal.addEventListener('abort', onAbort);
    model.cells.changed.connect(onCells, this);
    context.disposed.connect(onClosed, this);
    context.pathChanged.connect(onPath, this);
    try {
      return await outcome;
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (!model.isDisposed) {
        model.cells.changed.disconnect(onCells, this);
      }
      context.disposed.disconnect(onClosed, this);
      context.pathChanged.disconnect(onPath, this);
    }
  }

  accept(id: string): ProposalOutcome | null {
    return this._store.accept(id);
  }

  deny(id: string, reason: string | null): ProposalOutcome | null {
    return this._store.deny(id, reason);
  }

  get isDisposed(): boolean {
    return this._store.isDisposed;
  }

  /** Withdraws what is pending, so no call waits on a disposed service. */
  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._store.dispose();
    Signal.clearData(this);
  }

  private _mode: ProposeMode;
  private _persist: ((mode: ProposeMode) => void) | null;
  private _store = new ProposalStore();
  private _keys = new WeakMap<Context, string>();
  private _keyCount = 0;
  private _modeChanged = new Signal<this, ProposeMode>(this);
  private _changed = new Signal<this, IProposal>(this);
}

export namespace ProposalService {
  export interface IOptions {
    /** The mode to start in (default Direct). */
    mode?: ProposeMode;
    /** Saves a mode the human chose (the settings), if any. */
    persist?: ((mode: ProposeMode) => void) | null;
  }
}
