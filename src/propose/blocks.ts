/**
 * Places the review block of every pending proposal at its cell, where its
 * kind shows it (see `_place`), in every open view of its notebook, and takes
 * it away when the proposal settles, with the marks it put on cells (a
 * delete's cell, a run's cells and their notes). The block is a widget of
 * the cell's own layout, so the notebook's windowing moves it with the cell;
 * a placeholder cell gets it once it renders, and a cell widget created anew
 * (a move, a type change) gets it again. With no cell to sit at (an empty
 * notebook) it goes at the top of the notebook.
 *
 * When a block appears in the current notebook, the focus moves to it,
 * unless the human is typing somewhere (an editor, a text field).
 */
import { Notification } from '@jupyterlab/apputils';
import type { Cell } from '@jupyterlab/cells';
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import {
  type ITranslator,
  nullTranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import type { IDisposable } from '@lumino/disposable';
import { Signal } from '@lumino/signaling';
import { type PanelLayout, Widget } from '@lumino/widgets';

import { normalizeError } from '../common/errors';
import { ProposalBlock } from './block';
import type { ProposalService } from './service';
import type { IProposal, ProposalOutcome } from './store';

const INPUT_WRAPPER_CLASS = 'jp-Cell-inputWrapper';

/** On a cell a pending delete would remove. */
export const DELETE_CLASS = 'jp-mod-proposedDelete';

/** On every cell a pending run would run. */
export const RUN_CLASS = 'jp-mod-proposedRun';

/** The class of the note on each other cell a run lists. */
export const RUN_NOTE_CLASS = 'jp-ProposalRunNote';

/**
 * Where a block goes in its cell's layout: an insert above before the
 * cell's content; an insert below after its outputs; every other kind right
 * under the input. (A kernel action sits at no cell: at the top.)
 */
function blockIndex(
  proposal: IProposal,
  layout: PanelLayout,
  input: number
): number {
  if (proposal.kind === 'insert') {
    return proposal.position === 'above' ? 0 : layout.widgets.length;
  }
  return input + 1;
}

/** A small note on a cell a run lists, other than the one with the block. */
class RunNote extends Widget {
  constructor(text: string) {
    super();
    this.addClass(RUN_NOTE_CLASS);
    this.node.setAttribute('role', 'note');
    this.node.textContent = text;
  }
}

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
    // proposals that came before these blocks were loaded (they load once
    // the page is idle): each is shown, and the newest is brought into view
    // and focused, as it would have been on arrival
    const pending = this._service.pending();
    pending.forEach((proposal, i) =>
      this._show(proposal, i === pending.length - 1)
    );
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    for (const id of Array.from(this._blocks.keys())) {
      this._hide(id);
    }
    for (const id of Array.from(this._marks.keys())) {
      this._hide(id);
    }
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
    const marks = this._marks.get(id);
    this._marks.delete(id);
    for (const { cell, className } of marks ?? []) {
      if (!cell.isDisposed) {
        cell.removeClass(className);
      }
    }
    const blocks = this._blocks.get(id);
    if (!blocks) {
      return;
    }
    this._blocks.delete(id);
    blocks.forEach(block => block.dispose());
  }

  /**
   * Put a proposal's block in one view where its kind shows it, unless it
   * is there: under the cell's input (update, run, delete), above the cell's
   * content (an insert above) or after its outputs (an insert below); with
   * no cell (a kernel action, an insert into an empty notebook), at the top
   * of the notebook. A run also notes each other cell it lists, a delete marks its
   * cell.
   */
  private _place(
    panel: NotebookPanel,
    proposal: IProposal,
    focus: boolean
  ): void {
    if (proposal.cellId === null) {
      this._placeAtTop(panel, proposal, focus);
      return;
    }
    this._attach(panel, proposal, proposal.cellId, focus, 'block');
    if (proposal.kind === 'run') {
      for (const target of proposal.cells) {
        if (target.cellId !== proposal.cellId) {
          this._attach(panel, proposal, target.cellId, false, 'note');
        }
      }
    }
  }

  /**
   * A notebook with no cell: the block goes into the notebook's scrolling
   * node (its `outerNode`, the windowed list's scroll container) before the
   * list of cells, so it shows at the top of the notebook, scrolls with it,
   * and never enters the notebook's own layout of cell widgets.
   */
  private _placeAtTop(
    panel: NotebookPanel,
    proposal: IProposal,
    focus: boolean
  ): void {
    const host = panel.content.outerNode;
    const widgets = this._widgetsOf(proposal.id);
    for (const widget of widgets) {
      if (widget.node.parentNode === host) {
        return;
      }
    }
    if (!host.isConnected) {
      return;
    }
    const block = this._block(proposal);
    // Outside every cell, the notebook would take what happens in the block
    // for a click, a key or a focus on the notebook itself, and send the
    // focus on to its active cell: the block keeps its events, so it keeps the focus
    // it is given (reading, typing the reason, Tab between its buttons).
    for (const type of ['focusin', 'keydown', 'mousedown', 'dblclick']) {
      block.node.addEventListener(type, event => event.stopPropagation());
    }
    widgets.add(block);
    Widget.attach(block, host, host.firstChild as HTMLElement | null);
    if (focus && !isTyping(document.activeElement)) {
      void this._focus(panel, null, block);
    }
  }

  /**
   * Put the block (or a run's note) at a cell in one view, unless it is
   * there; a placeholder cell (windowing) gets it once it renders.
   */
  private _attach(
    panel: NotebookPanel,
    proposal: IProposal,
    cellId: string,
    focus: boolean,
    role: 'block' | 'note'
  ): void {
    const cell = panel.content.widgets.find(
      widget => widget.model.id === cellId
    );
    if (!cell || cell.isDisposed) {
      return;
    }
    const widgets = this._widgetsOf(proposal.id);
    const wanted = role === 'block' ? ProposalBlock : RunNote;
    for (const widget of widgets) {
      if (widget.isDisposed) {
        widgets.delete(widget);
      } else if (widget.parent === cell && widget instanceof wanted) {
        return;
      }
    }
    const layout = cell.layout as PanelLayout | null;
    const input = layout?.widgets.findIndex(child =>
      child.hasClass(INPUT_WRAPPER_CLASS)
    );
    if (!layout || input === undefined || input < 0) {
      // a placeholder cell (windowing): once it renders, which bringing it
      // into view does when the block is to take the focus
      void cell.ready.then(() => {
        if (this._service.pending().some(p => p.id === proposal.id)) {
          this._attach(panel, proposal, cellId, focus, role);
        }
      });
      if (focus && !isTyping(document.activeElement)) {
        void this._scrollTo(panel, cell);
      }
      return;
    }
    if (role === 'note') {
      const index = proposal.cells.findIndex(c => c.cellId === cellId);
      const note = new RunNote(
        this._trans().__(
          "Cell %1 of %2 of the agent's run proposal, shown at its first cell.",
          index + 1,
          proposal.cells.length
        )
      );
      widgets.add(note);
      layout.insertWidget(input + 1, note);
      this._mark(proposal.id, cell, RUN_CLASS);
      return;
    }
    const block = this._block(proposal);
    widgets.add(block);
    layout.insertWidget(blockIndex(proposal, layout, input), block);
    if (proposal.kind === 'delete') {
      this._mark(proposal.id, cell, DELETE_CLASS);
    } else if (proposal.kind === 'run') {
      this._mark(proposal.id, cell, RUN_CLASS);
    }
    if (focus && !isTyping(document.activeElement)) {
      void this._focus(panel, cell, block);
    }
  }

  private _block(proposal: IProposal): ProposalBlock {
    return new ProposalBlock({
      proposal,
      translator: this._translator,
      onAccept: (id, options) =>
        this._tellIfNotApplied(this._service.accept(id, options)),
      onDeny: (id, reason) => this._service.deny(id, reason)
    });
  }

  private _widgetsOf(id: string): Set<Widget> {
    let widgets = this._blocks.get(id);
    if (!widgets) {
      widgets = new Set<Widget>();
      this._blocks.set(id, widgets);
    }
    return widgets;
  }

  /** Mark a cell while the proposal waits (taken off when it settles). */
  private _mark(id: string, cell: Cell, className: string): void {
    cell.addClass(className);
    let marks = this._marks.get(id);
    if (!marks) {
      marks = [];
      this._marks.set(id, marks);
    }
    marks.push({ cell, className });
  }

  private _trans(): TranslationBundle {
    return (this._translator ?? nullTranslator).load('jupyterlite-webmcp');
  }

  /**
   * An Accept that did not apply (the re-check on accept refused it) says so,
   * so the person's click is never a silent no-op.
   */
  private _tellIfNotApplied(outcome: ProposalOutcome | null): void {
    if (outcome?.kind !== 'stale') {
      return;
    }
    const trans = this._trans();
    const kind = outcome.proposal.kind;
    let why: string;
    switch (normalizeError(outcome.error).error) {
      case 'STALE_CELL':
        why =
          kind === 'delete'
            ? trans.__(
                'The cell changed while you reviewed it; it was not deleted.'
              )
            : trans.__(
                'The cell changed while you reviewed the change; your version was kept.'
              );
        break;
      case 'CELL_ACCESS_DENIED':
        why = trans.__('The cell is now read-only for the agent.');
        break;
      case 'NOTEBOOK_ACCESS_DENIED':
        why = trans.__('The notebook is now read-only for the agent.');
        break;
      case 'NOTEBOOK_NOT_FOUND':
      case 'NO_ACTIVE_NOTEBOOK':
        why = trans.__('The notebook is now hidden from the agent.');
        break;
      case 'CELL_NOT_FOUND':
        why =
          kind === 'insert'
            ? trans.__(
                'The cell it was to go next to is now hidden from the agent, or gone.'
              )
            : trans.__('The cell is now hidden from the agent, or gone.');
        break;
      default:
        switch (kind) {
          case 'insert':
            why = trans.__('The cell could not be inserted.');
            break;
          case 'delete':
            why = trans.__('The cell could not be deleted.');
            break;
          case 'run':
            why = trans.__('The code could not be run.');
            break;
          case 'kernel':
            why = trans.__('The kernel action could not be done.');
            break;
          default:
            why = trans.__('The cell could not be written.');
        }
    }
    let message: string;
    switch (kind) {
      case 'insert':
        message = trans.__("The agent's new cell was not inserted. %1", why);
        break;
      case 'delete':
        message = trans.__("The agent's delete was not applied. %1", why);
        break;
      case 'run':
        message = trans.__("The agent's code was not run. %1", why);
        break;
      case 'kernel':
        message =
          outcome.proposal.action === 'interrupt'
            ? trans.__('The kernel was not interrupted. %1', why)
            : trans.__('The kernel was not restarted. %1', why);
        break;
      default:
        message = trans.__("The agent's change was not applied. %1", why);
    }
    Notification.warning(message, { autoClose: 8000 });
  }

  private async _focus(
    panel: NotebookPanel,
    cell: Cell | null,
    block: ProposalBlock
  ): Promise<void> {
    if (cell && !cell.inViewport) {
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
  /** Per proposal: its blocks (one per view) and a run's notes. */
  private _blocks = new Map<string, Set<Widget>>();
  /** Per proposal: the classes it put on cells. */
  private _marks = new Map<string, { cell: Cell; className: string }[]>();
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
