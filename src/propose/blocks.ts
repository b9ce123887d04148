/**
 * Places the review block of every pending proposal under its cell's input,
 * in every open view of its notebook, and takes it away when the proposal
 * settles. The block is a widget of the cell's own layout, so the notebook's
 * windowing moves it with the cell; a placeholder cell gets it once it
 * renders, and a cell widget created anew (a move, a type change) gets it
 * again.
 *
 * When a block appears in the current notebook, the focus moves to it,
 * unless the human is typing somewhere (an editor, a text field).
 */
import { Notification } from '@jupyterlab/apputils';
import type { Cell } from '@jupyterlab/cells';
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { type ITranslator, nullTranslator } from '@jupyterlab/translation';
import type { IDisposable } from '@lumino/disposable';
import { Signal } from '@lumino/signaling';
import type { PanelLayout } from '@lumino/widgets';

import { normalizeError } from '../common/errors';
import { ProposalBlock } from './block';
import type { ProposalService } from './service';
import type { IProposal, ProposalOutcome } from './store';

const INPUT_WRAPPER_CLASS = 'jp-Cell-inputWrapper';

/** Whether the human is typing: focus in an editor or a text field. */
export function isTyping(active: Element | null): boolean {
  if (!active || active === document.body) {
    return false;
  }
  if (active.closest('.cm-editor')) {
    return true;
  }
  if (
    active instanceof HTMLTextAreaElement ||
    active instanceof HTMLSelectElement
  ) {
    return true;
  }
  if (active instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'submit', 'reset'].includes(
      active.type
    );
  }
  return (active as HTMLElement).isContentEditable === true;
}

export class ProposalBlocks implements IDisposable {
  constructor(options: ProposalBlocks.IOptions) {
    this._service = options.service;
    this._tracker = options.tracker;
    this._translator = options.translator ?? null;
    this._service.changed.connect(this._onProposal, this);
    this._tracker.widgetAdded.connect(this._onPanelAdded, this);
    this._tracker.forEach(panel => this._follow(panel));
    for (const proposal of this._service.pending()) {
      this._show(proposal, false);
    }
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    for (const blocks of this._blocks.values()) {
      blocks.forEach(block => block.dispose());
    }
    this._blocks.clear();
    for (const panel of this._followed) {
      this._unfollow(panel);
    }
    Signal.clearData(this);
  }

  private _onProposal(_: unknown, proposal: IProposal): void {
    if (proposal.state === 'pending') {
      this._show(proposal, true);
    } else {
      this._hide(proposal.id);
    }
  }

  private _onPanelAdded(_: unknown, panel: NotebookPanel): void {
    this._follow(panel);
    void panel.context.ready.then(() => this._refresh(panel));
  }

  private _follow(panel: NotebookPanel): void {
    if (this._followed.has(panel)) {
      return;
    }
    this._followed.add(panel);
    panel.content.model?.cells.changed.connect(this._onCells, this);
    panel.disposed.connect(this._onPanelDisposed, this);
  }

  private _unfollow(panel: NotebookPanel): void {
    this._followed.delete(panel);
    panel.content.model?.cells.changed.disconnect(this._onCells, this);
    panel.disposed.disconnect(this._onPanelDisposed, this);
  }

  private _onPanelDisposed(panel: NotebookPanel): void {
    this._unfollow(panel);
  }

  /** Cells came and went: widgets may be new, place blocks again. */
  private _onCells(): void {
    // after the notebook widget has made its cell widgets
    requestAnimationFrame(() => {
      if (!this._isDisposed) {
        this._tracker.forEach(panel => this._refresh(panel));
      }
    });
  }

  /** Place the blocks every pending proposal of a panel's notebook needs. */
  private _refresh(panel: NotebookPanel): void {
    for (const proposal of this._service.pending()) {
      if (this._service.notebookKey(panel.context) === proposal.notebookKey) {
        this._place(panel, proposal, false);
      }
    }
  }

  private _show(proposal: IProposal, focus: boolean): void {
    const current = this._tracker.currentWidget;
    this._tracker.forEach(panel => {
      if (
        !panel.isDisposed &&
        this._service.notebookKey(panel.context) === proposal.notebookKey
      ) {
        this._place(panel, proposal, focus && panel === current);
      }
    });
  }

