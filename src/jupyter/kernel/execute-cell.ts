/**
 * Running one code cell for `jupyter_run_cells`, and what its result says.
 */
import { type CodeCell } from '@jupyterlab/cells';
import type * as nbformat from '@jupyterlab/nbformat';
import { type NotebookPanel } from '@jupyterlab/notebook';
import { type KernelMessage } from '@jupyterlab/services';

import { LIMITS } from '../../limits';
import { type KernelActivity } from './activity';
import { type KernelReach } from './reach';
import { outputSummary, serializeOutput } from '../outputs/outputs';
import { SHOW_TEXT, type TextFilter } from '../secrets';
import { type ITarget } from './run-targets';
import { boundChars } from '../../common/text';

/** One target's outcome. */
export interface ICellRunResult {
  cellId: string;
  index: number;
  status: 'ok' | 'error' | 'abort' | 'no-op';
  executionCount?: number | null;
  outputSummary: string;
  ename?: string;
  evalue?: string;
  traceback?: string;
}

/** What every target of one call shares. */
export interface IRunContext {
  activity: KernelActivity | null;
  /** Whether the page can reach the kernel; set when `activity` is. */
  reach: KernelReach | null;
  /** The message ids of the requests this call sent. */
  ours: Set<string>;
  signal: AbortSignal;
  /** Why remaining targets are not run, if they are not. */
  stop: 'abort' | 'stopOnError' | null;
  /** Whether the notebook was named (rather than the current one). */
  addressedByPath: boolean;
  /**
   * Propose mode: the hash each code cell was approved with; a cell whose
   * code differs is not run. Null when the run needed no approval.
   */
  approved?: Map<string, string> | null;
  /** What outputs go through before the agent sees them (secrets withheld). */
  filter?: TextFilter;
}

/**
 * A code cell's outcome, and whether the call's abort stopped it: withdrew it
 * before it was sent, gave up on it queued, or interrupted it (it failed).
 */
export interface ICodeRun {
  result: ICellRunResult;
  stoppedByAbort: boolean;
}

/** A result line for a target that did not run. */
export function skipped(
  target: ITarget,
  index: number,
  status: 'abort' | 'no-op',
  summary: string
): ICellRunResult {
  return {
    cellId: index < 0 && !target.byId ? '' : target.cellId,
    index,
    status,
    outputSummary: summary
  };
}

/**
 * Run one code cell through the notebook's own execution path, and honour an
 * abort: interrupt the kernel only while this request is the one executing
 * (or as soon as it starts, when it is in flight to an otherwise idle
 * kernel); a request already queued behind someone else's work is left to
 * run, and the result says so. A cell the interrupt did not stop (Pyodide
 * runs it to completion) was not stopped by the abort. The agent never gives
 * its outputs trust: they render untrusted (sanitized, no script), whatever
 * the cell's trust was before. A cell the person had run is trusted for the
 * code they ran, not for what the agent may since have written into it.
 */
