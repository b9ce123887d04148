/**
 * Propose mode: provides `IProposals`, the human's commands (palette too)
 * and the inline review blocks. The mode is the `mode` setting of this
 * plugin (schema/propose.json): the switch and the commands write it, so it
 * survives a reload, and `overrides.json` sets the default of a deployment.
 * Without a settings registry the mode lives as long as the page.
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

import { IProposals } from '../tokens';
import { ProposalBlocks } from './blocks';
import { addProposeCommands, CommandIDs, isProposeMode } from './commands';
import { ProposalService } from './service';

/** The plugin's id, which is also its settings' id. */
export const PROPOSE_PLUGIN_ID = 'jupyterlite-webmcp:propose';

let active: DisposableSet | null = null;

export const proposePlugin: JupyterFrontEndPlugin<IProposals> = {
  id: PROPOSE_PLUGIN_ID,
  description:
    "Propose mode: the agent's cell edits wait under the cell for the human's Accept or Deny.",
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
    let settings: ISettingRegistry.ISettings | null = null;
    // saves of the human's switches in flight: the settings read back while
    // one is pending may be an older save's echo, never newer than the switch
    let saving = 0;
    const read = () => {
      const mode = settings?.get('mode').composite;
      if (saving === 0 && isProposeMode(mode)) {
        service.applyMode(mode);
      }
    };
    const service = new ProposalService({
      persist: mode => {
        if (!settings) {
          return;
        }
        saving++;
        settings
          .set('mode', mode)
          .catch((reason: unknown) => {
            console.warn('jupyterlite-webmcp: could not save the mode', reason);
          })
          .finally(() => {
            saving--;
            read();
          });
      }
    });
    set.add(service);
    if (registry) {
      try {
        settings = await registry.load(PROPOSE_PLUGIN_ID);
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
    set.add(new ProposalBlocks({ service, tracker, translator }));
    return service;
  },
  deactivate: (): void => {
    active?.dispose();
    active = null;
  }
};
