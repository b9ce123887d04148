/**
 * The Agent panel: a side panel titled Agent whose sub-panels are the
 * sections (Comments from the review feature, Proposals from Propose mode,
 * Access from the access feature, Activity from the registry's calls), and
 * whose header holds controls such as the Direct/Propose toggle. It is the
 * `IAgentPanel` service: sections and header controls are added by rank,
 * each feature from its own plugin, without knowing about each other.
 */
import { type ITranslator, nullTranslator } from '@jupyterlab/translation';
import { inspectorIcon, SidePanel } from '@jupyterlab/ui-components';
import { DisposableDelegate, type IDisposable } from '@lumino/disposable';
import { AccordionPanel, Panel, Widget } from '@lumino/widgets';

import type { IAgentPanel } from '../tokens';

/** The panel's widget id (the shell, the restorer and tests know it by it). */
export const AGENT_PANEL_ID = 'jp-agent-panel';

/** The rank of a section or control added without one: after ours. */
export const DEFAULT_RANK = 1000;

export class AgentPanel extends SidePanel implements IAgentPanel {
  constructor(options: AgentPanel.IOptions = {}) {
    const translator = options.translator ?? nullTranslator;
    super({ translator });
    const trans = translator.load('jupyterlite-webmcp');
    this.id = AGENT_PANEL_ID;
    this.addClass('jp-AgentPanel');
    this.title.icon = inspectorIcon;
    this.title.label = trans.__('Agent');
    this.title.caption = trans.__(
      'Agent: comments, proposals, access and activity'
    );

    const heading = new Widget({ node: document.createElement('h2') });
    heading.addClass('jp-AgentPanel-title');
    heading.node.textContent = trans.__('Agent');
    this.header.addWidget(heading);
    // where the Direct/Propose toggle and other header controls go
    this._controls.addClass('jp-AgentPanel-headerControls');
    this.header.addWidget(this._controls);
    this.header.addClass('jp-AgentPanel-header');
    this._bringIntoView = options.bringIntoView ?? null;
  }

  /** The sections, in rank order. */
  get tabs(): readonly Widget[] {
    return this._tabs.map(entry => entry.widget);
  }

  /**
   * Adds a section (a sub-panel; its `title.label` names it) at its rank:
   * lower ranks come first, equal ranks in the order added (the ranks of
   * ours: the `IAgentPanel` token's documentation).
   * Disposing the result takes the section out of the panel.
   */
  addSection(
    widget: Widget,
    options: IAgentPanel.IRankOptions = {}
  ): IDisposable {
    const rank = options.rank ?? DEFAULT_RANK;
    const index = insertionIndex(this._tabs, rank);
    this._tabs.splice(index, 0, { widget, rank });
    widget.disposed.connect(this._onTabDisposed, this);
    this.insertWidget(index, widget);
    this._orderNodes();
    return new DisposableDelegate(() => {
      if (!this._tabs.some(entry => entry.widget === widget)) {
        return;
      }
      widget.disposed.disconnect(this._onTabDisposed, this);
      this._onTabDisposed(widget);
      if (!widget.isDisposed && this.widgets.includes(widget)) {
        widget.parent = null;
      }
    });
  }

  /**
   * Adds a control to the header (e.g. the Direct/Propose toggle), left to
   * right by rank. Disposing the result takes it out of the header.
   */
  addHeaderControl(
    widget: Widget,
    options: IAgentPanel.IRankOptions = {}
  ): IDisposable {
    const rank = options.rank ?? DEFAULT_RANK;
    const index = insertionIndex(this._controlRanks, rank);
    this._controlRanks.splice(index, 0, { widget, rank });
    widget.disposed.connect(this._onControlDisposed, this);
    this._controls.insertWidget(index, widget);
    return new DisposableDelegate(() => {
      if (!this._controlRanks.some(entry => entry.widget === widget)) {
        return;
      }
      widget.disposed.disconnect(this._onControlDisposed, this);
      this._onControlDisposed(widget);
      if (!widget.isDisposed && widget.parent === this._controls) {
        widget.parent = null;
      }
    });
  }

  /**
   * Reveals the panel (through the `bringIntoView` option: the shell
   * activates it),
   * and the given section expanded: the accordion shares its height among
   * the expanded sections, so an expanded section is in view.
   */
  reveal(section?: Widget): void {
    this._bringIntoView?.();
    if (!section) {
      return;
    }
    const index = this.tabs.indexOf(section);
    if (index < 0) {
      return;
    }
    if (this.content instanceof AccordionPanel) {
      this.content.expand(index);
    }
  }

  /**
   * Puts the sections' nodes in the order of the tabs. The accordion places
   * its sections by position, whatever their order in the page, and some
   * Lumino versions append an inserted section's nodes at the end: a screen
   * reader (which follows the page's order) would then read the tabs in
   * another order than the one on screen.
   */
  private _orderNodes(): void {
    const content = this.content;
    if (!(content instanceof AccordionPanel)) {
      return;
    }
    const { titles, handles, widgets } = content;
    widgets.forEach((widget, i) => {
      for (const node of [titles[i], widget.node, handles[i]]) {
        if (node) {
          content.node.appendChild(node);
        }
      }
    });
  }

  private _onTabDisposed(widget: Widget): void {
    this._tabs = this._tabs.filter(entry => entry.widget !== widget);
  }

  private _onControlDisposed(widget: Widget): void {
    this._controlRanks = this._controlRanks.filter(
      entry => entry.widget !== widget
    );
  }

  private _tabs: { widget: Widget; rank: number }[] = [];
  private _controlRanks: { widget: Widget; rank: number }[] = [];
  private readonly _controls = new Panel();
  private readonly _bringIntoView: (() => void) | null;
}

export namespace AgentPanel {
  export interface IOptions {
    translator?: ITranslator | null;
    /** Brings the panel into view (the plugin: the shell activates it). */
    bringIntoView?: () => void;
  }
}

/** Where an item of `rank` goes: after every item of lower or equal rank. */
export function insertionIndex(
  items: readonly { rank: number }[],
  rank: number
): number {
  const index = items.findIndex(item => item.rank > rank);
  return index < 0 ? items.length : index;
}
