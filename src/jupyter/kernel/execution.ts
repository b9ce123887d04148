/**
 * `jupyter_run_cells` and `jupyter_kernel_action`: running cells on the kernel
 * the human shares.
 *
 * Cells run one after another through the notebook's own execution path, so
 * the human sees the busy prompt, the execution count and the outputs. A
 * request is sent only when the kernel is not executing someone else's work;
 * until then it waits here, where an abort can still withdraw it. An abort
 * interrupts the kernel only while this call's own request is the one
 * executing, as the kernel's status messages say. A kernel the page cannot
 * reach is waited for up to KERNEL_REACH_TIMEOUT_MS, never for ever: before
 * anything ran the call answers KERNEL_UNAVAILABLE, after that the cell it
 * reached ends with an inline error.
 */
import { type CodeCell, type MarkdownCell } from '@jupyterlab/cells';

import { assertNotebookAccessible } from '../../access/guard';
import { recordAgentAction } from '../../access/provenance';
import { secretFilter } from '../secrets';
import { type ICallTrace } from '../call';
import { isHidden, mayWrite } from '../../access/policy';
import { cellAccess, notebookAccess } from '../../access/read';
import { ToolError } from '../../common/errors';
import { sourceHash } from '../../common/hash';
import { type IRunTarget } from '../../propose/store';
import { type IProposals } from '../../tokens';
import { deniedResult, notApplied } from '../proposed';
import {
  executeCode,
  skipped,
  type ICellRunResult,
  type IRunContext
} from './execute-cell';
import { settledKernel } from './action';
import { KernelActivity } from './activity';
import { KernelReach } from './reach';
import { cellIndexOf } from '../model-index';
import {
  checkNotebookAccess,
  namesNotebook,
  notebookInfo,
  type ILiveNotebook,
  type INotebookInfo,
  type NotebookResolver
} from '../notebook';
import {
  addressedTargets,
  needsKernel,
  selectTargets,
  type IRunArgs,
  type ITarget
} from './run-targets';

export type { ICellRunResult } from './execute-cell';
export type { IRunArgs } from './run-targets';

/** What `jupyter_run_cells` returns. */
export interface IRunResult {
  status: 'ok' | 'error' | 'aborted';
  notebook: INotebookInfo;
  results: ICellRunResult[];
  /** Propose mode: the proposal the human accepted for this run. */
  proposalId?: string;
}

/** A run the human denied in Propose mode: nothing ran. */
export interface IDeniedRun {
  status: 'denied';
  code: 'PROPOSAL_DENIED';
  proposalId: string;
  /** The code cells the run would have run. */
  cellIds: string[];
  reason: string | null;
}

/** What `jupyter_run_cells` may return. */
export type RunResult = IRunResult | IDeniedRun;

function aborted(): ToolError {
  return new ToolError('ABORTED', 'The call was aborted before any cell ran.');
}

/** The error of a call whose kernel stayed out of reach before any cell ran. */
function unreachableKernel(path: string, reach: KernelReach): ToolError {
  const { kernelStatus, connectionStatus } = reach.state;
  const why =
    kernelStatus === 'dead'
      ? 'the kernel is dead'
      : `the page has had no working connection to it for ${reach.timeoutSeconds} s ` +
        `(kernel status '${kernelStatus}', connection '${connectionStatus}'); ` +
        'it may have died and be restarting';
  return new ToolError(
    'KERNEL_UNAVAILABLE',
    `The notebook's kernel cannot be reached: ${why}. No cell was run. ` +
      'Restart the kernel with jupyter_kernel_action (every variable is lost), or wait and run again.',
    { path, kernelStatus, connectionStatus }
  );
}

/**
 * Run cells by id, by range, or the active cell. The call's signal aborts
 * it; each target is reported to the call as running before it runs.
 */
