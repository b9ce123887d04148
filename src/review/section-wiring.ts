/**
 * The review feature's part of the Agent panel, loaded once the page is idle
 * (./section-plugin.ts): the Comments section (every
 * thread of the current notebook, and the composer new comments are written
 * in), the human's review commands and their menus, which ask for the text
 * in that composer, and "Show Review Comments". The views are in
 * ./section*.ts(x).
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { type ICommandPalette } from '@jupyterlab/apputils';
import { type INotebookTracker } from '@jupyterlab/notebook';
import { type ITranslator, nullTranslator } from '@jupyterlab/translation';
import { DisposableSet, type IDisposable } from '@lumino/disposable';

import { CommentsPanel } from './section';
import { CommentsTabModel } from './section-model';
import { revealAnchor } from '../agent-panel/reveal';
import {
  type IAgentAccess,
  type IAgentPanel,
  type IReviewStore
} from '../tokens';
import {
  addReviewCommands,
  addReviewMenus,
  CommandIDs,
  humanAuthor
} from './commands';

/** The Comments section's rank: first (the `IAgentPanel` token lists ours). */
const RANK = 100;

/** Wires the Comments section and the review commands; disposing undoes it. */
export function activateReviewPanel(
  app: JupyterFrontEnd,
  tracker: INotebookTracker,
  access: IAgentAccess,
  review: IReviewStore,
  panel: IAgentPanel,
  translator: ITranslator | null,
  palette: ICommandPalette | null
): IDisposable {
  const set = new DisposableSet();
  const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');
  const commentsModel = new CommentsTabModel({
    tracker,
    review,
    author: () => humanAuthor(app)
  });
  const comments = new CommentsPanel({
    model: commentsModel,
    translator,
    goTo: async (path, row) => {
      await revealAnchor(app, access, path, row.thread.anchor.cellId, {
        range: row.status.range ?? null
      });
    }
  });
  set.add(panel.addSection(comments, { rank: RANK }));
  set.add(comments);
  set.add(commentsModel);
  const showComments = () => {
    panel.reveal(comments);
  };
  // the human's commands ask for the comment in the section's composer
  set.add(
    addReviewCommands(app, {
      tracker,
      translator,
      compose: target => {
        commentsModel.startDraft({
          model: target.model,
          path: target.panel.context.localPath,
          anchor: target.anchor
        });
        showComments();
      }
    })
  );
  set.add(addReviewMenus(app, palette, translator));
  set.add(
    app.commands.addCommand(CommandIDs.showComments, {
      label: trans.__('Show Review Comments'),
      caption: trans.__(
        'Show the review threads of the current notebook in the Agent panel.'
      ),
      describedBy: {
        args: {
          type: 'object',
          properties: {
            threadId: {
              type: 'string',
              description: 'The thread to bring into view.'
            },
            cellId: {
              type: 'string',
              description: 'Bring the first open thread of this cell into view.'
            }
          }
        }
      },
      execute: args => {
        showComments();
        const model = tracker.currentWidget?.content.model?.sharedModel;
        let threadId = typeof args.threadId === 'string' ? args.threadId : null;
        if (!threadId && typeof args.cellId === 'string' && model) {
          const threads = review
            .allThreads(model)
            .filter(thread => thread.anchor.cellId === args.cellId);
          threadId =
            (threads.find(thread => thread.status === 'open') ?? threads[0])
              ?.id ?? null;
        }
        if (threadId) {
          commentsModel.focusThread(threadId);
        }
      }
    })
  );
  if (palette) {
    set.add(
      palette.addItem({
        command: CommandIDs.showComments,
        category: trans.__('Agent')
      })
    );
  }
  return set;
}
