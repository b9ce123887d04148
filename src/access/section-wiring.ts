/**
 * The access feature's part of the Agent panel: the Access section, the
 * current notebook's and its cells' agent access, through the
 * `IAgentAccess` service. The view is in ./section*.ts(x).
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { type INotebookTracker } from '@jupyterlab/notebook';
import { type ITranslator } from '@jupyterlab/translation';
import { DisposableSet, type IDisposable } from '@lumino/disposable';

import { AccessPanel } from './section';
import { AccessTabModel } from './section-model';
import {
  type IAgentAccess,
  type IAgentPanel,
  type IProposals,
  type IWebMcpRegistry
} from '../tokens';

/** The Access section's rank: after Proposals (the `IAgentPanel` token lists ours). */
const RANK = 200;

/** Wires what the plugin activates once the page is idle; disposing undoes it. */
export function activateAccessPanel(
  app: JupyterFrontEnd,
  tracker: INotebookTracker,
  access: IAgentAccess,
  panel: IAgentPanel,
  proposals: IProposals | null,
  registry: IWebMcpRegistry | null,
  translator: ITranslator | null
): IDisposable {
  const set = new DisposableSet();
  const model = new AccessTabModel({ tracker, access, proposals, registry });
  const section = new AccessPanel({ model, translator });
  set.add(panel.addSection(section, { rank: RANK }));
  set.add(section);
  set.add(model);
  return set;
}
