/**
 * The proposal store: the proposals Propose mode stages, and their
 * lifecycle. Pure (no widgets, no app), so every outcome is unit-tested.
 *
 * A proposal is of one kind: `update` (a new source for a cell), `insert`
 * (a cell that exists only once accepted), `delete` (a cell marked for
 * deletion), `run` (the code cells one call would run, each bound to the
 * hash of the source shown) or `kernel` (a restart or an interrupt). It
 * holds the cells it acts on (`cellIds`) and sits at one cell (`cellId`,
 * where its block is shown; null in an empty notebook).
 *
 *   pending ─┬─ accept, hash still matches ─→ accepted (the edit is applied)
 *            ├─ accept, the cell changed ───→ stale    (not applied)
 *            ├─ deny ───────────────────────→ denied   (reason, or null)
 *            ├─ cell deleted (or hidden), made
 *            │  read-only, notebook closed,
 *            │  made read-only, renamed, moved → auto-denied (reason says which)
 *            ├─ notebook hidden from agents ─→ hidden (the call answers as
 *            │                                 for a hidden notebook)
 *            └─ the call's signal fires ────→ withdrawn
 *
 * One pending proposal per cell of a notebook (a run holds every cell it
 * lists), and one kernel action per notebook: a second is refused with
 * PROPOSAL_ALREADY_PENDING, carrying the id of the one that waits. An
 * insert holds no cell: the cell it proposes does not exist yet.
 */
import { UUID } from '@lumino/coreutils';
import { type ISignal, Signal } from '@lumino/signaling';

import { ToolError } from '../common/errors';
import { boundUtf8 } from '../common/text';

/** The bound of a deny reason, in UTF-8 bytes (the spec's name). */
export const MAX_DENY_REASON_BYTES = 2048;

/** How many settled proposals the store remembers. */
export const MAX_SETTLED_PROPOSALS = 50;

/** What a proposal would do. */
export type ProposalKind = 'update' | 'insert' | 'delete' | 'run' | 'kernel';

/** Every kind, in the order the settings and the docs list them. */
export const PROPOSAL_KINDS: readonly ProposalKind[] = [
  'update',
  'insert',
  'delete',
  'run',
  'kernel'
];

/** Whether a value names a kind. */
export function isProposalKind(value: unknown): value is ProposalKind {
  return (PROPOSAL_KINDS as readonly unknown[]).includes(value);
}

/** A code cell a run proposal would run, with the source shown for it. */
export interface IRunTarget {
  readonly cellId: string;
  readonly source: string;
  /** The hash of `source`: the approval runs the cell only while it matches. */
  readonly sourceHash: string;
}

/** Where a proposal is in its life. */
export type ProposalState =
  | 'pending'
  | 'accepted'
  | 'denied'
  | 'stale'
  | 'withdrawn'
  | 'auto-denied'
  | 'hidden';

/** Why a proposal was denied without the human deciding. */
export type AutoDenyCause =
  | 'cell-deleted'
  | 'cell-read-only'
  | 'notebook-closed'
  | 'notebook-read-only'
  | 'notebook-renamed'
  | 'notebook-moved';

/** One proposal, as the store keeps it. */
export interface IProposal {
  readonly id: string;
  readonly kind: ProposalKind;
  /** Which notebook it belongs to (stable for the notebook's life). */
  readonly notebookKey: string;
  /** The notebook's path when the proposal was made. */
  readonly notebookPath: string;
  /**
   * The cell the block sits at: the edited, deleted or first run cell, the
   * cell an insert goes next to; null for a kernel action, and for an
   * insert into a notebook with no cell (shown at the top of the notebook).
   */
  readonly cellId: string | null;
  /** The cells the proposal acts on, which no other proposal may hold. */
  readonly cellIds: readonly string[];
  /** The cell's source when the proposal was made ('' for run, kernel, insert). */
  readonly original: string;
  /** The source the agent proposes ('' for a delete, a run, a kernel action). */
  readonly proposed: string;
  /** `insert`: the new cell's type; null otherwise. */
  readonly cellType: string | null;
  /** `insert`: above or below `cellId`; null otherwise. */
  readonly position: 'above' | 'below' | null;
  /** `run`: the code cells it would run, in order; empty otherwise. */
  readonly cells: readonly IRunTarget[];
  /** `run`, `kernel`: the kernel's name as the notebook shows it. */
  readonly kernelName: string | null;
  /** `kernel`: the action; null otherwise. */
  readonly action: 'restart' | 'interrupt' | null;
  /** ISO time of creation. */
  readonly createdAt: string;
  readonly state: ProposalState;
  /** The deny reason (human's, or the auto-deny's), null otherwise. */
  readonly reason: string | null;
  /** For `auto-denied`: the cause. */
  readonly cause: AutoDenyCause | null;
}

