/**
 * The review store: the threads stored in a notebook (under the metadata
 * key `jupyterlite_webmcp_review`, in the format of src/review/format.ts),
 * and every write, merged so that collaborators writing at once lose
 * nothing (the rule is in src/review/merge.ts). What a read finds, and what
 * the agent may see of it, is ./read.ts; both are re-exported here, the
 * review unit's entry. No JupyterLab import at run time.
 */

import type { ISharedNotebook, NotebookChange } from '@jupyter/ydoc';
import type { PartialJSONObject } from '@lumino/coreutils';
import { type ISignal, Signal } from '@lumino/signaling';

import type { IReviewStore } from '../tokens';
import {
  type IMessageAuthor,
  type IReviewCounts,
  type IReviewThread,
  type IStoredThread,
  type IThreadMessage,
  REVIEW_METADATA_KEY,
  REVIEW_METADATA_VERSION,
  type ThreadStatus,
  publicThread,
  readAnchor,
  readStoredThreads
} from './format';
import {
  canonicalJson,
  compareTimes,
  mergeThread,
  mergeThreads,
  sortedKeys,
  timeAfter
} from './merge';
import type { ICreateThreadOptions, IMessageOptions } from './format';

import { countThreads, ReadCache } from './read';

export type { ICreateThreadOptions, IMessageOptions } from './format';
// the review unit's entry: the store here, and the reads of ./read.ts
export {
  agentVisibleCounts,
  agentVisibleThreads,
  cappedThread,
  countThreads,
  hiddenCellIds,
  storedThreads
} from './read';

export {
  type AnchorKind,
  type IMessageAuthor,
  type IReviewCounts,
  type IReviewThread,
  type ISourcePosition,
  type IThreadAnchor,
  type IThreadMessage,
  REVIEW_METADATA_KEY,
  REVIEW_METADATA_VERSION,
  type ThreadStatus,
  readThreads
} from './format';

/** The author of every message the agent writes. */
export const AGENT_AUTHOR: IMessageAuthor = Object.freeze({
  kind: 'agent',
  name: 'Browser agent'
});

/** A new random id: a UUID (v4) wherever the platform can make one. */
export function newId(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto?.randomUUID === 'function') {
    return crypto.randomUUID();
  }
  const bytes = new Uint8Array(16);
  if (typeof crypto?.getRandomValues === 'function') {
    crypto.getRandomValues(bytes);
  } else {
    for (let i = 0; i < bytes.length; i++) {
      bytes[i] = Math.floor(Math.random() * 256);
    }
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, byte => byte.toString(16).padStart(2, '0'));
  return [
    hex.slice(0, 4),
    hex.slice(4, 6),
    hex.slice(6, 8),
    hex.slice(8, 10),
    hex.slice(10, 16)
  ]
    .map(part => part.join(''))
    .join('-');
}

/** What the store remembers of one model it wrote to. */
interface IModelState {
  /**
   * What this browser contributed, as partial threads: each thread it
   * created or changed, with only the messages it wrote and the status it
   * last saw or set. Merged into every write, and into the stored value again
   * whenever that changes, so no stale write elsewhere can lose them.
   */
  contributions: Map<string, IStoredThread>;
  /** The canonical JSON of the threads last stored or merged, to skip echoes. */
  seen: string;
}

function messagesOf(thread: IStoredThread): string[] {
  return thread.messages.map(message => message.createdAt);
}

/**
 * The review store: the threads of any notebook model (live, or built from
 * its file), as the agent may see them, and every write to them.
 *
 * Writes are safe under real-time collaboration: each one stores
 * `mergeThreads(stored value, this browser's contributions)` (the merge rule
 * is in merge.ts), and the store watches the review key of every model it
 * wrote to, re-merging its contributions when another browser's write
 * replaced them; it writes again only when the merge adds something, so two
 * stores never write back and forth. See docs/review-format.md.
 */
export class ReviewStore implements IReviewStore {
  /** Emitted after every write of this store, and every remote change it merged. */
  get changed(): ISignal<IReviewStore, { model: ISharedNotebook }> {
    return this._changed;
  }

  /** The agent-visible threads of a notebook, in stored order. */
  threads(model: ISharedNotebook): IReviewThread[] {
    return [...this._cache(model).visible()];
  }

