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
import type { INotebookTracker } from '@jupyterlab/notebook';

import { normalizeError } from '../common/errors';
import { type IProposal, type ProposalOutcome } from './store';
import { type IProposals } from '../tokens';
import { previewOf } from '../agent-panel/rows';
import { CurrentNotebookModel } from '../agent-panel/current-notebook';

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

export class ProposalsModel extends CurrentNotebookModel {
  constructor(options: ProposalsModel.IOptions) {
    super();
    this._proposals = options.proposals;
    this._proposals.changed.connect(this._onProposal, this);
    this._proposals.allowancesChanged.connect(this._onAllowances, this);
    this.follow(options.tracker);
  }

  /** The proposals of the current notebook that wait, oldest first. */
  get rows(): IProposal[] {
    const panel = this.panel;
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
    const panel = this.panel;
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
    const cells = this.panel?.content.model?.sharedModel.cells ?? [];
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
      this.repaint();
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
    const panel = this.panel;
    return panel
      ? this._proposals.revokeAllowance(panel.context, cellId)
      : false;
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._proposals.changed.disconnect(this._onProposal, this);
    this._proposals.allowancesChanged.disconnect(this._onAllowances, this);
    super.dispose();
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
    this.repaint();
    return report;
  }

  private _onProposal(_: IProposals, proposal: IProposal): void {
    const panel = this.panel;
    if (
      panel &&
      proposal.notebookKey === this._proposals.notebookKey(panel.context)
    ) {
      this.repaint();
    }
  }

  private _onAllowances(_: IProposals, key: string): void {
    const panel = this.panel;
    if (panel && key === this._proposals.notebookKey(panel.context)) {
      this.repaint();
    }
  }

  protected onPanel(): void {
    this._report = null;
  }

  private readonly _proposals: IProposals;
  private _report: IAcceptReport | null = null;
}

export namespace ProposalsModel {
  export interface IOptions {
    tracker: INotebookTracker;
    proposals: IProposals;
  }
}
