/**
 * Review threads as the agent sees them: what the seven comment tools
 * (`jupyter_list_comments`, `jupyter_get_comment`, `jupyter_create_comment`,
 * `jupyter_reply_comment`, `jupyter_resolve_comment`,
 * `jupyter_reopen_comment`, `jupyter_focus_comment`) share, and
 * `jupyter_focus_comment` itself; the reads are in ./thread-read-tools.ts,
 * the writes in ./thread-write-tools.ts.
 *
 * Notebooks are resolved like the cell tools do (reads of a notebook that is
 * not open read its file; writes act on the live model). Threads are read and
 * written through the review store, the one the Comments tab uses. A thread
 * anchored to a cell the owner hid (`none`) does not exist for the agent: it
 * is neither listed nor counted, and naming it answers exactly what an
 * unknown id answers (commentNotFoundError). Nothing here reads or writes a
 * cell's source beyond reading it to place an anchor.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';

import { assertCellAccessible } from '../access/guard';
import { isHidden } from '../access/policy';
import { ToolError } from '../common/errors';
import { anchorStatus as anchorStatusOf, type IAnchorStatus } from './anchors';
import {
  cappedThread,
  type IReviewThread,
  type IThreadAnchor
} from './storage';
import { type IReviewStore } from '../tokens';
import { type ICallTrace, NO_CALL } from '../jupyter/call';
import { cellAccess } from '../access/read';
import { type IJupyterEnvironment } from '../jupyter/environment';
import { cellIndexOf } from '../jupyter/model-index';
import { focusCell } from '../jupyter/navigate';
import {
  type PartsFilter,
  secretPartsFilter,
  SHOW_PARTS
} from '../jupyter/secrets';
import { type INotebookInfo, type NotebookResolver } from '../jupyter/notebook';

/** What the comment tools need: notebooks, threads, and (to focus) the app. */
export interface IReviewServices {
  env: IJupyterEnvironment;
  resolver: NotebookResolver;
  review: IReviewStore;
}

/** A whole thread as a tool returns it: messages capped (see cappedThread). */
export interface ICappedThreadResult {
  notebookPath: string;
  thread: IReviewThread;
  omittedMessages: number;
}

/**
 * The one error an unknown thread id gives, and so also a thread anchored to
 * a hidden cell: its message and details depend on the id asked for only.
 */
export function commentNotFoundError(threadId: string): ToolError {
  return new ToolError(
    'COMMENT_NOT_FOUND',
    `No review thread with id "${threadId}" in this notebook.`,
    { threadId }
  );
}

// ---------------------------------------------------------------------------
// Threads as the agent may see them

/**
 * Where a thread's anchor stands now, its cell found through the model's
 * index rather than a scan of every cell (a list reads up to 50 threads).
 */
export function anchorStatus(
  model: ISharedNotebook,
  thread: IReviewThread,
  parts: PartsFilter
): IAnchorStatus {
  const status = anchorStatusOf(model, thread, cellIndexOf);
  if (status.text === undefined || parts === SHOW_PARTS) {
    return status;
  }
  // the live text of the range, secrets withheld
  return { ...status, text: parts([status.text])[0] };
}

/** A thread the agent may see, with its anchored cell's place now. */
export interface IVisibleThread {
  thread: IReviewThread;
  /** The anchored cell's index, or -1 when it no longer exists. */
  cellIndex: number;
}

/**
 * Find a thread the agent may see. Unknown and hidden threads throw the same
 * COMMENT_NOT_FOUND; for a write, a thread on a read-only cell throws
 * CELL_ACCESS_DENIED (through the guard). A thread whose cell is gone is
 * found: it still exists, with an orphaned anchor.
 */
export function findThread(
  review: IReviewStore,
  model: ISharedNotebook,
  threadId: string,
  intent: 'read' | 'write'
): IVisibleThread {
  // The visible list is the store's one rule for hidden threads (counts use it).
  const thread = review.threads(model).find(item => item.id === threadId);
  if (!thread) {
    throw commentNotFoundError(threadId);
  }
  const cellId = thread.anchor.cellId;
  const cellIndex = cellIndexOf(model, cellId);
  if (cellIndex >= 0) {
    const access = cellAccess(model.cells[cellIndex]);
    if (isHidden(access)) {
      throw commentNotFoundError(threadId);
    }
    assertCellAccessible({ id: cellId, access }, intent);
  }
  return { thread, cellIndex };
}

