/**
 * The relay plugin follows the owner's setting while it is active, and no
 * longer once deactivated: a change after that loads and starts nothing.
 */
import { Signal } from '@lumino/signaling';

import { relayPlugin } from '../../src/relay/plugin';

const updates: unknown[] = [];

jest.mock('../../src/relay/embed', () => ({
  connectRelay: jest.fn(),
  RelaySwitch: class {
    update(settings: unknown): Promise<void> {
      updates.push(settings);
      return Promise.resolve();
    }
    dispose(): void {
      // nothing to close: the fake never connects
    }
  }
}));

class FakeSettings {
  composite: Record<string, unknown> = { enabled: false };
  readonly changed = new Signal<this, void>(this);
  set(composite: Record<string, unknown>): void {
    this.composite = composite;
    this.changed.emit();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
  }
  await new Promise(resolve => setTimeout(resolve, 0));
}

function activate(settings: FakeSettings): void {
  const registry = { addClient: () => ({ dispose: () => undefined }) };
  const settingRegistry = { load: () => Promise.resolve(settings) };
  void relayPlugin.activate(
    {} as never,
    registry as never,
    settingRegistry as never,
    null
  );
}

describe('relayPlugin', () => {
  beforeEach(() => {
    updates.length = 0;
  });

  it('turns the relay on when the owner does, while active', async () => {
    const settings = new FakeSettings();
    activate(settings);
    await settle();
    expect(updates).toEqual([]); // off: nothing loaded
    settings.set({ enabled: true, port: 9444 });
    await settle();
    expect(updates).toEqual([{ enabled: true, port: 9444 }]);
    void relayPlugin.deactivate!({} as never);
  });

  it('follows nothing when deactivated before the setting was read', async () => {
    const settings = new FakeSettings();
    let loaded: (value: FakeSettings) => void = () => undefined;
    const registry = { addClient: () => ({ dispose: () => undefined }) };
    const settingRegistry = {
      load: () => new Promise<FakeSettings>(resolve => (loaded = resolve))
    };
    void relayPlugin.activate(
      {} as never,
      registry as never,
      settingRegistry as never,
      null
    );
    void relayPlugin.deactivate!({} as never);
    loaded(settings);
    await settle();
    settings.set({ enabled: true, port: 9444 });
    await settle();
    expect(updates).toEqual([]);
  });

  it('stops following the setting once deactivated', async () => {
    const settings = new FakeSettings();
    activate(settings);
    await settle();
    void relayPlugin.deactivate!({} as never);
    settings.set({ enabled: true, port: 9444 });
    await settle();
    expect(updates).toEqual([]);
  });
});
