import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { IStatusBar } from '@jupyterlab/statusbar';
import { ITranslator } from '@jupyterlab/translation';

import { DisposableSet } from '@lumino/disposable';

import { IWebMcpRegistry } from '../tokens';
import { WebMcpStatus } from './status';

let statusItem: DisposableSet | null = null;

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
    const item = new WebMcpStatus(registry, translator ?? undefined);
    const registration = statusBar.registerStatusItem(
      'jupyterlite-webmcp:status',
      { item, align: 'left', rank: 900 }
    );
    statusItem = new DisposableSet();
    statusItem.add(registration);
    statusItem.add(item);
  },
  deactivate: (): void => {
    statusItem?.dispose();
    statusItem = null;
  }
};
