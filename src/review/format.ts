/**
 * The stored format of review threads, and its reader: how the value under
 * the notebook's `jupyterlite_webmcp_review` metadata key is read. Pure: no
 * JupyterLab import, no side effects. docs/review-format.md describes the
 * format; src/review/storage.ts re-exports all of this.
 *
 * The stored format is the one jupyterlite-webmcp 0.1.1 writes, so notebooks
 * it annotated read exactly:
 *
 * ```jsonc
 * { "threads": [{ "anchor": { "kind": "cell" | "source-range" | "output", "cellId", ... },
 *                 "createdAt", "id",
 *                 "messages": [{ "author": { "kind", "name" }, "body", "createdAt", "id" }],
 *                 "status": "open" | "resolved", "statusChangedAt"?, "updatedAt" }],
 *   "version": 1 }
 * ```
 *
 * Every reader is total: metadata is hand-editable and travels with files,
 * so any JSON value (or none) may be stored. A thread that cannot be
 * understood is skipped, never thrown on; a tool reading it still answers.
 */
import { isPlainObject } from '../common/json';
import { utf8Length } from '../common/text';
import { LIMITS } from '../limits';

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

/**
 * A thread as stored: the public thread, plus the time its status was last
 * set (written only once a status has been changed; absent in 0.1.1 files;
 * see src/review/merge.ts).
 */
export interface IStoredThread extends IReviewThread {
  statusChangedAt?: string;
}

/** How many threads there are, open ones and all. */
export interface IReviewCounts {
  openThreads: number;
  totalThreads: number;
}

const STATUSES: readonly string[] = ['open', 'resolved'];
const ANCHOR_KINDS: readonly string[] = ['cell', 'source-range', 'output'];
const AUTHOR_KINDS: readonly string[] = ['human', 'agent'];

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function readPosition(value: unknown): ISourcePosition | null {
  return isPlainObject(value) && isIndex(value.line) && isIndex(value.column)
    ? { line: value.line, column: value.column }
    : null;
}

/** An anchor, or null when its kind or cell id is not understood. */
export function readAnchor(value: unknown): IThreadAnchor | null {
  if (
    !isPlainObject(value) ||
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
  if (isPlainObject(value.sourceRange)) {
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
    !isPlainObject(value) ||
    !isText(value.id) ||
    !isText(value.createdAt) ||
    typeof value.body !== 'string' ||
    !isPlainObject(value.author) ||
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
function readThread(value: unknown): IStoredThread | null {
  if (
    !isPlainObject(value) ||
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
  const thread: IStoredThread = {
    id: value.id,
    status: value.status as ThreadStatus,
    createdAt: value.createdAt,
    updatedAt: isText(value.updatedAt) ? value.updatedAt : value.createdAt,
    anchor,
    messages
  };
  // Written by the merge once a status is changed (see merge.ts).
  if (isText(value.statusChangedAt)) {
    thread.statusChangedAt = value.statusChangedAt;
  }
  return thread;
}

/** A stored thread as the public IReviewThread, without the merge's clock. */
export function publicThread(thread: IStoredThread): IReviewThread {
  const { statusChangedAt: _, ...rest } = thread;
  return rest;
}

/**
 * The threads a `jupyterlite_webmcp_review` metadata value holds, in stored
 * order. Anything that is not an object with a `threads` array holds none;
 * an entry that cannot be understood is skipped, and so is a later entry
 * repeating an earlier one's id (a thread is addressed by its id). The
 * `version` field is not consulted, as for access metadata. Never throws.
 */
export function readThreads(metadataValue: unknown): IReviewThread[] {
  return readStoredThreads(metadataValue).map(publicThread);
}

/** readThreads, keeping what the merge stores beside each thread. */
export function readStoredThreads(metadataValue: unknown): IStoredThread[] {
  if (!isPlainObject(metadataValue) || !Array.isArray(metadataValue.threads)) {
    return [];
  }
  const seen = new Set<string>();
  const threads: IStoredThread[] = [];
  for (const entry of metadataValue.threads) {
    const thread = readThread(entry);
    if (thread && !seen.has(thread.id)) {
      seen.add(thread.id);
      threads.push(thread);
    }
  }
  return threads;
}

/** What a new thread starts with. */
export interface ICreateThreadOptions {
  anchor: IThreadAnchor;
  /** The first message. */
  body: string;
  author: IMessageAuthor;
  /** The time of the write; now by default. */
  now?: Date;
}

/** A message added to a thread. */
export interface IMessageOptions {
  body: string;
  author: IMessageAuthor;
  /** The time of the write; now by default (reply only). */
  now?: Date;
}

/**
 * The UTF-8 size of a comment message over its bound (MAX_COMMENT_BODY_BYTES),
 * or null when it fits: the one rule for the agent's messages and the
 * person's.
 */
export function commentBodyOverflow(body: string): number | null {
  const bytes = utf8Length(body);
  return bytes > LIMITS.MAX_COMMENT_BODY_BYTES ? bytes : null;
}
