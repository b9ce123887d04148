/**
 * The model of the Agent panel's Proposals tab: the proposals of the current
 * notebook that wait for the owner, oldest first, and the cells the owner
 * allowed to run again while their code is unchanged. The owner's decisions
 * (accept, accept and allow again, deny, accept all, take back) go through
 * `IProposals`, as the blocks in the notebook do.
 *
 * It follows the notebook tracker, the proposals as they are staged and
 * settle, the allowances, and the notebook's cells (an allowance whose cell
 * changed is dropped by the service when read). No JupyterLab runtime
 * import, so unit tests use it as is.
 */
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { type IDisposable } from '@lumino/disposable';
import { type ISignal, Signal } from '@lumino/signaling';

import { normalizeError } from '../common/errors';
import { SoonestTimer } from '../common/soonest-timer';
import { type IProposal, type ProposalOutcome } from './store';
import { type IProposals } from '../tokens';
import { previewOf, SOURCE_SETTLE_MS } from '../agent-panel/rows';
import { FollowCurrent } from '../agent-panel/follow-current';

/** A cell as a row names it: its place in the notebook and first line. */
export interface IProposalCell {
  cellId: string;
  /** Its index in the notebook (0-based), or -1 when it is not there. */
  index: number;
  /** The first non-blank line of its source, shortened. */
  preview: string;
}

/** A proposal that did not apply when the owner accepted it. */
export interface INotApplied {
  /** The proposal, as it settled (stale). */
  proposal: IProposal;
  /** The error code the re-check on accept gave (e.g. STALE_CELL). */
  code: string;
}

/**
 * What the owner's last Accept in the tab did, when something did not apply:
 * how many were accepted, and which ones did not apply.
 */
export interface IAcceptReport {
  /** How many proposals the Accept (or Accept all) was for. */
  total: number;
  /** How many of them were applied. */
  applied: number;
  /** Those the re-check on accept refused (nothing of them was applied). */
  notApplied: INotApplied[];
}

/** The first non-blank line a proposal shows in its row. */
export function proposalPreview(proposal: IProposal): string {
  switch (proposal.kind) {
    case 'update':
    case 'insert':
      return previewOf(proposal.proposed);
    case 'delete':
      return previewOf(proposal.original);
    case 'run':
      return previewOf(proposal.cells[0]?.source ?? '');
    default:
      return '';
  }
}

/** The proposals of a notebook that wait, oldest first. */
export function pendingOf(
  proposals: readonly IProposal[],
  notebookKey: string
): IProposal[] {
  return proposals
    .map((proposal, order) => ({ proposal, order }))
    .filter(({ proposal }) => proposal.notebookKey === notebookKey)
    .sort(
      (a, b) =>
        a.proposal.createdAt.localeCompare(b.proposal.createdAt) ||
        a.order - b.order
    )
    .map(({ proposal }) => proposal);
}

export class ProposalsModel implements IDisposable {
  constructor(options: ProposalsModel.IOptions) {
    this._proposals = options.proposals;
    this._proposals.changed.connect(this._onProposal, this);
    this._proposals.allowancesChanged.connect(this._onAllowances, this);
    this._follow = new FollowCurrent({
      tracker: options.tracker,
      onChange: (panel, previous) => this._bind(panel, previous),
      onReady: panel => this._onReady(panel)
    });
  }

  /** Emitted (after the current task) when anything shown changed. */
  get changed(): ISignal<this, void> {
    return this._changed;
  }

  /** The notebook the tab shows: the tracker's current one. */
  get panel(): NotebookPanel | null {
    return this._panel;
  }

  /** Its workspace path. */
  get path(): string | null {
    return this._panel?.context.localPath ?? null;
  }

  /** The proposals of the current notebook that wait, oldest first. */
  get rows(): IProposal[] {
    const panel = this._panel;
    if (!panel) {
      return [];
    }
    return pendingOf(
      this._proposals.pending(),
      this._proposals.notebookKey(panel.context)
    );
  }

  /** How many proposals of the current notebook wait. */
  get count(): number {
    return this.rows.length;
  }

  /**
   * The cells of the current notebook allowed to run again while their code
   * is unchanged, in notebook order (the service drops one whose cell changed).
   */
  allowances(): IProposalCell[] {
    const panel = this._panel;
    if (!panel || !panel.context.isReady || panel.context.model.isDisposed) {
      return [];
    }
    return this._proposals
      .allowances(panel.context)
      .map(allowance => this.cell(allowance.cellId))
      .sort((a, b) => a.index - b.index);
  }

