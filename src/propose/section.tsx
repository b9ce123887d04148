/**
 * The Proposals tab: what the agent proposes in the current notebook and
 * waits for the owner's decision on, oldest first, each with Accept and Deny
 * (and, for a run, Accept and allow it to run again while unchanged); Accept
 * all for a batch; and the cells allowed to run again, each with Take back.
 * An Accept that did not apply says so here.
 */
import {
  type ITranslator,
  nullTranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import * as React from 'react';

import { proposalInvisibles } from './invisibles';
import { type IProposal } from './store';
import { MAX_ROW_CELL_LINKS } from '../agent-panel/rows';
import {
  type IAcceptReport,
  type IProposalCell,
  type INotApplied,
  proposalPreview,
  type ProposalsModel
} from './section-model';
import { InvisibleWarning, Revealed } from '../agent-panel/revealed';
import { TabBody } from '../agent-panel/view';

/** A proposal's kind in words: "Edit", "New cell", "Run 2 cells"… */
export function kindText(
  proposal: IProposal,
  trans: TranslationBundle
): string {
  switch (proposal.kind) {
    case 'update':
      return trans.__('Edit');
    case 'insert':
      return trans.__('New cell');
    case 'delete':
      return trans.__('Delete');
    case 'run':
      return trans._n('Run %1 cell', 'Run %1 cells', proposal.cells.length);
    default:
      return proposal.action === 'interrupt'
        ? trans.__('Interrupt kernel')
        : trans.__('Restart kernel');
  }
}

/** A cell's name in a row: "cell 3" (its place), or its id when gone. */
export function cellName(
  cell: IProposalCell,
  trans: TranslationBundle
): string {
  return cell.index < 0
    ? trans.__('cell %1', cell.cellId)
    : trans.__('cell %1', cell.index + 1);
}

/** Why an Accept did not apply, in words. */
export function notAppliedText(
  item: INotApplied,
  trans: TranslationBundle
): string {
  switch (item.code) {
    case 'STALE_CELL':
      return trans.__('the cell changed while you reviewed it');
    case 'CELL_ACCESS_DENIED':
      return trans.__('the cell is now read-only for the agent');
    case 'NOTEBOOK_ACCESS_DENIED':
      return trans.__('the notebook is now read-only for the agent');
    case 'CELL_NOT_FOUND':
      return trans.__('the cell is now hidden from the agent, or gone');
    case 'NO_KERNEL':
      return trans.__('the notebook has no kernel');
    default:
      return trans.__('it could not be applied (%1)', item.code);
  }
}

/** What a kernel action would lose, in words. */
function kernelLoss(proposal: IProposal, trans: TranslationBundle): string {
  return proposal.action === 'interrupt'
    ? trans.__('The code running now stops; its cell does not finish.')
    : trans.__(
        'Every variable and import of the kernel is lost; outputs stay in the notebook.'
      );
}

/** One proposal: what it does, its cells, a preview, and the decisions. */
function ProposalRow(props: {
  proposal: IProposal;
  number: number;
  model: ProposalsModel;
  trans: TranslationBundle;
  openCell: (cellId: string) => void;
  onDecided: () => void;
}): React.ReactElement {
  const { proposal, number, model, trans } = props;
  const [reason, setReason] = React.useState('');
  const reasonId = React.useId();
  const kind = kindText(proposal, trans);
  const cells = (
    proposal.kind === 'insert'
      ? proposal.cellId === null
        ? []
        : [proposal.cellId]
      : proposal.cellIds
  ).map(cellId => model.cell(cellId));
  const shown = cells.slice(0, MAX_ROW_CELL_LINKS);
  const preview = proposalPreview(proposal);
  const label = trans.__('Proposal %1: %2', number, kind);
  let cellsLabel = trans.__('Cells:');
  if (proposal.kind === 'insert') {
    cellsLabel =
      proposal.position === 'above' ? trans.__('Above:') : trans.__('Below:');
  } else if (proposal.kind === 'update' || proposal.kind === 'delete') {
    cellsLabel = trans.__('Cell:');
  } else if (proposal.kind === 'kernel') {
    cellsLabel = trans.__('At:');
  }
  return (
    <li
      className={`jp-AgentProposals-item jp-mod-${proposal.kind}`}
      data-proposal-id={proposal.id}
      data-proposal-kind={proposal.kind}
      aria-label={label}
    >
      <div className="jp-AgentProposals-head">
        <span className="jp-AgentProposals-kind">{kind}</span>
        {proposal.kind === 'insert' && proposal.cellType && (
          <span className="jp-AgentProposals-detail">
            {trans.__('(%1)', proposal.cellType)}
          </span>
        )}
        {proposal.kernelName && (
          <span className="jp-AgentProposals-detail">
            {trans.__('kernel: %1', proposal.kernelName)}
          </span>
        )}
      </div>
      <InvisibleWarning count={proposalInvisibles(proposal)} trans={trans} />
      {shown.length > 0 && (
        <div className="jp-AgentProposals-cells">
          <span>{cellsLabel}</span>
          {shown.map(cell => (
            <button
              key={cell.cellId}
              type="button"
              className="jp-AgentPanel-cellLink"
              title={cell.cellId}
              aria-label={trans.__('Go to %1', cellName(cell, trans))}
              onClick={() => props.openCell(cell.cellId)}
            >
              {cellName(cell, trans)}
            </button>
          ))}
          {cells.length > shown.length && (
            <span>{trans.__('and %1 more', cells.length - shown.length)}</span>
          )}
        </div>
      )}
      {proposal.kind === 'kernel' ? (
        <p className="jp-AgentProposals-loss">{kernelLoss(proposal, trans)}</p>
      ) : (
        <code className="jp-AgentProposals-preview">
          {preview ? <Revealed text={preview} /> : trans.__('(empty)')}
        </code>
      )}
      <div className="jp-AgentProposals-reason">
        <label htmlFor={reasonId}>{trans.__('Reason (optional):')}</label>
        <input
          id={reasonId}
          type="text"
          className="jp-AgentProposals-reasonInput"
          value={reason}
          onChange={event => setReason(event.target.value)}
          placeholder={trans.__('Told to the agent on Deny')}
        />
      </div>
      <div className="jp-AgentProposals-actions">
        <button
          type="button"
          className="jp-AgentPanel-button jp-mod-accept"
          aria-label={trans.__('Accept proposal %1: %2', number, kind)}
          onClick={() => {
            model.accept(proposal.id);
            props.onDecided();
          }}
        >
          {trans.__('Accept')}
        </button>
        {proposal.kind === 'run' && (
          <button
            type="button"
            className="jp-AgentPanel-button jp-mod-allowAgain"
            aria-label={trans.__(
              'Accept proposal %1 and allow its cells to run again while their code is unchanged',
              number
            )}
            onClick={() => {
              model.accept(proposal.id, { allowAgain: true });
              props.onDecided();
            }}
          >
            {trans.__('Accept and allow again while unchanged')}
          </button>
        )}
        <button
          type="button"
          className="jp-AgentPanel-button jp-mod-deny"
          aria-label={trans.__('Deny proposal %1: %2', number, kind)}
          onClick={() => {
            model.deny(proposal.id, reason);
            props.onDecided();
          }}
        >
          {trans.__('Deny')}
        </button>
      </div>
    </li>
  );
}

/** What the last Accept left unapplied, with a button to dismiss it. */
function Report(props: {
  report: IAcceptReport | null;
  model: ProposalsModel;
  trans: TranslationBundle;
}): React.ReactElement {
  const { report, model, trans } = props;
  // the live region is always there, so what appears in it is announced
  return (
    <div className="jp-AgentProposals-report" role="status">
      {report && (
        <div className="jp-AgentProposals-reportBody">
          <p>
            {report.total > 1
              ? trans._n(
                  '%2 of %3 accepted: %1 proposal was not applied.',
                  '%2 of %3 accepted: %1 proposals were not applied.',
                  report.notApplied.length,
                  report.applied,
                  report.total
                )
              : trans.__('The proposal you accepted was not applied.')}
          </p>
          <ul>
            {report.notApplied.map(item => (
              <li key={item.proposal.id}>
                {trans.__(
                  '%1 (%2): %3; nothing of it was applied.',
                  kindText(item.proposal, trans),
                  item.proposal.cellIds
                    .map(cellId => cellName(model.cell(cellId), trans))
                    .join(', '),
                  notAppliedText(item, trans)
                )}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="jp-AgentPanel-button"
            onClick={() => model.clearReport()}
          >
            {trans.__('Dismiss')}
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * The list, which after a decision hands the focus on (the next row's
 * Accept, or the list's note when none is left), so a keyboard user does not
 * lose their place; only when the focus was on the row that went.
 */
function Pending(props: {
  rows: IProposal[];
  model: ProposalsModel;
  trans: TranslationBundle;
  openCell: (cellId: string) => void;
  focusAfterDecision: { current: boolean };
}): React.ReactElement {
  const { rows, model, trans } = props;
  const ref = React.useRef<HTMLDivElement>(null);
  React.useEffect(() => {
    const node = ref.current;
    if (!props.focusAfterDecision.current || !node) {
      return;
    }
    props.focusAfterDecision.current = false;
    // the focus went with the row (to the page's body): hand it on; a focus
    // elsewhere (a block, an editor) stays
    const active = document.activeElement;
    if (active && active !== document.body) {
      return;
    }
    const next =
      node.querySelector<HTMLElement>('.jp-mod-accept') ??
      node.querySelector<HTMLElement>('.jp-AgentProposals-empty');
    next?.focus();
  });
  const onDecided = () => {
    props.focusAfterDecision.current = true;
  };
  return (
    <div ref={ref}>
      {rows.length >= 2 && (
        <button
          type="button"
          className="jp-AgentPanel-button jp-AgentProposals-acceptAll"
          aria-label={trans._n(
            'Accept all %1 proposal, oldest first',
            'Accept all %1 proposals, oldest first',
            rows.length
          )}
          onClick={() => {
            model.acceptAll();
            onDecided();
          }}
        >
          {trans.__('Accept all (%1)', rows.length)}
        </button>
      )}
      {rows.length === 0 ? (
        <p
          className="jp-AgentPanel-empty jp-AgentProposals-empty"
          tabIndex={-1}
        >
          {trans.__(
            'No proposal waits for your decision in this notebook. In Propose mode, what the agent changes or runs waits here and under its cell.'
          )}
        </p>
      ) : (
        <ol
          className="jp-AgentProposals-list"
          aria-label={trans.__(
            'Proposals waiting for your decision, oldest first'
          )}
        >
          {rows.map((proposal, index) => (
            <ProposalRow
              key={proposal.id}
              proposal={proposal}
              number={index + 1}
              model={model}
              trans={trans}
              openCell={props.openCell}
              onDecided={onDecided}
            />
          ))}
        </ol>
      )}
    </div>
  );
}

/** The Proposals tab's body. */
export class ProposalsPanel extends TabBody<ProposalsModel> {
  constructor(options: ProposalsPanel.IOptions) {
    super(options.model);
    this.addClass('jp-AgentProposals');
    this.id = 'jp-agent-panel-proposals';
    this._openCell = options.openCell;
    this._trans = (options.translator ?? nullTranslator).load(
      'jupyterlite-webmcp'
    );
    this.title.caption = this._trans.__(
      'What the agent proposes in the current notebook, waiting for your decision'
    );
    // the count shows in the title even while the section is collapsed
    options.model.changed.connect(this._updateTitle, this);
    this._updateTitle();
  }

  protected content(): React.ReactElement {
    const trans = this._trans;
    const model = this.model;
    const path = model.path;
    if (path === null) {
      return (
        <div className="jp-AgentProposals-body">
          <p className="jp-AgentPanel-empty">
            {trans.__('Open a notebook to see what the agent proposes in it.')}
          </p>
        </div>
      );
    }
    const rows = model.rows;
    const allowances = model.allowances();
    const openCell = (cellId: string) => void this._openCell(path, cellId);
    return (
      <div className="jp-AgentProposals-body">
        <Report report={model.report} model={model} trans={trans} />
        <Pending
          rows={rows}
          model={model}
          trans={trans}
          openCell={openCell}
          focusAfterDecision={this._focusAfterDecision}
        />
        <h3 className="jp-AgentPanel-heading">
          {trans.__('Allowed to run again')}
        </h3>
        <p className="jp-AgentProposals-note">
          {trans.__(
            'Cells you allowed to run again without review while their code is unchanged; an edit ends the allowance. Allowances last until the page is reloaded and are never saved in the file.'
          )}
        </p>
        {allowances.length === 0 ? (
          <p className="jp-AgentPanel-empty">
            {trans.__('No cell of this notebook is allowed to run again.')}
          </p>
        ) : (
          <ul
            className="jp-AgentProposals-allowances"
            aria-label={trans.__('Cells allowed to run again while unchanged')}
          >
            {allowances.map(cell => (
              <li
                key={cell.cellId}
                className="jp-AgentProposals-allowance"
                data-cell-id={cell.cellId}
              >
                <button
                  type="button"
                  className="jp-AgentPanel-cellLink"
                  title={cell.cellId}
                  aria-label={trans.__('Go to %1', cellName(cell, trans))}
                  onClick={() => openCell(cell.cellId)}
                >
                  {cellName(cell, trans)}
                </button>
                <code className="jp-AgentProposals-preview">
                  {cell.preview ? (
                    <Revealed text={cell.preview} />
                  ) : (
                    trans.__('(empty)')
                  )}
                </code>
                <button
                  type="button"
                  className="jp-AgentPanel-button jp-AgentProposals-revoke"
                  aria-label={trans.__(
                    'Take back: %1 waits for review again',
                    cellName(cell, trans)
                  )}
                  onClick={() => model.revoke(cell.cellId)}
                >
                  {trans.__('Take back')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.model.changed.disconnect(this._updateTitle, this);
    super.dispose();
  }

  private _updateTitle(): void {
    const count = this.model.count;
    this.title.label =
      count > 0
        ? this._trans.__('Proposals (%1)', count)
        : this._trans.__('Proposals');
  }

  private readonly _openCell: (path: string, cellId: string) => Promise<void>;
  private readonly _trans: TranslationBundle;
  private readonly _focusAfterDecision = { current: false };
}

export namespace ProposalsPanel {
  export interface IOptions {
    model: ProposalsModel;
    /** Brings a cell up in its notebook. */
    openCell: (path: string, cellId: string) => Promise<void>;
    translator?: ITranslator | null;
  }
}
