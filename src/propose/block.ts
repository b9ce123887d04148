/**
 * The inline review block of a proposal: under the cell's input, the diff of
 * the current source against the proposed one, a reason field, and Accept
 * and Deny. Real text for a screen reader: every row says in words whether
 * it is added, removed or unchanged (the +/− signs and colours are extra).
 * Keys typed inside it never reach the notebook's command-mode shortcuts.
 */
import {
  nullTranslator,
  type ITranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';

import { type IDiffRow, sourceDiff } from './diff';
import { type IProposal } from './store';

/** The class of a review block. */
export const BLOCK_CLASS = 'jp-ProposalBlock';

let blockCount = 0;

export class ProposalBlock extends Widget {
  constructor(options: ProposalBlock.IOptions) {
    super({ node: document.createElement('section') });
    const { proposal } = options;
    const trans = (options.translator ?? nullTranslator).load(
      'jupyterlite-webmcp'
    );
    this._proposal = proposal;
    this.addClass(BLOCK_CLASS);
    const node = this.node;
    const uid = `jp-ProposalBlock-${++blockCount}`;
    node.dataset.proposalId = proposal.id;
    node.tabIndex = -1;
    node.setAttribute('role', 'region');
    node.setAttribute('aria-labelledby', `${uid}-title`);
    // keys typed here are for the block, not the notebook's shortcuts
    node.setAttribute('data-lm-suppress-shortcuts', '');

    const title = document.createElement('h3');
    title.id = `${uid}-title`;
    title.className = `${BLOCK_CLASS}-title`;
    title.textContent = trans.__('Agent proposes a change to this cell');

    const diff = sourceDiff(proposal.original, proposal.proposed);
    const summary = document.createElement('p');
    summary.className = `${BLOCK_CLASS}-summary`;
    summary.textContent = trans.__(
      '%1, %2',
      trans._n('%1 line added', '%1 lines added', diff.inserted),
      trans._n('%1 line removed', '%1 lines removed', diff.deleted)
    );

    const rows = document.createElement('div');
    rows.className = `${BLOCK_CLASS}-diff`;
    rows.setAttribute('role', 'list');
    rows.setAttribute('aria-label', trans.__('Proposed changes, line by line'));
    for (const row of diff.rows) {
      rows.appendChild(renderRow(row, trans));
    }

    const label = document.createElement('label');
    label.className = `${BLOCK_CLASS}-reasonLabel`;
    label.htmlFor = `${uid}-reason`;
    label.textContent = trans.__(
      'Reason for the agent (optional, sent on Deny)'
    );
    const reason = document.createElement('textarea');
    reason.id = `${uid}-reason`;
    reason.className = `${BLOCK_CLASS}-reason jp-mod-styled`;
    reason.rows = 2;
    this._reason = reason;

    const actions = document.createElement('div');
    actions.className = `${BLOCK_CLASS}-actions`;
    const accept = button(
      trans.__('Accept'),
      trans.__('Apply the proposed change to the cell'),
      'jp-mod-accept'
    );
    const deny = button(
      trans.__('Deny'),
      trans.__('Refuse the change; the agent gets your reason'),
      'jp-mod-deny'
    );
    accept.addEventListener('click', () => options.onAccept(proposal.id));
    deny.addEventListener('click', () =>
      options.onDeny(proposal.id, this._reason.value)
    );
    actions.append(accept, deny);

    node.append(title, summary, rows, label, reason, actions);
  }

  /** The proposal shown. */
  get proposal(): IProposal {
    return this._proposal;
  }

  private _proposal: IProposal;
  private _reason: HTMLTextAreaElement;
}

export namespace ProposalBlock {
  export interface IOptions {
    proposal: IProposal;
    translator?: ITranslator | null;
    onAccept: (id: string) => void;
    onDeny: (id: string, reason: string) => void;
  }
}

function button(text: string, title: string, mod: string): HTMLButtonElement {
  const node = document.createElement('button');
  node.type = 'button';
  node.className = `jp-Button jp-mod-styled ${BLOCK_CLASS}-button ${mod}`;
  node.textContent = text;
  node.title = title;
  return node;
}

/** One row: a visible sign, the words a screen reader says, the line. */
function renderRow(row: IDiffRow, trans: TranslationBundle): HTMLElement {
  const item = document.createElement('div');
  item.setAttribute('role', 'listitem');
  item.className = `${BLOCK_CLASS}-row`;
  item.dataset.kind = row.kind;
  if (row.kind === 'fold') {
    item.textContent = trans._n(
      '%1 unchanged line not shown',
      '%1 unchanged lines not shown',
      row.count ?? 0
    );
    return item;
  }
  const sign = document.createElement('span');
  sign.className = `${BLOCK_CLASS}-sign`;
  sign.setAttribute('aria-hidden', 'true');
  const words = document.createElement('span');
  words.className = `${BLOCK_CLASS}-srOnly`;
  let text: HTMLElement;
  switch (row.kind) {
    case 'insert':
      sign.textContent = '+';
      words.textContent = trans.__('Added:');
      text = document.createElement('ins');
      break;
    case 'delete':
      sign.textContent = '−';
      words.textContent = trans.__('Removed:');
      text = document.createElement('del');
      break;
    default:
      sign.textContent = ' ';
      words.textContent = trans.__('Unchanged:');
      text = document.createElement('span');
  }
  text.className = `${BLOCK_CLASS}-line`;
  // an empty line still takes a row, and says so
  text.textContent = row.text;
  if (row.text === '') {
    text.setAttribute('aria-label', trans.__('empty line'));
  }
  words.append(' ');
  item.append(sign, words, text);
  return item;
}
