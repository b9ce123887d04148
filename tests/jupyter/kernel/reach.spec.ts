import {
  KernelReach,
  kernelReachable
} from '../../../src/jupyter/kernel/reach';
import { FakeConnection } from '../fake-connection';

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

/** Whether a promise has settled, after pending callbacks ran. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true)
  );
  await jest.advanceTimersByTimeAsync(0);
  return settled;
}

describe('kernelReachable', () => {
  it('needs a connected socket and a kernel that said what it is doing', () => {
    for (const status of ['idle', 'busy', 'starting'] as const) {
      expect(kernelReachable(new FakeConnection(status).connection)).toBe(true);
    }
    for (const status of [
      'unknown',
      'restarting',
      'autorestarting',
      'terminating',
      'dead'
    ] as const) {
      expect(kernelReachable(new FakeConnection(status).connection)).toBe(
        false
      );
    }
    for (const connection of ['connecting', 'disconnected'] as const) {
      expect(
        kernelReachable(new FakeConnection('idle', connection).connection)
      ).toBe(false);
    }
    const gone = new FakeConnection('idle');
    gone.isDisposed = true;
    expect(kernelReachable(gone.connection)).toBe(false);
  });
});

describe('KernelReach', () => {
  it('is never lost while the kernel stays reachable, however long a cell runs', async () => {
    const kernel = new FakeConnection('busy');
    const reach = new KernelReach(kernel.connection, 1000);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(reach.isLost).toBe(false);
    expect(await isSettled(reach.lost)).toBe(false);
    reach.dispose();
  });

  it('is lost once the kernel has been out of reach for the whole bound, not before', async () => {
    const kernel = new FakeConnection('unknown');
    const reach = new KernelReach(kernel.connection, 1000);
    const outcome = reach.whenReachable(new AbortController().signal);
    await jest.advanceTimersByTimeAsync(999);
    expect(reach.isLost).toBe(false);
    expect(await isSettled(outcome)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(reach.isLost).toBe(true);
    await expect(outcome).resolves.toBe('lost');
    await expect(reach.lost).resolves.toBeUndefined();
    expect(reach.state).toEqual({
      kernelStatus: 'unknown',
      connectionStatus: 'connected'
    });
    reach.dispose();
  });

  it('restarts the bound when the kernel comes back between two losses of reach', async () => {
    const kernel = new FakeConnection('idle');
    const reach = new KernelReach(kernel.connection, 1000);
    kernel.setConnectionStatus('connecting');
    await jest.advanceTimersByTimeAsync(800);
    kernel.setConnectionStatus('connected'); // still no status: not yet
    await jest.advanceTimersByTimeAsync(100);
    const outcome = reach.whenReachable(new AbortController().signal);
    kernel.setStatus('idle');
    await expect(outcome).resolves.toBe('reachable');
    kernel.setStatus('restarting');
    await jest.advanceTimersByTimeAsync(900);
    expect(reach.isLost).toBe(false);
    await jest.advanceTimersByTimeAsync(100);
    expect(reach.isLost).toBe(true);
    // a lost kernel that comes back is no longer lost; a later loss is new
    const first = reach.lost;
    kernel.setStatus('idle');
    expect(reach.isLost).toBe(false);
    expect(await isSettled(reach.lost)).toBe(false);
    await expect(first).resolves.toBeUndefined();
    reach.dispose();
  });

  it('waits without a bound for a kernel that has never answered (still starting), then counts from its answer', async () => {
    // JupyterLite: the page's socket is up at once, Pyodide boots behind it
    const kernel = new FakeConnection('unknown', 'connected', {
      booting: true
    });
    const reach = new KernelReach(kernel.connection, 1000);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(reach.isLost).toBe(false);
    kernel.infoReply.resolve(); // booted; its status messages were lost
    await jest.advanceTimersByTimeAsync(999);
    expect(reach.isLost).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(reach.isLost).toBe(true);
    reach.dispose();
  });

  it('is lost at once when the kernel dies', async () => {
    const kernel = new FakeConnection('busy');
    const reach = new KernelReach(kernel.connection, 1000);
    kernel.die();
    expect(reach.isLost).toBe(true);
    expect(reach.state.kernelStatus).toBe('dead');
    await expect(
      reach.whenReachable(new AbortController().signal)
    ).resolves.toBe('lost');
    reach.dispose();
  });

  it('stops waiting when the call aborts, and when disposed', async () => {
    const kernel = new FakeConnection('unknown', 'connecting');
    const reach = new KernelReach(kernel.connection, 1000);
    const controller = new AbortController();
    const aborted = reach.whenReachable(controller.signal);
    controller.abort();
    await expect(aborted).resolves.toBe('aborted');

    const waiting = reach.whenReachable(new AbortController().signal);
    reach.dispose();
    await expect(waiting).resolves.toBe('lost');
    // disposed: no timer left to fire
    await jest.advanceTimersByTimeAsync(5000);
    expect(reach.isLost).toBe(false);
  });
});
