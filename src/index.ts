import { type JupyterFrontEndPlugin } from '@jupyterlab/application';

import { accessPlugin } from './access/plugin';
import { provenancePlugin } from './access/provenance-plugin';
import { stableCellIdsPlugin } from './jupyter/cell-ids-plugin';
import { agentPanelPlugin, statusPlugin } from './panel/plugin';
import { proposePlugin } from './propose/plugin';
import { reviewBadgesPlugin, reviewStorePlugin } from './review/plugin';
import { outputSelectionPlugin } from './selection/plugin';
import webmcpPlugin from './webmcp/plugin';

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
  agentPanelPlugin
];

export default plugins;
