/**
 * The comment tools that read: `jupyter_list_comments` and
 * `jupyter_get_comment` (./thread-tools.ts has what the seven share).
 * Reads of a notebook that is not open read its file; a thread anchored
 * to a hidden cell is neither listed nor counted.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';

import { ToolError } from '../common/errors';
import { boundChars, boundUtf8, utf8Length } from '../common/text';
import { LIMITS } from '../limits';
import { type IAnchorStatus } from './anchors';
import {
  type AnchorKind,
  type IMessageAuthor,
  type IReviewCounts,
  type IReviewThread,
  type ThreadStatus
} from './storage';
import { type ICallTrace, NO_CALL } from '../jupyter/call';
import { boundCommentResult } from './tools-bounds';
import { cellSnapshot, type ICellSnapshot } from '../jupyter/cells';
import { focusContext } from '../jupyter/focus';
import {
  type PartsFilter,
  secretFilter,
  secretPartsFilter,
  SHOW_PARTS
} from '../jupyter/secrets';
import { type IResolvedNotebook } from '../jupyter/notebook';
import {
  anchorStatus,
  capped,
  findThread,
  type ICappedThreadResult,
  type IReviewServices,
  type IThreadArgs,
  reportAnchoredCell,
  withheldAnchor
} from './thread-tools';

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
