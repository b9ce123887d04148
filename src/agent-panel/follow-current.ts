/**
 * Following the notebook tracker's current panel, for the Agent panel's
 * models: one place that connects `currentChanged`, moves to the tracker's
 * new current panel when the followed one is disposed, and tells the model
 * when the followed panel changes and when its model has arrived.
 */
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { type IDisposable } from '@lumino/disposable';

export class FollowCurrent implements IDisposable {
  /**
   * Starts following: `onChange` is called at once when the tracker has a
   * current panel (not for none, as nothing changed).
   */
  constructor(options: FollowCurrent.IOptions) {
    this._tracker = options.tracker;
    this._onChange = options.onChange;
    this._onReady = options.onReady ?? null;
    this._tracker.currentChanged.connect(this._onCurrent, this);
    this._bind(this._tracker.currentWidget);
  }

  /** The panel followed: the tracker's current one, or none. */
  get panel(): NotebookPanel | null {
    return this._panel;
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /** Stops following; `onChange(null, previous)` when a panel was followed. */
  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._bind(null);
    this._tracker.currentChanged.disconnect(this._onCurrent, this);
  }

  private _onCurrent(): void {
    this._bind(this._tracker.currentWidget);
  }

  private _bind(panel: NotebookPanel | null): void {
    if (panel === this._panel) {
      return;
    }
    const previous = this._panel;
    previous?.disposed.disconnect(this._onCurrent, this);
    this._panel = panel;
    if (panel) {
      panel.disposed.connect(this._onCurrent, this);
      const onReady = this._onReady;
      if (onReady) {
        // the model arrives with the context
        void panel.context.ready.then(() => {
          if (this._panel === panel && !this._isDisposed) {
            onReady(panel);
          }
        });
      }
    }
    this._onChange(panel, previous);
  }

  private readonly _tracker: INotebookTracker;
  private readonly _onChange: FollowCurrent.OnChange;
  private readonly _onReady: ((panel: NotebookPanel) => void) | null;
  private _panel: NotebookPanel | null = null;
  private _isDisposed = false;
}

export namespace FollowCurrent {
  /** The panel now followed (or none) and the one followed before. */
  export type OnChange = (
    panel: NotebookPanel | null,
    previous: NotebookPanel | null
  ) => void;

  export interface IOptions {
    tracker: INotebookTracker;
    onChange: OnChange;
    /**
     * Called once the followed panel's context is ready (its notebook model
     * is there), if it is still the one followed.
     */
    onReady?: (panel: NotebookPanel) => void;
  }
}
