/**
 * The base of the Agent panel's tab bodies: a ReactWidget whose content
 * re-renders (through `UseSignal` on `refreshed`) when its model changes,
 * but only while it is visible. A hidden tab just remembers that it is
 * stale and renders once it shows again, so a collapsed panel never
 * touches the page.
 */
import { ReactWidget } from '@jupyterlab/ui-components';
import { type Message } from '@lumino/messaging';
import { type ISignal, Signal } from '@lumino/signaling';

export abstract class TabBody extends ReactWidget {
  constructor() {
    super();
    this.addClass('jp-AgentPanel-tab');
  }

  /** Emitted when the visible content must be rendered again. */
  get refreshed(): ISignal<this, void> {
    return this._refreshed;
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    super.dispose();
    Signal.clearData(this);
  }

  /** Re-render now if visible, else once shown. */
  protected refresh(): void {
    if (this.isDisposed) {
      return;
    }
    if (this.isVisible) {
      this._stale = false;
      this._refreshed.emit();
    } else {
      this._stale = true;
    }
  }

  protected onAfterShow(msg: Message): void {
    super.onAfterShow(msg);
    if (this._stale) {
      this._stale = false;
      this._refreshed.emit();
    }
  }

  private _stale = false;
  private readonly _refreshed = new Signal<this, void>(this);
}
