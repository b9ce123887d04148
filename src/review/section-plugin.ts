/**
 * The review feature's part of the Agent panel: the Comments section (every
 * thread of the current notebook, and the composer new comments are written
 * in), the human's review commands and their menus, which ask for the text
 * in that composer, and "Show Review Comments". The views are in
 * ./section*.ts(x).
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';
import { DisposableSet } from '@lumino/disposable';

import { activateWhenIdle, standInCommands } from '../common/parts';
import { IAgentAccess, IAgentPanel, IReviewStore } from '../tokens';
import { CELL_CONTEXT_SELECTOR } from '../access/command-ids';
import {
  CommandIDs,
  commandLabels,
  OUTPUT_CONTEXT_SELECTOR
} from './command-ids';
import { fromLater } from '../webmcp/tools';

/** The section and its commands, in a chunk fetched once the page is idle. */
const loadWiring = fromLater('the Comments section');

let wiring: DisposableSet | null = null;

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
    const part = activateWhenIdle(app.restored, load, loaded => {
      standIns.dispose();
      return loaded.wiring.activateReviewPanel(
        app,
        tracker,
        access,
        loaded.review,
        panel,
        translator,
        palette
      );
    });
    // the commands run from the start, wiring the section when first run
    const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');
    const labels = commandLabels(trans);
    const standIns = standInCommands(
      app.commands,
      [
        { id: CommandIDs.addComment, label: labels.addComment },
        { id: CommandIDs.addCellComment, label: labels.addCellComment },
        { id: CommandIDs.addOutputComment, label: labels.addOutputComment },
        CommandIDs.showComments
      ],
      () => part.now()
    );
    wiring = new DisposableSet();
    wiring.add(part);
    wiring.add(standIns);
    // the context-menu items from the start, on the stand-ins until wired
    const items: [string, string, number][] = [
      [CommandIDs.addComment, CELL_CONTEXT_SELECTOR, 21],
      [CommandIDs.addCellComment, CELL_CONTEXT_SELECTOR, 22],
      [CommandIDs.addOutputComment, OUTPUT_CONTEXT_SELECTOR, 23]
    ];
    for (const [command, selector, rank] of items) {
      wiring.add(app.contextMenu.addItem({ command, selector, rank }));
    }
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
