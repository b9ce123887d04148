/**
 * The revert feature's command: "Forget Agent Edits…" (palette, category
 * Agent) drops the journal of agent edits from the current notebook. It
 * needs neither the Agent panel nor WebMCP: the journal is in the notebook.
 * The edits themselves are listed, and reverted, in the Activity section
 * (src/panel/activity-plugin.ts).
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';
import { DisposableSet } from '@lumino/disposable';

import { addRevertCommands, CommandIDs } from './commands';

let wiring: DisposableSet | null = null;

/** The command that forgets the agent's edits of the current notebook. */
export const revertPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:revert',
  description:
    "The command that forgets the record of the agent's edits in the current notebook.",
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ITranslator, ICommandPalette],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    translator: ITranslator | null,
    palette: ICommandPalette | null
  ): void => {
    const set = new DisposableSet();
    wiring = set;
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
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
