/**
 * The base of the Agent panel's tab bodies: a ReactWidget over a model whose
 * content re-renders (through `UseSignal` on `refreshed`) when the model
 * changes, but only while it is visible. A hidden tab just remembers that it
 * is stale and renders once it shows again, so a collapsed panel never
 * touches the page.
 */
import { ReactWidget, UseSignal } from '@jupyterlab/ui-components';
import { type Message } from '@lumino/messaging';
import { type ISignal, Signal } from '@lumino/signaling';
import * as React from 'react';

/** What a tab body renders: a model that says when it changed. */
export interface ITabModel {
  readonly changed: ISignal<unknown, unknown>;
}

export abstract class TabBody<M extends ITabModel> extends ReactWidget {
  constructor(model: M) {
    super();
    this.addClass('jp-AgentPanel-tab');
    this._model = model;
    model.changed.connect(this.refresh, this);
  }

  /** The model the tab renders. */
  get model(): M {
    return this._model;
  }

  /** Emitted when the visible content must be rendered again. */
  get refreshed(): ISignal<this, void> {
    return this._refreshed;
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._model.changed.disconnect(this.refresh, this);
    super.dispose();
    Signal.clearData(this);
  }

  protected render(): React.ReactElement {
    return React.createElement(UseSignal, {
      signal: this.refreshed,
      children: () => this.content()
    });
  }

  /** The tab's content, rendered from the model as it is now. */
  protected abstract content(): React.ReactElement;

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

  private readonly _model: M;
  private _stale = false;
  private readonly _refreshed = new Signal<this, void>(this);
}
