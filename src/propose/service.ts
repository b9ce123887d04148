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
import { sourceHash } from '../common/hash';
import { ACCESS_METADATA_KEY } from '../access/model';
import { isHidden, mayWrite } from '../access/policy';
import { cellAccess, notebookAccess } from '../access/read';
import type { IProposals, ProposeMode } from '../tokens';
import { readNotebookMode, setNotebookMode } from './notebook-mode';
import {
  type AutoDenyCause,
  type IProposal,
  PROPOSAL_KINDS,
  type ProposalKind,
  type ProposalOutcome,
  ProposalStore
} from './store';

type Context = DocumentRegistry.IContext<INotebookModel>;

export class ProposalService implements IProposals {
  constructor(options: ProposalService.IOptions = {}) {
    this._defaultMode = options.mode ?? 'direct';
    this._reviewed = new Set(options.reviewed ?? PROPOSAL_KINDS);
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

  /**
   * Whether a kind of agent action waits for the human in a notebook: the
   * notebook is in Propose mode and the deployment reviews that kind.
   */
  reviews(notebook: ISharedNotebook, kind: ProposalKind): boolean {
    return this._reviewed.has(kind) && this.modeOf(notebook) === 'propose';
  }

  /** The kinds reviewed in Propose mode (the `reviewed` setting). */
  get reviewed(): readonly ProposalKind[] {
    return PROPOSAL_KINDS.filter(kind => this._reviewed.has(kind));
  }

  /** Set the kinds reviewed in Propose mode (the `reviewed` setting). */
  setReviewed(kinds: readonly ProposalKind[]): void {
    const next = new Set(kinds.filter(kind => PROPOSAL_KINDS.includes(kind)));
    if (
      next.size !== this._reviewed.size ||
      [...next].some(kind => !this._reviewed.has(kind))
    ) {
      this._reviewed = next;
      // what a notebook's switch means changed: announced like a mode change
      this._modeChanged.emit(this.mode);
    }
  }

  /**
   * The cells the human allowed to run again without review while their
   * code is unchanged, in a notebook (kept in this page only). An entry whose
   * cell changed, went or became hidden is dropped here.
   */
  allowances(context: Context): IProposals.IAllowance[] {
    const key = this.notebookKey(context);
    const allowed = this._allowed.get(key);
    if (!allowed || context.model.isDisposed) {
      return [];
    }
    const shared = context.model.sharedModel;
    const kept: IProposals.IAllowance[] = [];
    let dropped = false;
    for (const [cellId, hash] of allowed) {
      const cell = shared.cells.find(item => item.id === cellId);
      if (cell && this._hashOf(cell) === hash) {
        kept.push({ cellId, sourceHash: hash });
      } else {
        allowed.delete(cellId);
        dropped = true;
      }
    }
    if (dropped) {
      this._allowancesChanged.emit(key);
    }
    return kept;
  }

  /** Whether every cell given may run without review (its hash allowed). */
  isAllowed(
    context: Context,
    cells: readonly { cellId: string; sourceHash: string }[]
  ): boolean {
    const allowed = this._allowed.get(this.notebookKey(context));
    return (
      cells.length > 0 &&
      allowed !== undefined &&
      cells.every(cell => allowed.get(cell.cellId) === cell.sourceHash)
    );
  }

  /** The human takes back a cell's allowance (true when there was one). */
  revokeAllowance(context: Context, cellId: string): boolean {
    const key = this.notebookKey(context);
    const removed = this._allowed.get(key)?.delete(cellId) ?? false;
    if (removed) {
      this._allowancesChanged.emit(key);
    }
    return removed;
  }

  /** Emitted with a notebook's key when its allowances change. */
  get allowancesChanged(): ISignal<this, string> {
    return this._allowancesChanged;
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
    const kind = request.kind ?? 'update';
    const { proposal, outcome } = this._store.create({
      kind,
      notebookKey: this.notebookKey(context),
      notebookPath: context.path,
      cellId: request.cellId,
      cellIds: request.cellIds,
      original: request.original,
      proposed: request.proposed,
      cellType: request.cellType,
      position: request.position,
      cells: request.cells,
      kernelName: request.kernelName,
      action: request.action,
      // Accept's own change (a delete removes the cell it holds) cannot end
      // it another way: the store ignores the watchers below while it applies
      apply: request.apply
    });
    // the cells it acts on, and the cell its block sits at (an insert's)
    const held = proposal.cellIds;
    const anchor = proposal.cellId;
    const watchedIds = new Set(held);
    if (anchor !== null) {
      watchedIds.add(anchor);
    }
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
      for (const cellId of watchedIds) {
        const cell = shared.cells.find(item => item.id === cellId);
        const access = cell ? cellAccess(cell) : null;
        if (isHidden(access)) {
          // a hidden cell reads as one that was deleted
          autoDeny('cell-deleted');
          return;
        }
        if (held.includes(cellId) && !mayWrite(access)) {
          autoDeny('cell-read-only');
          return;
        }
      }
    };
    const watched = new Set<ISharedCell>();
    const watchCell = () => {
      const cells = new Set(
        shared.cells.filter(item => watchedIds.has(item.id))
      );
      for (const cell of watched) {
        if (!cells.has(cell)) {
          cell.changed.disconnect(onCellChange, this);
          watched.delete(cell);
        }
      }
      for (const cell of cells) {
        if (!watched.has(cell)) {
          cell.changed.connect(onCellChange, this);
          watched.add(cell);
        }
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
      for (const cell of watched) {
        cell.changed.disconnect(onCellChange, this);
      }
      context.disposed.disconnect(onClosed, this);
      context.pathChanged.disconnect(onPath, this);
    }
  }

  accept(
    id: string,
    options: IProposals.IAcceptOptions = {}
  ): ProposalOutcome | null {
    const outcome = this._store.accept(id);
    if (
      outcome?.kind === 'accepted' &&
      outcome.proposal.kind === 'run' &&
      options.allowAgain
    ) {
      const key = outcome.proposal.notebookKey;
      const allowed = this._allowed.get(key) ?? new Map<string, string>();
      this._allowed.set(key, allowed);
      for (const cell of outcome.proposal.cells) {
        allowed.set(cell.cellId, cell.sourceHash);
      }
      this._allowancesChanged.emit(key);
    }
    return outcome;
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

  private _hashOf(cell: ISharedCell): string {
    return sourceHash(cell.cell_type, cell.getSource());
  }

  private _defaultMode: ProposeMode;
  private _reviewed: Set<ProposalKind>;
  /** Per notebook key: the allowed cells and the hash each may run with. */
  private _allowed = new Map<string, Map<string, string>>();
  private _allowancesChanged = new Signal<this, string>(this);
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
    /** The kinds reviewed in Propose mode (default all five). */
    reviewed?: readonly ProposalKind[];
    /** The current notebook; without it, the switch has nothing to act on. */
    notebooks?: INotebooks | null;
  }
}
