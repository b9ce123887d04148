/**
 * The inline review block of a proposal, one per kind, each a region named
 * by its title with Accept, Deny and a reason field:
 *
 * - `update`: the diff of the current source against the proposed one;
 * - `run`: every code cell the call would run, in order, with its source
 *   (a long one folded behind a button), the kernel's name, and a second
 *   Accept that lets those cells run again while their code is unchanged;
 * - `insert`: the proposed cell (its type and source) where it would go;
 * - `delete`: the cell's current source, marked as deleted;
 * - `kernel`: the restart or interrupt, the kernel's name, and what is lost.
 *
 * Real text for a screen reader: every diff row says in words whether it is
 * added, removed or unchanged (the +/− signs and colours are extra), and a
 * deleted source is a `<del>`. Keys typed inside a block never reach the
 * notebook's command-mode shortcuts.
 */
import {
  nullTranslator,
  type ITranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';

import { countInvisibles } from '../common/invisible';
import { fillRevealed, invisibleWarning } from '../common/reveal-dom';
import { type IDiffRow, sourceDiff } from './diff';
import { proposalInvisibles } from './invisibles';
import { type IProposal } from './store';

/** The class of a review block. */
export const BLOCK_CLASS = 'jp-ProposalBlock';

/** How many lines of a source show before the rest is folded. */
export const FOLD_LINES = 12;

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
    this._uid = uid;
    node.dataset.proposalId = proposal.id;
    node.dataset.proposalKind = proposal.kind;
    node.tabIndex = -1;
    node.setAttribute('role', 'region');
    node.setAttribute('aria-labelledby', `${uid}-title`);
    // keys typed here are for the block, not the notebook's shortcuts
    node.setAttribute('data-lm-suppress-shortcuts', '');

    const title = document.createElement('h3');
    title.id = `${uid}-title`;
    title.className = `${BLOCK_CLASS}-title`;
    node.appendChild(title);

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
    suppressShortcuts(reason);
    this._reason = reason;

    const actions = document.createElement('div');
    actions.className = `${BLOCK_CLASS}-actions`;
    const accept = (text: string, why: string, allowAgain = false) => {
      const node = button(
        text,
        why,
        allowAgain ? 'jp-mod-allowAgain' : 'jp-mod-accept'
      );
      node.addEventListener('click', () =>
        options.onAccept(proposal.id, allowAgain ? { allowAgain } : {})
      );
      actions.appendChild(node);
    };
    const deny = (why: string) => {
      const node = button(trans.__('Deny'), why, 'jp-mod-deny');
      node.addEventListener('click', () =>
        options.onDeny(proposal.id, this._reason.value)
      );
      actions.appendChild(node);
    };

    switch (proposal.kind) {
      case 'run':
        title.textContent = trans.__('Agent wants to run code on the kernel');
        this._renderRun(trans);
        accept(trans.__('Run it'), trans.__('Run these cells once, as shown'));
        accept(
          trans.__('Run, and allow again while unchanged'),
          trans.__(
            'Run these cells, and let the agent run them again without asking while their code stays as shown (until the page is reloaded)'
          ),
          true
        );
        deny(trans.__('Run nothing; the agent gets your reason'));
        break;
      case 'insert':
        title.textContent = trans.__('Agent proposes a new cell here');
        this._renderInsert(trans);
        accept(
          trans.__('Accept'),
          trans.__('Insert the proposed cell into the notebook')
        );
        deny(trans.__('Insert nothing; the agent gets your reason'));
        break;
      case 'delete':
        title.textContent = trans.__('Agent proposes to delete this cell');
        this._renderDelete(trans);
        accept(
          trans.__('Delete it'),
          trans.__('Delete the cell, unless it changed meanwhile')
        );
        deny(trans.__('Keep the cell; the agent gets your reason'));
        break;
      case 'kernel': {
        const restart = proposal.action !== 'interrupt';
        title.textContent = restart
          ? trans.__('Agent wants to restart the kernel')
          : trans.__('Agent wants to interrupt the kernel');
        this._renderKernel(trans, restart);
        accept(
          trans.__('Accept'),
          restart
            ? trans.__('Restart the kernel now')
            : trans.__('Interrupt the kernel now')
        );
        deny(trans.__('Leave the kernel alone; the agent gets your reason'));
        break;
      }
      default:
        title.textContent = trans.__('Agent proposes a change to this cell');
        this._renderUpdate(trans);
        accept(
          trans.__('Accept'),
          trans.__('Apply the proposed change to the cell')
        );
        deny(trans.__('Refuse the change; the agent gets your reason'));
    }

    // the invisible or direction-changing characters the block holds,
    // folded parts included, said at its top
    const warning = invisibleWarning(proposalInvisibles(proposal), trans);
    if (warning) {
      warning.id = `${uid}-warning`;
      title.after(warning);
      node.setAttribute('aria-describedby', warning.id);
    }
    node.append(label, reason, actions);
  }

  /** The proposal shown. */
  get proposal(): IProposal {
    return this._proposal;
  }

  /** The diff of an update, with its counts in words. */
  private _renderUpdate(trans: TranslationBundle): void {
    const proposal = this._proposal;
    const diff = sourceDiff(proposal.original, proposal.proposed);
    const summary = paragraph(
      trans.__(
        '%1, %2',
        trans._n('%1 line added', '%1 lines added', diff.inserted),
        trans._n('%1 line removed', '%1 lines removed', diff.deleted)
      )
    );
    const rows = document.createElement('div');
    rows.className = `${BLOCK_CLASS}-diff`;
    rows.setAttribute('role', 'list');
    rows.setAttribute('aria-label', trans.__('Proposed changes, line by line'));
    for (const row of diff.rows) {
      rows.appendChild(renderRow(row, trans));
    }
    this.node.append(summary, rows);
  }

  /** Every code cell of a run, in order, and the kernel it runs on. */
  private _renderRun(trans: TranslationBundle): void {
    const { cells } = this._proposal;
    this.node.append(
      this._kernelLine(trans),
      paragraph(
        trans._n(
          'It runs %1 code cell:',
          'It runs %1 code cells, in this order:',
          cells.length
        )
      )
    );
    const list = document.createElement('ol');
    list.className = `${BLOCK_CLASS}-cells`;
    list.setAttribute('aria-label', trans.__('Code to run, in order'));
    cells.forEach((cell, index) => {
      const item = document.createElement('li');
      item.className = `${BLOCK_CLASS}-cell`;
      item.dataset.cellId = cell.cellId;
      const name = document.createElement('span');
      name.className = `${BLOCK_CLASS}-cellName`;
      name.textContent = trans.__('Cell %1 of %2', index + 1, cells.length);
      item.append(name, ...this._source(trans, cell.source, 'code'));
      list.appendChild(item);
    });
    this.node.appendChild(list);
  }

  /** The proposed cell: where it goes, its type, its source. */
  private _renderInsert(trans: TranslationBundle): void {
    const proposal = this._proposal;
    const type = cellTypeName(trans, proposal.cellType);
    let where: string;
    if (proposal.cellId === null) {
      where = trans.__('A new %1 cell, the first of this notebook.', type);
    } else if (proposal.position === 'above') {
      where = trans.__('A new %1 cell, above this cell.', type);
    } else {
      where = trans.__('A new %1 cell, below this cell.', type);
    }
    this.node.appendChild(paragraph(where));
    if (proposal.proposed === '') {
      this.node.appendChild(
        paragraph(trans.__('The new cell is empty.'), 'empty')
      );
    } else {
      this.node.append(...this._source(trans, proposal.proposed, 'ins'));
    }
  }

  /** The cell's source as it is, marked as deleted. */
  private _renderDelete(trans: TranslationBundle): void {
    const proposal = this._proposal;
    this.node.appendChild(
      paragraph(
        trans.__(
          'The cell, its source and its outputs would be removed from the notebook.'
        )
      )
    );
    if (proposal.original === '') {
      this.node.appendChild(paragraph(trans.__('The cell is empty.'), 'empty'));
    } else {
      this.node.append(...this._source(trans, proposal.original, 'del'));
    }
  }

  /** The kernel's name, and what the action loses. */
  private _renderKernel(trans: TranslationBundle, restart: boolean): void {
    const lost = restart
      ? trans.__(
          "Every variable, import and definition in the kernel's memory is lost, and whatever is running stops."
        )
      : trans.__(
          'Whatever the kernel is running now stops, including work you started.'
        );
    this.node.append(this._kernelLine(trans), paragraph(lost, 'warning'));
  }

  private _kernelLine(trans: TranslationBundle): HTMLElement {
    const name = this._proposal.kernelName;
    const line = paragraph(
      name
        ? trans.__('Kernel: %1', name)
        : trans.__('Kernel: the notebook’s kernel')
    );
    line.classList.add(`${BLOCK_CLASS}-kernel`);
    return line;
  }

  /**
   * A source in a `<pre>` (its text in a `<del>` or an `<ins>` when marked),
   * folded to FOLD_LINES lines behind a toggle button when longer.
   */
  private _source(
    trans: TranslationBundle,
    source: string,
    mark: 'code' | 'ins' | 'del'
  ): HTMLElement[] {
    const pre = document.createElement('pre');
    pre.id = `${this._uid}-source-${++this._sources}`;
    pre.className = `${BLOCK_CLASS}-source`;
    const text = document.createElement(mark);
    text.className = `${BLOCK_CLASS}-sourceText`;
    pre.appendChild(text);
    const lines = source.split('\n');
    if (lines.length <= FOLD_LINES) {
      fillRevealed(text, source);
      return [pre];
    }
    const folded = lines.slice(0, FOLD_LINES).join('\n');
    const hiddenMarks = countInvisibles(lines.slice(FOLD_LINES).join('\n'));
    const toggle = document.createElement('button');
    toggle.type = 'button';
    toggle.className = `jp-Button jp-mod-styled ${BLOCK_CLASS}-foldToggle`;
    suppressShortcuts(toggle);
    toggle.setAttribute('aria-controls', pre.id);
    const show = (expanded: boolean) => {
      fillRevealed(text, expanded ? source : folded);
      pre.dataset.folded = String(!expanded);
      toggle.setAttribute('aria-expanded', String(expanded));
      toggle.textContent = expanded
        ? trans.__('Show only the first %1 lines', FOLD_LINES)
        : hiddenMarks > 0
          ? trans._n(
              'Show all %2 lines (%3 more, with %1 invisible or direction-changing character)',
              'Show all %2 lines (%3 more, with %1 invisible or direction-changing characters)',
              hiddenMarks,
              lines.length,
              lines.length - FOLD_LINES
            )
          : trans._n(
              'Show all %1 line (%2 more)',
              'Show all %1 lines (%2 more)',
              lines.length,
              lines.length - FOLD_LINES
            );
    };
    show(false);
    toggle.addEventListener('click', () =>
      show(toggle.getAttribute('aria-expanded') !== 'true')
    );
    return [pre, toggle];
  }

  private _proposal: IProposal;
  private _reason: HTMLTextAreaElement;
  private _uid: string;
  private _sources = 0;
}

