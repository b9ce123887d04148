/**
 * The Direct/Propose switch of the Agent panel's header, for the current
 * notebook: a button with the switch role, checked in Propose mode, that
 * runs the toggle command, so the mouse, the keyboard (Space, Enter) and the
 * palette do the same thing. With no notebook open it is disabled.
 */
import {
  nullTranslator,
  type ITranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';

import type { IProposals, ProposeMode } from '../tokens';

export class ProposeModeToggle extends Widget {
  constructor(options: ProposeModeToggle.IOptions) {
    super();
    this._proposals = options.proposals;
    this._trans = (options.translator ?? nullTranslator).load(
      'jupyterlite-webmcp'
    );
    this.addClass('jp-ProposeModeToggle');
    const button = document.createElement('button');
    button.type = 'button';
    button.setAttribute('role', 'switch');
    button.className = 'jp-ProposeModeToggle-button';
    button.setAttribute('aria-label', this._trans.__('Propose mode'));
    button.addEventListener('click', options.onToggle);
    const track = document.createElement('span');
    track.className = 'jp-ProposeModeToggle-track';
    track.setAttribute('aria-hidden', 'true');
    const text = document.createElement('span');
    text.className = 'jp-ProposeModeToggle-text';
    text.textContent = this._trans.__('Propose');
    text.setAttribute('aria-hidden', 'true');
    button.append(track, text);
    this.node.appendChild(button);
    this._button = button;
    this._proposals.modeChanged.connect(this._render, this);
    this._render();
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._proposals.modeChanged.disconnect(this._render, this);
    super.dispose();
  }

  private _render(): void {
    const mode: ProposeMode = this._proposals.mode;
    const on = mode === 'propose';
    const enabled = this._proposals.hasNotebook;
    this._button.setAttribute('aria-checked', on ? 'true' : 'false');
    this._button.setAttribute('aria-disabled', enabled ? 'false' : 'true');
    this._button.title = !enabled
      ? this._trans.__(
          'Open a notebook to choose its mode: each notebook keeps its own.'
        )
      : on
        ? this._trans.__(
            "Propose mode is on for this notebook: the agent's edits of its cells wait for your Accept or Deny. Click for Direct mode."
          )
        : this._trans.__(
            "Direct mode for this notebook: the agent's edits apply at once. Click for Propose mode, where they wait for your review."
          );
    this.toggleClass('jp-mod-active', on);
  }

  private _proposals: IProposals;
  private _trans: TranslationBundle;
  private _button: HTMLButtonElement;
}

export namespace ProposeModeToggle {
  export interface IOptions {
    proposals: IProposals;
    translator?: ITranslator | null;
    /** What switching does (the toggle command). */
    onToggle: () => void;
  }
}