export function capped(
  notebookPath: string,
  thread: IReviewThread,
  parts: PartsFilter
): ICappedThreadResult {
  const { thread: kept, omittedMessages } = cappedThread(thread);
  return {
    notebookPath,
    thread: { ...kept, anchor: withheldAnchor(kept.anchor, parts) },
    omittedMessages
  };
}

/**
 * An anchor with secrets withheld from the code it holds (its prefix,
 * selected text and suffix, looked at as one text). A new object: what the
 * store returns is shared and frozen.
 */
export function withheldAnchor(
  anchor: IThreadAnchor,
  parts: PartsFilter,
  shown?: readonly number[]
): IThreadAnchor {
  if (parts === SHOW_PARTS || anchor.selectedText === undefined) {
    return anchor;
  }
  const [prefix, selectedText, suffix] = parts(
    [anchor.prefix ?? '', anchor.selectedText, anchor.suffix ?? ''],
    shown
  );
  const withheld: IThreadAnchor = { ...anchor, selectedText };
  if (anchor.prefix !== undefined) {
    withheld.prefix = prefix;
  }
  if (anchor.suffix !== undefined) {
    withheld.suffix = suffix;
  }
  return withheld;
}

export function reportAnchoredCell(
  call: ICallTrace,
  notebookPath: string,
  found: IVisibleThread,
  kind: 'reading' | 'editing'
): void {
  if (found.cellIndex >= 0) {
    call.reportCell(notebookPath, found.thread.anchor.cellId, kind);
  }
}

// ---------------------------------------------------------------------------
// A thread named by its id

/** Arguments naming one thread. */
export interface IThreadArgs {
  notebookPath?: string | null;
  threadId: string;
}

export function anchorStaleError(
  message: string,
  details: Record<string, unknown>
): ToolError {
  return new ToolError('COMMENT_ANCHOR_STALE', message, details);
}

// ---------------------------------------------------------------------------
// jupyter_focus_comment

/** What `jupyter_focus_comment` returns. */
export interface IFocusCommentResult {
  notebookPath: string;
  threadId: string;
  anchorStatus: IAnchorStatus;
  notebook: INotebookInfo;
}

/** The thread of a notebook as it is now, checked for focusing. */
function focusTarget(
  review: IReviewStore,
  model: ISharedNotebook,
  threadId: string,
  parts: PartsFilter
): { found: IVisibleThread; status: IAnchorStatus } {
  const found = findThread(review, model, threadId, 'read');
  const status = anchorStatus(model, found.thread, parts);
  if (found.cellIndex < 0 || !status.cellExists) {
    throw anchorStaleError(
      `The cell review thread "${threadId}" is attached to no longer exists; there is nothing to show.`,
      { threadId, cellId: found.thread.anchor.cellId }
    );
  }
  return { found, status };
}

/**
 * Bring what a thread is attached to before the user's eyes: the notebook
 * to the front, the cell revealed and selected, and for a source range that
 * still resolves, that range selected in its editor. Everything is checked
 * before anything on screen changes.
 */
export async function focusComment(
  services: IReviewServices,
  args: IThreadArgs,
  call: ICallTrace = NO_CALL
): Promise<IFocusCommentResult> {
  const { env, resolver, review } = services;
  const resolved = await resolver.resolveNotebook(args.notebookPath);
  let target: { found: IVisibleThread; status: IAnchorStatus };
  try {
    target = focusTarget(
      review,
      resolved.model,
      args.threadId,
      secretPartsFilter(resolver, resolved.model, call)
    );
  } finally {
    resolved.release();
  }
  const { thread } = target.found;
  const range =
    thread.anchor.kind === 'source-range' && target.status.range
      ? target.status.range
      : undefined;
  let focused: { notebook: INotebookInfo };
  try {
    // its focus state is not returned here: nothing of it to withhold
    focused = await focusCell(env, resolver, {
      notebookPath: args.notebookPath,
      cellId: thread.anchor.cellId,
      ...(range ? { selection: range } : {})
    });
  } catch (error) {
    // The cell was hidden or deleted since the check: never say which.
    if (error instanceof ToolError && error.code === 'CELL_NOT_FOUND') {
      throw commentNotFoundError(args.threadId);
    }
    throw error;
  }
  call.reportCell(resolved.path, thread.anchor.cellId, 'reading');
  // The status as it is now, in the notebook that is now on screen.
  const live = resolver.findOpenPanel(resolved.path);
  const model = live?.content.model?.sharedModel ?? null;
  return {
    notebookPath: resolved.path,
    threadId: thread.id,
    anchorStatus: model
      ? anchorStatus(model, thread, secretPartsFilter(resolver, model, call))
      : target.status,
    notebook: focused.notebook
  };
}
