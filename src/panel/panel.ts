/**
 * The Agent panel: a side panel titled Agent whose sub-panels are the tabs
 * (Activity and Access here; Comments comes from the review feature,
 * Proposals from Propose mode), and
 * whose header holds controls such as the Direct/Propose toggle. Tabs and
 * header controls are added by rank, so other features add theirs without
 * knowing about each other.
 */
import { type ITranslator, nullTranslator } from '@jupyterlab/translation';
import { inspectorIcon, SidePanel } from '@jupyterlab/ui-components';
import { AccordionPanel, Panel, Widget } from '@lumino/widgets';

/** The panel's widget id (the shell, the restorer and tests know it by it). */
export const AGENT_PANEL_ID = 'jp-agent-panel';

/** The ranks of the tabs, top to bottom: lower ranks come first. */
export namespace TabRanks {
  export const comments = 100;
  export const proposals = 150;
  export const access = 200;
  export const activity = 300;
}

/** The ranks of the header controls, left to right. */
export namespace HeaderRanks {
  export const proposeMode = 100;
}

export class AgentPanel extends SidePanel {
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
  }

  /** The tabs, in rank order. */
  get tabs(): readonly Widget[] {
    return this._tabs.map(entry => entry.widget);
  }

  /**
   * Adds a tab (a sub-panel; its `title.label` names it) at its rank: lower
   * ranks come first, equal ranks in the order added. See `TabRanks`.
   */
  addTab(widget: Widget, rank: number): void {
    const index = insertionIndex(this._tabs, rank);
    this._tabs.splice(index, 0, { widget, rank });
    widget.disposed.connect(this._onTabDisposed, this);
    this.insertWidget(index, widget);
    this._orderNodes();
  }

  /** Adds a control to the header (e.g. the Direct/Propose toggle). */
  addHeaderItem(widget: Widget, rank: number): void {
    const index = insertionIndex(this._controlRanks, rank);
    this._controlRanks.splice(index, 0, { widget, rank });
    widget.disposed.connect(this._onControlDisposed, this);
    this._controls.insertWidget(index, widget);
  }

  /** Shows a tab's section (expands it if it was collapsed). */
  showTab(widget: Widget): void {
    const index = this.tabs.indexOf(widget);
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
}

export namespace AgentPanel {
  export interface IOptions {
    translator?: ITranslator | null;
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