  /** The agent-visible thread counts of a notebook. */
  counts(model: ISharedNotebook): IReviewCounts {
    return countThreads(this._cache(model).visible());
  }

  /** Every thread of a notebook, hidden ones included (the human side). */
  allThreads(model: ISharedNotebook): IReviewThread[] {
    return [...this._cache(model).all()];
  }

  /** A thread by id, whatever its cell's access; null when there is none. */
  getThread(model: ISharedNotebook, threadId: string): IReviewThread | null {
    const thread = this._stored(model, threadId);
    return thread ? publicThread(thread) : null;
  }

  /** Create an open thread with its first message. */
  createThread(
    model: ISharedNotebook,
    options: ICreateThreadOptions
  ): IReviewThread {
    // Only what the reader understands is stored, so what is stored reads
    // back the same and the merge compares like with like.
    const anchor = readAnchor(options.anchor);
    if (!anchor) {
      throw new Error('A review anchor needs a known kind and a cell id');
    }
    const createdAt = (options.now ?? new Date()).toISOString();
    const thread: IStoredThread = {
      id: newId(),
      status: 'open',
      createdAt,
      updatedAt: createdAt,
      anchor,
      messages: [this._message(options, createdAt)]
    };
    this._contribute(model, thread);
    return this.getThread(model, thread.id) ?? publicThread(thread);
  }

  /** Append a message to a thread; its status is left as it is. */
  reply(
    model: ISharedNotebook,
    threadId: string,
    options: IMessageOptions
  ): IReviewThread {
    const thread = this._mustExist(model, threadId);
    const createdAt = timeAfter(options.now ?? new Date(), [
      thread.createdAt,
      ...messagesOf(thread)
    ]);
    this._contribute(model, {
      ...thread,
      updatedAt: latest(thread.updatedAt, createdAt),
      messages: [this._message(options, createdAt)]
    });
    return publicThread(this._mustExist(model, threadId));
  }

  /**
   * Resolve or reopen a thread. Resolving may add a closing message;
   * reopening adds none (`closing` is ignored). Setting the status a thread
   * already has changes nothing but adds the closing message, if any.
   */
  setStatus(
    model: ISharedNotebook,
    threadId: string,
    status: ThreadStatus,
    closing?: { body: string; author: IMessageAuthor } | null,
    now?: Date
  ): IReviewThread {
    const thread = this._mustExist(model, threadId);
    const message = status === 'resolved' ? closing : null;
    if (thread.status === status && !message) {
      return publicThread(thread);
    }
    const at = timeAfter(now ?? new Date(), [
      thread.createdAt,
      thread.updatedAt,
      thread.statusChangedAt ?? thread.createdAt,
      ...messagesOf(thread)
    ]);
    const contribution: IStoredThread = {
      ...thread,
      updatedAt: at,
      messages: message ? [this._message(message, at)] : []
    };
    if (thread.status !== status) {
      contribution.status = status;
      contribution.statusChangedAt = at;
    }
    this._contribute(model, contribution);
    return publicThread(this._mustExist(model, threadId));
  }

  /** Stop watching every model; the store is not used after this. */
  dispose(): void {
    for (const model of this._watched) {
      model.changed.disconnect(this._onModelChanged, this);
      model.disposed.disconnect(this._onModelDisposed, this);
    }
    this._watched.clear();
    for (const [model, cache] of this._caches) {
      cache.dispose();
      model.disposed.disconnect(this._onCachedModelDisposed, this);
    }
    this._caches.clear();
    Signal.clearData(this);
  }

  /** The read cache of a model, made on its first read. */
  private _cache(model: ISharedNotebook): ReadCache {
    let cache = this._caches.get(model);
    if (!cache) {
      cache = new ReadCache(model);
      this._caches.set(model, cache);
      model.disposed.connect(this._onCachedModelDisposed, this);
    }
    return cache;
  }

  private _onCachedModelDisposed(model: ISharedNotebook): void {
    model.disposed.disconnect(this._onCachedModelDisposed, this);
    this._caches.get(model)?.dispose();
    this._caches.delete(model);
  }

