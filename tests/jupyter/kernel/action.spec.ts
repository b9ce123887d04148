import type { ISessionContext } from '@jupyterlab/apputils';
import type { Kernel } from '@jupyterlab/services';
import { PromiseDelegate } from '@lumino/coreutils';
import { Signal } from '@lumino/signaling';

import { settledKernel } from '../../../src/jupyter/kernel/action';

/**
 * The part of a session context settledKernel reads: the attached kernel,
 * the display status JupyterLab shows, its signals and `ready`.
 */
class FakeSession {
  readonly statusChanged = new Signal<this, string>(this);
  readonly kernelChanged = new Signal<this, unknown>(this);
  readonly sessionChanged = new Signal<this, unknown>(this);
  readonly disposed = new Signal<this, void>(this);
  readonly readyDelegate = new PromiseDelegate<void>();
  session: { kernel: Kernel.IKernelConnection | null } | null = null;
  kernelDisplayStatus = 'initializing';
  isDisposed = false;

  get ready(): Promise<void> {
    return this.readyDelegate.promise;
  }

  attach(kernel: Kernel.IKernelConnection): void {
    this.session = { kernel };
    this.kernelDisplayStatus = 'idle';
    this.kernelChanged.emit(kernel);
  }
}

const KERNEL = { id: 'k1' } as unknown as Kernel.IKernelConnection;

function settled(
  session: FakeSession,
  signal?: AbortSignal
): Promise<Kernel.IKernelConnection | null> {
  return settledKernel(session as unknown as ISessionContext, signal);
}

const tick = () => new Promise(resolve => setTimeout(resolve, 0));

describe('settledKernel', () => {
  it('returns the attached kernel at once', async () => {
    const session = new FakeSession();
    session.attach(KERNEL);
    await expect(settled(session)).resolves.toBe(KERNEL);
  });

  it('returns null at once when the session has no kernel and starts none', async () => {
    const session = new FakeSession();
    session.kernelDisplayStatus = 'unknown';
    await expect(settled(session)).resolves.toBeNull();
  });

  it('waits for a kernel that is still starting (a notebook just opened)', async () => {
    const session = new FakeSession();
    let result: Kernel.IKernelConnection | null | undefined;
    void settled(session).then(value => (result = value));
    await tick();
    expect(result).toBeUndefined();
    session.kernelDisplayStatus = 'starting';
    session.statusChanged.emit('starting');
    await tick();
    expect(result).toBeUndefined();
    session.attach(KERNEL);
    session.readyDelegate.resolve();
    await tick();
    expect(result).toBe(KERNEL);
  });

  it('stops waiting when the human picks no kernel', async () => {
    const session = new FakeSession();
    const result = settled(session);
    session.kernelDisplayStatus = 'unknown';
    session.statusChanged.emit('unknown');
    await expect(result).resolves.toBeNull();
  });

  it('stops waiting when the call aborts or the panel goes away', async () => {
    const session = new FakeSession();
    const controller = new AbortController();
    const aborted = settled(session, controller.signal);
    controller.abort();
    await expect(aborted).resolves.toBeNull();

    const closed = settled(session);
    session.isDisposed = true;
    session.disposed.emit();
    await expect(closed).resolves.toBeNull();
  });
});