export namespace ProposalBlock {
  export interface IOptions {
    proposal: IProposal;
    translator?: ITranslator | null;
    /** Accept; `allowAgain` from a run's second Accept. */
    onAccept: (id: string, options: { allowAgain?: boolean }) => void;
    onDeny: (id: string, reason: string) => void;
  }
}

/** A paragraph of the block, with a modifier class when given. */
function paragraph(text: string, mod?: string): HTMLParagraphElement {
  const node = document.createElement('p');
  node.className = `${BLOCK_CLASS}-summary`;
  if (mod) {
    node.classList.add(`jp-mod-${mod}`);
  }
  node.textContent = text;
  return node;
}

/** A cell type as the person reads it. */
function cellTypeName(trans: TranslationBundle, type: string | null): string {
  switch (type) {
    case 'markdown':
      return trans.__('Markdown');
    case 'raw':
      return trans.__('raw');
    default:
      return trans.__('code');
  }
}

function button(text: string, title: string, mod: string): HTMLButtonElement {
  const node = document.createElement('button');
  node.type = 'button';
  node.className = `jp-Button jp-mod-styled ${BLOCK_CLASS}-button ${mod}`;
  node.textContent = text;
  node.title = title;
  suppressShortcuts(node);
  return node;
}

/**
 * Keys typed in a control of the block are its own. On the block alone the
 * attribute is not enough: lumino stops at the first node a binding's
 * selector matches, and the notebook's command-mode bindings match the
 * focused control itself (`.jp-Notebook.jp-mod-commandMode :focus`), so
 * each control carries it too (the reason field lost its d, c and r to
 * them in Notebook 7).
 */
function suppressShortcuts(node: HTMLElement): void {
  node.setAttribute('data-lm-suppress-shortcuts', '');
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
  fillRevealed(text, row.text);
  if (row.text === '') {
    text.setAttribute('aria-label', trans.__('empty line'));
  }
  words.append(' ');
  item.append(sign, words, text);
  return item;
}
