/**
 * The comment tools that write: `jupyter_create_comment`,
 * `jupyter_reply_comment`, `jupyter_resolve_comment` and
 * `jupyter_reopen_comment` (./thread-tools.ts has what the seven share).
 * They act on the live model, through the review store; a message is
 * refused whole when it is blank or over its bound, never cut.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';

import { ToolError } from '../common/errors';
import { restoreWithheld } from '../common/secrets';
import { utf8Length } from '../common/text';
import { LIMITS } from '../limits';
import {
  outputAnchor,
  outputAt,
  outputCount,
  rangeOfText,
  sourceRangeAnchor
} from './anchors';
import {
  AGENT_AUTHOR,
  type AnchorKind,
  type IReviewCounts,
  type IReviewThread,
  type ISourcePosition,
  type IThreadAnchor
} from './storage';
import { commentBodyOverflow } from './format';
import { type ICallTrace, NO_CALL } from '../jupyter/call';
import { findCell } from '../jupyter/cells';
import { secretPartsFilter } from '../jupyter/secrets';
import {
  anchorStaleError,
  capped,
  findThread,
  type ICappedThreadResult,
  type IReviewServices,
  type IThreadArgs,
  reportAnchoredCell
} from './thread-tools';

// ---------------------------------------------------------------------------
// Arguments

/** A range of a cell's source, in zero-based lines and UTF-16 columns. */
export interface ISourceSelection {
  start: ISourcePosition;
  end: ISourcePosition;
}

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
