/**
 * Reading the review threads a notebook stores: every stored thread, those
 * the agent may see (a thread on a hidden cell is not there for it), their
 * counts, the message cap of a result, and the cache that keeps one read of
 * a model until the model changes. The writes, and the merge that makes them
 * safe under collaboration, are the store's (./storage.ts). No JupyterLab
 * import at run time.
 */
import type {
  CellChange,
  ISharedCell,
  ISharedNotebook,
  NotebookChange
} from '@jupyter/ydoc';

import { isHidden } from '../access/policy';
import { storedCellAccess } from '../access/read';
import { utf8Length } from '../common/text';
import { LIMITS } from '../limits';
import {
  type IReviewCounts,
  type IReviewThread,
  type IStoredThread,
  type IThreadMessage,
  REVIEW_METADATA_KEY,
  publicThread,
  readStoredThreads,
  readThreads
} from './format';

/** Every thread stored in a notebook, hidden ones included. */
export function storedThreads(model: ISharedNotebook): IReviewThread[] {
  return readThreads(model.getMetadata(REVIEW_METADATA_KEY));
}

/**
 * The ids, among `cellIds`, of cells the owner hid from the agent: access
 * `none`, or a value that is not understood (which is enforced as `none`). A
 * cell id held by several cells is hidden if any of them is.
 */
export function hiddenCellIds(
  model: ISharedNotebook,
  cellIds: ReadonlySet<string>
): Set<string> {
  const hidden = new Set<string>();
  for (const cell of model.cells) {
    const id = cell.id;
    if (cellIds.has(id) && isHidden(storedCellAccess(cell))) {
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
  return visibleOf(model, storedThreads(model));
}

/** Of `threads` (stored in `model`), those the agent may see. */
function visibleOf<T extends IReviewThread>(
  model: ISharedNotebook,
  threads: T[]
): T[] {
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
 * A thread as a tool returns it: at most MAX_COMMENT_MESSAGES_RETURNED
 * messages, and at most MAX_COMMENT_MESSAGES_BYTES of them (the UTF-8 of
 * their JSON): always the first (the comment itself), then as many of the
 * most recent ones as fit, in order. `omittedMessages` counts those left out,
 * which sit between the first and the kept recent ones. The first message is
 * kept even when it alone is over the byte budget (bodies are bounded far
 * below it when written). A smaller `maxBytes` keeps the same rule in less
 * room (jupyter_get_comment, whose whole result has a bound too).
 */
export function cappedThread(
  thread: IReviewThread,
  maxBytes: number = LIMITS.MAX_COMMENT_MESSAGES_BYTES
): {
  thread: IReviewThread;
  omittedMessages: number;
} {
  const messages = thread.messages;
  if (messages.length === 0) {
    return { thread, omittedMessages: 0 };
  }
  // A JSON array of n messages is 2 + (n - 1) commas + their JSON.
  let bytes = 2 + utf8Length(JSON.stringify(messages[0]));
  const recent: IThreadMessage[] = [];
  for (
    let i = messages.length - 1;
    i > 0 && recent.length + 1 < LIMITS.MAX_COMMENT_MESSAGES_RETURNED;
    i--
  ) {
    const size = 1 + utf8Length(JSON.stringify(messages[i]));
    if (bytes + size > maxBytes) {
      break;
    }
    bytes += size;
    recent.unshift(messages[i]);
  }
  const kept = [messages[0], ...recent];
  return {
    thread: { ...thread, messages: kept },
    omittedMessages: messages.length - kept.length
  };
}

/** `value` and everything in it made read-only; returns it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) {
      deepFreeze(item);
    }
    Object.freeze(value);
  }
  return value;
}

/** No stored value seen yet (or a model whose raw value cannot be seen). */
const UNKNOWN_RAW = Symbol('unknown');

/**
 * The review value as the shared document holds it, not copied: a new
 * object whenever the value is replaced, so its identity tells whether a
 * read is still current. Only a `YNotebook` (whose `ymeta` holds the
 * metadata map) shows it; for any other model, UNKNOWN_RAW.
 */
function rawReviewValue(model: ISharedNotebook): unknown {
  const ymeta = (model as { ymeta?: { get(key: string): unknown } }).ymeta;
  const metadata = ymeta?.get('metadata') as
    { get?: (key: string) => unknown } | undefined;
  return typeof metadata?.get === 'function'
    ? metadata.get(REVIEW_METADATA_KEY)
    : UNKNOWN_RAW;
}

/**
 * What a read of a model's threads found, kept until the model changes in a
 * way that could change it: the review key (a write, a collaborator's write,
 * a hand edit), the cell list (a thread's cell added or removed), or a
 * cell's metadata (its agent access). The notebook's signals are emitted at
 * the end of the transaction that made the change, so the store also drops
 * the cache itself after each of its own writes, and a read first checks
 * that the stored value is still the object it read. Reading the stored value
 * copies and checks every thread, and telling hidden threads apart reads
 * every cell's id: on a notebook of 500 threads and 5,000 cells that is most
 * of a comment tool's time, repeated by every call of an agent that reads
 * one thread after another.
 */
export class ReadCache {
  constructor(model: ISharedNotebook) {
    this._model = model;
    model.changed.connect(this._onModelChanged, this);
  }

  /** Every stored thread, as stored (hidden ones included). */
  stored(): IStoredThread[] {
    const raw = rawReviewValue(this._model);
    if (raw !== this._raw) {
      // replaced, even inside a transaction not yet announced
      this.invalidate();
    }
    if (this._stored === null) {
      this._raw = raw;
      // shared by every read until the next change: frozen, so a caller
      // that changed one in place would fail instead of changing the others'
      this._stored = deepFreeze(
        readStoredThreads(this._model.getMetadata(REVIEW_METADATA_KEY))
      );
    }
    return this._stored;
  }

  /** Every stored thread, without what only the merge needs. */
  all(): IReviewThread[] {
    const stored = this.stored();
    if (this._all === null) {
      this._all = stored.map(publicThread);
    }
    return this._all;
  }

  /** The threads the agent may see. */
  visible(): IReviewThread[] {
    const all = this.all();
    if (this._visible === null) {
      // from here on a cell's metadata change may hide or show a thread
      for (const cell of this._model.cells) {
        if (!this._cells.has(cell)) {
          this._cells.add(cell);
          cell.changed.connect(this._onCellChanged, this);
        }
      }
      this._visible = visibleOf(this._model, all);
    }
    return this._visible;
  }

  /** Forget what was read. */
  invalidate(): void {
    this._stored = null;
    this._all = null;
    this._visible = null;
  }

  dispose(): void {
    this._model.changed.disconnect(this._onModelChanged, this);
    for (const cell of this._cells) {
      cell.changed.disconnect(this._onCellChanged, this);
    }
    this._cells.clear();
    this.invalidate();
  }

  private _onModelChanged(_: ISharedNotebook, change: NotebookChange): void {
    if (change.metadataChange?.has(REVIEW_METADATA_KEY)) {
      this.invalidate();
    } else if (change.cellsChange) {
      this._visible = null;
    }
  }

  private _onCellChanged(_: ISharedCell, change: CellChange): void {
    if (change.metadataChange) {
      this._visible = null;
    }
  }

  private readonly _model: ISharedNotebook;
  private readonly _cells = new Set<ISharedCell>();
  private _raw: unknown = UNKNOWN_RAW;
  private _stored: IStoredThread[] | null = null;
  private _all: IReviewThread[] | null = null;
  private _visible: IReviewThread[] | null = null;
}
