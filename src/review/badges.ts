/**
 * The review badge of a cell: in the prompt area of every cell with open
 * review threads, a button saying how many; pressing it shows them in the
 * Comments tab. The human sees every thread, those on cells hidden from the
 * agent included.
 *
 * One `ReviewBadges` per notebook panel, disposed with it. Event-driven like
 * the access markers: badges are redrawn when the stored threads change
 * (whoever wrote them: this browser, a collaborator, an undo), when the cell
 * list changes, and when a placeholder cell renders. The badge lives in the
 * cell's input wrapper, which survives windowing.
 */
import type { ISharedNotebook, NotebookChange } from '@jupyter/ydoc';
import type { Cell } from '@jupyterlab/cells';
import type { NotebookPanel } from '@jupyterlab/notebook';
import {
  nullTranslator,
  type ITranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import { LabIcon } from '@jupyterlab/ui-components';

import { InputDecorations } from '../common/cell-dom';
import { REVIEW_METADATA_KEY, storedThreads } from './storage';

/** The class of a cell's review badge. */
export const BADGE_CLASS = 'jp-AgentReviewBadge';

/** The class of a cell with a review badge. */
export const REVIEWED_CELL_CLASS = 'jp-mod-agentReviewed';

/** A speech bubble. */
export const reviewIcon = new LabIcon({
  name: 'jupyterlite-webmcp:review',
  svgstr:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" width="16" height="16" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"><path d="M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z"/></svg>'
});

/** How many open threads each cell id has, hidden cells included. */
export function openThreadsByCell(model: ISharedNotebook): Map<string, number> {
  const counts = new Map<string, number>();
  for (const thread of storedThreads(model)) {
    if (thread.status === 'open') {
      const id = thread.anchor.cellId;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  return counts;
}

export class ReviewBadges {
  constructor(options: ReviewBadges.IOptions) {
    this._panel = options.panel;
    this._trans = (options.translator ?? nullTranslator).load(
      'jupyterlite-webmcp'
    );
    this._onActivate = options.onActivate;
    this._panel.content.modelChanged.connect(this._connect, this);
    this._panel.disposed.connect(this.dispose, this);
    void this._panel.context.ready.then(() => this._connect());
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._model?.changed.disconnect(this._onChanged, this);
    this._model = null;
    this._panel.content.modelChanged.disconnect(this._connect, this);
    this._panel.disposed.disconnect(this.dispose, this);
  }

  private _connect(): void {
    if (this._isDisposed) {
      return;
    }
    const model = this._panel.content.model?.sharedModel ?? null;
    if (model === this._model) {
      return;
    }
    this._model?.changed.disconnect(this._onChanged, this);
    this._model = model;
    model?.changed.connect(this._onChanged, this);
    this._renderAll();
  }

  private _onChanged(_: ISharedNotebook, change: NotebookChange): void {
    if (change.cellsChange || change.metadataChange?.has(REVIEW_METADATA_KEY)) {
      this._renderAll();
    }
  }

  private _renderAll(): void {
    const model = this._model;
    if (!model || this._isDisposed) {
      return;
    }
    // cell widgets for new cells exist once the notebook saw the change
    requestAnimationFrame(() => {
      if (this._isDisposed || this._model !== model) {
        return;
      }
      this._counts = openThreadsByCell(model);
      for (const widget of this._panel.content.widgets) {
        this._render(widget);
      }
    });
  }

  private _render(widget: Cell): void {
    if (widget.isDisposed || this._isDisposed) {
      return;
    }
    const cellId = widget.model.id;
    const count = this._counts.get(cellId) ?? 0;
    widget.node.classList.toggle(REVIEWED_CELL_CLASS, count > 0);
    const place = this._decorations.place(widget, count > 0);
    if (!place) {
      return;
    }
    let badge = place.node;
    if (badge?.dataset.count === String(count)) {
      return;
    }
    if (!badge) {
      const button = document.createElement('button');
      button.type = 'button';
      badge = button;
      badge.className = BADGE_CLASS;
      badge.addEventListener('click', event => {
        event.stopPropagation();
        this._onActivate(widget.model.id);
      });
      // a click must not start a drag or select the cell first
      badge.addEventListener('mousedown', event => event.stopPropagation());
      place.host.appendChild(badge);
    }
    badge.dataset.count = String(count);
    const label = this._trans._n(
      '%1 open review thread on this cell',
      '%1 open review threads on this cell',
      count
    );
    badge.setAttribute('aria-label', label);
    badge.title = this._trans.__('%1. Show in the Comments tab.', label);
    const icon = reviewIcon.element({
      tag: 'span',
      className: `${BADGE_CLASS}-icon`
    });
    const text = document.createElement('span');
    text.className = `${BADGE_CLASS}-count`;
    text.textContent = String(count);
    badge.replaceChildren(icon, text);
  }

  private readonly _panel: NotebookPanel;
  private readonly _trans: TranslationBundle;
  private readonly _onActivate: (cellId: string) => void;
  private _model: ISharedNotebook | null = null;
  private _counts = new Map<string, number>();
  /** The badges in the input wrappers (placeholders when rendered). */
  private readonly _decorations = new InputDecorations(BADGE_CLASS, widget =>
    this._render(widget)
  );
  private _isDisposed = false;
}

export namespace ReviewBadges {
  export interface IOptions {
    panel: NotebookPanel;
    translator?: ITranslator | null;
    /** What pressing a cell's badge does (show its threads). */
    onActivate: (cellId: string) => void;
  }
}