/** How a proposal ended, as the waiting call learns it. */
export type ProposalOutcome =
  | { kind: 'accepted'; proposal: IProposal }
  | { kind: 'denied'; proposal: IProposal; reason: string | null }
  | { kind: 'stale'; proposal: IProposal; error: unknown }
  | { kind: 'withdrawn'; proposal: IProposal }
  | { kind: 'hidden'; proposal: IProposal };

/** What creating a proposal needs. */
export interface ICreateProposal {
  /** Default `update`. */
  kind?: ProposalKind;
  notebookKey: string;
  notebookPath: string;
  cellId: string | null;
  /** The cells it holds; default `[cellId]` (none for an insert). */
  cellIds?: readonly string[];
  original?: string;
  proposed?: string;
  cellType?: string | null;
  position?: 'above' | 'below' | null;
  cells?: readonly IRunTarget[];
  kernelName?: string | null;
  action?: 'restart' | 'interrupt' | null;
  /**
   * Applies the proposed edit on Accept. It re-checks the cell (its access
   * and hash) and throws, writing nothing, when the edit must not land.
   */
  apply: () => void;
}

/**
 * A deny reason as the agent gets it: cut to MAX_DENY_REASON_BYTES of UTF-8
 * on a character boundary, null when blank.
 */
export function boundReason(reason: string | null | undefined): string | null {
  if (reason === null || reason === undefined || reason.trim() === '') {
    return null;
  }
  return boundUtf8(reason, MAX_DENY_REASON_BYTES).text;
}

/** The words an auto-denied proposal carries, for the agent. */
export function autoDenyReason(
  cause: AutoDenyCause,
  detail: string | null = null
): string {
  switch (cause) {
    case 'cell-deleted':
      return 'Auto-denied: the cell was deleted before the human decided.';
    case 'cell-read-only':
      return 'Auto-denied: the notebook owner made the cell read-only for agents before deciding.';
    case 'notebook-read-only':
      return 'Auto-denied: the notebook owner made the notebook read-only for agents before deciding.';
    case 'notebook-closed':
      return 'Auto-denied: the notebook was closed before the human decided.';
    case 'notebook-renamed':
      return detail
        ? `Auto-denied: the notebook was renamed to "${detail}" before the human decided.`
        : 'Auto-denied: the notebook was renamed before the human decided.';
    case 'notebook-moved':
      return detail
        ? `Auto-denied: the notebook was moved to "${detail}" before the human decided.`
        : 'Auto-denied: the notebook was moved before the human decided.';
  }
}

interface IEntry {
  proposal: IProposal;
  apply: () => void;
  resolve: (outcome: ProposalOutcome) => void;
  /**
   * Whether its Accept is being applied: what the apply sets off (a delete
   * removes the cell, an edit writes provenance) reaches the watchers that
   * would otherwise end it, and must not turn the Accept into an auto-deny.
   */
  accepting?: boolean;
}

export class ProposalStore {
  /** Emitted when a proposal is created or settles (with its new state). */
  get changed(): ISignal<this, IProposal> {
    return this._changed;
  }

  /** The pending proposals, oldest first. */
  pending(): IProposal[] {
    return Array.from(this._pending.values(), entry => entry.proposal);
  }

  /** The settled proposals, newest last (at most MAX_SETTLED_PROPOSALS). */
  settled(): readonly IProposal[] {
    return this._settled;
  }

  /** A proposal by id, pending or remembered. */
  get(id: string): IProposal | null {
    return (
      this._pending.get(id)?.proposal ??
      this._settled.find(proposal => proposal.id === id) ??
      null
    );
  }

  /** The pending proposal holding a cell of a notebook, if any. */
  pendingFor(notebookKey: string, cellId: string): IProposal | null {
    for (const { proposal } of this._pending.values()) {
      if (
        proposal.notebookKey === notebookKey &&
        proposal.cellIds.includes(cellId)
      ) {
        return proposal;
      }
    }
    return null;
  }

  /** The pending kernel action of a notebook, if any. */
  pendingKernelAction(notebookKey: string): IProposal | null {
    for (const { proposal } of this._pending.values()) {
      if (proposal.notebookKey === notebookKey && proposal.kind === 'kernel') {
        return proposal;
      }
    }
    return null;
  }