  /** A cell of the current notebook, as a row names it. */
  cell(cellId: string): IProposalCell {
    const cells = this._panel?.content.model?.sharedModel.cells ?? [];
    const index = cells.findIndex(item => item.id === cellId);
    return {
      cellId,
      index,
      preview: index < 0 ? '' : previewOf(cells[index].getSource())
    };
  }

  /** What the last Accept in the tab left unapplied; null when all applied. */
  get report(): IAcceptReport | null {
    return this._report;
  }

  /** Forget the report (the owner read it, or made another decision). */
  clearReport(): void {
    if (this._report) {
      this._report = null;
      this._repaint.schedule(0);
    }
  }

  /**
   * The owner accepts a proposal; `allowAgain` (a run) lets its cells run
   * again while their code is unchanged. False when it no longer waits.
   */
  accept(id: string, options: IProposals.IAcceptOptions = {}): boolean {
    const outcome = this._proposals.accept(id, options);
    this._setReport(outcome ? [outcome] : []);
    return outcome !== null;
  }

  /**
   * The owner accepts every proposal of the notebook, oldest first (the
   * agent's batch, in the order it made them). Returns what happened.
   */
  acceptAll(): IAcceptReport {
    const outcomes: ProposalOutcome[] = [];
    for (const proposal of this.rows) {
      const outcome = this._proposals.accept(proposal.id);
      if (outcome) {
        outcomes.push(outcome);
      }
    }
    return this._setReport(outcomes);
  }

  /** The owner denies a proposal, with a reason or none. */
  deny(id: string, reason: string | null): boolean {
    this.clearReport();
    return this._proposals.deny(id, reason) !== null;
  }

  /** The owner takes back a cell's allowance. */
  revoke(cellId: string): boolean {
    const panel = this._panel;
    return panel
      ? this._proposals.revokeAllowance(panel.context, cellId)
      : false;
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._follow.dispose();
    this._proposals.changed.disconnect(this._onProposal, this);
    this._proposals.allowancesChanged.disconnect(this._onAllowances, this);
    this._repaint.dispose();
    Signal.clearData(this);
  }

  private _setReport(outcomes: readonly ProposalOutcome[]): IAcceptReport {
    const notApplied: INotApplied[] = [];
    let applied = 0;
    for (const outcome of outcomes) {
      if (outcome.kind === 'accepted') {
        applied++;
      } else if (outcome.kind === 'stale') {
        notApplied.push({
          proposal: outcome.proposal,
          code: normalizeError(outcome.error).error
        });
      }
    }
    const report = { total: outcomes.length, applied, notApplied };
    this._report = notApplied.length > 0 ? report : null;
    this._repaint.schedule(0);
    return report;
  }

  private _onProposal(_: IProposals, proposal: IProposal): void {
    const panel = this._panel;
    if (
      panel &&
      proposal.notebookKey === this._proposals.notebookKey(panel.context)
    ) {
      this._repaint.schedule(0);
    }
  }

  private _onAllowances(_: IProposals, key: string): void {
    const panel = this._panel;
    if (panel && key === this._proposals.notebookKey(panel.context)) {
      this._repaint.schedule(0);
    }
  }

  /** Follows another notebook (or none). */
  private _bind(
    panel: NotebookPanel | null,
    previous: NotebookPanel | null
  ): void {
    if (previous) {
      previous.content.model?.cells.changed.disconnect(this._onCells, this);
      previous.content.model?.contentChanged.disconnect(this._onSource, this);
    }
    this._panel = panel;
    this._report = null;
    this._repaint.schedule(0);
  }

  /** The followed notebook's model is there. */
  private _onReady(panel: NotebookPanel): void {
    panel.content.model?.cells.changed.connect(this._onCells, this);
    panel.content.model?.contentChanged.connect(this._onSource, this);
    this._repaint.schedule(0);
  }

  private _onCells(): void {
    this._repaint.schedule(0);
  }

  private _onSource(): void {
    // an edit may end an allowance, and changes the previews
    this._repaint.schedule(SOURCE_SETTLE_MS);
  }

  private readonly _follow: FollowCurrent;
  private readonly _proposals: IProposals;
  private _panel: NotebookPanel | null = null;
  private _report: IAcceptReport | null = null;
  /** Tells the view, at the soonest delay asked for. */
  private readonly _repaint = new SoonestTimer(() => this._changed.emit());
  private _isDisposed = false;
  private readonly _changed = new Signal<this, void>(this);
}

export namespace ProposalsModel {
  export interface IOptions {
    tracker: INotebookTracker;
    proposals: IProposals;
  }
}
