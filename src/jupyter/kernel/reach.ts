/**
 * Whether the page can reach a kernel, and whether it has been out of reach
 * for too long to wait any more.
 *
 * A kernel connection is usable when its websocket is connected and the
 * kernel has said what it is doing (`idle`, `busy`, `starting`). Otherwise
 * its status is `unknown` (the socket is down, or no status message has
 * come since it reconnected), `restarting`/`autorestarting`, or `dead`.
 * A run waits for a kernel that comes back, as it usually does within
 * seconds of a restart; but a connection can also stay unusable for minutes
 * (the server restarted a killed kernel and the page's connection to the new
 * process never delivers its messages), and a reply that cannot come must
 * not be waited for forever. So a run gives up on a kernel that has been out
 * of reach for KERNEL_REACH_TIMEOUT_MS without a break, and at once on a dead
 * one, which never comes back. The bound counts only once the connection has
 * heard from a kernel (its first `kernel_info` reply): before that the kernel
 * is still starting (JupyterLite boots Pyodide in the page, which can take
 * longer), and a run waits for it as the person's own Run would.
 */
import { type Kernel } from '@jupyterlab/services';
import { type IDisposable } from '@lumino/disposable';
import { PromiseDelegate } from '@lumino/coreutils';

import { WakeUp } from '../../common/wake-up';
import { LIMITS } from '../../limits';

/**
 * How long a run waits, without a break, for a kernel the page cannot reach
 * before it answers that the kernel is unavailable. A kernel the server
 * restarted is reachable again within a few seconds, ten on a loaded machine.
 */
export const KERNEL_REACH_TIMEOUT_MS = LIMITS.KERNEL_REACH_TIMEOUT_MS;

/** The kernel statuses of a connection that has heard from its kernel. */
const LIVE: ReadonlySet<Kernel.Status> = new Set<Kernel.Status>([
  'idle',
  'busy',
  'starting'
]);

/** Whether the page can reach the kernel now. */
export function kernelReachable(kernel: Kernel.IKernelConnection): boolean {
  return (
    !kernel.isDisposed &&
    kernel.connectionStatus === 'connected' &&
    LIVE.has(kernel.status)
  );
}

/** What waiting for a kernel came to. */
export type ReachOutcome = 'reachable' | 'lost' | 'aborted';

/**
 * Follows one kernel connection's status and connection status until
 * disposed, and tells when the kernel has been out of reach too long.
 */
export class KernelReach implements IDisposable {
  constructor(
    private readonly _kernel: Kernel.IKernelConnection,
    private readonly _timeoutMs = KERNEL_REACH_TIMEOUT_MS
  ) {
    _kernel.statusChanged.connect(this._check, this);
    _kernel.connectionStatusChanged.connect(this._check, this);
    _kernel.disposed.connect(this._check, this);
    const answered = () => {
      this._answered = true;
      this._check();
    };
    _kernel.info.then(answered, answered);
    this._check();
  }

  /** Whether the page can reach the kernel now. */
  get reachable(): boolean {
    return kernelReachable(this._kernel);
  }

  /**
   * Whether the kernel has been out of reach for the whole timeout (or is
   * dead), and has not come back since.
   */
  get isLost(): boolean {
    return this._isLost;
  }

  /**
   * Resolves when the kernel is lost: at once if it is, else once it has
   * been out of reach for the whole timeout. Never rejects; it stays pending
   * while the kernel keeps coming back.
   */
  get lost(): Promise<void> {
    return this._lost.promise;
  }

  /** The kernel's status and connection status, for a message. */
  get state(): { kernelStatus: string; connectionStatus: string } {
    return {
      kernelStatus: this._kernel.isDisposed ? 'dead' : this._kernel.status,
      connectionStatus: this._kernel.connectionStatus
    };
  }

  /** Seconds of the timeout, for a message. */
  get timeoutSeconds(): number {
    return Math.round(this._timeoutMs / 1000);
  }

  /**
   * Resolve when the kernel is reachable, when it is lost, or when `signal`
   * aborts, whichever comes first.
   */
  async whenReachable(signal: AbortSignal): Promise<ReachOutcome> {
    for (;;) {
      if (signal.aborted) {
        return 'aborted';
      }
      if (this.reachable) {
        return 'reachable';
      }
      if (this._isLost || this._disposed) {
        return 'lost';
      }
      await this._wakeUp.next(signal);
    }
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this._clearTimer();
    this._kernel.statusChanged.disconnect(this._check, this);
    this._kernel.connectionStatusChanged.disconnect(this._check, this);
    this._kernel.disposed.disconnect(this._check, this);
    this._wake();
  }

  private _check(): void {
    if (this._disposed) {
      return;
    }
    if (this.reachable) {
      this._clearTimer();
      if (this._isLost) {
        // It came back: a later loss is a new one.
        this._isLost = false;
        this._lost = new PromiseDelegate<void>();
      }
    } else if (this._kernel.isDisposed || this._kernel.status === 'dead') {
      this._markLost();
    } else if (this._answered && !this._isLost && this._timer === null) {
      this._timer = setTimeout(() => {
        this._timer = null;
        this._markLost();
      }, this._timeoutMs);
    }
    this._wake();
  }

  private _markLost(): void {
    this._clearTimer();
    if (!this._isLost) {
      this._isLost = true;
      this._lost.resolve();
    }
    this._wake();
  }

  private _clearTimer(): void {
    if (this._timer !== null) {
      clearTimeout(this._timer);
      this._timer = null;
    }
  }

  private _wake(): void {
    this._wakeUp.wake();
  }

  /** Whether the connection has heard from a kernel (its first kernel_info). */
  private _answered = false;
  private _isLost = false;
  private _lost = new PromiseDelegate<void>();
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _disposed = false;
  private readonly _wakeUp = new WakeUp();
}