  private _message(
    options: { body: string; author: IMessageAuthor },
    createdAt: string
  ): IThreadMessage {
    return {
      id: newId(),
      author: { kind: options.author.kind, name: options.author.name },
      createdAt,
      body: options.body
    };
  }

  private _stored(model: ISharedNotebook, threadId: string) {
    return (
      this._cache(model)
        .stored()
        .find(thread => thread.id === threadId) ?? null
    );
  }

  private _mustExist(model: ISharedNotebook, threadId: string): IStoredThread {
    const thread = this._stored(model, threadId);
    if (!thread) {
      throw new Error(`No review thread with id ${threadId}`);
    }
    return thread;
  }

  /** Add to this browser's contributions to a model, then write. */
  private _contribute(model: ISharedNotebook, thread: IStoredThread): void {
    const state = this._state(model);
    const held = state.contributions.get(thread.id);
    state.contributions.set(
      thread.id,
      held ? mergeThread(held, thread) : thread
    );
    this._merge(model, state);
    this._changed.emit({ model });
  }

  /**
   * Store the merge of what is stored and this browser's contributions, if
   * that differs from what is stored. Returns whether it wrote.
   */
  private _merge(model: ISharedNotebook, state: IModelState): boolean {
    const current = readStoredThreads(model.getMetadata(REVIEW_METADATA_KEY));
    const merged = mergeThreads(current, [...state.contributions.values()]);
    // A contribution a cap removed stays removed: forget it.
    const kept = new Map(merged.map(thread => [thread.id, thread]));
    for (const [id, contribution] of state.contributions) {
      const thread = kept.get(id);
      if (!thread) {
        state.contributions.delete(id);
      } else {
        const ids = new Set(thread.messages.map(message => message.id));
        contribution.messages = contribution.messages.filter(message =>
          ids.has(message.id)
        );
      }
    }
    const value = canonicalJson(merged);
    state.seen = value;
    if (value === canonicalJson(current)) {
      return false;
    }
    // the notebook tells of this write only at the end of its transaction,
    // which may be an outer one: the next read must not wait for that
    this._caches.get(model)?.invalidate();
    model.transact(() => {
      // Keys sorted, as in the files 0.1.1 annotated: `threads`, `version`.
      const stored: { threads: IStoredThread[]; version: number } = {
        threads: sortedKeys(merged),
        version: REVIEW_METADATA_VERSION
      };
      model.setMetadata(
        REVIEW_METADATA_KEY,
        stored as unknown as PartialJSONObject
      );
    });
    this._caches.get(model)?.invalidate();
    return true;
  }

  /** The state of a model, watching its review key from the first write. */
  private _state(model: ISharedNotebook): IModelState {
    let state = this._models.get(model);
    if (!state) {
      state = { contributions: new Map(), seen: '' };
      this._models.set(model, state);
      this._watched.add(model);
      model.changed.connect(this._onModelChanged, this);
      model.disposed.connect(this._onModelDisposed, this);
    }
    return state;
  }

  private _onModelChanged(model: ISharedNotebook, change: NotebookChange) {
    if (change.metadataChange?.has(REVIEW_METADATA_KEY)) {
      // before anything here reads: the cache's own listener may come later
      this._caches.get(model)?.invalidate();
    }
    const state = this._models.get(model);
    if (!state || !change.metadataChange?.has(REVIEW_METADATA_KEY)) {
      return;
    }
    const current = canonicalJson(
      readStoredThreads(model.getMetadata(REVIEW_METADATA_KEY))
    );
    if (current === state.seen) {
      // The echo of this store's own write, or nothing it reads changed.
      return;
    }
    this._merge(model, state);
    this._changed.emit({ model });
  }

  private _onModelDisposed(model: ISharedNotebook) {
    model.changed.disconnect(this._onModelChanged, this);
    model.disposed.disconnect(this._onModelDisposed, this);
    this._watched.delete(model);
    this._models.delete(model);
  }

  private _changed = new Signal<IReviewStore, { model: ISharedNotebook }>(this);
  private _caches = new Map<ISharedNotebook, ReadCache>();
  private _models = new WeakMap<ISharedNotebook, IModelState>();
  private _watched = new Set<ISharedNotebook>();
}

/** The later of two stored times. */
function latest(a: string, b: string): string {
  return compareTimes(a, b) >= 0 ? a : b;
}
