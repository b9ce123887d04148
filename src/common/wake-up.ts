/**
 * A place for async loops to wait for "something changed": `next` resolves
 * on the next `wake`, or at once when its signal aborts. The loop then reads
 * the state again. Shared by the kernel watchers (KernelActivity,
 * KernelReach), which wake their waiters on every message they follow.
 */
export class WakeUp {
  /** Resolves on the next `wake`, or when `signal` aborts. */
  next(signal: AbortSignal): Promise<void> {
    return new Promise<void>(resolve => {
      const done = () => {
        signal.removeEventListener('abort', done);
        this._waiters.delete(done);
        resolve();
      };
      signal.addEventListener('abort', done);
      this._waiters.add(done);
    });
  }

  /** Resolve every pending `next`. */
  wake(): void {
    for (const waiter of [...this._waiters]) {
      waiter();
    }
  }

  private readonly _waiters = new Set<() => void>();
}
