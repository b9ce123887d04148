/**
 * Propose mode's part of the Agent panel: the Proposals section (what waits
 * in the current notebook, with Accept, Deny and Accept all, and the cells
 * allowed to run again) and the header's Direct/Propose switch. The views
 * are in ./section*.ts(x) and src/propose/toggle.ts.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { type INotebookTracker } from '@jupyterlab/notebook';
import { type ITranslator } from '@jupyterlab/translation';
import { DisposableSet, type IDisposable } from '@lumino/disposable';

import { ProposalsPanel } from './section';
import { ProposalsModel } from './section-model';
import { revealCell } from '../agent-panel/reveal';
import {
  type IAgentAccess,
  type IAgentPanel,
  type IProposals
} from '../tokens';
import { CommandIDs } from './commands';
import { ProposeModeToggle } from './toggle';

/** The Proposals section's rank: after Comments (the `IAgentPanel` token lists ours). */
const RANK = 150;

/** The Direct/Propose switch's rank: the header's first control. */
const SWITCH_RANK = 100;

/** Wires what the plugin activates once the page is idle; disposing undoes it. */
export function activateProposePanel(
  app: JupyterFrontEnd,
  tracker: INotebookTracker,
  access: IAgentAccess,
  proposals: IProposals,
  panel: IAgentPanel,
  translator: ITranslator | null
): IDisposable {
  const set = new DisposableSet();
  const model = new ProposalsModel({ tracker, proposals });
  const section = new ProposalsPanel({
    model,
    translator,
    openCell: async (path, cellId) => {
      await revealCell(app, access, path, cellId);
    }
  });
  set.add(panel.addSection(section, { rank: RANK }));
  set.add(section);
  set.add(model);
  const toggle = new ProposeModeToggle({
    proposals,
    translator,
    onToggle: () => {
      void app.commands.execute(CommandIDs.toggleProposeMode);
    }
  });
  set.add(panel.addHeaderControl(toggle, { rank: SWITCH_RANK }));
  set.add(toggle);
  return set;
}
