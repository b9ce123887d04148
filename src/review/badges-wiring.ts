/**
 * The badges on cells with open review threads, loaded once the page is
 * idle (./plugin.ts).
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { type INotebookTracker } from '@jupyterlab/notebook';
import { type ITranslator } from '@jupyterlab/translation';
import { type IDisposable } from '@lumino/disposable';

import { eachNotebook } from '../common/each-notebook';
import { ReviewBadges } from './badges';
import { CommandIDs } from './commands';

/** Badges every notebook's cells, until disposed. */
export function activateReviewBadges(
  app: JupyterFrontEnd,
  tracker: INotebookTracker,
  translator: ITranslator | null
): IDisposable {
  return eachNotebook(
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
  );
}
