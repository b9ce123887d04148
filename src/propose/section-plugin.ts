/**
 * Propose mode's part of the Agent panel: the Proposals section (what waits
 * in the current notebook, with Accept, Deny and Accept all, and the cells
 * allowed to run again) and the header's Direct/Propose switch. The views
 * are in ./section*.ts(x) and src/propose/toggle.ts.
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator } from '@jupyterlab/translation';
import { type IDisposable } from '@lumino/disposable';

import { activateWhenIdle } from '../common/parts';
import { IAgentAccess, IAgentPanel, IProposals } from '../tokens';
import { fromLater } from '../webmcp/tools';

/** What the plugin activates, in a chunk fetched once the page is idle. */
const loadWiring = fromLater('the Proposals section');

let wiring: IDisposable | null = null;

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
    wiring = activateWhenIdle(app.restored, loadWiring, loaded =>
      loaded.activateProposePanel(
        app,
        tracker,
        access,
        proposals,
        panel,
        translator
      )
    );
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
