import {
  ILabShell,
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { IDocumentManager } from '@jupyterlab/docmanager';
import { IDefaultFileBrowser } from '@jupyterlab/filebrowser';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';

import { ACCESS_METADATA_KEY } from '../access/model';
import { NOT_YET_KNOWN, NotebookVisibilityCache } from '../access/visibility';
import { type IJupyterEnvironment } from '../jupyter/environment';
import { NotebookResolver } from '../jupyter/notebook';
import {
  IAgentAccess,
  IOutputSelectionTracker,
  IProposals,
  IReviewStore,
  IWebMcpRegistry
} from '../tokens';
import { WebMcpRegistry } from './register';
import { buildTools } from './tools';
import { InputValidator } from './validate';

let registry: WebMcpRegistry | null = null;

/**
 * Registers the notebook tools on the page's WebMCP model context.
 */
const plugin: JupyterFrontEndPlugin<IWebMcpRegistry> = {
  id: 'jupyterlite-webmcp:webmcp',
  description: 'Registers the notebook tools on document.modelContext.',
  autoStart: true,
  requires: [INotebookTracker, IDocumentManager, IAgentAccess, IReviewStore],
  optional: [
    ILabShell,
    IDefaultFileBrowser,
    IOutputSelectionTracker,
    ISettingRegistry,
    IProposals
  ],
  provides: IWebMcpRegistry,
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    docManager: IDocumentManager,
    access: IAgentAccess,
    review: IReviewStore,
    labShell: ILabShell | null,
    fileBrowser: IDefaultFileBrowser | null,
    outputSelection: IOutputSelectionTracker | null,
    settingRegistry: ISettingRegistry | null,
    proposals: IProposals | null
  ): IWebMcpRegistry => {
    const env: IJupyterEnvironment = {
      app,
      tracker,
      docManager,
      contents: app.serviceManager.contents,
      kernelspecs: app.serviceManager.kernelspecs,
      multiDocument: labShell !== null,
      announced: access.announced,
      browsingDirectory: () => fileBrowser?.model.path ?? null
    };
    const resolver = new NotebookResolver(env);
    const visibility = new NotebookVisibilityCache({
      contents: env.contents,
      liveMetadata: path => {
        const panel = access.findPanel(path);
        if (!panel) {
          return null;
        }
        const model = panel.content.model;
        return panel.context.isReady && model
          ? model.sharedModel.getMetadata(ACCESS_METADATA_KEY)
          : NOT_YET_KNOWN;
      },
      announced: access.announced
    });
    registry = new WebMcpRegistry({
      tools: buildTools({
        env,
        resolver,
        isNotebookVisible: entry => visibility.isVisible(entry),
        outputSelection,
        review,
        proposals
      }),
      validator: new InputValidator()
    });
    const started = registry;
    if (!settingRegistry) {
      started.start();
      return started;
    }
    // the tools the owner turned off are never registered, not even briefly
    const apply = (settings: ISettingRegistry.ISettings) => {
      const value = settings.composite.disabledTools;
      void started.setDisabledTools(
        Array.isArray(value)
          ? value.filter((name): name is string => typeof name === 'string')
          : []
      );
    };
    settingRegistry
      .load(plugin.id)
      .then(settings => {
        apply(settings);
        settings.changed.connect(apply);
      })
      .catch(reason => {
        console.warn(
          'jupyterlite-webmcp: the tool settings could not be read; every tool is offered.',
          reason
        );
      })
      .finally(() => started.start());
    return started;
  },
  deactivate: (): void => {
    registry?.dispose();
    registry = null;
  }
};

export default plugin;
