/**
 * The kernel summary tools report (IKernelInfo).
 */
import { type ISessionContext } from '@jupyterlab/apputils';
import { type ISharedNotebook } from '@jupyter/ydoc';
import { type Kernel } from '@jupyterlab/services';

import { ToolError } from '../../common/errors';
import { type IProposals } from '../../tokens';
import { type ICallTrace, NO_CALL } from '../call';
import {
  checkNotebookAccess,
  namesNotebook,
  type NotebookResolver
} from '../notebook';
import { abortedIfReviewed, deniedResult, notApplied } from '../proposed';

/** The statuses a tool reports; every kernel state maps to one of them. */
export type KernelStatus =
  'idle' | 'busy' | 'starting' | 'dead' | 'unavailable' | 'unknown';

/** The kernel of a notebook, as a tool reports it. */
export interface IKernelInfo {
  name: string | null;
  displayName?: string;
  status: KernelStatus;
}

const STATUS: Record<string, KernelStatus> = {
  idle: 'idle',
  busy: 'busy',
  starting: 'starting',
  restarting: 'starting',
  autorestarting: 'starting',
  initializing: 'starting',
  connecting: 'starting',
  dead: 'dead',
  terminating: 'dead',
  unknown: 'unknown'
};

/** The kernel attached to an open notebook's session. */
export function kernelInfo(sessionContext: ISessionContext): IKernelInfo {
  const kernel = sessionContext.session?.kernel ?? null;
  if (!kernel) {
    const pending = !sessionContext.isReady && !sessionContext.hasNoKernel;
    return {
      name: sessionContext.kernelPreference.name ?? null,
      status: pending ? 'starting' : 'unavailable'
    };
  }
  const info: IKernelInfo = {
    name: kernel.name,
    status: STATUS[kernel.status] ?? 'unknown'
  };
  const displayName = sessionContext.kernelDisplayName;
  if (displayName) {
    info.displayName = displayName;
  }
  return info;
}

/** Whether the session is still bringing up a kernel it will attach. */
function attaching(sessionContext: ISessionContext): boolean {
  if (sessionContext.isDisposed || sessionContext.session?.kernel) {
    return false;
  }
  const status = sessionContext.kernelDisplayStatus;
  return (
    status === 'initializing' ||
    status === 'starting' ||
    status === 'restarting'
  );
}

/**
 * The kernel attached to a notebook, once its session has settled. A notebook
 * just opened (by the human, or in the background by a tool) is still
 * starting its preferred kernel: that kernel is on its way, not absent, so
 * this waits for it, as the human's own Run would. It stops waiting when the
 * session settles without one (the human picked no kernel), when the panel
 * goes away, or when `signal` aborts.
 */
export async function settledKernel(
  sessionContext: ISessionContext,
  signal?: AbortSignal
): Promise<Kernel.IKernelConnection | null> {
  if (attaching(sessionContext) && !signal?.aborted) {
    await new Promise<void>(resolve => {
      const check = () => {
        if (!attaching(sessionContext) || signal?.aborted) {
          sessionContext.statusChanged.disconnect(check);
          sessionContext.kernelChanged.disconnect(check);
          sessionContext.sessionChanged.disconnect(check);
          sessionContext.disposed.disconnect(check);
          signal?.removeEventListener('abort', check);
          resolve();
        }
      };
      sessionContext.statusChanged.connect(check);
      sessionContext.kernelChanged.connect(check);
      sessionContext.sessionChanged.connect(check);
      sessionContext.disposed.connect(check);
      signal?.addEventListener('abort', check);
      sessionContext.ready.then(check, check);
    });
  }
  return sessionContext.session?.kernel ?? null;
}

/**
 * The kernel a notebook that is not open in this app would use, from its
 * metadata. Nothing runs for it here, so its status is `unavailable`.
 */
export function storedKernelInfo(model: ISharedNotebook): IKernelInfo {
  const spec = model.getMetadata('kernelspec') as
    { name?: unknown; display_name?: unknown } | undefined;
  const info: IKernelInfo = {
    name: typeof spec?.name === 'string' ? spec.name : null,
    status: 'unavailable'
  };
  if (typeof spec?.display_name === 'string' && spec.display_name) {
    info.displayName = spec.display_name;
  }
  return info;
}

