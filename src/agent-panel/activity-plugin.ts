/**
 * The Activity section of the Agent panel: every tool call live and the
 * bounded history (the registry's call stream), and the agent's edits of the
 * current notebook with their reverts; and, from the same stream, the
 * agent's presence on the cells it acts on. The registry is optional: without
 * WebMCP the section says so and still lists the agent's edits, which come
 * from the notebook alone.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { ITranslator } from '@jupyterlab/translation';
import { type IDisposable } from '@lumino/disposable';

import { activateWhenIdle } from '../common/parts';
import { IAgentAccess, IAgentPanel, type IWebMcpRegistry } from '../tokens';
import { IToolRegistry } from '../webmcp/services';
import { fromLater } from '../webmcp/tools';

/** What the plugin activates, in a chunk fetched once the page is idle. */
const loadWiring = fromLater('the Activity section');

let wiring: IDisposable | null = null;

/**
 * The Activity section and the on-cell presence. Its history size is the
 * Agent panel's `activityHistorySize` setting.
 */
export const activityPanelPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:activity-panel',
  description:
    'The Activity section of the Agent panel (tool calls and agent edits), and the agent presence on cells.',
  autoStart: true,
  requires: [INotebookTracker, IAgentAccess, IAgentPanel],
  optional: [IToolRegistry, ITranslator, ISettingRegistry],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    access: IAgentAccess,
    panel: IAgentPanel,
    registry: IWebMcpRegistry | null,
    translator: ITranslator | null,
    settingRegistry: ISettingRegistry | null
  ): void => {
    wiring = activateWhenIdle(app.restored, loadWiring, loaded =>
      loaded.activateActivityPanel(
        app,
        tracker,
        access,
        panel,
        registry,
        translator,
        settingRegistry
      )
    );
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
