import { type JupyterFrontEndPlugin } from '@jupyterlab/application';

import { accessPlugin } from './access/plugin';
import { accessPanelPlugin } from './access/section-plugin';
import { assistantsPlugin } from './assistants/plugin';
import { provenancePlugin } from './access/provenance-plugin';
import { stableCellIdsPlugin } from './jupyter/cell-ids-plugin';
import { activityPanelPlugin } from './agent-panel/activity-plugin';
import { agentPanelPlugin, statusPlugin } from './agent-panel/plugin';
import { proposePanelPlugin } from './propose/section-plugin';
import { proposePlugin } from './propose/plugin';
import { revertPlugin } from './revert/plugin';
import { relayPlugin } from './relay/plugin';
import { reviewPanelPlugin } from './review/section-plugin';
import {
  reviewBadgesPlugin,
  reviewStorePlugin,
  reviewToolsPlugin
} from './review/plugin';
import {
  outputSelectionPlugin,
  outputSelectionToolPlugin
} from './selection/plugin';
import webmcpPlugin, { toolServicesPlugin } from './webmcp/plugin';

// The public API, for other extensions (docs/extending.md, "What is
// stable"): `import { IAgentPanel, IWebMcpRegistry } from 'jupyterlite-webmcp'`.
// The package's only entry (package.json `exports`).
export * from './api';

const plugins: JupyterFrontEndPlugin<unknown>[] = [
  toolServicesPlugin,
  webmcpPlugin,
  stableCellIdsPlugin,
  statusPlugin,
  provenancePlugin,
  outputSelectionPlugin,
  outputSelectionToolPlugin,
  accessPlugin,
  reviewStorePlugin,
  reviewToolsPlugin,
  reviewBadgesPlugin,
  proposePlugin,
  revertPlugin,
  // the in-app assistant's tool registry, when one is installed
  assistantsPlugin,
  // a desktop agent through the local WebMCP relay, when the owner turns it on
  relayPlugin,
  // the Agent panel, then the sections the features add to it
  agentPanelPlugin,
  reviewPanelPlugin,
  proposePanelPlugin,
  accessPanelPlugin,
  activityPanelPlugin
];

export default plugins;
