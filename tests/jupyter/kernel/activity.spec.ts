import { PromiseDelegate } from '@lumino/coreutils';
import { Signal } from '@lumino/signaling';
import type { Kernel, KernelMessage } from '@jupyterlab/services';

import { KernelActivity } from '../../../src/jupyter/kernel/activity';

/**
 * A kernel_info request the test answers: `resolve` is its shell reply (the
 * iopub `idle` that would end its future may never come), `reject` drops it
 * with its future, as a kernel that goes away does.
 */
class Probe {
  readonly msgType: string;
  onReply: (msg: unknown) => void = () => undefined;
  readonly done = new PromiseDelegate<void>();

  constructor(msg: KernelMessage.IShellMessage) {
    this.msgType = msg.header.msg_type;
  }

  resolve(): void {
    this.onReply({});
  }

  reject(error: Error): void {
    this.done.reject(error);
  }
}

/**
 * The part of a kernel connection KernelActivity uses: its iopub messages and
 * a kernel_info request whose reply the test controls.
 */
class FakeKernel {
  readonly iopubMessage = new Signal<this, KernelMessage.IIOPubMessage>(this);
  readonly clientId = 'client-1';
  readonly username = 'person';
  status: Kernel.Status = 'idle';
  probes: Probe[] = [];
  /** Whether sending fails at once (a dead kernel throws). */
  dead = false;

  sendShellMessage(msg: KernelMessage.IShellMessage, expectReply: boolean) {
    if (this.dead) {
      throw new Error('Kernel is dead');
    }
    expect(expectReply).toBe(true);
    const probe = new Probe(msg);
    this.probes.push(probe);
    return {
      get onReply() {
        return probe.onReply;
      },
      set onReply(cb: (msg: unknown) => void) {
        probe.onReply = cb;
      },
      done: probe.done.promise
    };
  }

  /** A `status` message on iopub for the request `msgId` of `msgType`. */
  report(
    state: 'busy' | 'idle' | 'restarting',
    msgType: string,
    msgId: string
  ): void {
    this.iopubMessage.emit({
      header: { msg_type: 'status', msg_id: `status-${msgId}-${state}` },
      parent_header: { msg_type: msgType, msg_id: msgId },
      content: { execution_state: state },
      channel: 'iopub',
      metadata: {}
    } as unknown as KernelMessage.IIOPubMessage);
  }
}

function activityOn(kernel: FakeKernel): KernelActivity {
  return new KernelActivity(kernel as unknown as Kernel.IKernelConnection);
}

/** Let promise callbacks run. */
const settle = () => new Promise(resolve => setTimeout(resolve, 0));

