import { type IDisposable } from '@lumino/disposable';

import { ToolError } from '../../src/common/errors';
import {
  activateWhenIdle,
  PartMissingError,
  Parts,
  PARTS,
  standInCommands
} from '../../src/common/parts';

/** A promise, and the hands to settle it. */
function deferred<T>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
  }
}

describe('Parts', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    warn.mockRestore();
  });

  it('loads a part once, however many ask at once or after', async () => {
    const parts = new Parts();
    const load = jest.fn(async () => ({ answer: 42 }));
    const part = parts.lazy('the answer', load);
    const [a, b] = await Promise.all([part(), part()]);
    expect(a).toBe(b);
    expect(await part()).toBe(a);
    expect(load).toHaveBeenCalledTimes(1);
    expect(parts.missing).toEqual([]);
  });

  it('names a part that failed, as WEBMCP_UNAVAILABLE, and tries again at the next use', async () => {
    const parts = new Parts();
    const changes = jest.fn();
    parts.onChange(changes);
    let fail = true;
    const load = jest.fn(async () => {
      if (fail) {
        throw new Error('Loading chunk 344 failed.\n(missing: later.js)');
      }
      return 'loaded';
    });
    const part = parts.lazy('the notebook tools', load);

    const thrown = await part().catch((reason: unknown) => reason);
    expect(thrown).toBeInstanceOf(PartMissingError);
    expect(thrown).toBeInstanceOf(ToolError);
    expect(thrown).toMatchObject({
      code: 'WEBMCP_UNAVAILABLE',
      message:
        'The notebook tools could not be loaded: the page may be offline, or hold files of an earlier version. Reload the page.',
      details: { part: 'the notebook tools' }
    });
    expect(parts.missing).toEqual([
      {
        part: 'the notebook tools',
        reason: 'Loading chunk 344 failed.\n(missing: later.js)'
      }
    ]);
    expect(changes).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(1);

    fail = false;
    expect(await part()).toBe('loaded');
    expect(load).toHaveBeenCalledTimes(2);
    expect(parts.missing).toEqual([]);
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it('keeps each part apart, in the order they failed; a listener disposed hears nothing more', async () => {
    const parts = new Parts();
    const listener = jest.fn();
    const subscription = parts.onChange(listener);
    const failing = (part: string) =>
      parts.lazy(part, async () => {
        throw new Error(`no ${part}`);
      });
    await failing('the Comments section')().catch(() => undefined);
    subscription.dispose();
    expect(subscription.isDisposed).toBe(true);
    await failing('the review badges')().catch(() => undefined);
    expect(parts.missing.map(({ part }) => part)).toEqual([
      'the Comments section',
      'the review badges'
    ]);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('holds the later parts until every hold has settled, a failed one too', async () => {
    const parts = new Parts();
    const first = deferred<void>();
    const second = deferred<void>();
    parts.holdUntil(first.promise);
    parts.holdUntil(second.promise);
    let started = false;
    void parts.started.then(() => (started = true));
    first.resolve();
    await flush();
    expect(started).toBe(false);
    second.reject(new Error('registration failed'));
    await flush();
    expect(started).toBe(true);
  });

  it('holds them at most as long as it was told, when the start never ends', async () => {
    jest.useFakeTimers();
    try {
      const parts = new Parts();
      parts.holdUntil(new Promise<void>(() => undefined), 10_000);
      let started = false;
      void parts.started.then(() => (started = true));
      await jest.advanceTimersByTimeAsync(9_999);
      expect(started).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(started).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('activateWhenIdle', () => {
  it('wires the part once restored, the start over and the page idle; disposing undoes it', async () => {
    const restored = deferred<void>();
    const unwire = jest.fn();
    const activate = jest.fn(() => ({
      isDisposed: false,
      dispose: unwire
    }));
    const load = jest.fn(async () => 'part');
    const wiring = activateWhenIdle(restored.promise, load, activate);
    await flush();
    expect(load).not.toHaveBeenCalled();
    restored.resolve();
    // jsdom has no requestIdleCallback: the idle step is a timer
    await new Promise(resolve => setTimeout(resolve, 5));
    await PARTS.started;
    await flush();
    expect(activate).toHaveBeenCalledWith('part');
    wiring.dispose();
    expect(unwire).toHaveBeenCalledTimes(1);
    expect(wiring.isDisposed).toBe(true);
  });

  it('does not load nor wire a part disposed before its turn', async () => {
    const restored = deferred<void>();
    const load = jest.fn(async () => 'part');
    const activate = jest.fn();
    const wiring = activateWhenIdle(restored.promise, load, activate);
    wiring.dispose();
    restored.resolve();
    await new Promise(resolve => setTimeout(resolve, 5));
    await flush();
    expect(load).not.toHaveBeenCalled();
    expect(activate).not.toHaveBeenCalled();
  });

  it('leaves out a part that failed to load, without an unhandled rejection', async () => {
    const warn = jest
      .spyOn(console, 'warn')
      .mockImplementation(() => undefined);
    const error = jest
      .spyOn(console, 'error')
      .mockImplementation(() => undefined);
    try {
      const parts = new Parts();
      const activate = jest.fn();
      activateWhenIdle(
        Promise.resolve(),
        parts.lazy('the Activity section', async () => {
          throw new Error('offline');
        }),
        activate
      );
      await new Promise(resolve => setTimeout(resolve, 5));
      await flush();
      expect(activate).not.toHaveBeenCalled();
      expect(parts.missing.map(({ part }) => part)).toEqual([
        'the Activity section'
      ]);
      // said once, as a warning naming it; not logged again as an error
      expect(warn).toHaveBeenCalledTimes(1);
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });
});

describe('a part that failed comes back without a reload', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    warn.mockRestore();
  });

  /** A chunk the network refuses until `online` is set. */
  function chunk(): {
    online: boolean;
    fetches: number;
    load: () => Promise<string>;
  } {
    const state = {
      online: false,
      fetches: 0,
      load: async () => {
        state.fetches++;
        if (!state.online) {
          throw new Error('offline');
        }
        return 'part';
      }
    };
    return state;
  }

  /**
   * A tool loader and an Access section wired when idle, both from one
   * chunk that is offline at first.
   */
  function offlineSection(activate: (loaded: string) => IDisposable) {
    const parts = new Parts();
    const net = chunk();
    const tools = parts.lazy('the notebook tools', net.load);
    const wiring = activateWhenIdle(
      Promise.resolve(),
      parts.lazy('the Access section', net.load),
      activate,
      parts
    );
    return { parts, net, tools, wiring };
  }

  it('onceBack calls its listener once, at the next part loaded, not at a failure', async () => {
    const parts = new Parts();
    const net = chunk();
    const tools = parts.lazy('the notebook tools', net.load);
    const panel = parts.lazy('the Access section', net.load);
    await expect(tools()).rejects.toBeInstanceOf(PartMissingError);
    const back = jest.fn();
    parts.onceBack(back);
    await expect(panel()).rejects.toBeInstanceOf(PartMissingError);
    expect(back).not.toHaveBeenCalled();
    net.online = true;
    await tools();
    expect(back).toHaveBeenCalledTimes(1);
    await panel();
    expect(back).toHaveBeenCalledTimes(1);
  });

  it('activateWhenIdle wires a part that failed once another part loads, or at its next use', async () => {
    const activate = jest.fn(() => ({ isDisposed: false, dispose: jest.fn() }));
    const { parts, net, tools, wiring } = offlineSection(activate);
    await expect(wiring.now()).rejects.toBeInstanceOf(PartMissingError);
    expect(activate).not.toHaveBeenCalled();
    // still offline: its next use fails again, and nothing loops
    const fetches = net.fetches;
    await expect(wiring.now()).rejects.toBeInstanceOf(PartMissingError);
    expect(net.fetches).toBe(fetches + 1);
    // back online: a tool call fetches the chunk, and the section follows
    net.online = true;
    await tools();
    await flush();
    expect(activate).toHaveBeenCalledTimes(1);
    expect(parts.missing).toEqual([]);
    await wiring.now();
    expect(activate).toHaveBeenCalledTimes(1);
  });

  it('activateWhenIdle disposed while it waits to try again does not wire', async () => {
    const activate = jest.fn();
    const { net, tools, wiring } = offlineSection(activate);
    await expect(wiring.now()).rejects.toBeInstanceOf(PartMissingError);
    await expect(tools()).rejects.toBeInstanceOf(PartMissingError);
    wiring.dispose();
    net.online = true;
    const fetches = net.fetches;
    await tools();
    await flush();
    expect(net.fetches).toBe(fetches + 1);
    expect(activate).not.toHaveBeenCalled();
  });
});

describe('standInCommands', () => {
  it('runs a command from the start: the stand-in wires the part at once, then runs its own command', async () => {
    const { CommandRegistry } = await import('@lumino/commands');
    const commands = new CommandRegistry();
    const ran: unknown[] = [];
    const part = activateWhenIdle(
      new Promise<void>(() => undefined), // the app never restores here
      async () => 'loaded',
      () => {
        standIns.dispose();
        return commands.addCommand('demo:show', {
          label: 'Show',
          execute: args => {
            ran.push(args);
          }
        });
      }
    );
    const standIns = standInCommands(commands, ['demo:show'], () => part.now());
    expect(commands.hasCommand('demo:show')).toBe(true);
    expect(commands.isVisible('demo:show')).toBe(false);
    await commands.execute('demo:show', { cellId: 'c1' });
    expect(ran).toEqual([{ cellId: 'c1' }]);
    expect(commands.isVisible('demo:show')).toBe(true);
    part.dispose();
    expect(commands.hasCommand('demo:show')).toBe(false);
  });

  it('fails, and never runs itself again, when the wiring adds no command', async () => {
    const { CommandRegistry } = await import('@lumino/commands');
    const commands = new CommandRegistry();
    const part = activateWhenIdle(
      new Promise<void>(() => undefined),
      async () => 'loaded',
      () => ({ isDisposed: false, dispose: () => undefined })
    );
    standInCommands(commands, ['demo:missing'], () => part.now());
    await expect(commands.execute('demo:missing')).rejects.toThrow(
      'demo:missing was not added'
    );
  });
});
