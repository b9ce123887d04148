import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator } from '@jupyterlab/translation';
import { DisposableSet, type IDisposable } from '@lumino/disposable';

import { activateWhenIdle, PARTS } from '../common/parts';
import { IReviewStore, type IWebMcpRegistry } from '../tokens';
import { IToolRegistry, IToolServices } from '../webmcp/services';
import { commentTools, fromLater } from '../webmcp/tools';

/** Provides the review store: the threads stored in notebook metadata. */
export const reviewStorePlugin: JupyterFrontEndPlugin<IReviewStore> = {
  id: 'jupyterlite-webmcp:review-store',
  description:
    'Reads the review threads stored in notebooks, as the agent may see them.',
  // started when first needed (a comment tool's first call, the Comments
  // section once the page is idle), not with the page
  autoStart: 'defer',
  provides: IReviewStore,
  activate: async (): Promise<IReviewStore> => {
    await PARTS.started;
    return new (await loadStore()).ReviewStore();
  }
};

let tools: DisposableSet | null = null;

/** The seven review-thread tools, added to the WebMCP registry. */
export const reviewToolsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:review-tools',
  description:
    'Adds the review-thread tools (jupyter_list_comments and the six others) to the WebMCP registry.',
  autoStart: true,
  requires: [IToolRegistry, IToolServices],
  activate: (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry,
    services: IToolServices
  ): void => {
    const set = new DisposableSet();
    tools = set;
    const review = () => app.resolveRequiredService(IReviewStore);
    for (const tool of commentTools(services, review)) {
      set.add(registry.addTool(tool));
    }
  },
  deactivate: (): void => {
    tools?.dispose();
    tools = null;
  }
};

/** The store of review threads, in the chunk fetched once the page is idle. */
const loadStore = fromLater('the review threads');

/** The badges, in a chunk fetched once the page is idle. */
const loadBadges = fromLater('the review badges');

let wiring: IDisposable | null = null;

/**
 * A badge on every cell with open review threads; pressing it shows them in
 * the Comments section. (The commands that start a thread come with that
 * section, in ./section-plugin.ts: they ask for the text there.)
 */
export const reviewBadgesPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:review-badges',
  description: 'Badges cells that have open review threads.',
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ITranslator],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    translator: ITranslator | null
  ): void => {
    wiring = activateWhenIdle(app.restored, loadBadges, loaded =>
      loaded.activateReviewBadges(app, tracker, translator)
    );
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
