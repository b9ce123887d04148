/**
 * Our plugins but the start's (src/index.ts): a chunk of its own, fetched,
 * registered and started once the app has restored its layout
 * (src/load-plugins.ts; docs/architecture.md, "A small start").
 */
import { type JupyterFrontEndPlugin } from '@jupyterlab/application';

import { accessPlugin } from './access/plugin';
import { accessPanelPlugin } from './access/section-plugin';
import { assistantsPlugin } from './assistants/plugin';
import { provenancePlugin } from './access/provenance-plugin';
import { activityPanelPlugin } from './agent-panel/activity-plugin';
import { statusPlugin } from './agent-panel/plugin';
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

const plugins: JupyterFrontEndPlugin<unknown>[] = [
  toolServicesPlugin,
  webmcpPlugin,
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
  // the sections the features add to the Agent panel
  reviewPanelPlugin,
  proposePanelPlugin,
  accessPanelPlugin,
  activityPanelPlugin
];

export default plugins;
