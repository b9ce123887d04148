/**
 * The person's command to forget the agent's edits of the current notebook:
 * the journal (src/revert/journal.ts) travels with the file and holds the
 * text of cells as they were before the agent changed or deleted them, so
 * the person can drop it, for instance before sharing the notebook. No tool
 * reaches it.
 */
import { Dialog, Notification, showDialog } from '@jupyterlab/apputils';
import type { INotebookTracker } from '@jupyterlab/notebook';
import type { TranslationBundle } from '@jupyterlab/translation';
import type { CommandRegistry } from '@lumino/commands';
import type { IDisposable } from '@lumino/disposable';

import { agentEdits, forgetAgentEdits } from './journal';
import { CommandIDs } from './command-ids';

export { CommandIDs };

/** Add the command; disposing the result removes it. */
export function addRevertCommands(
  commands: CommandRegistry,
  tracker: INotebookTracker,
  trans: TranslationBundle
): IDisposable {
  const current = () => {
    const panel = tracker.currentWidget;
    const model = panel?.content.model?.sharedModel;
    return panel && model ? { panel, model } : null;
  };
  return commands.addCommand(CommandIDs.forgetAgentEdits, {
    label: trans.__('Forget Agent Edits…'),
    caption: trans.__(
      'Remove the record of the agent’s edits from the current notebook: they can no longer be reverted from the Agent panel, and the file no longer holds the text they replaced.'
    ),
    describedBy: { args: { type: 'object', properties: {} } },
    isEnabled: () => {
      const target = current();
      return !!target && agentEdits(target.model).length > 0;
    },
    execute: async () => {
      const target = current();
      if (!target) {
        Notification.warning(trans.__('No notebook is open.'), {
          autoClose: 5000
        });
        return;
      }
      const count = agentEdits(target.model).length;
      const path = target.panel.context.localPath;
      const name = path.split('/').pop() || path;
      if (count === 0) {
        Notification.info(
          trans.__('There are no agent edits to forget in %1.', name),
          { autoClose: 5000 }
        );
        return;
      }
      const answer = await showDialog({
        title: trans.__('Forget agent edits'),
        body: trans._n(
          'Forget the %1 agent edit recorded in %2? It can no longer be reverted from the Agent panel, and the notebook no longer holds the text it replaced once you save it. The notebook’s own undo is not affected.',
          'Forget the %1 agent edits recorded in %2? They can no longer be reverted from the Agent panel, and the notebook no longer holds the text they replaced once you save it. The notebook’s own undo is not affected.',
          count,
          name
        ),
        buttons: [
          Dialog.cancelButton({ label: trans.__('Cancel') }),
          Dialog.warnButton({ label: trans.__('Forget') })
        ]
      });
      if (!answer.button.accept) {
        return;
      }
      const forgotten = forgetAgentEdits(target.model);
      Notification.info(
        trans._n(
          'Forgot %1 agent edit in %2.',
          'Forgot %1 agent edits in %2.',
          forgotten,
          name
        ),
        { autoClose: 5000 }
      );
    }
  });
}
