import { type JupyterFrontEndPlugin } from '@jupyterlab/application';

import { provenancePlugin } from './access/provenance-plugin';
import { statusPlugin } from './panel/plugin';
import { outputSelectionPlugin } from './selection/plugin';
import webmcpPlugin from './webmcp/plugin';

const plugins: JupyterFrontEndPlugin<unknown>[] = [
  webmcpPlugin,
  statusPlugin,
  provenancePlugin,
  outputSelectionPlugin
];

export default plugins;
