/**
 * Propose mode's part of the Agent panel: the Proposals section (what waits
 * in the current notebook, with Accept, Deny and Accept all, and the cells
 * allowed to run again) and the header's Direct/Propose switch. The views
 * are in src/panel/proposals*.ts(x) and src/propose/toggle.ts.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator } from '@jupyterlab/translation';
import { DisposableSet } from '@lumino/disposable';

import { HeaderRanks, TabRanks } from '../panel/panel';
import { ProposalsPanel } from '../panel/proposals';
import { ProposalsModel } from '../panel/proposals-model';
import { revealCell } from '../panel/reveal';
import { IAgentAccess, IAgentPanel, IProposals } from '../tokens';
import { CommandIDs } from './commands';
import { ProposeModeToggle } from './toggle';

let wiring: DisposableSet | null = null;

/** The Proposals section of the Agent panel and its header's switch. */
export const proposePanelPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:propose-panel',
  description:
    "The Proposals section of the Agent panel, and the header's Direct/Propose switch.",
  autoStart: true,
  requires: [INotebookTracker, IAgentAccess, IProposals, IAgentPanel],
  optional: [ITranslator],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    access: IAgentAccess,
    proposals: IProposals,
    panel: IAgentPanel,
    translator: ITranslator | null
  ): void => {
    const set = new DisposableSet();
    wiring = set;
    const model = new ProposalsModel({ tracker, proposals });
    const section = new ProposalsPanel({
      model,
      translator,
      openCell: async (path, cellId) => {
        await revealCell(app, access, path, cellId);
      }
    });
    set.add(panel.addSection(section, { rank: TabRanks.proposals }));
    set.add(section);
    set.add(model);
    const toggle = new ProposeModeToggle({
      proposals,
      translator,
      onToggle: () => {
        void app.commands.execute(CommandIDs.toggleProposeMode);
      }
    });
    set.add(panel.addHeaderControl(toggle, { rank: HeaderRanks.proposeMode }));
    set.add(toggle);
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
