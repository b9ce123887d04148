/**
 * The revert feature's command: "Forget Agent Edits…" (palette, category
 * Agent) drops the journal of agent edits from the current notebook. It
 * needs neither the Agent panel nor WebMCP: the journal is in the notebook.
 * The edits themselves are listed, and reverted, in the Activity section
 * (src/agent-panel/activity-plugin.ts).
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator } from '@jupyterlab/translation';
import { DisposableSet } from '@lumino/disposable';
import { activateWhenIdle, standInCommands } from '../common/parts';
import { CommandIDs } from './command-ids';
import { fromLater } from '../webmcp/tools';

/** What the plugin activates, in a chunk fetched once the page is idle. */
const loadWiring = fromLater('the revert commands');

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
    const part = activateWhenIdle(app.restored, loadWiring, loaded => {
      standIns.dispose();
      return loaded.activateRevert(app, tracker, translator, palette);
    });
    // the command runs from the start, wiring it when first run
    const standIns = standInCommands(
      app.commands,
      [CommandIDs.forgetAgentEdits],
      () => part.now()
    );
    wiring = new DisposableSet();
    wiring.add(part);
    wiring.add(standIns);
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
