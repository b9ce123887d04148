import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator } from '@jupyterlab/translation';
import { DisposableSet } from '@lumino/disposable';

import { eachNotebook } from '../common/each-notebook';
import { IReviewStore, IWebMcpRegistry } from '../tokens';
import { IToolServices } from '../webmcp/services';
import { commentTools } from '../webmcp/tools';
import { ReviewBadges } from './badges';
import { CommandIDs } from './commands';
import { ReviewStore } from './storage';

/** Provides the review store: the threads stored in notebook metadata. */
export const reviewStorePlugin: JupyterFrontEndPlugin<IReviewStore> = {
  id: 'jupyterlite-webmcp:review-store',
  description:
    'Reads the review threads stored in notebooks, as the agent may see them.',
  autoStart: true,
  provides: IReviewStore,
  activate: (): IReviewStore => new ReviewStore()
};

let tools: DisposableSet | null = null;

/** The seven review-thread tools, added to the WebMCP registry. */
export const reviewToolsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:review-tools',
  description:
    'Adds the review-thread tools (jupyter_list_comments and the six others) to the WebMCP registry.',
  autoStart: true,
  requires: [IWebMcpRegistry, IToolServices, IReviewStore],
  activate: (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry,
    services: IToolServices,
    review: IReviewStore
  ): void => {
    const set = new DisposableSet();
    tools = set;
    for (const tool of commentTools(services, review)) {
      set.add(registry.addTool(tool));
    }
  },
  deactivate: (): void => {
    tools?.dispose();
    tools = null;
  }
};

let wiring: DisposableSet | null = null;

/**
 * A badge on every cell with open review threads; pressing it shows them in
 * the Comments section. (The commands that start a thread come with that
 * section, in ./panel-plugin.ts: they ask for the text there.)
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
    const set = new DisposableSet();
    wiring = set;
    set.add(
      eachNotebook(
        tracker,
        panel =>
          new ReviewBadges({
            panel,
            translator,
            onActivate: cellId => {
              if (app.commands.hasCommand(CommandIDs.showComments)) {
                void app.commands.execute(CommandIDs.showComments, { cellId });
              }
            }
          })
      )
    );
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
