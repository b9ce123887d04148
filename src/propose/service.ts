/**
 * The Propose mode service: each notebook's Direct/Propose mode (stored in
 * the notebook, see notebook-mode.ts; the setting's mode where it stores
 * none), the human's switch on the current notebook, and the proposals
 * waiting in open notebooks, each watched for what ends it without the
 * human: the call's abort signal (withdrawn), the cell deleted, hidden or
 * made read-only, the notebook's last view closed, the notebook made
 * read-only, renamed or moved (auto-denied, the reason saying which), the
 * notebook hidden from agents (ended as a hidden notebook would answer).
 */
import type { CellChange, ISharedCell, ISharedNotebook } from '@jupyter/ydoc';
import { PathExt } from '@jupyterlab/coreutils';
import type { DocumentRegistry } from '@jupyterlab/docregistry';
import type { INotebookModel } from '@jupyterlab/notebook';
import { type ISignal, Signal } from '@lumino/signaling';

import { ToolError } from '../common/errors';
import { ACCESS_METADATA_KEY } from '../access/model';
import { isHidden, mayWrite } from '../access/policy';
import { cellAccess, notebookAccess } from '../access/read';
import type { IProposals, ProposeMode } from '../tokens';
import { readNotebookMode, setNotebookMode } from './notebook-mode';
import {
  type AutoDenyCause,
  type IProposal,
  type ProposalOutcome,
  ProposalStore
} from './store';

type Context = DocumentRegistry.IContext<INotebookModel>;

export class ProposalService implements IProposals {
  constructor(options: ProposalService.IOptions = {}) {
    this._defaultMode = options.mode ?? 'direct';
    this._notebooks = options.notebooks ?? null;
    this._store.changed.connect(
      (_, proposal) => this._changed.emit(proposal),
      this
    );
    this._notebooks?.currentChanged.connect(this._follow, this);
    this._follow();
  }

  /** The current notebook's mode; the setting's mode with none open. */
  get mode(): ProposeMode {
    const current = this._notebooks?.current() ?? null;
    return current ? this.modeOf(current) : this._defaultMode;
  }

  /** Whether there is a current notebook for the switch to act on. */
  get hasNotebook(): boolean {
    return (this._notebooks?.current() ?? null) !== null;
  }

  /** A notebook's mode: its own, or the setting's when it stores none. */
  modeOf(notebook: ISharedNotebook): ProposeMode {
    return (
      readNotebookMode(notebook.getMetadata(ACCESS_METADATA_KEY)) ??
      this._defaultMode
    );
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

  setMode(mode: ProposeMode): boolean {
    const current = this._notebooks?.current() ?? null;
    if (!current || (mode !== 'direct' && mode !== 'propose')) {
      return false;
    }
    // stored even when it equals the setting's mode, so the notebook keeps
    // it when the setting (or another person's) says otherwise
    setNotebookMode(current, mode);
    this._emitIfChanged();
    return true;
  }

  /** The mode of notebooks that store none (the `mode` setting). */
  setDefaultMode(mode: ProposeMode): void {
    if (
      (mode === 'direct' || mode === 'propose') &&
      mode !== this._defaultMode
    ) {
      this._defaultMode = mode;
      this._emitIfChanged();
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
    const shared = model.sharedModel;
    // The owner's word holds while the proposal waits: hidden or made
    // read-only (the notebook or the cell), it ends at once, untouched.
    const onAccess = () => {
      const notebook = notebookAccess(shared);
      if (isHidden(notebook)) {
        this._store.hide(id);
        return;
      }
      if (!mayWrite(notebook)) {
        autoDeny('notebook-read-only');
        return;
      }
      const cell = shared.cells.find(item => item.id === request.cellId);
      const access = cell ? cellAccess(cell) : null;
      if (isHidden(access)) {
        // a hidden cell reads as one that was deleted
        autoDeny('cell-deleted');
      } else if (!mayWrite(access)) {
        autoDeny('cell-read-only');
      }
    };
    const watched: { cell: ISharedCell | null } = { cell: null };
    const watchCell = () => {
      const cell =
        shared.cells.find(item => item.id === request.cellId) ?? null;
      if (cell !== watched.cell) {
        watched.cell?.changed.disconnect(onCellChange, this);
        watched.cell = cell;
        cell?.changed.connect(onCellChange, this);
      }
    };
    const onCellChange = (_: ISharedCell, change: CellChange) => {
      if (change.metadataChange) {
        onAccess();
      }
    };
    const onCells = () => {
      watchCell();
      onAccess();
    };
    const onClosed = () => autoDeny('notebook-closed');
    const onPath = (_: unknown, path: string) => {
      const moved =
        PathExt.dirname(path) !== PathExt.dirname(proposal.notebookPath);
      autoDeny(moved ? 'notebook-moved' : 'notebook-renamed', path);
    };
    signal.addEventListener('abort', onAbort);
    model.cells.changed.connect(onCells, this);
    shared.metadataChanged.connect(onAccess, this);
    watchCell();
    context.disposed.connect(onClosed, this);
    context.pathChanged.connect(onPath, this);
    try {
      return await outcome;
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (!model.isDisposed) {
        model.cells.changed.disconnect(onCells, this);
      }
      shared.metadataChanged.disconnect(onAccess, this);
      watched.cell?.changed.disconnect(onCellChange, this);
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
    this._watched?.metadataChanged.disconnect(this._emitIfChanged, this);
    this._watched = null;
    Signal.clearData(this);
  }

  /** Watch the current notebook's metadata (another person's switch too). */
  private _follow(): void {
    const current = this._notebooks?.current() ?? null;
    if (current === this._watched) {
      this._emitIfChanged();
      return;
    }
    this._watched?.metadataChanged.disconnect(this._emitIfChanged, this);
    this._watched = current;
    current?.metadataChanged.connect(this._emitIfChanged, this);
    // another notebook (or none): announced even in the same mode, since
    // whether the switch has a notebook to act on may have changed
    this._shown = this.mode;
    this._modeChanged.emit(this._shown);
  }

  private _emitIfChanged(): void {
    const mode = this.mode;
    if (mode !== this._shown) {
      this._shown = mode;
      this._modeChanged.emit(mode);
    }
  }

  private _defaultMode: ProposeMode;
  private _notebooks: ProposalService.INotebooks | null;
  private _watched: ISharedNotebook | null = null;
  /** The mode last announced by `modeChanged`. */
  private _shown: ProposeMode | null = null;
  private _store = new ProposalStore();
  private _keys = new WeakMap<Context, string>();
  private _keyCount = 0;
  private _modeChanged = new Signal<this, ProposeMode>(this);
  private _changed = new Signal<this, IProposal>(this);
}

export namespace ProposalService {
  /** The notebooks the human's switch acts on: the current one. */
  export interface INotebooks {
    current(): ISharedNotebook | null;
    readonly currentChanged: ISignal<unknown, unknown>;
  }

  export interface IOptions {
    /** The mode of notebooks that store none (default Direct). */
    mode?: ProposeMode;
    /** The current notebook; without it, the switch has nothing to act on. */
    notebooks?: INotebooks | null;
  }
}
