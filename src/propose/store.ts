/**
 * The proposal store: the proposals Propose mode stages, and their
 * lifecycle. Pure (no widgets, no app), so every outcome is unit-tested.
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
 * One pending proposal per cell of a notebook: a second is refused with
 * PROPOSAL_ALREADY_PENDING, carrying the id of the one that waits.
 */
import { UUID } from '@lumino/coreutils';
import { type ISignal, Signal } from '@lumino/signaling';

import { ToolError } from '../common/errors';
import { boundUtf8 } from '../common/text';

/** The bound of a deny reason, in UTF-8 bytes (the spec's name). */
export const MAX_DENY_REASON_BYTES = 2048;

/** How many settled proposals the store remembers. */
export const MAX_SETTLED_PROPOSALS = 50;

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
  /** Which notebook it belongs to (stable for the notebook's life). */
  readonly notebookKey: string;
  /** The notebook's path when the proposal was made. */
  readonly notebookPath: string;
  readonly cellId: string;
  /** The cell's source when the proposal was made. */
  readonly original: string;
  /** The source the agent proposes. */
  readonly proposed: string;
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
  notebookKey: string;
  notebookPath: string;
  cellId: string;
  original: string;
  proposed: string;
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

  /** The pending proposal on a cell of a notebook, if any. */
  pendingFor(notebookKey: string, cellId: string): IProposal | null {
    for (const { proposal } of this._pending.values()) {
      if (proposal.notebookKey === notebookKey && proposal.cellId === cellId) {
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
    const existing = this.pendingFor(options.notebookKey, options.cellId);
    if (existing) {
      throw new ToolError(
        'PROPOSAL_ALREADY_PENDING',
        `Cell "${options.cellId}" already has a proposal waiting for the human; wait for it to be decided.`,
        { cellId: options.cellId, existingProposalId: existing.id }
      );
    }
    const proposal: IProposal = {
      id: UUID.uuid4(),
      notebookKey: options.notebookKey,
      notebookPath: options.notebookPath,
      cellId: options.cellId,
      original: options.original,
      proposed: options.proposed,
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
    if (!entry) {
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
    if (!entry) {
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
    if (!entry) {
      return null;
    }
    const proposal = this._settle(entry, { state: 'hidden' });
    return this._finish(entry, { kind: 'hidden', proposal });
  }

  /** The call gave up (its signal fired): the proposal goes away. */
  withdraw(id: string): ProposalOutcome | null {
    const entry = this._pending.get(id);
    if (!entry) {
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
