import { type JupyterFrontEndPlugin } from '@jupyterlab/application';

import { accessPlugin } from './access/plugin';
import { accessPanelPlugin } from './access/panel-plugin';
import { provenancePlugin } from './access/provenance-plugin';
import { stableCellIdsPlugin } from './jupyter/cell-ids-plugin';
import { activityPanelPlugin } from './panel/activity-plugin';
import { agentPanelPlugin, statusPlugin } from './panel/plugin';
import { proposePanelPlugin } from './propose/panel-plugin';
import { proposePlugin } from './propose/plugin';
import { revertPlugin } from './revert/plugin';
import { reviewPanelPlugin } from './review/panel-plugin';
import { reviewBadgesPlugin, reviewStorePlugin } from './review/plugin';
import { outputSelectionPlugin } from './selection/plugin';
import webmcpPlugin from './webmcp/plugin';

// The tokens and their interfaces, for other extensions:
// `import { IAgentPanel, IWebMcpRegistry } from 'jupyterlite-webmcp'`
// (docs/architecture.md, "Extending the Agent panel from another extension").
export * from './tokens';

const plugins: JupyterFrontEndPlugin<unknown>[] = [
  webmcpPlugin,
  stableCellIdsPlugin,
  statusPlugin,
  provenancePlugin,
  outputSelectionPlugin,
  accessPlugin,
  reviewStorePlugin,
  reviewBadgesPlugin,
  proposePlugin,
  revertPlugin,
  // the Agent panel, then the sections the features add to it
  agentPanelPlugin,
  reviewPanelPlugin,
  proposePanelPlugin,
  accessPanelPlugin,
  activityPanelPlugin
];

export default plugins;
