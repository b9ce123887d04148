/**
 * The access feature's part of the Agent panel: the Access section, the
 * current notebook's and its cells' agent access, through the
 * `IAgentAccess` service. The view is in ./section*.ts(x).
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator } from '@jupyterlab/translation';
import { type IDisposable } from '@lumino/disposable';

import { activateWhenIdle } from '../common/parts';
import {
  IAgentAccess,
  IAgentPanel,
  IProposals,
  type IWebMcpRegistry
} from '../tokens';
import { IToolRegistry } from '../webmcp/services';
import { fromLater } from '../webmcp/tools';

/** What the plugin activates, in a chunk fetched once the page is idle. */
const loadWiring = fromLater('the Access section');

let wiring: IDisposable | null = null;

/**
 * The Access section of the Agent panel. Propose mode and the registry are
 * optional: with them, it also says what runs unreviewed and whether the
 * owner turned running off.
 */
export const accessPanelPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:access-panel',
  description:
    'The Access section of the Agent panel: what the agent may see or change in the current notebook.',
  autoStart: true,
  requires: [INotebookTracker, IAgentAccess, IAgentPanel],
  optional: [IProposals, IToolRegistry, ITranslator],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    access: IAgentAccess,
    panel: IAgentPanel,
    proposals: IProposals | null,
    registry: IWebMcpRegistry | null,
    translator: ITranslator | null
  ): void => {
    wiring = activateWhenIdle(app.restored, loadWiring, loaded =>
      loaded.activateAccessPanel(
        app,
        tracker,
        access,
        panel,
        proposals,
        registry,
        translator
      )
    );
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
