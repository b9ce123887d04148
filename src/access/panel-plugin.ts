/**
 * The access feature's part of the Agent panel: the Access section, the
 * current notebook's and its cells' agent access, through the
 * `IAgentAccess` service. The view is in src/panel/access-tab*.ts(x).
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ITranslator } from '@jupyterlab/translation';
import { DisposableSet } from '@lumino/disposable';

import { AccessPanel } from '../panel/access-tab';
import { AccessTabModel } from '../panel/access-tab-model';
import { TabRanks } from '../panel/panel';
import {
  IAgentAccess,
  IAgentPanel,
  IProposals,
  IWebMcpRegistry
} from '../tokens';

let wiring: DisposableSet | null = null;

/**
 * The Access section of the Agent panel. Propose mode and the registry are
 * optional: with them, it also says what runs unreviewed and whether the
 * owner turned running off.
 */
export const accessPanelPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:access-panel',
  description:
    'The Access section of the Agent panel: what the agent may see or change in the current notebook.',
  autoStart: true,
  requires: [INotebookTracker, IAgentAccess, IAgentPanel],
  optional: [IProposals, IWebMcpRegistry, ITranslator],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    access: IAgentAccess,
    panel: IAgentPanel,
    proposals: IProposals | null,
    registry: IWebMcpRegistry | null,
    translator: ITranslator | null
  ): void => {
    const set = new DisposableSet();
    wiring = set;
    const model = new AccessTabModel({ tracker, access, proposals, registry });
    const section = new AccessPanel({ model, translator });
    set.add(panel.addSection(section, { rank: TabRanks.access }));
    set.add(section);
    set.add(model);
  },
  deactivate: (): void => {
    wiring?.dispose();
    wiring = null;
  }
};
