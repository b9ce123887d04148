import {
  ILayoutRestorer,
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { IStatusBar } from '@jupyterlab/statusbar';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { DisposableSet } from '@lumino/disposable';

import { IAgentPanel, IProposals, IWebMcpRegistry } from '../tokens';
import { AGENT_PANEL_ID, AgentPanel } from './panel';
import { WebMcpStatus } from './status';

/** The ids of the Agent panel's commands. */
export namespace CommandIDs {
  /** Reveal the Agent panel. */
  export const openAgentPanel = 'jupyterlite-webmcp:open-agent-panel';
}

/** Where the panel sits among the right sidebar's panels. */
const PANEL_RANK = 600;

let statusItem: DisposableSet | null = null;

/**
 * Shows WebMCP's availability, the registered tools and the call in progress
 * in the status bar.
 */
export const statusPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:status',
  description: 'Shows WebMCP availability and tool calls in the status bar.',
  autoStart: true,
  requires: [IWebMcpRegistry],
  optional: [IStatusBar, ITranslator, IProposals],
  activate: (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry,
    statusBar: IStatusBar | null,
    translator: ITranslator | null,
    proposals: IProposals | null
  ): void => {
    if (!statusBar) {
      return;
    }
    const item = new WebMcpStatus(registry, translator ?? undefined, proposals);
    const registration = statusBar.registerStatusItem(
      'jupyterlite-webmcp:status',
      { item, align: 'left', rank: 900 }
    );
    statusItem = new DisposableSet();
    statusItem.add(registration);
    statusItem.add(item);
  },
  deactivate: (): void => {
    statusItem?.dispose();
    statusItem = null;
  }
};

let agentPanel: DisposableSet | null = null;

/**
 * The Agent panel in the right sidebar (Notebook 7: its right side panel,
 * listed under View › Right Sidebar), and a command to open it. It provides
 * `IAgentPanel`: each feature adds its own section from its own plugin
 * (Comments: src/review/section-plugin.ts, Proposals and the header's switch:
 * src/propose/section-plugin.ts, Access: src/access/section-plugin.ts,
 * Activity: ./activity-plugin.ts), and so can another extension.
 */
export const agentPanelPlugin: JupyterFrontEndPlugin<IAgentPanel> = {
  // also the id of its settings (schema/agent-panel.json), which the
  // Activity plugin reads
  id: 'jupyterlite-webmcp:agent-panel',
  description:
    'The Agent panel, where features add their sections: comments, proposals, access and activity.',
  autoStart: true,
  provides: IAgentPanel,
  optional: [ITranslator, ICommandPalette, ILayoutRestorer],
  activate: (
    app: JupyterFrontEnd,
    translator: ITranslator | null,
    palette: ICommandPalette | null,
    restorer: ILayoutRestorer | null
  ): IAgentPanel => {
    const set = new DisposableSet();
    agentPanel = set;
    const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');

    const panel = new AgentPanel({
      translator,
      bringIntoView: () => app.shell.activateById(AGENT_PANEL_ID)
    });
    set.add(panel);
    app.shell.add(panel, 'right', { rank: PANEL_RANK });
    restorer?.add(panel, panel.id);

    set.add(
      app.commands.addCommand(CommandIDs.openAgentPanel, {
        label: trans.__('Open Agent Panel'),
        caption: trans.__(
          'Show the Agent panel: what the agent did and what it may see or change.'
        ),
        describedBy: { args: { type: 'object', properties: {} } },
        execute: () => {
          panel.reveal();
        }
      })
    );
    if (palette) {
      set.add(
        palette.addItem({
          command: CommandIDs.openAgentPanel,
          category: trans.__('Agent')
        })
      );
    }
    return panel;
  },
  deactivate: (): void => {
    agentPanel?.dispose();
    agentPanel = null;
  }
};
