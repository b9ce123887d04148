/**
 * The in-app assistants we know how to reach, and where each one's tool
 * registry comes from. Also read by the page's start (src/load-plugins.ts),
 * which starts our plugins early when one is installed.
 */
import { type Token } from '@lumino/coreutils';

/** An assistant we know how to reach. */
export interface IKnownAssistant {
  /** Its package, as the status item names it. */
  packageName: string;
  /** The plugin that provides its tool registry. */
  pluginId: string;
  /** Its token module, from the share scope. */
  load(): Promise<{ IToolRegistry: Token<unknown> }>;
}

export const KNOWN_ASSISTANTS: readonly IKnownAssistant[] = [
  {
    packageName: 'jupyter-ai-lite',
    pluginId: '@jupyter-ai/agent-lite:tool-registry',
    load: () => import('@jupyter-ai/agent-lite')
  },
  {
    packageName: 'jupyterlite-ai',
    pluginId: '@jupyternaut/persona:tool-registry',
    load: () => import('@jupyternaut/agent')
  }
];
