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

import { IWebMcpRegistry } from '../tokens';
import { readRelaySettings, RelaySwitch } from './connection';

export const RELAY_PLUGIN_ID = 'jupyterlite-webmcp:relay';

let relaySwitch: RelaySwitch | null = null;

export const relayPlugin: JupyterFrontEndPlugin<void> = {
  id: RELAY_PLUGIN_ID,
  description:
    'Offers the notebook tools to a desktop agent through a local WebMCP relay, when the owner turns it on.',
  autoStart: true,
  requires: [IWebMcpRegistry, ISettingRegistry],
  optional: [ITranslator],
  activate: (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry,
    settingRegistry: ISettingRegistry,
    translator: ITranslator | null
  ): void => {
    const trans = (translator ?? nullTranslator).load('jupyterlite-webmcp');
    const current = new RelaySwitch(
      async port => {
        const { connectRelay } = await import(
          /* webpackChunkName: "relay" */ './embed'
        );
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
    relaySwitch = current;
    settingRegistry
      .load(RELAY_PLUGIN_ID)
      .then(settings => {
        const apply = () =>
          void current.update(readRelaySettings(settings.composite));
        apply();
        settings.changed.connect(apply);
      })
      .catch(reason => {
        console.warn(
          'jupyterlite-webmcp: the relay setting could not be read; the relay stays off.',
          reason
        );
      });
  },
  deactivate: (): void => {
    relaySwitch?.dispose();
    relaySwitch = null;
  }
};
