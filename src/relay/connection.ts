/**
 * The switch that follows the owner's relay setting (./settings.ts): connect
 * when turned on, disconnect when turned off, reconnect when
 * the port changes. Changes are applied one at a time, in order, so a quick
 * off-on-off ends off whatever the connector's timing.
 *
 * Pure: no JupyterLab import, no DOM.
 */
import { type IDisposable } from '@lumino/disposable';

import { DEFAULT_RELAY_PORT, type IRelaySettings } from './settings';

export {
  DEFAULT_RELAY_PORT,
  type IRelaySettings,
  readRelaySettings
} from './settings';

/** Connects to the relay on a port; disposing the result disconnects. */
export type RelayConnector = (port: number) => Promise<IDisposable>;

/** Follows the setting: one connection at most, on the port asked for. */
export class RelaySwitch implements IDisposable {
  constructor(
    connect: RelayConnector,
    options: { onError?: (reason: unknown) => void } = {}
  ) {
    this._connect = connect;
    this._onError = options.onError ?? (() => undefined);
  }

  /** The port connected to now, or null when not connected. */
  get connectedPort(): number | null {
    return this._connection ? this._port : null;
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  /**
   * Applies the settings after every change asked before it; resolves once
   * the connection matches them (or the connector failed, reported through
   * `onError`, and the switch stays off).
   */
  update(settings: IRelaySettings): Promise<void> {
    const wanted = this._disposed ? null : settings;
    this._queue = this._queue.then(() => this._apply(wanted));
    return this._queue;
  }

  /** Disconnects, now and for good. */
  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    void this.update({ enabled: false, port: DEFAULT_RELAY_PORT });
  }

  private async _apply(settings: IRelaySettings | null): Promise<void> {
    const port = settings?.enabled && !this._disposed ? settings.port : null;
    if (this._connection && this._port === port) {
      return;
    }
    if (this._connection) {
      const connection = this._connection;
      this._connection = null;
      this._port = null;
      try {
        connection.dispose();
      } catch (reason) {
        this._onError(reason);
      }
    }
    if (port === null) {
      return;
    }
    try {
      const connection = await this._connect(port);
      // turned off (disposed) while connecting: undo at once
      if (this._disposed) {
        connection.dispose();
        return;
      }
      this._connection = connection;
      this._port = port;
    } catch (reason) {
      this._onError(reason);
    }
  }

  private readonly _connect: RelayConnector;
  private readonly _onError: (reason: unknown) => void;
  private _connection: IDisposable | null = null;
  private _port: number | null = null;
  private _queue: Promise<void> = Promise.resolve();
  private _disposed = false;
}
