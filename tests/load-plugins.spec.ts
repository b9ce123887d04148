/**
 * src/load-plugins.ts: a registration of our plugins that fails part-way is
 * tried again at the next request, and registers only the plugins not
 * registered yet (the app's `registerPlugins` registers one by one and
 * throws at a plugin it already has).
 */
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';

import type * as LoadPluginsModule from '../src/load-plugins';
import type * as PluginsModule from '../src/plugins';
import { silenceKnownWarnings } from './quiet';

silenceKnownWarnings();

// Loaded once the console is quieted: @jupyterlab/apputils warns on import.
const { registryPlugin } = jest.requireActual<typeof LoadPluginsModule>(
  '../src/load-plugins'
);
const ourPlugins =
  jest.requireActual<typeof PluginsModule>('../src/plugins').default;

/** An app that registers as Lumino's does, and fails once at `failAt`. */
function fakeApp(failAt: number): {
  app: JupyterFrontEnd;
  registered: string[];
} {
  const registered: string[] = [];
  let failed = false;
  const registry = { sentinel: true };
  const app = {
    hasPlugin: (id: string) => registered.includes(id),
    registerPlugins(plugins: JupyterFrontEndPlugin<unknown>[]) {
      for (const plugin of plugins) {
        if (!failed && registered.length === failAt) {
          failed = true;
          throw new Error('the registration failed part-way');
        }
        if (registered.includes(plugin.id)) {
          throw new TypeError(`Plugin '${plugin.id}' is already registered.`);
        }
        registered.push(plugin.id);
      }
    },
    resolveRequiredService: async () => registry
  } as unknown as JupyterFrontEnd;
  return { app, registered };
}

describe('registering our plugins', () => {
  it('tries again after a failure part-way, and registers each plugin once', async () => {
    const { app, registered } = fakeApp(3);

    await expect(registryPlugin.activate(app)).rejects.toThrow(
      'the registration failed part-way'
    );
    expect(registered).toHaveLength(3);

    await expect(registryPlugin.activate(app)).resolves.toEqual({
      sentinel: true
    });
    expect(registered).toEqual(ourPlugins.map(plugin => plugin.id));
  });
});