export async function runCells(
  resolver: NotebookResolver,
  args: IRunArgs,
  call: ICallTrace
): Promise<IRunResult>;
export async function runCells(
  resolver: NotebookResolver,
  args: IRunArgs,
  call: ICallTrace,
  proposals: IProposals | null
): Promise<RunResult>;
export async function runCells(
  resolver: NotebookResolver,
  args: IRunArgs,
  call: ICallTrace,
  proposals: IProposals | null = null
): Promise<RunResult> {
  const { signal } = call;
  if (signal.aborted) {
    throw aborted();
  }
  const notebook = await resolver.resolveLive(
    args.notebookPath,
    'write',
    model => addressedTargets(model, args)
  );
  const targets = selectTargets(notebook, args);
  const session = notebook.panel.sessionContext;
  // A kernel that is still starting (a notebook just opened) is waited for.
  const wantsKernel = needsKernel(notebook, targets);
  const kernel = wantsKernel
    ? await settledKernel(session, signal)
    : (session.session?.kernel ?? null);
  if (signal.aborted) {
    throw aborted();
  }
  if (wantsKernel && !kernel) {
    throw new ToolError(
      'KERNEL_UNAVAILABLE',
      'The notebook has no kernel attached: start or select one, then run again.',
      { path: notebook.path }
    );
  }
  // Propose mode: the code to run waits for the human, every check above
  // made first; what runs on Accept is what was shown (hash-bound).
  let approval: IApproval | null = null;
  if (kernel && proposals?.reviews(notebook.model, 'run')) {
    const reviewed = await reviewRun(notebook, targets, args, call, proposals);
    if (reviewed.kind === 'answer') {
      return reviewed.answer;
    }
    approval = reviewed.approval;
  }
  const stopOnError = args.stopOnError ?? true;
  // The activity's probe goes out first: its answer is also what tells a
  // connection that has just come back what the kernel is doing.
  const activity = kernel ? new KernelActivity(kernel) : null;
  const reach = kernel ? new KernelReach(kernel) : null;
  const context: IRunContext = {
    activity,
    reach,
    ours: new Set<string>(),
    signal,
    stop: null,
    addressedByPath: namesNotebook(args.notebookPath),
    approved: approval?.hashes ?? null,
    filter: secretFilter(resolver, notebook.model, call)
  };
  const results: ICellRunResult[] = [];
  let failed = false;
  let abortStopped = false;
  try {
    // A kernel the page cannot reach (its connection down, or no word from
    // it since it came back) is waited for, but not past the bound: then
    // the call answers before anything ran, instead of waiting for ever.
    if (wantsKernel && reach && !reach.reachable) {
      const outcome = await reach.whenReachable(signal);
      if (outcome === 'aborted') {
        throw aborted();
      }
      if (outcome === 'lost') {
        throw unreachableKernel(notebook.path, reach);
      }
    }
    for (const target of targets) {
      if (signal.aborted) {
        context.stop = 'abort';
      }
      if (context.stop === null) {
        call.reportCell(notebook.path, target.cellId, 'running');
      }
      const outcome = await runTarget(notebook, target, context);
      results.push(outcome.result);
      if (outcome.counts && outcome.stoppedByAbort) {
        abortStopped = true;
      }
      if (outcome.counts && outcome.result.status === 'error') {
        failed = true;
        if (stopOnError && context.stop === null) {
          context.stop = 'stopOnError';
        }
      }
    }
  } finally {
    activity?.dispose();
    reach?.dispose();
  }
  // Hidden while the last target ran: the call fails exactly as for a hidden
  // notebook, and says nothing of the cells already run.
  checkNotebookAccess(notebook, 'read', context.addressedByPath);
  // `aborted` only when the abort stopped something: a signal that fires
  // after the last cell finished leaves the status the results give.
  return {
    status: abortStopped ? 'aborted' : failed ? 'error' : 'ok',
    notebook: notebookInfo(notebook),
    results,
    ...(approval?.proposalId ? { proposalId: approval.proposalId } : {})
  };
}

/** The hashes a run was approved with, and by which proposal (if any). */
interface IApproval {
  hashes: Map<string, string>;
  proposalId: string | null;
}

/** The code cells a run would send to the kernel, with the source of each. */
function codeToRun(
  notebook: ILiveNotebook,
  targets: readonly ITarget[]
): IRunTarget[] {
  const model = notebook.model;
  const cells: IRunTarget[] = [];
  for (const target of targets) {
    const index = cellIndexOf(model, target.cellId);
    const cell = index >= 0 ? model.cells[index] : null;
    if (cell?.cell_type === 'code' && cell.getSource().trim() !== '') {
      const source = cell.getSource();
      cells.push({
        cellId: cell.id,
        source,
        sourceHash: sourceHash('code', source)
      });
    }
  }
  return cells;
}

/**
 * Put the run before the human, unless every code cell of it is allowed to
 * run again unchanged (or there is no code to run). Accept gives the
 * approval; every other end is the call's answer.
 */
async function reviewRun(
  notebook: ILiveNotebook,
  targets: readonly ITarget[],
  args: IRunArgs,
  call: ICallTrace,
  proposals: IProposals
): Promise<
  | { kind: 'approved'; approval: IApproval }
  | { kind: 'answer'; answer: IDeniedRun }
