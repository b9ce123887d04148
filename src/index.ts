import { type JupyterFrontEndPlugin } from '@jupyterlab/application';

import webmcpPlugin from './webmcp/plugin';

const plugins: JupyterFrontEndPlugin<unknown>[] = [webmcpPlugin];

export default plugins;
