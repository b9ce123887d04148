/**
 * What the Agent panel's section models share: following the notebook
 * tracker's current panel (moving to the tracker's new current one when the
 * followed panel is disposed), its path, the `changed` signal the view
 * repaints on, batched by a `SoonestTimer`, and, unless a model listens to
 * the notebook its own way, a repaint when a cell is added or removed (at
 * once) or edited (once typing settles, SOURCE_SETTLE_MS).
 *
 * A model calls `follow` at the end of its constructor, once its own fields
 * are set (the hooks run at once when the tracker has a current panel), and
 * overrides `onPanel` (the followed panel changed), `onModelReady` (its
 * notebook model arrived) and `dispose` (calling this one).
 */
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { type IDisposable } from '@lumino/disposable';
import { type ISignal, Signal } from '@lumino/signaling';

import { SoonestTimer } from '../common/soonest-timer';
import { SOURCE_SETTLE_MS } from './rows';

export abstract class CurrentNotebookModel implements IDisposable {
  /** Emitted (after the current task) when anything shown changed. */
  get changed(): ISignal<this, void> {
    return this._changed;
  }

  /** The notebook the section shows: the tracker's current one. */
  get panel(): NotebookPanel | null {
    return this._panel;
  }

  /** Its workspace path. */
  get path(): string | null {
    return this._panel?.context.localPath ?? null;
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /** Stops following; what a subclass connected, it disconnects first. */
  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._tracker?.currentChanged.disconnect(this._onCurrent, this);
    this._bind(null);
    this._repaint.dispose();
    Signal.clearData(this);
  }

  /**
   * Starts following the tracker's current notebook; with `cells` false the
   * model listens to the notebook itself (`onModelReady`).
   */
  protected follow(tracker: INotebookTracker, cells = true): void {
    this._tracker = tracker;
    this._cells = cells;
    tracker.currentChanged.connect(this._onCurrent, this);
    this._bind(tracker.currentWidget);
  }

  /** Tell the view after `delay` ms, or sooner if asked sooner. */
  protected repaint(delay = 0): void {
    this._repaint.schedule(delay);
  }

  /** The followed panel changed (`this.panel` is the new one, or none). */
  protected onPanel(
    _panel: NotebookPanel | null,
    _previous: NotebookPanel | null
  ): void {
    // nothing by default
  }

  /** The followed panel's notebook model is there. */
  protected onModelReady(_panel: NotebookPanel): void {
    // nothing by default
  }

  private _onCurrent(): void {
    this._bind(this._tracker!.currentWidget);
  }

  private _bind(panel: NotebookPanel | null): void {
    const previous = this._panel;
    if (panel === previous) {
      return;
    }
    if (previous) {
      previous.disposed.disconnect(this._onCurrent, this);
      previous.content.model?.cells.changed.disconnect(this._onCells, this);
      previous.content.model?.contentChanged.disconnect(this._onSource, this);
    }
    this._panel = panel;
    if (panel) {
      panel.disposed.connect(this._onCurrent, this);
      // the model arrives with the context
      void panel.context.ready.then(() => {
        if (this._panel === panel && !this._isDisposed) {
          this._onReady(panel);
        }
      });
    }
    this.onPanel(panel, previous);
    this.repaint();
  }

  private _onReady(panel: NotebookPanel): void {
    if (this._cells) {
      panel.content.model?.cells.changed.connect(this._onCells, this);
      panel.content.model?.contentChanged.connect(this._onSource, this);
    }
    this.onModelReady(panel);
    this.repaint();
  }

  private _onCells(): void {
    this.repaint();
  }

  private _onSource(): void {
    // an edit changes previews (and may end an allowance, move anchored
    // text): shown once typing settles
    this.repaint(SOURCE_SETTLE_MS);
  }

  private _tracker: INotebookTracker | null = null;
  private _cells = true;
  private _panel: NotebookPanel | null = null;
  /** Tells the view, at the soonest delay asked for. */
  private readonly _repaint = new SoonestTimer(() => this._changed.emit());
  private _isDisposed = false;
  private readonly _changed = new Signal<this, void>(this);
}