> {
  const cells = codeToRun(notebook, targets);
  const hashes = new Map(cells.map(cell => [cell.cellId, cell.sourceHash]));
  const context = notebook.panel.context;
  if (cells.length === 0 || proposals.isAllowed(context, cells)) {
    return { kind: 'approved', approval: { hashes, proposalId: null } };
  }
  const addressedByPath = namesNotebook(args.notebookPath);
  const session = notebook.panel.sessionContext;
  const outcome = await proposals.propose({
    kind: 'run',
    panel: notebook.panel,
    cellId: cells[0].cellId,
    cellIds: cells.map(cell => cell.cellId),
    cells,
    kernelName:
      session.kernelDisplayName || session.session?.kernel?.name || null,
    signal: call.signal,
    apply: () => checkNotebookAccess(notebook, 'write', addressedByPath)
  });
  switch (outcome.kind) {
    case 'accepted':
      return {
        kind: 'approved',
        approval: { hashes, proposalId: outcome.proposal.id }
      };
    case 'denied':
      return {
        kind: 'answer',
        answer: deniedResult(outcome, {
          cellIds: cells.map(cell => cell.cellId)
        })
      };
    default:
      throw notApplied(outcome, notebook, addressedByPath);
  }
}

/**
 * A target's outcome; `counts` is false when it must not sway the status,
 * `stoppedByAbort` whether the call's abort skipped, withdrew or cut it short.
 */
interface ITargetOutcome {
  result: ICellRunResult;
  counts: boolean;
  stoppedByAbort?: boolean;
}

/** A target skipped without swaying the call's status. */
function notCounted(...args: Parameters<typeof skipped>): ITargetOutcome {
  return { counts: false, result: skipped(...args) };
}

/**
 * A target whose cell is gone (deleted, or hidden, which reads the same),
 * before it ran or while it did.
 */
function cellGone(target: ITarget): ITargetOutcome {
  return notCounted(target, -1, 'no-op', 'Not run: the cell no longer exists.');
}

/**
 * Re-resolve a target right before it runs (the human may have deleted,
 * hidden or locked it, or the notebook, meanwhile), then run it.
 */
async function runTarget(
  notebook: ILiveNotebook,
  target: ITarget,
  context: IRunContext
): Promise<ITargetOutcome> {
  const model = notebook.model;
  const access = notebookAccess(model);
  // Hidden mid-call: the call fails exactly as for a hidden notebook.
  assertNotebookAccessible(
    { path: notebook.path, access },
    'read',
    context.addressedByPath
  );
  const index = cellIndexOf(model, target.cellId);
  const cell = index >= 0 ? model.cells[index] : null;
  const widget = index >= 0 ? notebook.panel.content.widgets[index] : null;
  if (
    !cell ||
    isHidden(cellAccess(cell)) ||
    !widget ||
    widget.model.id !== target.cellId
  ) {
    return cellGone(target);
  }
  if (!mayWrite(access) || !mayWrite(cellAccess(cell))) {
    return notCounted(
      target,
      index,
      'no-op',
      'Not run: the notebook owner made it read-only for agents.'
    );
  }
  if (context.stop === 'abort') {
    return {
      counts: true,
      stoppedByAbort: true,
      result: skipped(target, index, 'abort', 'Not run: the call was aborted.')
    };
  }
  if (context.stop === 'stopOnError') {
    return notCounted(
      target,
      index,
      'abort',
      'Not run: an earlier cell failed and stopOnError is true.'
    );
  }
  if (cell.cell_type === 'markdown') {
    (widget as MarkdownCell).rendered = true;
    return notCounted(target, index, 'no-op', 'Markdown cell rendered.');
  }
  if (cell.cell_type !== 'code') {
    return notCounted(
      target,
      index,
      'no-op',
      `Not run: a ${cell.cell_type} cell is not executed.`
    );
  }
  if (cell.getSource().trim() === '') {
    return notCounted(target, index, 'no-op', 'Not run: the cell is empty.');
  }
  if (
    context.approved &&
    context.approved.get(target.cellId) !== sourceHash('code', cell.getSource())
  ) {
    // what runs is what the human approved: changed code needs a new review
    return notCounted(
      target,
      index,
      'no-op',
      'Not run: its code changed after the notebook owner approved the run. Call jupyter_run_cells again to have the new code reviewed.'
    );
  }
  const { result, stoppedByAbort } = await executeCode(
    notebook.panel,
    widget as CodeCell,
    target,
    index,
    context
  );
  // A cell hidden while it ran reads like a deleted one, whatever happened.
  const after = cellIndexOf(model, target.cellId);
  if (after < 0 || isHidden(cellAccess(model.cells[after]))) {
    return cellGone(target);
  }
  result.index = after;
  if (result.status === 'ok' || result.status === 'error') {
    recordAgentAction(model.cells[after], 'ran', 'jupyter_run_cells');
  }
  return { counts: true, stoppedByAbort, result };
}
