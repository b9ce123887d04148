/**
 * The revert feature's command: "Forget Agent Edits…" (palette, category
 * Agent) drops the journal of agent edits from the current notebook. It
 * needs neither the Agent panel nor WebMCP: the journal is in the notebook.
 * The edits themselves are listed, and reverted, in the Activity section
 * (src/agent-panel/activity-plugin.ts).
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { type ICommandPalette } from '@jupyterlab/apputils';
import { type INotebookTracker } from '@jupyterlab/notebook';
import { type ITranslator, nullTranslator } from '@jupyterlab/translation';
import { DisposableSet, type IDisposable } from '@lumino/disposable';

import { addRevertCommands, CommandIDs } from './commands';

/** Wires what the plugin activates once the page is idle; disposing undoes it. */
export function activateRevert(
  app: JupyterFrontEnd,
  tracker: INotebookTracker,
  translator: ITranslator | null,
  palette: ICommandPalette | null
): IDisposable {
  const set = new DisposableSet();
  const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');
  set.add(addRevertCommands(app.commands, tracker, trans));
  if (palette) {
    set.add(
      palette.addItem({
        command: CommandIDs.forgetAgentEdits,
        category: trans.__('Agent')
      })
    );
  }
  return set;
}
