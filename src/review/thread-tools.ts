/**
 * Review threads as the agent sees them: the seven comment tools
 * (`jupyter_list_comments`, `jupyter_get_comment`, `jupyter_create_comment`,
 * `jupyter_reply_comment`, `jupyter_resolve_comment`,
 * `jupyter_reopen_comment`, `jupyter_focus_comment`).
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
import { restoreWithheld } from '../common/secrets';
import { boundChars, boundUtf8, utf8Length } from '../common/text';
import { LIMITS } from '../limits';
import {
  anchorStatus as anchorStatusOf,
  type IAnchorStatus,
  outputAnchor,
  outputAt,
  outputCount,
  rangeOfText,
  sourceRangeAnchor
} from './anchors';
import {
  AGENT_AUTHOR,
  cappedThread,
  type AnchorKind,
  type IMessageAuthor,
  type IReviewCounts,
  type IReviewThread,
  type ISourcePosition,
  type IThreadAnchor,
  type ThreadStatus
} from './storage';
import { commentBodyOverflow } from './format';
import { type IReviewStore } from '../tokens';
import { type ICallTrace, NO_CALL } from '../jupyter/call';
import { cellAccess } from '../access/read';
import { boundCommentResult } from './tools-bounds';
import { cellSnapshot, findCell, type ICellSnapshot } from '../jupyter/cells';
import { focusContext } from '../jupyter/focus';
import { type IJupyterEnvironment } from '../jupyter/environment';
import { cellIndexOf } from '../jupyter/model-index';
import { focusCell } from '../jupyter/navigate';
import {
  type PartsFilter,
  secretFilter,
  secretPartsFilter,
  SHOW_PARTS
} from '../jupyter/secrets';
import {
  type INotebookInfo,
  type IResolvedNotebook,
  type NotebookResolver
} from '../jupyter/notebook';

/** A range of a cell's source, in zero-based lines and UTF-16 columns. */
export interface ISourceSelection {
  start: ISourcePosition;
  end: ISourcePosition;
}

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
// Arguments

/** Refuse a message that is blank or over its byte bound; never cut it. */
function assertMessage(body: string, key: string): void {
  if (body.trim() === '') {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `Invalid argument "${key}": it is empty or blank.`,
      { key }
    );
  }
  assertCommentBody(body, key);
}

/** Refuse a message over the comment-body bound; never cut it. */
function assertCommentBody(body: string, key: string): void {
  const bytes = commentBodyOverflow(body);
  if (bytes !== null) {
    throw overBound(key, bytes, LIMITS.MAX_COMMENT_BODY_BYTES);
  }
}

function assertBytes(text: string, key: string, max: number): void {
  const bytes = utf8Length(text);
  if (bytes > max) {
    throw overBound(key, bytes, max);
  }
}

function overBound(key: string, bytes: number, max: number): ToolError {
  return new ToolError(
    'INVALID_ARGUMENT',
    `Invalid argument "${key}": ${bytes} bytes of UTF-8, more than the ${max} allowed. Nothing was written.`,
    { key, bytes }
  );
}

function invalidAnchor(key: string, message: string): ToolError {
  return new ToolError(
    'INVALID_ARGUMENT',
    `Invalid argument "${key}": ${message}`,
    { key }
  );
}

// ---------------------------------------------------------------------------
// Threads as the agent may see them

/**
 * Where a thread's anchor stands now, its cell found through the model's
 * index rather than a scan of every cell (a list reads up to 50 threads).
 */
