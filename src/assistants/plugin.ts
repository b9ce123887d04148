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
import { DisposableSet } from '@lumino/disposable';

import { type IWebMcpRegistry } from '../tokens';
import { IToolRegistry } from '../webmcp/services';
import { PARTS } from '../common/parts';
import { type IKnownAssistant, KNOWN_ASSISTANTS } from './known';
import { type IAssistantToolRegistry } from './mirror';

/** The mirror and the AI SDK tool shape: loaded only with an assistant. */
const loadMirror = PARTS.lazy(
  "the in-app assistant's bridge",
  () => import(/* webpackChunkName: "assistants" */ './mirror')
);

export { KNOWN_ASSISTANTS, type IKnownAssistant } from './known';

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
  // resolves once every assistant installed is connected: the start's
  // plugin that starts this one early waits for it (src/load-plugins.ts)
  activate: async (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry
  ): Promise<void> => {
    await Promise.all(
      KNOWN_ASSISTANTS.map(assistant =>
        connectAssistant(app, registry, assistant).then(
          connection => {
            if (connection) {
              connections.push(connection);
            }
          },
          reason => {
            console.warn(
              `jupyterlite-webmcp: the notebook tools could not be offered to ${assistant.packageName}:`,
              reason
            );
          }
        )
      )
    );
  },
  deactivate: (): void => {
    for (const connection of connections.splice(0)) {
      connection.dispose();
    }
  }
};
