/**
 * The merge rule that keeps review threads whole under real-time
 * collaboration, the caps on what is stored, and the stored form. Pure: no
 * JupyterLab import at run time.
 *
 * Notebook metadata is a Yjs map whose values are plain JSON: two browsers
 * writing the review key at once each replace the whole value, and Yjs keeps
 * one of the two. So no browser may write the thread list as it last saw it.
 * Instead every write is `mergeThreads(what is stored now, what this browser
 * contributed)`, and a browser that sees the key change re-merges its own
 * contributions and writes again if the result adds anything (see the
 * ReviewStore in storage.ts). For both browsers to converge, the merge is a
 * deterministic function of the set of threads it is given:
 *
 * - threads and messages are grow-only sets, merged by id;
 * - a thread's `status` is the one set last (`statusChangedAt`, or the
 *   thread's `createdAt` when a status was never changed, as in 0.1.1's
 *   files); at an equal time `open` wins, so a discussion is never closed by
 *   a tie;
 * - `updatedAt` is the latest of the two, `createdAt` the earliest;
 * - the anchor, and a message whose id is held with two contents (only hand
 *   edits do that), is the one whose canonical JSON sorts first;
 * - threads are ordered by `createdAt`, messages too, each then by id;
 * - then the caps, also deterministic and idempotent (see capThreads,
 *   capMessages): merging again what a cap removed removes it again.
 */
import { LIMITS } from '../limits';
import type { IStoredThread, IThreadMessage, ThreadStatus } from './format';

export type { IStoredThread } from './format';

/** A time's milliseconds, or -Infinity when it is not a date. */
function millis(time: string): number {
  const value = Date.parse(time);
  return Number.isNaN(value) ? -Infinity : value;
}

/** Orders two stored times: by instant, then (for equal instants) as text. */
export function compareTimes(a: string, b: string): number {
  const difference = millis(a) - millis(b);
  if (difference !== 0 && !Number.isNaN(difference)) {
    return difference < 0 ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A time strictly after every one of `times` and not before `now`, as an
 * ISO string: a causal clock, so what a browser writes after seeing a
 * message or status sorts after it even when its clock lags behind the
 * other browser's.
 */
export function timeAfter(now: Date, times: readonly string[]): string {
  let at = now.getTime();
  for (const time of times) {
    const seen = millis(time);
    if (seen >= at) {
      at = seen + 1;
    }
  }
  return new Date(at).toISOString();
}

/** Plain JSON with every object's keys sorted, as the fixture stores it. */
export function sortedKeys<T>(value: T): T {
  if (Array.isArray(value)) {
    return value.map(sortedKeys) as T;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort()) {
      if (record[key] !== undefined) {
        sorted[key] = sortedKeys(record[key]);
      }
    }
    return sorted as T;
  }
  return value;
}

/** Canonical JSON text: equal for equal content whatever its key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}

/** Of two values, the one whose canonical JSON sorts first. */
function firstCanonical<T>(a: T, b: T): T {
  return canonicalJson(b) < canonicalJson(a) ? b : a;
}

function byTimeThenId(
  a: { createdAt: string; id: string },
  b: { createdAt: string; id: string }
): number {
  return compareTimes(a.createdAt, b.createdAt) || (a.id < b.id ? -1 : 1);
}

/** When a thread's status was set, for the merge. */
function statusTime(thread: IStoredThread): string {
  return thread.statusChangedAt ?? thread.createdAt;
}

/** The status of two copies of a thread: the later one; `open` on a tie. */
function mergeStatus(
  a: IStoredThread,
  b: IStoredThread
): Pick<IStoredThread, 'status' | 'statusChangedAt'> {
  const order = compareTimes(statusTime(a), statusTime(b));
  let status: ThreadStatus;
  if (order !== 0) {
    status = order > 0 ? a.status : b.status;
  } else {
    status = a.status === 'open' || b.status === 'open' ? 'open' : 'resolved';
  }
  const times = [a.statusChangedAt, b.statusChangedAt].filter(
    (time): time is string => time !== undefined
  );
  const statusChangedAt = times.sort(compareTimes).pop();
  return statusChangedAt === undefined
    ? { status }
    : { status, statusChangedAt };
}

/** Two copies of one thread as one. */
export function mergeThread(a: IStoredThread, b: IStoredThread): IStoredThread {
  const messages = new Map<string, IThreadMessage>();
  for (const message of [...a.messages, ...b.messages]) {
    const held = messages.get(message.id);
    messages.set(message.id, held ? firstCanonical(held, message) : message);
  }
  return {
    id: a.id,
    ...mergeStatus(a, b),
    createdAt:
      compareTimes(a.createdAt, b.createdAt) <= 0 ? a.createdAt : b.createdAt,
    updatedAt:
      compareTimes(a.updatedAt, b.updatedAt) >= 0 ? a.updatedAt : b.updatedAt,
    anchor: firstCanonical(a.anchor, b.anchor),
    messages: capMessages([...messages.values()].sort(byTimeThenId))
  };
}

/**
 * At most MAX_STORED_MESSAGES_PER_THREAD messages, in order: the first (the
 * comment that opened the thread) and the most recent ones.
 */
export function capMessages(messages: IThreadMessage[]): IThreadMessage[] {
  const cap = LIMITS.MAX_STORED_MESSAGES_PER_THREAD;
  if (messages.length <= cap) {
    return messages;
  }
  return [messages[0], ...messages.slice(messages.length - (cap - 1))];
}

/**
 * At most MAX_STORED_THREADS threads, in order. Over the cap the threads
 * that go first are resolved ones, least recently updated first; only when
 * no resolved thread is left do open ones go, again least recently updated
 * first (ties by id). A thread a cap removed keeps its place in that order
 * (its `updatedAt` is fixed), so merging it in again removes it again.
 */
export function capThreads(threads: IStoredThread[]): IStoredThread[] {
  const excess = threads.length - LIMITS.MAX_STORED_THREADS;
  if (excess <= 0) {
    return threads;
  }
  const evicted = new Set(
    [...threads]
      .sort(
        (a, b) =>
          (a.status === b.status ? 0 : a.status === 'resolved' ? -1 : 1) ||
          compareTimes(a.updatedAt, b.updatedAt) ||
          (a.id < b.id ? -1 : 1)
      )
      .slice(0, excess)
      .map(thread => thread.id)
  );
  return threads.filter(thread => !evicted.has(thread.id));
}

/**
 * Thread lists merged: every thread of either, each once, merged by id,
 * ordered by creation, within the caps.
 */
export function mergeThreads(
  ...lists: ReadonlyArray<readonly IStoredThread[]>
): IStoredThread[] {
  const threads = new Map<string, IStoredThread>();
  for (const list of lists) {
    for (const thread of list) {
      const held = threads.get(thread.id);
      threads.set(
        thread.id,
        held
          ? mergeThread(held, thread)
          : {
              ...thread,
              messages: capMessages([...thread.messages].sort(byTimeThenId))
            }
      );
    }
  }
  return capThreads([...threads.values()].sort(byTimeThenId));
}
