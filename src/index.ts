import { type JupyterFrontEndPlugin } from '@jupyterlab/application';

import { accessPlugin } from './access/plugin';
import { provenancePlugin } from './access/provenance-plugin';
import { stableCellIdsPlugin } from './jupyter/cell-ids-plugin';
import { agentPanelPlugin, statusPlugin } from './panel/plugin';
import { proposePlugin } from './propose/plugin';
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
  agentPanelPlugin
];

export default plugins;

// for other extensions' tools: the error whose code and details reach the agent
export { ToolError, type ErrorCode } from './common/errors';