  /**
   * Stage a proposal. Throws PROPOSAL_ALREADY_PENDING when the cell already
   * has one. `outcome` settles once, whatever ends it.
   */
  create(options: ICreateProposal): {
    proposal: IProposal;
    outcome: Promise<ProposalOutcome>;
  } {
    if (this._isDisposed) {
      throw new Error('The proposal store is disposed.');
    }
    const kind = options.kind ?? 'update';
    const cellIds =
      options.cellIds ??
      (kind === 'insert' || options.cellId === null ? [] : [options.cellId]);
    for (const cellId of cellIds) {
      const existing = this.pendingFor(options.notebookKey, cellId);
      if (existing) {
        throw new ToolError(
          'PROPOSAL_ALREADY_PENDING',
          `Cell "${cellId}" already has a proposal waiting for the human; wait for it to be decided.`,
          { cellId, existingProposalId: existing.id }
        );
      }
    }
    if (kind === 'kernel') {
      const existing = this.pendingKernelAction(options.notebookKey);
      if (existing) {
        throw new ToolError(
          'PROPOSAL_ALREADY_PENDING',
          "A kernel action on this notebook is already waiting for the human's decision; wait for it to be decided.",
          { cellId: null, existingProposalId: existing.id }
        );
      }
    }
    const proposal: IProposal = {
      id: UUID.uuid4(),
      kind,
      notebookKey: options.notebookKey,
      notebookPath: options.notebookPath,
      cellId: options.cellId,
      cellIds: [...cellIds],
      original: options.original ?? '',
      proposed: options.proposed ?? '',
      cellType: options.cellType ?? null,
      position: options.position ?? null,
      cells: options.cells ? [...options.cells] : [],
      kernelName: options.kernelName ?? null,
      action: options.action ?? null,
      createdAt: new Date().toISOString(),
      state: 'pending',
      reason: null,
      cause: null
    };
    let resolve!: (outcome: ProposalOutcome) => void;
    const outcome = new Promise<ProposalOutcome>(r => (resolve = r));
    this._pending.set(proposal.id, { proposal, apply: options.apply, resolve });
    this._changed.emit(proposal);
    return { proposal, outcome };
  }

  /**
   * The human accepts: the edit is applied if the cell still is what the
   * agent read; otherwise the proposal is recorded as stale, not applied.
   * Returns the outcome, or null when the proposal is not pending.
   */
  accept(id: string): ProposalOutcome | null {
    const entry = this._pending.get(id);
    if (!entry) {
      return null;
    }
    if (entry.accepting) {
      return null;
    }
    entry.accepting = true;
    try {
      entry.apply();
    } catch (error) {
      const proposal = this._settle(entry, { state: 'stale' });
      return this._finish(entry, { kind: 'stale', proposal, error });
    }
    const proposal = this._settle(entry, { state: 'accepted' });
    return this._finish(entry, { kind: 'accepted', proposal });
  }

  /** The human denies, with a reason (cut to the bound) or none. */
  deny(id: string, reason: string | null = null): ProposalOutcome | null {
    const entry = this._pending.get(id);
    if (!entry || entry.accepting) {
      return null;
    }
    const bounded = boundReason(reason);
    const proposal = this._settle(entry, { state: 'denied', reason: bounded });
    return this._finish(entry, { kind: 'denied', proposal, reason: bounded });
  }

  /** Deny without the human: the cell or the notebook went away. */
  autoDeny(
    id: string,
    cause: AutoDenyCause,
    detail: string | null = null
  ): ProposalOutcome | null {
    const entry = this._pending.get(id);
    if (!entry || entry.accepting) {
      return null;
    }
    const reason = autoDenyReason(cause, detail);
    const proposal = this._settle(entry, {
      state: 'auto-denied',
      reason,
      cause
    });
    return this._finish(entry, { kind: 'denied', proposal, reason });
  }

  /**
   * The owner hid the notebook from agents: the proposal goes away, and the
   * waiting call answers as for a hidden notebook (nothing about it).
   */
  hide(id: string): ProposalOutcome | null {
    const entry = this._pending.get(id);
    if (!entry || entry.accepting) {
      return null;
    }
    const proposal = this._settle(entry, { state: 'hidden' });
    return this._finish(entry, { kind: 'hidden', proposal });
  }

  /** The call gave up (its signal fired): the proposal goes away. */
  withdraw(id: string): ProposalOutcome | null {
    const entry = this._pending.get(id);
    if (!entry || entry.accepting) {
      return null;
    }
    const proposal = this._settle(entry, { state: 'withdrawn' });
    return this._finish(entry, { kind: 'withdrawn', proposal });
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /** Withdraw every pending proposal, so no call waits forever. */
  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    for (const id of Array.from(this._pending.keys())) {
      this.withdraw(id);
    }
    this._isDisposed = true;
    Signal.clearData(this);
  }

  private _settle(
    entry: IEntry,
    change: Pick<IProposal, 'state'> & Partial<IProposal>
  ): IProposal {
    this._pending.delete(entry.proposal.id);
    const proposal: IProposal = { ...entry.proposal, ...change };
    this._settled.push(proposal);
    if (this._settled.length > MAX_SETTLED_PROPOSALS) {
      this._settled.splice(0, this._settled.length - MAX_SETTLED_PROPOSALS);
    }
    return proposal;
  }

  private _finish(entry: IEntry, outcome: ProposalOutcome): ProposalOutcome {
    entry.resolve(outcome);
    this._changed.emit(outcome.proposal);
    return outcome;
  }

  private _pending = new Map<string, IEntry>();
  private _settled: IProposal[] = [];
  private _changed = new Signal<this, IProposal>(this);
  private _isDisposed = false;
}
