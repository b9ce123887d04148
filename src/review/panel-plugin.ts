/**
 * The review feature's part of the Agent panel: the Comments section (every
 * thread of the current notebook, and the composer new comments are written
 * in), the human's review commands and their menus, which ask for the text
 * in that composer, and "Show Review Comments". The views are in
 * src/panel/comments*.ts(x).
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator } from '@jupyterlab/translation';
import { type IDisposable } from '@lumino/disposable';

import { activateWhenIdle, PARTS } from '../common/parts';
import { IAgentAccess, IAgentPanel, IReviewStore } from '../tokens';

/** The section and its commands, in a chunk fetched once the page is idle. */
const loadWiring = PARTS.lazy(
  'the Comments section',
  () => import(/* webpackChunkName: "later" */ '../later')
);

let wiring: IDisposable | null = null;

/**
 * The Comments section of the Agent panel and the review commands. The
 * commands need the section's composer, so the plugin requires the panel.
 */
export const reviewPanelPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:review-panel',
  description:
    'The Comments section of the Agent panel, and the commands that start a review thread.',
  autoStart: true,
  // the store is resolved with the section, once the page is idle
  requires: [INotebookTracker, IAgentAccess, IAgentPanel],
  optional: [ITranslator, ICommandPalette],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    access: IAgentAccess,
    panel: IAgentPanel,
    translator: ITranslator | null,
    palette: ICommandPalette | null
  ): void => {
    const load = async () => ({
      wiring: await loadWiring(),
      review: await app.resolveRequiredService(IReviewStore)
    });
    wiring = activateWhenIdle(app.restored, load, loaded =>
      loaded.wiring.activateReviewPanel(
        app,
        tracker,
        access,
        loaded.review,
        panel,
        translator,
        palette
      )
    );
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
