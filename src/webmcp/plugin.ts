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
import { afterStart, PARTS } from '../common/parts';
import { type IJupyterEnvironment } from '../jupyter/environment';
import { NotebookResolver } from '../jupyter/notebook';
import { IAgentAccess, IProposals, type IWebMcpRegistry } from '../tokens';
import { toolNotebooks } from './notebooks';
import { WebMcpRegistry } from './register';
import { IToolRegistry, IToolServices } from './services';
import { coreTools, loadHandlers, preloadHandlers } from './tools';
import { InputValidator } from './validate';

/**
 * What our tools are built from: the app as the semantic layer sees it, the
 * notebook resolver and the rule of which notebooks an agent may list.
 */
export const toolServicesPlugin: JupyterFrontEndPlugin<IToolServices> = {
  id: 'jupyterlite-webmcp:tool-services',
  description:
    "The app, notebook resolver and visibility rule the notebook tools' handlers use.",
  autoStart: true,
  requires: [INotebookTracker, IDocumentManager, IAgentAccess],
  optional: [ILabShell, IDefaultFileBrowser],
  provides: IToolServices,
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    docManager: IDocumentManager,
    access: IAgentAccess,
    labShell: ILabShell | null,
    fileBrowser: IDefaultFileBrowser | null
  ): IToolServices => {
    const env: IJupyterEnvironment = {
      app,
      tracker,
      docManager,
      contents: app.serviceManager.contents,
      kernelspecs: app.serviceManager.kernelspecs,
      multiDocument: labShell !== null,
      announced: access.announced,
      withholdSecrets: () => access.withholdSecretsByDefault ?? true,
      browsingDirectory: () => fileBrowser?.model.path ?? null
    };
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
    return {
      env,
      resolver: new NotebookResolver(env),
      isNotebookVisible: entry => visibility.isVisible(entry)
    };
  }
};

let registry: WebMcpRegistry | null = null;

/**
 * Registers the notebook tools on the page's WebMCP model context: its own
 * core tools here; the review and selection features add theirs, and other
 * extensions theirs, through `IWebMcpRegistry.addTool`.
 */
const plugin: JupyterFrontEndPlugin<IWebMcpRegistry> = {
  id: 'jupyterlite-webmcp:webmcp',
  description: 'Registers the notebook tools on document.modelContext.',
  autoStart: true,
  requires: [IToolServices],
  optional: [ISettingRegistry, IProposals],
  // the public IWebMcpRegistry is the start's, which hands this one out
  provides: IToolRegistry,
  activate: (
    app: JupyterFrontEnd,
    services: IToolServices,
    settingRegistry: ISettingRegistry | null,
    proposals: IProposals | null
  ): IWebMcpRegistry => {
    registry = new WebMcpRegistry({
      tools: coreTools(services, proposals),
      // ours are generated at build time and come with the handlers' chunk
      validator: new InputValidator(
        async () => (await loadHandlers()).COMPILED_VALIDATORS
      ),
      notebooks: toolNotebooks(services.resolver)
    });
    const started = registry;
    // the parts the start does not need wait until the tools are registered
    // (or no WebMCP was found at the first look); then, once the page is
    // idle, the handlers' chunk is fetched before the first call needs it
    // (docs/architecture.md, "A small start")
    PARTS.holdUntil(app.restored.then(() => started.settled()));
    void afterStart(app.restored).then(preloadHandlers);
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
