/**
 * Wires the owner's "Connect to a local WebMCP relay" setting
 * (schema/relay.json) to the relay switch. Off by default: until the owner
 * turns it on, nothing of the relay is loaded or run (./embed.ts is a chunk
 * of its own, imported on demand).
 */
import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { ITranslator, nullTranslator } from '@jupyterlab/translation';
import { DisposableDelegate } from '@lumino/disposable';

import { type IWebMcpRegistry } from '../tokens';
import { IToolRegistry } from '../webmcp/services';
import { PARTS } from '../common/parts';
import { type RelaySwitch } from './connection';
import { readRelaySettings } from './settings';

export const RELAY_PLUGIN_ID = 'jupyterlite-webmcp:relay';

/** The relay's chunk: the switch and the page script's loader. */
const loadRelay = PARTS.lazy(
  'the local WebMCP relay',
  () => import(/* webpackChunkName: "relay" */ './embed')
);

let relaySwitch: Promise<RelaySwitch> | null = null;

/** Stops following the setting; null before it is read and once deactivated. */
let unfollow: (() => void) | null = null;

/** Counts activations and deactivations: a load that ends after its plugin was deactivated follows nothing. */
let generation = 0;

export const relayPlugin: JupyterFrontEndPlugin<void> = {
  id: RELAY_PLUGIN_ID,
  description:
    'Offers the notebook tools to a desktop agent through a local WebMCP relay, when the owner turns it on.',
  autoStart: true,
  requires: [IToolRegistry, ISettingRegistry],
  optional: [ITranslator],
  activate: (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry,
    settingRegistry: ISettingRegistry,
    translator: ITranslator | null
  ): void => {
    const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');
    const mine = ++generation;
    // the switch and the relay's page script: loaded once the owner turns
    // the relay on, never before
    const start = async (): Promise<RelaySwitch> => {
      const { connectRelay, RelaySwitch } = await loadRelay();
      return new RelaySwitch(
        async port => {
          const connection = await connectRelay({ source: registry, port });
          // the status item names the relay among the clients
          const client = registry.addClient(
            trans.__(
              'a desktop agent through the local WebMCP relay (port %1)',
              port
            )
          );
          return new DisposableDelegate(() => {
            client.dispose();
            connection.dispose();
          });
        },
        {
          onError: reason =>
            console.warn(
              'jupyterlite-webmcp: could not connect to the local WebMCP relay:',
              reason
            )
        }
      );
    };
    settingRegistry
      .load(RELAY_PLUGIN_ID)
      .then(settings => {
        if (mine !== generation) {
          return; // deactivated while the setting loaded
        }
        const apply = () => {
          const wanted = readRelaySettings(settings.composite);
          if (!relaySwitch && !wanted.enabled) {
            return; // off, and never on in this page
          }
          relaySwitch ??= start().catch((reason: unknown) => {
            relaySwitch = null; // loaded again at the next change
            throw reason;
          });
          // each change in turn, the switch applies the last one asked for
          void relaySwitch.then(
            current => current.update(readRelaySettings(settings.composite)),
            () => undefined // said by the part's loader (status bar, console)
          );
        };
        apply();
        settings.changed.connect(apply);
        unfollow = () => settings.changed.disconnect(apply);
      })
      .catch(reason => {
        console.warn(
          'jupyterlite-webmcp: the relay setting could not be read; the relay stays off.',
          reason
        );
      });
  },
  deactivate: (): void => {
    generation++;
    unfollow?.();
    unfollow = null;
    void relaySwitch?.then(
      current => current.dispose(),
      () => undefined
    );
    relaySwitch = null;
  }
};
