import { PromiseDelegate } from '@lumino/coreutils';
import { type IDisposable } from '@lumino/disposable';

import {
  DEFAULT_RELAY_PORT,
  readRelaySettings,
  RelaySwitch
} from '../../src/relay/connection';

describe('readRelaySettings', () => {
  it('is off on the default port unless the setting says otherwise', () => {
    expect(readRelaySettings({})).toEqual({ enabled: false, port: 9333 });
    expect(DEFAULT_RELAY_PORT).toBe(9333);
    expect(readRelaySettings(null)).toEqual({ enabled: false, port: 9333 });
    expect(readRelaySettings({ enabled: true, port: 9444 })).toEqual({
      enabled: true,
      port: 9444
    });
  });

  it('reads anything invalid as the default', () => {
    expect(readRelaySettings({ enabled: 'yes', port: 0 })).toEqual({
      enabled: false,
      port: 9333
    });
    for (const port of [65536, 1.5, '9444', -1]) {
      expect(readRelaySettings({ enabled: true, port }).port).toBe(9333);
    }
  });
});

/** A connector that records what it was asked, each connection disposable. */
function recorder() {
  const log: string[] = [];
  const connect = async (port: number): Promise<IDisposable> => {
    log.push(`connect ${port}`);
    let disposed = false;
    return {
      get isDisposed() {
        return disposed;
      },
      dispose: () => {
        disposed = true;
        log.push(`disconnect ${port}`);
      }
    };
  };
  return { log, connect };
}

describe('RelaySwitch', () => {
  it('connects nothing while off, connects when turned on, disconnects when turned off', async () => {
    const { log, connect } = recorder();
    const relay = new RelaySwitch(connect);
    await relay.update({ enabled: false, port: 9333 });
    expect(log).toEqual([]);
    await relay.update({ enabled: true, port: 9333 });
    expect(relay.connectedPort).toBe(9333);
    // the same settings again change nothing
    await relay.update({ enabled: true, port: 9333 });
    await relay.update({ enabled: false, port: 9333 });
    expect(log).toEqual(['connect 9333', 'disconnect 9333']);
    expect(relay.connectedPort).toBeNull();
    relay.dispose();
  });

  it('reconnects on a new port', async () => {
    const { log, connect } = recorder();
    const relay = new RelaySwitch(connect);
    await relay.update({ enabled: true, port: 9333 });
    await relay.update({ enabled: true, port: 9444 });
    expect(log).toEqual(['connect 9333', 'disconnect 9333', 'connect 9444']);
    expect(relay.connectedPort).toBe(9444);
    relay.dispose();
  });

  it('applies changes in order: a quick on-off ends off, even while the connector is slow', async () => {
    const log: string[] = [];
    const gate = new PromiseDelegate<void>();
    const relay = new RelaySwitch(async port => {
      await gate.promise;
      log.push(`connect ${port}`);
      return {
        isDisposed: false,
        dispose: () => log.push(`disconnect ${port}`)
      };
    });
    void relay.update({ enabled: true, port: 9333 });
    const last = relay.update({ enabled: false, port: 9333 });
    gate.resolve();
    await last;
    expect(log).toEqual(['connect 9333', 'disconnect 9333']);
    expect(relay.connectedPort).toBeNull();
    relay.dispose();
  });

  it('stays off and reports when the connector fails; turning on again retries', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const { log, connect } = recorder();
    const relay = new RelaySwitch(
      async port => {
        if (fail) {
          throw new Error('offline');
        }
        return connect(port);
      },
      { onError: reason => errors.push(reason) }
    );
    await relay.update({ enabled: true, port: 9333 });
    expect(relay.connectedPort).toBeNull();
    expect(errors).toHaveLength(1);
    fail = false;
    await relay.update({ enabled: true, port: 9333 });
    expect(log).toEqual(['connect 9333']);
    relay.dispose();
  });

  it('disconnects for good when disposed, also a connection still in flight', async () => {
    const { log, connect } = recorder();
    const relay = new RelaySwitch(connect);
    await relay.update({ enabled: true, port: 9333 });
    relay.dispose();
    await relay.update({ enabled: true, port: 9444 });
    expect(log).toEqual(['connect 9333', 'disconnect 9333']);

    const gate = new PromiseDelegate<void>();
    const entered = new PromiseDelegate<void>();
    const slow = new RelaySwitch(async port => {
      entered.resolve();
      await gate.promise;
      return connect(port);
    });
    const pending = slow.update({ enabled: true, port: 9555 });
    await entered.promise;
    slow.dispose();
    gate.resolve();
    await pending;
    await slow.update({ enabled: true, port: 9555 });
    expect(log.slice(2)).toEqual(['connect 9555', 'disconnect 9555']);
    expect(slow.connectedPort).toBeNull();
  });
});
