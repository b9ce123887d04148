import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { IStatusBar } from '@jupyterlab/statusbar';
import { ITranslator } from '@jupyterlab/translation';

import { DisposableSet } from '@lumino/disposable';

import { IProposals, type IWebMcpRegistry } from '../tokens';
import { IToolRegistry } from '../webmcp/services';
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
  requires: [IToolRegistry],
  optional: [IStatusBar, ITranslator, IProposals],
  activate: (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry,
    statusBar: IStatusBar | null,
    translator: ITranslator | null,
    proposals: IProposals | null
  ): void => {
    if (!statusBar) {
      return;
    }
    const item = new WebMcpStatus(registry, translator ?? undefined, proposals);
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
