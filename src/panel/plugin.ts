import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { IStatusBar } from '@jupyterlab/statusbar';
import { ITranslator } from '@jupyterlab/translation';

import { IWebMcpRegistry } from '../tokens';
import { WebMcpStatus } from './status';

/**
 * Shows WebMCP's availability, the registered tools and the call in progress
 * in the status bar.
 */
export const statusPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:status',
  description: 'Shows WebMCP availability and tool calls in the status bar.',
  autoStart: true,
  requires: [IWebMcpRegistry],
  optional: [IStatusBar, ITranslator],
  activate: (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry,
    statusBar: IStatusBar | null,
    translator: ITranslator | null
  ): void => {
    if (!statusBar) {
      return;
    }
    statusBar.registerStatusItem('jupyterlite-webmcp:status', {
      item: new WebMcpStatus(registry, translator ?? undefined),
      align: 'left',
      rank: 900
    });
  }
};
