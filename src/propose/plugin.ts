/**
 * Propose mode: provides `IProposals`, the human's commands (palette too)
 * and the inline review blocks. Each notebook stores its own mode
 * (notebook-mode.ts): the switch and the commands write the current
 * notebook's, so it travels with the file and is shared under real-time
 * collaboration. The `mode` setting of this plugin (schema/propose.json) is
 * the mode of notebooks that store none: a deployment sets it in
 * `overrides.json`.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';
import { DisposableSet } from '@lumino/disposable';

import { activateWhenIdle } from '../common/parts';
import { IProposals } from '../tokens';
import { addProposeCommands, CommandIDs } from './commands';
import { isProposeMode } from './notebook-mode';
import { ProposalService } from './service';
import { isProposalKind } from './store';
import { fromLater } from '../webmcp/tools';

/** The plugin's id, which is also its settings' id. */
export const PROPOSE_PLUGIN_ID = 'jupyterlite-webmcp:propose';

/** The proposals' blocks in the notebooks, in a chunk of their own. */
const loadBlocks = fromLater('the proposal blocks');

let active: DisposableSet | null = null;

export const proposePlugin: JupyterFrontEndPlugin<IProposals> = {
  id: PROPOSE_PLUGIN_ID,
  description:
    "Propose mode: the agent's edits, inserts, deletes, runs and kernel actions wait in the notebook for the human's Accept or Deny.",
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ISettingRegistry, ITranslator, ICommandPalette],
  provides: IProposals,
  activate: async (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    registry: ISettingRegistry | null,
    translator: ITranslator | null,
    palette: ICommandPalette | null
  ): Promise<IProposals> => {
    const set = new DisposableSet();
    active = set;
    const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');
    const service = new ProposalService({
      notebooks: {
        current: () => tracker.currentWidget?.model?.sharedModel ?? null,
        currentChanged: tracker.currentChanged
      }
    });
    set.add(service);
    if (registry) {
      try {
        const settings = await registry.load(PROPOSE_PLUGIN_ID);
        const read = () => {
          const mode = settings.get('mode').composite;
          if (isProposeMode(mode)) {
            service.setDefaultMode(mode);
          }
          const reviewed = settings.get('reviewed').composite;
          if (Array.isArray(reviewed)) {
            service.setReviewed(reviewed.filter(isProposalKind));
          }
        };
        read();
        settings.changed.connect(read);
      } catch (reason) {
        console.warn('jupyterlite-webmcp: no Propose mode settings', reason);
      }
    }
    set.add(addProposeCommands(app.commands, service, trans));
    if (palette) {
      const category = trans.__('Agent');
      set.add(
        palette.addItem({ command: CommandIDs.toggleProposeMode, category })
      );
      for (const mode of ['direct', 'propose']) {
        set.add(
          palette.addItem({
            command: CommandIDs.setProposeMode,
            args: { mode },
            category
          })
        );
      }
    }
    // the blocks that show a proposal in its notebook: once the page is idle
    // (a proposal waits for the owner; its block shows when they arrive)
    set.add(
      activateWhenIdle(
        app.restored,
        loadBlocks,
        loaded => new loaded.ProposalBlocks({ service, tracker, translator })
      )
    );
    return service;
  },
  deactivate: (): void => {
    active?.dispose();
    active = null;
  }
};