export async function executeCode(
  panel: NotebookPanel,
  widget: CodeCell,
  target: ITarget,
  index: number,
  context: IRunContext
): Promise<ICodeRun> {
  const { activity, ours, signal } = context;
  if (!activity) {
    // It became a code cell after the call found no code to run.
    return {
      stoppedByAbort: false,
      result: skipped(
        target,
        index,
        'no-op',
        'Not run: the notebook has no kernel attached.'
      )
    };
  }
  const turn = await ownTurn(activity, context.reach, ours, signal);
  if (turn === 'lost') {
    return {
      stoppedByAbort: false,
      result: unreachable(target, index, context.reach!, false)
    };
  }
  if (turn === 'aborted') {
    return {
      stoppedByAbort: true,
      result: skipped(
        target,
        index,
        'abort',
        'Not run: the call was aborted while the cell waited for the shared kernel to finish earlier work, so it was never sent.'
      )
    };
  }
  const model = widget.model;
  const wasTrusted = model.trusted;
  const trustedMetadata = model.getMetadata('trusted') as unknown;
  const CodeCellClass = widget.constructor as typeof CodeCell;
  const reply = CodeCellClass.execute(widget, panel.sessionContext);
  // `execute` trusts the cell synchronously before sending; outputs arrive in
  // later tasks, so taking the trust back here comes before any of them.
  withdrawTrust(model, wasTrusted, trustedMetadata);
  const msgId = widget.outputArea.future?.msg.header.msg_id ?? '';
  ours.add(msgId);

  let interrupted = false;
  let interruptWhenStarted = false;
  const interrupt = () => {
    if (!interrupted) {
      interrupted = true;
      void panel.sessionContext.session?.kernel
        ?.interrupt()
        .catch(() => undefined);
    }
  };
  let leaveQueued: () => void = () => undefined;
  const queuedBehindOthers = new Promise<'queued'>(resolve => {
    leaveQueued = () => resolve('queued');
  });
  const onAbort = () => {
    if (activity.isExecuting(msgId)) {
      interrupt();
    } else if (activity.busyWithOtherWork(ours)) {
      leaveQueued();
    } else {
      interruptWhenStarted = true;
    }
  };
  const onStarted = (_: KernelActivity, started: string) => {
    if (!interruptWhenStarted) {
      return;
    }
    if (started === msgId) {
      interrupt();
    } else if (!ours.has(started)) {
      leaveQueued();
    }
  };
  activity.started.connect(onStarted);
  signal.addEventListener('abort', onAbort);
  // A kernel the page cannot reach for the whole bound will not reply: the
  // cell ends with an inline error instead of a wait for ever.
  const lost = context.reach
    ? context.reach.lost.then(() => 'lost' as const)
    : new Promise<never>(() => undefined);
  let settled: KernelMessage.IExecuteReplyMsg | 'queued' | 'lost' | undefined;
  try {
    settled = await Promise.race([
      reply.then(
        message => message ?? undefined,
        () => undefined
      ),
      queuedBehindOthers,
      lost
    ]);
  } finally {
    signal.removeEventListener('abort', onAbort);
    activity.started.disconnect(onStarted);
  }
  if (settled === 'lost' && !widget.isDisposed && widget.model) {
    return {
      stoppedByAbort: false,
      result: unreachable(
        target,
        index,
        context.reach!,
        true,
        widget,
        context.filter
      )
    };
  }
  if (settled === 'queued') {
    return {
      stoppedByAbort: true,
      result: skipped(
        target,
        index,
        'abort',
        'The request was already queued on the shared kernel behind other work and could not be withdrawn; it will still run.'
      )
    };
  }
  if (widget.isDisposed || !widget.model) {
    // The notebook was closed while the cell ran: its widget, and with it
    // the outputs, are gone (the spec's "notebook widget is missing").
    return {
      stoppedByAbort: false,
      result: skipped(
        target,
        -1,
        'no-op',
        'No result: the notebook was closed while the cell ran, so its outputs are not known.'
      )
    };
  }
  const result = codeResult(
    target,
    index,
    widget,
    context.filter ?? SHOW_TEXT,
    settled === 'lost' ? undefined : settled
  );
  if (interrupted && result.status === 'ok') {
    result.outputSummary = boundChars(
      `Interrupt requested, but this kernel ran the cell to completion. ${result.outputSummary}`,
      LIMITS.MAX_SUMMARY_CHARS
    ).text;
  }
  return { result, stoppedByAbort: interrupted && result.status === 'error' };
}

/**
 * Wait until the kernel is free of work that is not this call's, as
 * `KernelActivity.waitForOwnTurn` does, but not past the moment the kernel
 * is lost (out of reach for the whole bound): the probe that tells whether
 * earlier work is done is answered by a kernel the page can reach.
 */
