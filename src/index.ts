import { type JupyterFrontEndPlugin } from '@jupyterlab/application';

import { agentPanelPlugin } from './agent-panel/frame-plugin';
import { stableCellIdsPlugin } from './jupyter/cell-ids-plugin';
import {
  assistantsEarlyPlugin,
  loadPluginsPlugin,
  registryPlugin
} from './load-plugins';

// The public API, for other extensions (docs/extending.md, "What is
// stable"): `import { IAgentPanel, IWebMcpRegistry } from 'jupyterlite-webmcp'`.
// The package's only entry (package.json `exports`).
export * from './api';

/**
 * The page's start: what must be in place before the layout is restored
 * (docs/architecture.md, "A small start"). Every other plugin of ours is in
 * src/plugins.ts, fetched and started once the layout is restored.
 */
const plugins: JupyterFrontEndPlugin<unknown>[] = [
  // a notebook extension: in place before the restored notebooks open
  stableCellIdsPlugin,
  // the layout restorer must know the panel to show it again
  agentPanelPlugin,
  loadPluginsPlugin,
  registryPlugin,
  // with an in-app assistant installed, ours start with the app
  assistantsEarlyPlugin
];

export default plugins;
