import {
  ILayoutRestorer,
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { IStatusBar } from '@jupyterlab/statusbar';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { DisposableSet } from '@lumino/disposable';

import { CommandIDs as ProposeCommandIDs } from '../propose/commands';
import { ProposeModeToggle } from '../propose/toggle';
import { IAgentAccess, IProposals, IWebMcpRegistry } from '../tokens';
import { AccessPanel } from './access-tab';
import { AccessTabModel } from './access-tab-model';
import { ActivityPanel } from './activity';
import { ActivityModel } from './activity-model';
import { AgentPanel, HeaderRanks, TabRanks } from './panel';
import { revealCell } from './reveal';
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
  optional: [IStatusBar, ITranslator],
  activate: (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry,
    statusBar: IStatusBar | null,
    translator: ITranslator | null
  ): void => {
    if (!statusBar) {
      return;
    }
    const item = new WebMcpStatus(registry, translator ?? undefined);
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
 * listed under View › Right Sidebar), with the Activity and Access tabs,
 * and a command to open it. Works without WebMCP: Activity then says so.
 */
export const agentPanelPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:agent-panel',
  description:
    'The Agent panel: what the agent did (Activity) and what it may see or change (Access).',
  autoStart: true,
  requires: [INotebookTracker, IAgentAccess],
  optional: [
    IWebMcpRegistry,
    ITranslator,
    ICommandPalette,
    ILayoutRestorer,
    IProposals
  ],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    access: IAgentAccess,
    registry: IWebMcpRegistry | null,
    translator: ITranslator | null,
    palette: ICommandPalette | null,
    restorer: ILayoutRestorer | null,
    proposals: IProposals | null
  ): void => {
    const set = new DisposableSet();
    agentPanel = set;
    const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');

    const panel = new AgentPanel({ translator });
    const activityModel = new ActivityModel({ registry });
    const accessModel = new AccessTabModel({ tracker, access });
    panel.addTab(
      new AccessPanel({ model: accessModel, translator }),
      TabRanks.access
    );
    panel.addTab(
      new ActivityPanel({
        model: activityModel,
        translator,
        openCell: async (path, cellId) => {
          await revealCell(app, access, path, cellId);
        }
      }),
      TabRanks.activity
    );
    if (proposals) {
      panel.addHeaderItem(
        new ProposeModeToggle({
          proposals,
          translator,
          onToggle: () => {
            void app.commands.execute(ProposeCommandIDs.toggleProposeMode);
          }
        }),
        HeaderRanks.proposeMode
      );
    }
    set.add(panel);
    set.add(activityModel);
    set.add(accessModel);

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
          app.shell.activateById(panel.id);
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
  },
  deactivate: (): void => {
    agentPanel?.dispose();
    agentPanel = null;
  }
};