async function ownTurn(
  activity: KernelActivity,
  reach: KernelReach | null,
  ours: ReadonlySet<string>,
  signal: AbortSignal
): Promise<'turn' | 'aborted' | 'lost'> {
  if (signal.aborted) {
    return 'aborted';
  }
  if (reach?.isLost) {
    return 'lost';
  }
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort);
  let lost = false;
  void reach?.lost.then(() => {
    lost = true;
    stop.abort();
  });
  try {
    if (await activity.waitForOwnTurn(ours, stop.signal)) {
      return 'turn';
    }
    return lost && !signal.aborted ? 'lost' : 'aborted';
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The inline error of a cell whose kernel was lost: never sent, or sent with
 * no reply (it may still run if the connection comes back).
 */
function unreachable(
  target: ITarget,
  index: number,
  reach: KernelReach,
  sent: boolean,
  widget?: CodeCell,
  filter: TextFilter = SHOW_TEXT
): ICellRunResult {
  const { kernelStatus, connectionStatus } = reach.state;
  const dead = kernelStatus === 'dead';
  const why = dead
    ? 'the kernel is dead'
    : `the kernel could not be reached for ${reach.timeoutSeconds} s ` +
      `(kernel status '${kernelStatus}', connection '${connectionStatus}')`;
  const what = !sent
    ? `Not run: ${why}, so the cell was never sent.`
    : dead
      ? 'No reply: the kernel died while the cell ran.'
      : `No reply: ${why} while the cell ran; if the connection comes back, the cell may still finish.`;
  const evalue = `${what} Restart the kernel with jupyter_kernel_action (every variable is lost), or wait and run again.`;
  if (widget) {
    const result = codeResult(target, index, widget, filter, undefined, evalue);
    result.outputSummary = boundChars(
      `${what} ${result.outputSummary}`,
      LIMITS.MAX_SUMMARY_CHARS
    ).text;
    return result;
  }
  return {
    cellId: target.cellId,
    index,
    status: 'error',
    outputSummary: what,
    ename: 'Error',
    evalue,
    traceback: ''
  };
}

/**
 * Take back the trust `execute` gave the cell: the model's flag (how its
 * outputs render now) and its `trusted` metadata, which would otherwise be
 * saved with the file (a Jupyter server then signs the notebook, and every
 * cell of it comes back trusted when it is reopened). A cell that was not
 * trusted gets its metadata back as it was; a cell the person had trusted by
 * running it is marked untrusted (`trusted: false`), since its new outputs
 * come from the agent's run. Outside the undo history, as `execute`'s own
 * change is.
 */
function withdrawTrust(
  model: CodeCell['model'],
  wasTrusted: boolean,
  trustedMetadata: unknown
): void {
  model.trusted = false;
  const metadata = wasTrusted ? false : trustedMetadata;
  if (model.getMetadata('trusted') === metadata) {
    return;
  }
  model.sharedModel.transact(() => {
    if (metadata === undefined) {
      model.deleteMetadata('trusted');
    } else {
      model.setMetadata('trusted', metadata);
    }
  }, false);
}

function codeResult(
  target: ITarget,
  index: number,
  widget: CodeCell,
  filter: TextFilter,
  reply: KernelMessage.IExecuteReplyMsg | undefined,
  noReply = 'No reply.'
): ICellRunResult {
  const outputs = widget.model.outputs.toJSON() as nbformat.IOutput[];
  const result: ICellRunResult = {
    cellId: target.cellId,
    index,
    status: 'ok',
    executionCount: widget.model.executionCount,
    outputSummary: outputSummary(outputs, filter)
  };
  const status = reply?.content.status;
  if (status === 'error' || status === 'aborted' || !reply) {
    result.status = 'error';
    const error = outputs.find(output => output.output_type === 'error');
    const content = reply?.content as
      Partial<KernelMessage.IReplyErrorContent> | undefined;
    const serialized = serializeOutput(
      error ?? {
        output_type: 'error',
        ename: content?.ename ?? (status === 'aborted' ? 'Aborted' : 'Error'),
        evalue:
          content?.evalue ??
          (reply ? 'The kernel aborted the execution.' : noReply),
        traceback: content?.traceback ?? []
      },
      filter
    );
    result.ename = serialized.ename;
    result.evalue = serialized.evalue;
    result.traceback = serialized.traceback;
  }
  return result;
}
