/**
 * Whose request a kernel is executing right now, read from the kernel's own
 * messages: every request a kernel handles is bracketed by `status: busy` and
 * `status: idle` messages whose parent header names the request. Deciding
 * from these (never from timing) is what lets an aborted call interrupt only
 * its own execution, never work the human started.
 *
 * What was sent before we started listening is unknown, and the kernel's
 * overall status cannot tell: a control-channel request (the debugger's
 * `debugInfo`) reports busy and idle while a cell still executes. So a probe
 * (`kernel_info_request`) goes out on the shell channel, which handles one
 * request at a time in order: its reply means everything sent before it is
 * done. The shell reply is what says so: the probe does not also wait for the
 * request's `idle` on iopub, which a connection that has just come back can
 * lose (the kernel then works, and the probe would never end).
 */
import { type Kernel, KernelMessage } from '@jupyterlab/services';
import { type IDisposable } from '@lumino/disposable';
import { Signal, type ISignal } from '@lumino/signaling';

import { WakeUp } from '../../common/wake-up';

/** The request a kernel is busy with, as far as its messages tell. */
export type KernelWork =
  | { kind: 'idle' }
  | { kind: 'request'; msgId: string }
  /** Work sent before we listened may still be running or queued. */
  | { kind: 'unknown' };

/**
 * Follows one kernel connection's status messages until disposed.
 */
export class KernelActivity implements IDisposable {
  constructor(private readonly _kernel: Kernel.IKernelConnection) {
    _kernel.iopubMessage.connect(this._onIOPub, this);
    this._probe();
  }

  /** Emitted with its message id when an execute request starts executing. */
  get started(): ISignal<this, string> {
    return this._started;
  }

  /** The request the kernel is executing now. */
  get work(): KernelWork {
    const [msgId] = this._executing;
    if (msgId !== undefined) {
      return { kind: 'request', msgId };
    }
    return this._unknown ? { kind: 'unknown' } : { kind: 'idle' };
  }

  /** Whether the kernel is executing the request with this message id. */
  isExecuting(msgId: string): boolean {
    return this._executing.has(msgId);
  }

  /** Whether the kernel is busy with a request that is not one of `ours`. */
  busyWithOtherWork(ours: ReadonlySet<string>): boolean {
    const work = this.work;
    switch (work.kind) {
      case 'idle':
        return false;
      case 'unknown':
        return true;
      case 'request':
        return !ours.has(work.msgId);
    }
  }

  /**
   * Resolve when the kernel is no longer busy with work that is not ours, or
   * when `signal` aborts (resolving false).
   */
  async waitForOwnTurn(
    ours: ReadonlySet<string>,
    signal: AbortSignal
  ): Promise<boolean> {
    while (this.busyWithOtherWork(ours)) {
      if (signal.aborted || this._disposed) {
        return false;
      }
      await this._wakeUp.next(signal);
    }
    return !signal.aborted;
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this._kernel.iopubMessage.disconnect(this._onIOPub, this);
    this._wake();
    Signal.clearData(this);
  }

  private _onIOPub(
    _: Kernel.IKernelConnection,
    msg: KernelMessage.IIOPubMessage
  ): void {
    if (msg.header.msg_type !== 'status') {
      return;
    }
    const state = (msg as KernelMessage.IStatusMsg).content.execution_state;
    const parent = msg.parent_header as Partial<KernelMessage.IHeader>;
    if (state === 'restarting' || state === 'dead') {
      // Nothing sent before survives a restart.
      this._executing.clear();
      this._unknown = false;
    } else if (parent.msg_type === 'execute_request' && parent.msg_id) {
      // Only execute requests count: a kernel also reports busy/idle around
      // other requests (kernel_info, completion, the debugger's requests on
      // the control channel), even while a cell executes.
      if (state === 'busy') {
        this._executing.add(parent.msg_id);
        this._started.emit(parent.msg_id);
      } else if (state === 'idle') {
        this._executing.delete(parent.msg_id);
      }
    }
    this._wake();
  }

  /**
   * Send the `kernel_info_request` whose shell reply ends the unknown
   * backlog. A kernel that went away (the send throws, or the request is
   * dropped with its future) has no backlog left either.
   */
  private _probe(): void {
    const done = () => this._backlogDone();
    let future: Kernel.IShellFuture;
    try {
      future = this._kernel.sendShellMessage(
        KernelMessage.createMessage({
          msgType: 'kernel_info_request',
          channel: 'shell',
          session: this._kernel.clientId,
          username: this._kernel.username,
          content: {}
        }),
        true
      );
    } catch {
      done();
      return;
    }
    future.onReply = done;
    future.done.then(done, done);
  }

  private _backlogDone(): void {
    if (this._disposed) {
      return;
    }
    this._unknown = false;
    this._wake();
  }

  private _wake(): void {
    this._wakeUp.wake();
  }

  private readonly _executing = new Set<string>();
  private _unknown = true;
  private _disposed = false;
  private _started = new Signal<this, string>(this);
  private readonly _wakeUp = new WakeUp();
}
