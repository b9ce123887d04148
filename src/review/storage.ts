/**
 * The review threads stored in a notebook, read side: how the value under
 * the notebook's `jupyterlite_webmcp_review` metadata key is read, and which
 * threads (and how many) the agent may see. Pure: no JupyterLab runtime
 * import, no side effects.
 *
 * The stored format is the one jupyterlite-webmcp 0.1.1 writes, so notebooks
 * it annotated read exactly:
 *
 * ```jsonc
 * { "version": 1,
 *   "threads": [{ "id", "status": "open" | "resolved", "createdAt", "updatedAt",
 *                 "anchor": { "kind": "cell" | "source-range" | "output", "cellId", ... },
 *                 "messages": [{ "id", "author": { "kind", "name" }, "createdAt", "body" }] }] }
 * ```
 *
 * Every reader is total: metadata is hand-editable and travels with files,
 * so any JSON value (or none) may be stored. A thread that cannot be
 * understood is skipped, never thrown on; a tool reading it still answers.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';

import { ACCESS_METADATA_KEY, readCellAccess } from '../access/model';
import type { IReviewStore } from '../tokens';

/** The notebook metadata key review threads live under; part of the file format. */
export const REVIEW_METADATA_KEY = 'jupyterlite_webmcp_review';

/** The version written with the value under REVIEW_METADATA_KEY. */
export const REVIEW_METADATA_VERSION = 1;

/** Whether a thread is still under discussion. */
export type ThreadStatus = 'open' | 'resolved';

/** What a thread is attached to. */
export type AnchorKind = 'cell' | 'source-range' | 'output';

/** A position in a cell source. */
export interface ISourcePosition {
  line: number;
  column: number;
}

/** Where a thread points. Fields beyond kind and cellId depend on the kind. */
export interface IThreadAnchor {
  kind: AnchorKind;
  cellId: string;
  /** source-range: the range and the text it held, with context. */
  sourceRange?: { start: ISourcePosition; end: ISourcePosition };
  selectedText?: string;
  selectedTextHash?: string;
  prefix?: string;
  suffix?: string;
  /** output: which output, and what it was. */
  outputIndex?: number;
  outputFingerprint?: string;
  mimeType?: string;
}

/** Who wrote a message. */
export interface IMessageAuthor {
  kind: 'human' | 'agent';
  name: string;
}

/** One message of a thread. */
export interface IThreadMessage {
  id: string;
  author: IMessageAuthor;
  createdAt: string;
  body: string;
}

/** A stored review thread. */
export interface IReviewThread {
  id: string;
  status: ThreadStatus;
  createdAt: string;
  updatedAt: string;
  anchor: IThreadAnchor;
  messages: IThreadMessage[];
}

/** How many threads there are, open ones and all. */
export interface IReviewCounts {
  openThreads: number;
  totalThreads: number;
}

const STATUSES: readonly string[] = ['open', 'resolved'];
const ANCHOR_KINDS: readonly string[] = ['cell', 'source-range', 'output'];
const AUTHOR_KINDS: readonly string[] = ['human', 'agent'];

type JSONRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JSONRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function readPosition(value: unknown): ISourcePosition | null {
  return isRecord(value) && isIndex(value.line) && isIndex(value.column)
    ? { line: value.line, column: value.column }
    : null;
}

/** An anchor, or null when its kind or cell id is not understood. */
function readAnchor(value: unknown): IThreadAnchor | null {
  if (
    !isRecord(value) ||
    !ANCHOR_KINDS.includes(value.kind as string) ||
    !isText(value.cellId)
  ) {
    return null;
  }
  const anchor: IThreadAnchor = {
    kind: value.kind as AnchorKind,
    cellId: value.cellId
  };
  // Optional details are kept only when well-formed; a bad one is dropped,
  // the thread kept (it still points at its cell).
  if (isRecord(value.sourceRange)) {
    const start = readPosition(value.sourceRange.start);
    const end = readPosition(value.sourceRange.end);
    if (start && end) {
      anchor.sourceRange = { start, end };
    }
  }
  for (const key of [
    'selectedText',
    'selectedTextHash',
    'prefix',
    'suffix',
    'outputFingerprint',
    'mimeType'
  ] as const) {
    if (typeof value[key] === 'string') {
      anchor[key] = value[key];
    }
  }
  if (isIndex(value.outputIndex)) {
    anchor.outputIndex = value.outputIndex;
  }
  return anchor;
}

function readMessage(value: unknown): IThreadMessage | null {
  if (
    !isRecord(value) ||
    !isText(value.id) ||
    !isText(value.createdAt) ||
    typeof value.body !== 'string' ||
    !isRecord(value.author) ||
    !AUTHOR_KINDS.includes(value.author.kind as string) ||
    typeof value.author.name !== 'string'
  ) {
    return null;
  }
  return {
    id: value.id,
    author: {
      kind: value.author.kind as IMessageAuthor['kind'],
      name: value.author.name
    },
    createdAt: value.createdAt,
    body: value.body
  };
}