function anchorStatus(
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
interface IVisibleThread {
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
function findThread(
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

function capped(
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
function withheldAnchor(
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

function reportAnchoredCell(
  call: ICallTrace,
  notebookPath: string,
  found: IVisibleThread,
  kind: 'reading' | 'editing'
): void {
  if (found.cellIndex >= 0) {
    call.reportCell(notebookPath, found.thread.anchor.cellId, kind);
  }
}

/** Run `use` on a resolved notebook, then release what resolution made. */
async function withNotebook<T>(
  notebook: IResolvedNotebook,
  use: (notebook: IResolvedNotebook) => T
): Promise<T> {
  try {
    return use(notebook);
  } finally {
    notebook.release();
  }
}

// ---------------------------------------------------------------------------
// jupyter_list_comments

/** Arguments of `jupyter_list_comments` (defaults filled by the schema). */
export interface IListCommentsArgs {
  notebookPath?: string | null;
  status?: ThreadStatus | 'all';
  scope?: 'notebook' | 'current-cell';
  limit?: number;
}

/** One thread of a list. */
export interface IThreadSummary {
  threadId: string;
  status: ThreadStatus;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  anchor: {
    kind: AnchorKind;
    cellId: string;
    cellIndex: number | null;
    selectedText?: string;
    outputIndex?: number;
    state: IAnchorStatus['state'];
    outputChanged?: boolean;
  };
  lastMessage: {
    author: IMessageAuthor;
    createdAt: string;
    body: string;
  } | null;
}

/** What `jupyter_list_comments` returns. */
export interface IListCommentsResult {
  notebookPath: string;
  counts: IReviewCounts;
  threads: IThreadSummary[];
  truncated: boolean;
  omittedCount: number;
}

/**
 * The bytes a list may fill: just under the result bound, so a long list
 * stops cleanly at a whole thread instead of being cut by the envelope.
 */
const LIST_BUDGET_BYTES = LIMITS.MAX_TOTAL_RESULT_BYTES - 2 * 1024;

function summary(
  model: ISharedNotebook,
  thread: IReviewThread,
  parts: PartsFilter
): IThreadSummary {
  // only the anchor's place is shown here, never its text
  const status = anchorStatus(model, thread, SHOW_PARTS);
  const anchor: IThreadSummary['anchor'] = {
    kind: thread.anchor.kind,
    cellId: thread.anchor.cellId,
    cellIndex: status.cellIndex,
    state: status.state
  };
  if (
    thread.anchor.kind === 'source-range' &&
    thread.anchor.selectedText !== undefined
  ) {
    anchor.selectedText = boundUtf8(
      // a summary shows the selected text only
      withheldAnchor(thread.anchor, parts, [1]).selectedText ?? '',
      LIMITS.MAX_SELECTED_TEXT_BYTES
    ).text;
  }
  if (thread.anchor.kind === 'output') {
    anchor.outputIndex = status.outputIndex ?? thread.anchor.outputIndex ?? 0;
    if (status.outputChanged !== undefined) {
      anchor.outputChanged = status.outputChanged;
    }
  }
  const last = thread.messages[thread.messages.length - 1];
  return {
    threadId: thread.id,
    status: thread.status,
    createdAt: thread.createdAt,
    updatedAt: thread.updatedAt,
    messageCount: thread.messages.length,
    anchor,
    lastMessage: last
      ? {
          author: {
            kind: last.author.kind,
            name: boundChars(last.author.name, LIMITS.MAX_PREVIEW_CHARS).text
          },
          createdAt: last.createdAt,
          body: boundChars(last.body, LIMITS.MAX_PREVIEW_CHARS).text
        }
      : null
  };
}

/** A creation time to sort by: unreadable times sort last. */
function createdTime(thread: IReviewThread): number {
  const time = Date.parse(thread.createdAt);
  return Number.isNaN(time) ? -Infinity : time;
}

/** The active cell the agent can see in a notebook, or null. */
function visibleActiveCellId(notebook: IResolvedNotebook): string | null {
  return notebook.panel ? focusContext(notebook.panel).activeCellId : null;
}

function noActiveCellError(path: string): ToolError {
  return new ToolError(
    'NO_ACTIVE_NOTEBOOK',
    `No cell is active in "${path}", so there is no current cell to list threads for. Pass scope "notebook", or select a cell first.`,
    { path }
  );
}

/**
 * List the threads of a notebook the agent may see, newest-created first,
 * with each anchor's state computed against the notebook as it is now.
 */
export async function listComments(
  services: IReviewServices,
  args: IListCommentsArgs,
  call: ICallTrace = NO_CALL
): Promise<IListCommentsResult> {
  const notebook = await services.resolver.resolveNotebook(args.notebookPath);
  return withNotebook(notebook, ({ model, path }) => {
    const status = args.status ?? 'open';
    const parts = secretPartsFilter(services.resolver, model, call);
    const limit = Math.min(
      args.limit ?? LIMITS.MAX_COMMENTS_RETURNED,
      LIMITS.MAX_COMMENTS_RETURNED
    );
    let cellId: string | null = null;
    if (args.scope === 'current-cell') {
      cellId = visibleActiveCellId(notebook);
      if (cellId === null) {
        throw noActiveCellError(path);
      }
    }
    const visible = services.review.threads(model);
    const matching = visible
      .map((thread, order) => ({ thread, order, time: createdTime(thread) }))
      .filter(
        ({ thread }) =>
          (status === 'all' || thread.status === status) &&
          (cellId === null || thread.anchor.cellId === cellId)
      )
      // newest first; of two created at once, the later stored first (each
      // time parsed once, not once per comparison)
      .sort((a, b) => b.time - a.time || b.order - a.order);
    const result: IListCommentsResult = {
      notebookPath: path,
      counts: services.review.counts(model),
      threads: [],
      truncated: false,
      omittedCount: 0
    };
    const items = matching
      .slice(0, limit)
      .map(({ thread }) => summary(model, thread, parts));
    const settle = (kept: IThreadSummary[]) => {
      result.threads = kept;
      result.omittedCount = matching.length - kept.length;
      result.truncated = result.omittedCount > 0;
      return result;
    };
    // Most lists fit: measured once, whole (the envelope serializes it
    // again). Else they are kept item by item while they fit.
    if (utf8Length(JSON.stringify(settle(items))) <= LIST_BUDGET_BYTES) {
      return result;
    }
    let bytes = utf8Length(
      JSON.stringify({ ...settle([]), omittedCount: matching.length })
    );
    const kept: IThreadSummary[] = [];
    for (const item of items) {
      // the item, and the comma before it
      const size = utf8Length(JSON.stringify(item)) + 1;
      if (bytes + size > LIST_BUDGET_BYTES) {
        break;
      }
      bytes += size;
      kept.push(item);
    }
    return settle(kept);
  });
}

// ---------------------------------------------------------------------------
// jupyter_get_comment

/** Arguments naming one thread. */
export interface IThreadArgs {
  notebookPath?: string | null;
  threadId: string;
}

/** What `jupyter_get_comment` returns. */
export interface IGetCommentResult extends ICappedThreadResult {
  anchorStatus: IAnchorStatus;
  context: { cell?: ICellSnapshot };
  hiddenCellCount: 0;
}

/**
 * Read one thread: its messages (capped), where its anchor points now, and
 * the anchored cell as it is now (with outputs for an output anchor), all
 * within the whole result bound (see boundCommentResult).
 */
export async function getComment(
  services: IReviewServices,
  args: IThreadArgs,
  call: ICallTrace = NO_CALL
): Promise<IGetCommentResult> {
  const notebook = await services.resolver.resolveNotebook(args.notebookPath);
  return withNotebook(notebook, ({ model, path }) => {
    const found = findThread(services.review, model, args.threadId, 'read');
    reportAnchoredCell(call, path, found, 'reading');
    const context: { cell?: ICellSnapshot } = {};
    if (found.cellIndex >= 0) {
      context.cell = cellSnapshot(
        model.cells[found.cellIndex],
        found.cellIndex,
        {
          includeSource: true,
          includeOutputs: found.thread.anchor.kind === 'output',
          filter: secretFilter(services.resolver, model, call)
        }
      );
    }
    const result: IGetCommentResult = {
      ...capped(
        path,
        found.thread,
        secretPartsFilter(services.resolver, model, call)
      ),
      anchorStatus: anchorStatus(
        model,
        found.thread,
        secretPartsFilter(services.resolver, model, call)
      ),
      context,
      hiddenCellCount: 0
    };
    return boundCommentResult(result, found.thread);
  });
}

// ---------------------------------------------------------------------------
// jupyter_create_comment

/** The anchor `jupyter_create_comment` is given. */
export interface ICreateAnchorArgs {
  kind: AnchorKind;
  cellId: string;
  selection?: ISourceSelection;
  text?: string;
  outputIndex?: number;
}

/** Arguments of `jupyter_create_comment`. */
export interface ICreateCommentArgs {
  notebookPath?: string | null;
  anchor: ICreateAnchorArgs;
  message: string;
}

/** What `jupyter_create_comment` returns. */
export interface ICreateCommentResult extends ICappedThreadResult {
  counts: IReviewCounts;
}

/**
 * Check what an anchor asks for, before any notebook is read: a field that
 * applies to another kind is refused rather than ignored, so an agent never
 * believes a comment is attached to text it is not attached to.
 */
function checkAnchorArgs(anchor: ICreateAnchorArgs): void {
  const { kind } = anchor;
  if (kind !== 'source-range') {
    for (const key of ['text', 'selection'] as const) {
      if (anchor[key] !== undefined) {
        throw invalidAnchor(
          `anchor.${key}`,
          `it applies to "source-range" anchors only, not "${kind}".`
        );
      }
    }
  }
  if (kind !== 'output' && anchor.outputIndex !== undefined) {
    throw invalidAnchor(
      'anchor.outputIndex',
      `it applies to "output" anchors only, not "${kind}".`
    );
  }
  if (kind === 'source-range') {
    const hasText = anchor.text !== undefined;
    const hasSelection = anchor.selection !== undefined;
    if (hasText === hasSelection) {
      throw invalidAnchor(
        'anchor',
        hasText
          ? 'give a "source-range" anchor either text or selection, not both.'
          : 'a "source-range" anchor needs text (an exact substring of the cell source) or selection.'
      );
    }
    if (hasText) {
      if (anchor.text === '') {
        throw invalidAnchor('anchor.text', 'it is empty.');
      }
      assertBytes(anchor.text!, 'anchor.text', LIMITS.MAX_SELECTED_TEXT_BYTES);
    }
  }
}

function anchorStaleError(
  message: string,
  details: Record<string, unknown>
): ToolError {
  return new ToolError('COMMENT_ANCHOR_STALE', message, details);
}

/**
 * The anchor to store for a cell's current state: a source range with its
 * text and context captured from the live source, or an output that exists.
 */
function liveAnchor(
  model: ISharedNotebook,
  index: number,
  args: ICreateAnchorArgs
): IThreadAnchor {
  const cell = model.cells[index];
  const cellId = args.cellId;
  if (args.kind === 'cell') {
    return { kind: 'cell', cellId };
  }
  if (args.kind === 'source-range') {
    const source = cell.getSource();
    let range: ISourceSelection | null = args.selection ?? null;
    if (args.text !== undefined) {
      // text the agent read with secrets withheld: their placeholders
      // stand for the values in the source
      range = rangeOfText(source, restoreWithheld(source, args.text));
      if (!range) {
        throw anchorStaleError(
          `The text given as anchor.text is not in the current source of cell "${cellId}". Read the cell again and pass an exact substring of it.`,
          { cellId, reason: 'text-not-found' }
        );
      }
    }
    const anchor = range ? sourceRangeAnchor(cellId, source, range) : null;
    if (!anchor) {
      throw anchorStaleError(
        `The selection does not hold text of the current source of cell "${cellId}". Read the cell again and pass a non-empty range within its source.`,
        { cellId, reason: 'selection-invalid' }
      );
    }
    return anchor;
  }
  const outputIndex = args.outputIndex ?? 0;
  const output = outputAt(cell, outputIndex);
  if (output === undefined) {
    const count = outputCount(cell);
    throw anchorStaleError(
      `Cell "${cellId}" has no output ${outputIndex} (it has ${count}). Run it first, or attach the comment to the cell.`,
      { cellId, outputIndex, outputCount: count }
    );
  }
  return outputAnchor(cellId, outputIndex, output);
}

/**
 * Create a thread, authored by the agent, on a cell the agent may write:
 * the whole cell, a range of its source (found from `text` or given as
 * `selection`), or one of its outputs.
 */
export async function createComment(
  services: IReviewServices,
  args: ICreateCommentArgs,
  call: ICallTrace = NO_CALL
): Promise<ICreateCommentResult> {
  checkAnchorArgs(args.anchor);
  assertMessage(args.message, 'message');
  const anchorIn = (model: ISharedNotebook) =>
    liveAnchor(
      model,
      findCell(model, args.anchor.cellId, 'write').index,
      args.anchor
    );
  const { model, path } = await services.resolver.resolveLive(
    args.notebookPath,
    'write',
    anchorIn
  );
  const anchor = anchorIn(model);
  const thread = services.review.createThread(model, {
    anchor,
    body: args.message,
    author: AGENT_AUTHOR
  });
  call.reportCell(path, args.anchor.cellId, 'editing');
  return {
    ...capped(path, thread, secretPartsFilter(services.resolver, model, call)),
    counts: services.review.counts(model)
  };
}

// ---------------------------------------------------------------------------
// jupyter_reply_comment, jupyter_resolve_comment, jupyter_reopen_comment

/** Arguments of `jupyter_reply_comment`. */
export interface IReplyCommentArgs extends IThreadArgs {
  message: string;
}

/** Arguments of `jupyter_resolve_comment`. */
export interface IResolveCommentArgs extends IThreadArgs {
  resolutionMessage?: string | null;
}

/**
 * Find a thread the agent may change in the live notebook it names, and
 * report its cell as being edited.
 */
async function writableThread(
  services: IReviewServices,
  args: IThreadArgs,
  call: ICallTrace
): Promise<{ model: ISharedNotebook; path: string; thread: IReviewThread }> {
  const threadIn = (model: ISharedNotebook) =>
    findThread(services.review, model, args.threadId, 'write');
  const { model, path } = await services.resolver.resolveLive(
    args.notebookPath,
    'write',
    threadIn
  );
  const found = threadIn(model);
  reportAnchoredCell(call, path, found, 'editing');
  return { model, path, thread: found.thread };
}

/** Append the agent's message to a thread. */
export async function replyComment(
  services: IReviewServices,
  args: IReplyCommentArgs,
  call: ICallTrace = NO_CALL
): Promise<ICappedThreadResult> {
  assertMessage(args.message, 'message');
  const { model, path, thread } = await writableThread(services, args, call);
  const updated = services.review.reply(model, thread.id, {
    body: args.message,
    author: AGENT_AUTHOR
  });
  return capped(
    path,
    updated,
    secretPartsFilter(services.resolver, model, call)
  );
}

/**
 * Resolve a thread, first adding the agent's closing message when one is
 * given (a blank one adds nothing). Resolving a resolved thread only adds
 * the message.
 */
export async function resolveComment(
  services: IReviewServices,
  args: IResolveCommentArgs,
  call: ICallTrace = NO_CALL
): Promise<ICappedThreadResult> {
  const closing = args.resolutionMessage ?? '';
  assertCommentBody(closing, 'resolutionMessage');
  const { model, path, thread } = await writableThread(services, args, call);
  const updated = services.review.setStatus(
    model,
    thread.id,
    'resolved',
    closing.trim() === '' ? undefined : { body: closing, author: AGENT_AUTHOR }
  );
  return capped(
    path,
    updated,
    secretPartsFilter(services.resolver, model, call)
  );
}

/** Reopen a thread; no message is added, its history is kept. */
export async function reopenComment(
  services: IReviewServices,
  args: IThreadArgs,
  call: ICallTrace = NO_CALL
): Promise<ICappedThreadResult> {
  const { model, path, thread } = await writableThread(services, args, call);
  return capped(
    path,
    services.review.setStatus(model, thread.id, 'open'),
    secretPartsFilter(services.resolver, model, call)
  );
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