  private _hide(id: string): void {
    const blocks = this._blocks.get(id);
    if (!blocks) {
      return;
    }
    this._blocks.delete(id);
    blocks.forEach(block => block.dispose());
  }

  /** Put the block under its cell in one view, unless it is there. */
  private _place(
    panel: NotebookPanel,
    proposal: IProposal,
    focus: boolean
  ): void {
    const cell = panel.content.widgets.find(
      widget => widget.model.id === proposal.cellId
    );
    if (!cell || cell.isDisposed) {
      return;
    }
    const blocks = this._blocks.get(proposal.id) ?? new Set<ProposalBlock>();
    this._blocks.set(proposal.id, blocks);
    for (const block of blocks) {
      if (block.isDisposed) {
        blocks.delete(block);
      } else if (block.parent === cell) {
        return;
      }
    }
    const layout = cell.layout as PanelLayout | null;
    const index = layout?.widgets.findIndex(child =>
      child.hasClass(INPUT_WRAPPER_CLASS)
    );
    if (!layout || index === undefined || index < 0) {
      // a placeholder cell (windowing): once it renders, which bringing it
      // into view does when the block is to take the focus
      void cell.ready.then(() => {
        if (this._service.pending().some(p => p.id === proposal.id)) {
          this._place(panel, proposal, focus);
        }
      });
      if (focus && !isTyping(document.activeElement)) {
        void this._scrollTo(panel, cell);
      }
      return;
    }
    const block = new ProposalBlock({
      proposal,
      translator: this._translator,
      onAccept: id => this._tellIfNotApplied(this._service.accept(id)),
      onDeny: (id, reason) => this._service.deny(id, reason)
    });
    blocks.add(block);
    layout.insertWidget(index + 1, block);
    if (focus && !isTyping(document.activeElement)) {
      void this._focus(panel, cell, block);
    }
  }

  /**
   * An Accept that did not apply (the re-check on accept refused it) says so,
   * so the person's click is never a silent no-op.
   */
  private _tellIfNotApplied(outcome: ProposalOutcome | null): void {
    if (outcome?.kind !== 'stale') {
      return;
    }
    const trans = (this._translator ?? nullTranslator).load(
      'jupyterlite-webmcp'
    );
    let why: string;
    switch (normalizeError(outcome.error).error) {
      case 'STALE_CELL':
        why = trans.__(
          'The cell changed while you reviewed the change; your version was kept.'
        );
        break;
      case 'CELL_ACCESS_DENIED':
        why = trans.__('The cell is now read-only for the agent.');
        break;
      case 'NOTEBOOK_ACCESS_DENIED':
        why = trans.__('The notebook is now read-only for the agent.');
        break;
      case 'CELL_NOT_FOUND':
        why = trans.__('The cell is now hidden from the agent, or gone.');
        break;
      default:
        why = trans.__('The cell could not be written.');
    }
    Notification.warning(
      trans.__("The agent's change was not applied. %1", why),
      { autoClose: 8000 }
    );
  }

  private async _focus(
    panel: NotebookPanel,
    cell: Cell,
    block: ProposalBlock
  ): Promise<void> {
    if (!cell.inViewport) {
      await this._scrollTo(panel, cell);
    }
    // a cell just rendered by windowing may reach the page a frame later
    for (let frame = 0; frame < 10 && !block.node.isConnected; frame++) {
      await new Promise(resolve => requestAnimationFrame(resolve));
    }
    if (!block.isDisposed && !isTyping(document.activeElement)) {
      block.node.focus({ preventScroll: true });
      block.node.scrollIntoView({ block: 'nearest' });
    }
  }

  /**
   * Bring a cell into view without activating it (the notebook's
   * `scrollToCell` activates the cell, which focuses its editor).
   */
  private async _scrollTo(panel: NotebookPanel, cell: Cell): Promise<void> {
    const index = panel.content.widgets.indexOf(cell);
    if (index >= 0) {
      await panel.content.scrollToItem(index, 'center').catch(() => undefined);
    }
  }

  private _service: ProposalService;
  private _tracker: INotebookTracker;
  private _translator: ITranslator | null;
  private _blocks = new Map<string, Set<ProposalBlock>>();
  private _followed = new Set<NotebookPanel>();
  private _isDisposed = false;
}

export namespace ProposalBlocks {
  export interface IOptions {
    service: ProposalService;
    tracker: INotebookTracker;
    translator?: ITranslator | null;
  }
}
