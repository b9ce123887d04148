/**
 * The Activity section of the Agent panel: every tool call live and the
 * bounded history (the registry's call stream), and the agent's edits of the
 * current notebook with their reverts; and, from the same stream, the
 * agent's presence on the cells it acts on. The registry is optional: without
 * WebMCP the section says so and still lists the agent's edits, which come
 * from the notebook alone.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { type INotebookTracker } from '@jupyterlab/notebook';
import { type ISettingRegistry } from '@jupyterlab/settingregistry';
import { type ITranslator } from '@jupyterlab/translation';
import {
  DisposableDelegate,
  DisposableSet,
  type IDisposable
} from '@lumino/disposable';

import {
  type IAgentAccess,
  type IAgentPanel,
  type IWebMcpRegistry
} from '../tokens';
import { ActivityPanel } from './activity-section';
import { ActivityModel } from './activity-model';
import { AgentEditsModel } from '../revert/section-model';
import { AgentPresence } from './presence';
import { revealCell } from './reveal';

/**
 * Where the history size is set: the Agent panel plugin's settings
 * (`schema/agent-panel.json`), where users have it since the panel was one
 * plugin.
 */
const PANEL_SETTINGS_ID = 'jupyterlite-webmcp:agent-panel';

/** The Activity section's rank: last of ours (the `IAgentPanel` token lists them). */
const RANK = 300;

/** Wires what the plugin activates once the page is idle; disposing undoes it. */
export function activateActivityPanel(
  app: JupyterFrontEnd,
  tracker: INotebookTracker,
  access: IAgentAccess,
  panel: IAgentPanel,
  registry: IWebMcpRegistry | null,
  translator: ITranslator | null,
  settingRegistry: ISettingRegistry | null
): IDisposable {
  const set = new DisposableSet();
  const activityModel = new ActivityModel({ registry });
  if (settingRegistry) {
    const apply = (settings: ISettingRegistry.ISettings) => {
      const size = settings.composite.activityHistorySize;
      if (typeof size === 'number') {
        activityModel.limit = size;
      }
    };
    void settingRegistry
      .load(PANEL_SETTINGS_ID)
      .then(settings => {
        if (activityModel.isDisposed) {
          return; // deactivated meanwhile
        }
        apply(settings);
        settings.changed.connect(apply);
        set.add(
          new DisposableDelegate(() => settings.changed.disconnect(apply))
        );
      })
      .catch(reason => {
        console.warn(
          'jupyterlite-webmcp: the Agent panel settings could not be read.',
          reason
        );
      });
  }
  const editsModel = new AgentEditsModel({ tracker });
  const section = new ActivityPanel({
    model: activityModel,
    edits: editsModel,
    translator,
    openCell: async (path, cellId) => {
      await revealCell(app, access, path, cellId);
    }
  });
  set.add(panel.addSection(section, { rank: RANK }));
  set.add(section);
  set.add(activityModel);
  set.add(editsModel);
  if (registry) {
    // while a tool acts on a cell, the cell says so
    set.add(new AgentPresence({ registry, access, translator }));
  }
  return set;
}
