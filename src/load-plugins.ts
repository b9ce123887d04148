/**
 * Our plugins come after the layout is restored (docs/architecture.md, "A
 * small start"). JupyterLab creates the app only once every extension's
 * plugins are loaded, so the code of ours would hold up the page's start;
 * the start (src/index.ts) has only what must be there before the layout is
 * restored, and the plugins of src/plugins.ts, a chunk of their own, are
 * fetched, registered with the app (but those the page's configuration
 * disables) and started once it is restored: the `autoStart: true` ones
 * first, then the deferred ones.
 *
 * The public `IWebMcpRegistry` is the start's: another extension that
 * requires it at its own start gets our plugins fetched then, and the
 * registry of our WebMCP plugin (the internal `IToolRegistry`). So does an
 * in-app assistant, when one is installed: its chats offer the tools its
 * registry holds when they are created, from the page's start on.
 */
import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { Notification } from '@jupyterlab/apputils';
import { PageConfig } from '@jupyterlab/coreutils';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';

import { IWebMcpRegistry } from './api';
import { KNOWN_ASSISTANTS } from './assistants/known';
import { IToolRegistry } from './webmcp/services';

type Plugins = readonly JupyterFrontEndPlugin<unknown>[];

let registering: Promise<Plugins> | null = null;

/**
 * Fetches our plugins and registers them with the app, once (a failed fetch
 * or registration is tried again at the next call, and registers only the
 * plugins not registered yet); resolves with those registered. It does not
 * start them: the plugin starting may be one they require.
 */
function registerOurPlugins(app: JupyterFrontEnd): Promise<Plugins> {
  registering ??= import(/* webpackChunkName: "plugins" */ './plugins')
    .then(({ default: plugins }) => {
      const enabled = plugins.filter(
        plugin => !PageConfig.Extension.isDisabled(plugin.id)
      );
      app.registerPlugins(enabled.filter(plugin => !app.hasPlugin(plugin.id)));
      return enabled;
    })
    .catch((reason: unknown) => {
      registering = null;
      throw reason;
    });
  return registering;
}

/** Starts our registered plugins: `autoStart: true` first, then `'defer'`. */
async function startOurPlugins(
  app: JupyterFrontEnd,
  plugins: Plugins
): Promise<void> {
  for (const when of [true, 'defer']) {
    await Promise.all(
      plugins
        .filter(plugin => plugin.autoStart === when)
        .map(plugin =>
          app.activatePlugin(plugin.id).catch((reason: unknown) => {
            console.error(`Plugin '${plugin.id}' failed to activate.`, reason);
          })
        )
    );
  }
}

/**
 * Fetches, registers and starts our plugins once the layout is restored;
 * when the fetch fails, says so, with a button to try again.
 */
export const loadPluginsPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:load-plugins',
  description:
    "Fetches and starts the extension's plugins once the layout is restored.",
  autoStart: true,
  optional: [ITranslator],
  activate: (app: JupyterFrontEnd, translator: ITranslator | null): void => {
    const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');
    const load = (): void => {
      void registerOurPlugins(app).then(
        plugins => startOurPlugins(app, plugins),
        (reason: unknown) => {
          console.error(
            'jupyterlite-webmcp: its plugins could not be loaded.',
            reason
          );
          Notification.error(
            trans.__(
              'The WebMCP notebook tools could not be loaded (offline, or the page is older than the installed extension). Try again, or reload the page.'
            ),
            {
              autoClose: false,
              actions: [{ label: trans.__('Try again'), callback: load }]
            }
          );
        }
      );
    };
    void app.restored.then(load);
  }
};

/**
 * `IWebMcpRegistry`, for other extensions: our plugins are fetched and
 * registered when one requires it (at its start, possibly before ours), and
 * the registry of our WebMCP plugin is started and handed out.
 */
export const registryPlugin: JupyterFrontEndPlugin<IWebMcpRegistry> = {
  id: 'jupyterlite-webmcp:registry',
  description:
    'Provides the registry through which other extensions add WebMCP tools.',
  autoStart: false,
  provides: IWebMcpRegistry,
  activate: async (app: JupyterFrontEnd): Promise<IWebMcpRegistry> => {
    await registerOurPlugins(app);
    return app.resolveRequiredService(IToolRegistry);
  }
};

/** Our plugin that offers the tools to an in-app assistant (src/assistants/). */
const ASSISTANTS_PLUGIN = 'jupyterlite-webmcp:assistants';

/**
 * When an in-app assistant is installed, our plugins are fetched and the
 * assistants' plugin started during the app's start, not after it: the
 * assistant (jupyterlite-ai 0.20 opens its chat with the page) offers a new
 * chat the tools its registry holds then. The app's start waits for it;
 * without an assistant, nothing.
 */
export const assistantsEarlyPlugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp:assistants-early',
  description:
    'Starts the in-app assistant bridge with the app, when an assistant is installed.',
  autoStart: true,
  activate: async (app: JupyterFrontEnd): Promise<void> => {
    if (!KNOWN_ASSISTANTS.some(known => app.hasPlugin(known.pluginId))) {
      return;
    }
    try {
      await registerOurPlugins(app);
    } catch {
      return; // the loader's notification says so once the layout is restored
    }
    if (app.hasPlugin(ASSISTANTS_PLUGIN)) {
      await app.activatePlugin(ASSISTANTS_PLUGIN);
    }
  }
};
