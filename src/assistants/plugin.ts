/**
 * Offers the notebook tools to the in-app AI assistant, when one is
 * installed beside this extension: jupyter-ai-lite 0.21 (its tool registry
 * `@jupyter-ai/agent-lite:IToolRegistry`) or jupyterlite-ai 0.20
 * (`@jupyternaut/agent:IToolRegistry`, provided by jupyternaut-persona).
 *
 * Their token packages come from the page's share scope, loaded only when
 * the app has the plugin that provides the registry: without an assistant
 * nothing is loaded and nothing is logged. Every call goes through the
 * WebMCP registry's own path (./mirror.ts), in any browser.
 */
import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { type Token } from '@lumino/coreutils';
import { DisposableSet } from '@lumino/disposable';

import { type IWebMcpRegistry } from '../tokens';
import { IToolRegistry } from '../webmcp/services';
import { PARTS } from '../common/parts';
import { type IAssistantToolRegistry } from './mirror';

/** The mirror and the AI SDK tool shape: loaded only with an assistant. */
const loadMirror = PARTS.lazy(
  "the in-app assistant's bridge",
  () => import(/* webpackChunkName: "assistants" */ './mirror')
);

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

/** Whether a value has the registry methods the mirror uses. */
function isToolRegistry(value: unknown): value is IAssistantToolRegistry {
  const registry = value as Partial<IAssistantToolRegistry> | null;
  return (
    !!registry &&
    typeof registry.add === 'function' &&
    typeof registry.get === 'function' &&
    typeof registry.remove === 'function'
  );
}

/**
 * Connects one assistant: its registry then holds every tool the owner has
 * not turned off. Resolves to null when the app does not have it.
 */
export async function connectAssistant(
  app: Pick<JupyterFrontEnd, 'hasPlugin' | 'resolveOptionalService'>,
  registry: IWebMcpRegistry,
  assistant: IKnownAssistant
): Promise<DisposableSet | null> {
  if (!app.hasPlugin(assistant.pluginId)) {
    return null;
  }
  const { IToolRegistry } = await assistant.load();
  const target = await app.resolveOptionalService(IToolRegistry);
  if (!isToolRegistry(target)) {
    throw new Error(
      `${assistant.packageName} did not provide a tool registry with add, get and remove`
    );
  }
  // at once, not once the start is over: an assistant picks the tools its
  // new chats offer from what its registry holds when it starts (measured:
  // jupyterlite-ai 0.20 offered none when they came after its start)
  const { ToolMirror } = await loadMirror();
  const connection = new DisposableSet();
  connection.add(new ToolMirror(registry, target));
  connection.add(registry.addClient(assistant.packageName));
  return connection;
}

/** The assistants connected, disposed on deactivate. */
const connections: DisposableSet[] = [];

export const assistantsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:assistants',
  description:
    "Offers the notebook tools to the in-app AI assistant's tool registry (jupyter-ai-lite, jupyterlite-ai) when one is installed.",
  autoStart: true,
  requires: [IToolRegistry],
  activate: (app: JupyterFrontEnd, registry: IWebMcpRegistry): void => {
    for (const assistant of KNOWN_ASSISTANTS) {
      connectAssistant(app, registry, assistant)
        .then(connection => {
          if (connection) {
            connections.push(connection);
          }
        })
        .catch(reason => {
          console.warn(
            `jupyterlite-webmcp: the notebook tools could not be offered to ${assistant.packageName}:`,
            reason
          );
        });
    }
  },
  deactivate: (): void => {
    for (const connection of connections.splice(0)) {
      connection.dispose();
    }
  }
};