describe('KernelActivity', () => {
  it('sends one probe and counts the kernel as busy with unknown work until its reply', async () => {
    const kernel = new FakeKernel();
    const activity = activityOn(kernel);
    expect(kernel.probes).toHaveLength(1);
    expect(kernel.probes[0].msgType).toBe('kernel_info_request');
    expect(activity.work).toEqual({ kind: 'unknown' });
    expect(activity.busyWithOtherWork(new Set())).toBe(true);

    kernel.probes[0].resolve();
    await settle();
    expect(activity.work).toEqual({ kind: 'idle' });
    expect(activity.busyWithOtherWork(new Set())).toBe(false);
    activity.dispose();
  });

  it('waits behind a cell started before it listened, through a control request’s busy and idle', async () => {
    const kernel = new FakeKernel();
    kernel.status = 'busy';
    const activity = activityOn(kernel);
    let turn: boolean | null = null;
    void activity
      .waitForOwnTurn(new Set(), new AbortController().signal)
      .then(value => (turn = value));

    // the debugger's debugInfo, answered while the human's cell executes
    kernel.report('busy', 'debug_request', 'debug-1');
    kernel.report('idle', 'debug_request', 'debug-1');
    // a human's execute request whose start we never saw ends
    kernel.report('idle', 'execute_request', 'human-1');
    await settle();
    expect(turn).toBeNull();
    expect(activity.busyWithOtherWork(new Set())).toBe(true);

    // the shell answered the probe: everything sent before it is done
    kernel.probes[0].resolve();
    await settle();
    expect(turn).toBe(true);
    activity.dispose();
  });

  it('tells its own executing request from someone else’s', async () => {
    const kernel = new FakeKernel();
    const activity = activityOn(kernel);
    kernel.probes[0].resolve();
    await settle();
    const started: string[] = [];
    activity.started.connect((_, msgId) => started.push(msgId));
    const ours = new Set(['agent-1']);

    kernel.report('busy', 'execute_request', 'agent-1');
    expect(activity.isExecuting('agent-1')).toBe(true);
    expect(activity.work).toEqual({ kind: 'request', msgId: 'agent-1' });
    expect(activity.busyWithOtherWork(ours)).toBe(false);
    kernel.report('idle', 'execute_request', 'agent-1');

    kernel.report('busy', 'execute_request', 'human-2');
    expect(activity.busyWithOtherWork(ours)).toBe(true);
    // short requests around it do not end it
    kernel.report('busy', 'complete_request', 'complete-1');
    kernel.report('idle', 'complete_request', 'complete-1');
    expect(activity.busyWithOtherWork(ours)).toBe(true);
    kernel.report('idle', 'execute_request', 'human-2');
    expect(activity.busyWithOtherWork(ours)).toBe(false);
    expect(started).toEqual(['agent-1', 'human-2']);
    activity.dispose();
  });

  it('stops waiting when the call aborts', async () => {
    const kernel = new FakeKernel();
    const activity = activityOn(kernel);
    const controller = new AbortController();
    const turn = activity.waitForOwnTurn(new Set(), controller.signal);
    controller.abort();
    await expect(turn).resolves.toBe(false);
    activity.dispose();
  });

  it('forgets every request when the kernel restarts, and when the probe fails', async () => {
    const kernel = new FakeKernel();
    const activity = activityOn(kernel);
    kernel.probes[0].resolve();
    await settle();
    kernel.report('busy', 'execute_request', 'human-3');
    expect(activity.busyWithOtherWork(new Set())).toBe(true);
    kernel.report('restarting', 'shutdown_request', 'restart-1');
    expect(activity.busyWithOtherWork(new Set())).toBe(false);
    activity.dispose();

    const gone = new FakeKernel();
    const other = activityOn(gone);
    gone.probes[0].reject(new Error('Kernel disposed'));
    await settle();
    expect(other.busyWithOtherWork(new Set())).toBe(false);
    other.dispose();

    const dead = new FakeKernel();
    dead.dead = true;
    const third = activityOn(dead);
    await settle();
    expect(third.busyWithOtherWork(new Set())).toBe(false);
    third.dispose();
  });

  it('ends the unknown backlog on the probe’s shell reply, without its iopub idle', async () => {
    // a connection that has just come back can lose the probe's `idle`: the
    // shell reply alone says everything sent before it is done
    const kernel = new FakeKernel();
    const activity = activityOn(kernel);
    let turn: boolean | null = null;
    void activity
      .waitForOwnTurn(new Set(), new AbortController().signal)
      .then(value => (turn = value));
    await settle();
    expect(turn).toBeNull();
    kernel.probes[0].resolve(); // the reply; `done` never settles
    await settle();
    expect(turn).toBe(true);
    activity.dispose();
  });

  it('releases its waiters and stops listening when disposed', async () => {
    const kernel = new FakeKernel();
    const activity = activityOn(kernel);
    const turn = activity.waitForOwnTurn(
      new Set(),
      new AbortController().signal
    );
    activity.dispose();
    await expect(turn).resolves.toBe(false);
    expect(activity.isDisposed).toBe(true);
    kernel.report('busy', 'execute_request', 'late');
    expect(activity.isExecuting('late')).toBe(false);
  });
});
