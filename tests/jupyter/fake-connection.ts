import type { Kernel, KernelMessage } from '@jupyterlab/services';
import { PromiseDelegate } from '@lumino/coreutils';
import { Signal } from '@lumino/signaling';

/**
 * The part of a kernel connection KernelReach and KernelActivity read: its
 * status and connection status with their signals, its disposal, its iopub
 * messages, and shell requests that stay unanswered unless the test says.
 */
export class FakeConnection {
  readonly statusChanged = new Signal<this, Kernel.Status>(this);
  readonly connectionStatusChanged = new Signal<this, Kernel.ConnectionStatus>(
    this
  );
  readonly disposed = new Signal<this, void>(this);
  readonly iopubMessage = new Signal<this, KernelMessage.IIOPubMessage>(this);
  readonly clientId = 'client-1';
  readonly username = 'person';
  status: Kernel.Status;
  connectionStatus: Kernel.ConnectionStatus;
  isDisposed = false;
  /** The shell requests sent, by message type. */
  readonly sent: string[] = [];
  /** The first kernel_info reply; answered unless the kernel is `booting`. */
  readonly infoReply = new PromiseDelegate<void>();

  constructor(
    status: Kernel.Status = 'idle',
    connectionStatus: Kernel.ConnectionStatus = 'connected',
    options: { booting?: boolean } = {}
  ) {
    this.status = status;
    this.connectionStatus = connectionStatus;
    if (!options.booting) {
      this.infoReply.resolve();
    }
  }

  get info(): Promise<void> {
    return this.infoReply.promise;
  }

  get connection(): Kernel.IKernelConnection {
    return this as unknown as Kernel.IKernelConnection;
  }

  setStatus(status: Kernel.Status): void {
    this.status = status;
    this.statusChanged.emit(status);
  }

  /** As JupyterLab's: a connection that is not up leaves the status unknown. */
  setConnectionStatus(status: Kernel.ConnectionStatus): void {
    this.connectionStatus = status;
    if (status !== 'connected') {
      this.setStatus('unknown');
    }
    this.connectionStatusChanged.emit(status);
  }

  /** The kernel dies: JupyterLab marks it dead and disposes the connection. */
  die(): void {
    this.setStatus('dead');
    this.isDisposed = true;
    this.disposed.emit();
  }

  sendShellMessage(msg: KernelMessage.IShellMessage) {
    this.sent.push(msg.header.msg_type);
    return {
      onReply: () => undefined,
      done: new PromiseDelegate<void>().promise
    };
  }
}
