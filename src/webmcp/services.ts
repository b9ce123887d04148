/**
 * What our tools' handlers are built from, shared by the plugins that add
 * them (the WebMCP plugin its core tools, the review feature the comment
 * tools, the selection feature its tool). Internal: not exported from the
 * package; other extensions get `IWebMcpRegistry.notebooks` instead.
 */
import { Token } from '@lumino/coreutils';

import { type IJupyterEnvironment } from '../jupyter/environment';
import { type NotebookResolver } from '../jupyter/notebook';
import { type NotebookVisibility } from '../jupyter/workspace';
import type { IWebMcpRegistry } from '../tokens';

/** The app as the tools see it. */
export interface IToolServices {
  env: IJupyterEnvironment;
  resolver: NotebookResolver;
  /** Whether a listed notebook is visible to the agent. */
  isNotebookVisible: NotebookVisibility;
}

/** The token of the tools' services (internal). */
export const IToolServices = new Token<IToolServices>(
  'jupyterlite-webmcp:IToolServices',
  "The app, the notebook resolver and the visibility rule our tools' handlers use."
);

/**
 * The registry of our WebMCP plugin (internal): the start's plugin that
 * provides the public `IWebMcpRegistry` hands it out (src/load-plugins.ts),
 * since our plugins, this one's provider among them, are registered with
 * the app only after the layout is restored.
 */
export const IToolRegistry = new Token<IWebMcpRegistry>(
  'jupyterlite-webmcp:IToolRegistry',
  "The registry of the extension's WebMCP plugin."
);
