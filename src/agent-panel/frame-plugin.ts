/**
 * The Agent panel's frame, part of the page's start (src/index.ts): the
 * layout restorer must know the panel before the layout is restored, to
 * show it again where the person left it. Its sections come with the
 * features' plugins, after the layout is restored.
 */
import {
  ILayoutRestorer,
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { DisposableSet } from '@lumino/disposable';

import { IAgentPanel } from '../tokens';
import { AGENT_PANEL_ID, AgentPanel } from './panel';

/** The ids of the Agent panel's commands. */
export namespace CommandIDs {
  /** Reveal the Agent panel. */
  export const openAgentPanel = 'jupyterlite-webmcp:open-agent-panel';
}

/** Where the panel sits among the right sidebar's panels. */
const PANEL_RANK = 600;

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