/** Arguments of `jupyter_kernel_action`. */
export interface IKernelActionArgs {
  notebookPath?: string | null;
  action: 'interrupt' | 'restart';
}

/** What `jupyter_kernel_action` returns. */
export interface IKernelActionResult {
  action: string;
  notebookPath: string;
  kernel: IKernelInfo;
  message: string;
}

/** What `jupyter_kernel_action` returns once its proposal is accepted. */
export interface IAcceptedKernelActionResult extends IKernelActionResult {
  status: 'accepted';
  proposalId: string;
}

/** A kernel action the human denied in Propose mode: nothing was done. */
export interface IDeniedKernelAction {
  status: 'denied';
  code: 'PROPOSAL_DENIED';
  proposalId: string;
  action: 'interrupt' | 'restart';
  reason: string | null;
}

/** What `jupyter_kernel_action` may return. */
export type KernelActionResult =
  IKernelActionResult | IAcceptedKernelActionResult | IDeniedKernelAction;

/**
 * Interrupt or restart the kernel the human shares. Both act on whatever is
 * running, the human's work included; a restart loses every variable. A
 * restart with no kernel attached starts the notebook's preferred kernel.
 * In Propose mode (kernel actions reviewed) it waits for the human first.
 */
export async function kernelAction(
  resolver: NotebookResolver,
  args: IKernelActionArgs,
  call?: ICallTrace
): Promise<IKernelActionResult>;
export async function kernelAction(
  resolver: NotebookResolver,
  args: IKernelActionArgs,
  call: ICallTrace,
  proposals: IProposals | null
): Promise<KernelActionResult>;
export async function kernelAction(
  resolver: NotebookResolver,
  args: IKernelActionArgs,
  call: ICallTrace = NO_CALL,
  proposals: IProposals | null = null
): Promise<KernelActionResult> {
  if (call.signal.aborted && proposals) {
    await abortedIfReviewed(resolver, args.notebookPath, proposals, 'kernel');
  }
  const notebook = await resolver.resolveLive(args.notebookPath, 'write');
  const session = notebook.panel.sessionContext;
  const kernel = await settledKernel(session);
  if (args.action === 'interrupt' && !kernel) {
    throw new ToolError(
      'KERNEL_UNAVAILABLE',
      'The notebook has no kernel attached: there is nothing to interrupt.',
      { path: notebook.path }
    );
  }
  let proposalId: string | null = null;
  if (proposals?.reviews(notebook.model, 'kernel')) {
    const addressedByPath = namesNotebook(args.notebookPath);
    const outcome = await proposals.propose({
      kind: 'kernel',
      panel: notebook.panel,
      // about no cell: shown at the top of the notebook, and no cell's
      // going away ends it
      cellId: null,
      cellIds: [],
      action: args.action,
      kernelName:
        session.kernelDisplayName || session.session?.kernel?.name || null,
      signal: call.signal,
      apply: () => checkNotebookAccess(notebook, 'write', addressedByPath)
    });
    if (outcome.kind === 'denied') {
      return deniedResult(outcome, { action: args.action });
    }
    if (outcome.kind !== 'accepted') {
      throw notApplied(outcome, notebook, addressedByPath);
    }
    proposalId = outcome.proposal.id;
  }
  // the kernel as it is now: it may have changed during review
  const current = session.session?.kernel ?? null;
  let message: string;
  if (args.action === 'interrupt') {
    if (!current) {
      throw new ToolError(
        'KERNEL_UNAVAILABLE',
        'The notebook has no kernel attached: there is nothing to interrupt.',
        { path: notebook.path }
      );
    }
    await current.interrupt();
    message =
      'Interrupt sent to the kernel. It stops whatever is running, including work the user started.';
  } else if (current) {
    await session.restartKernel();
    message =
      'Kernel restarted: every in-memory variable, import and definition was lost. Run the cells that define what you need again.';
  } else {
    await session.changeKernel(session.kernelPreference);
    message =
      'No kernel was attached, so a new one was started: it has no variables yet.';
  }
  const result: IKernelActionResult = {
    action: args.action,
    notebookPath: notebook.path,
    kernel: kernelInfo(session),
    message
  };
  return proposalId === null
    ? result
    : { ...result, status: 'accepted', proposalId };
}