/**
 * A thread, or null when it cannot be understood: it needs an id, a known
 * status, a creation time and an anchor naming a cell. A malformed message is
 * dropped from it; a missing `updatedAt` reads as `createdAt`.
 */
function readThread(value: unknown): IReviewThread | null {
  if (
    !isRecord(value) ||
    !isText(value.id) ||
    !STATUSES.includes(value.status as string) ||
    !isText(value.createdAt)
  ) {
    return null;
  }
  const anchor = readAnchor(value.anchor);
  if (!anchor) {
    return null;
  }
  const messages = Array.isArray(value.messages)
    ? value.messages
        .map(readMessage)
        .filter((message): message is IThreadMessage => message !== null)
    : [];
  return {
    id: value.id,
    status: value.status as ThreadStatus,
    createdAt: value.createdAt,
    updatedAt: isText(value.updatedAt) ? value.updatedAt : value.createdAt,
    anchor,
    messages
  };
}

/**
 * The threads a `jupyterlite_webmcp_review` metadata value holds, in stored
 * order. Anything that is not an object with a `threads` array holds none;
 * an entry that cannot be understood is skipped, and so is a later entry
 * repeating an earlier one's id (a thread is addressed by its id). The
 * `version` field is not consulted, as for access metadata. Never throws.
 */
export function readThreads(metadataValue: unknown): IReviewThread[] {
  if (!isRecord(metadataValue) || !Array.isArray(metadataValue.threads)) {
    return [];
  }
  const seen = new Set<string>();
  const threads: IReviewThread[] = [];
  for (const entry of metadataValue.threads) {
    const thread = readThread(entry);
    if (thread && !seen.has(thread.id)) {
      seen.add(thread.id);
      threads.push(thread);
    }
  }
  return threads;
}

/** Every thread stored in a notebook, hidden ones included. */
export function storedThreads(model: ISharedNotebook): IReviewThread[] {
  return readThreads(model.getMetadata(REVIEW_METADATA_KEY));
}

/**
 * The ids, among `cellIds`, of cells the owner hid from the agent: access
 * `none`, or a value that is not understood (which is enforced as `none`). A
 * cell id held by several cells is hidden if any of them is.
 */
function hiddenCellIds(
  model: ISharedNotebook,
  cellIds: ReadonlySet<string>
): Set<string> {
  const hidden = new Set<string>();
  for (const cell of model.cells) {
    const id = cell.id;
    if (
      cellIds.has(id) &&
      readCellAccess(cell.getMetadata(ACCESS_METADATA_KEY)).access === 'none'
    ) {
      hidden.add(id);
    }
  }
  return hidden;
}

/**
 * The threads the agent may see: every stored thread except those anchored
 * to a cell the owner hid (`none`). A thread whose cell no longer exists is
 * kept: its anchor is orphaned (`cell-missing`), not hidden, and the agent
 * is told so. Only the cells threads point at are read.
 */
export function agentVisibleThreads(model: ISharedNotebook): IReviewThread[] {
  const threads = storedThreads(model);
  if (threads.length === 0) {
    return threads;
  }
  const hidden = hiddenCellIds(
    model,
    new Set(threads.map(thread => thread.anchor.cellId))
  );
  return threads.filter(thread => !hidden.has(thread.anchor.cellId));
}

/** The counts of a list of threads. */
export function countThreads(threads: readonly IReviewThread[]): IReviewCounts {
  let openThreads = 0;
  for (const thread of threads) {
    if (thread.status === 'open') {
      openThreads++;
    }
  }
  return { openThreads, totalThreads: threads.length };
}

/**
 * The thread counts every tool reports (`review` of jupyter_get_context and
 * jupyter_open_notebook, `counts` of the comment tools): agent-visible
 * threads only, so a hidden cell's threads are not even counted.
 */
export function agentVisibleCounts(model: ISharedNotebook): IReviewCounts {
  return countThreads(agentVisibleThreads(model));
}

/**
 * The review store: the threads of any notebook model (live, or built from
 * its file), as the agent may see them. The write side joins it with the
 * comment tools.
 */
export class ReviewStore implements IReviewStore {
  /** The agent-visible threads of a notebook, in stored order. */
  threads(model: ISharedNotebook): IReviewThread[] {
    return agentVisibleThreads(model);
  }

  /** The agent-visible thread counts of a notebook. */
  counts(model: ISharedNotebook): IReviewCounts {
    return agentVisibleCounts(model);
  }
}
