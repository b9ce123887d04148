import { type JupyterFrontEndPlugin } from '@jupyterlab/application';

import { statusPlugin } from './panel/plugin';
import webmcpPlugin from './webmcp/plugin';

const plugins: JupyterFrontEndPlugin<unknown>[] = [webmcpPlugin, statusPlugin];

export default plugins;
