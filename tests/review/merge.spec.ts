/**
 * The merge rule and the caps, as pure functions: what two browsers' thread
 * lists merge to, whatever the order they are merged in, and what a cap keeps.
 */
import { LIMITS } from '../../src/limits';
import {
  type IStoredThread,
  canonicalJson,
  capMessages,
  mergeThreads,
  timeAfter
} from '../../src/review/merge';
import type { IThreadMessage } from '../../src/review/storage';

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const time = (ms: number) => new Date(T0 + ms).toISOString();

function message(id: string, ms: number): IThreadMessage {
  return {
    id,
    author: { kind: 'human', name: 'Ada' },
    createdAt: time(ms),
    body: `message ${id}`
  };
}

function thread(
  id: string,
  ms: number,
  patch: Partial<IStoredThread> = {}
): IStoredThread {
  return {
    id,
    status: 'open',
    createdAt: time(ms),
    updatedAt: time(ms),
    anchor: { kind: 'cell', cellId: 'c1' },
    messages: [message(`${id}-first`, ms)],
    ...patch
  };
}

describe('mergeThreads', () => {
  it('keeps every thread and message once, ordered by creation', () => {
    const a = [
      thread('t2', 20),
      thread('t1', 10, {
        messages: [message('t1-first', 10), message('a', 30)]
      })
    ];
    const b = [
      thread('t3', 15),
      thread('t1', 10, {
        messages: [message('t1-first', 10), message('b', 25)],
        updatedAt: time(25)
      })
    ];
    const merged = mergeThreads(a, b);
    expect(merged.map(t => t.id)).toEqual(['t1', 't3', 't2']);
    expect(merged[0].messages.map(m => m.id)).toEqual(['t1-first', 'b', 'a']);
    expect(merged[0].updatedAt).toBe(time(25));
    expect(canonicalJson(mergeThreads(b, a))).toBe(canonicalJson(merged));
    // merging again adds nothing
    expect(canonicalJson(mergeThreads(merged, a, b))).toBe(
      canonicalJson(merged)
    );
  });

  it('takes the status set last; a reply from a stale copy does not undo it', () => {
    const resolved = thread('t1', 0, {
      status: 'resolved',
      statusChangedAt: time(50),
      updatedAt: time(50)
    });
    // replied later, from a copy that had not seen the resolve
    const replied = thread('t1', 0, {
      updatedAt: time(60),
      messages: [message('t1-first', 0), message('r', 60)]
    });
    for (const merged of [
      mergeThreads([resolved], [replied]),
      mergeThreads([replied], [resolved])
    ]) {
      expect(merged[0]).toMatchObject({
        status: 'resolved',
        statusChangedAt: time(50),
        updatedAt: time(60)
      });
      expect(merged[0].messages).toHaveLength(2);
    }
    const reopened = thread('t1', 0, { statusChangedAt: time(70) });
    expect(mergeThreads([resolved], [reopened])[0].status).toBe('open');
    expect(mergeThreads([reopened], [resolved])[0].status).toBe('open');
  });

  it('opens on a tie, whatever the order', () => {
    const resolved = thread('t1', 0, {
      status: 'resolved',
      statusChangedAt: time(5)
    });
    const reopened = thread('t1', 0, { statusChangedAt: time(5) });
    expect(mergeThreads([resolved], [reopened])[0].status).toBe('open');
    expect(mergeThreads([reopened], [resolved])[0].status).toBe('open');
  });

  it('a status never changed (as in 0.1.1 files) counts as set at creation', () => {
    const legacyResolved = thread('t1', 0, {
      status: 'resolved',
      updatedAt: time(100)
    });
    const reopened = thread('t1', 0, { statusChangedAt: time(50) });
    expect(mergeThreads([legacyResolved], [reopened])[0].status).toBe('open');
  });

  it('picks one anchor and one message content deterministically', () => {
    const a = thread('t1', 0, {
      anchor: { kind: 'cell', cellId: 'c2' },
      messages: [{ ...message('t1-first', 0), body: 'zzz' }]
    });
    const b = thread('t1', 0);
    const one = mergeThreads([a], [b]);
    expect(canonicalJson(mergeThreads([b], [a]))).toBe(canonicalJson(one));
    expect(one[0].anchor.cellId).toBe('c1');
    expect(one[0].messages).toHaveLength(1);
  });
});

describe('the caps', () => {
  it('a thread keeps its first message and the most recent ones', () => {
    const cap = LIMITS.MAX_STORED_MESSAGES_PER_THREAD;
    const messages = Array.from({ length: cap + 7 }, (_, i) =>
      message(`m${String(i).padStart(4, '0')}`, i)
    );
    const kept = capMessages(messages);
    expect(kept).toHaveLength(cap);
    expect(kept[0].id).toBe('m0000');
    expect(kept[1].id).toBe(messages[8].id);
    expect(kept[cap - 1].id).toBe(messages[cap + 6].id);
    // in a merge too, and merging the full list again keeps the same
    const [merged] = mergeThreads([thread('t1', 0, { messages })]);
    expect(merged.messages).toEqual(kept);
    expect(mergeThreads([merged], [thread('t1', 0, { messages })])).toEqual([
      merged
    ]);
  });

  it('resolved threads go first, least recently updated first', () => {
    const cap = LIMITS.MAX_STORED_THREADS;
    const threads = Array.from({ length: cap + 3 }, (_, i) =>
      thread(`t${String(i).padStart(4, '0')}`, i, {
        updatedAt: time(10_000 - i),
        // every tenth thread is resolved
        status: i % 10 === 0 ? 'resolved' : 'open'
      })
    );
    const kept = mergeThreads(threads);
    expect(kept).toHaveLength(cap);
    // the resolved ones updated least recently: the latest-created
    const gone = threads
      .filter(t => !kept.some(k => k.id === t.id))
      .map(t => t.id);
    expect(gone).toEqual(['t0480', 't0490', 't0500']);
    // a browser merging them in again changes nothing
    expect(canonicalJson(mergeThreads(kept, threads))).toBe(
      canonicalJson(kept)
    );
  });

  it('open threads go only when no resolved one is left', () => {
    const cap = LIMITS.MAX_STORED_THREADS;
    const threads = Array.from({ length: cap + 2 }, (_, i) =>
      thread(`t${String(i).padStart(4, '0')}`, i)
    );
    const kept = mergeThreads(threads);
    expect(kept).toHaveLength(cap);
    expect(kept[0].id).toBe('t0002');
  });
});

describe('timeAfter', () => {
  it('is now, or just after the latest time seen when that is later', () => {
    expect(timeAfter(new Date(T0), [time(-5)])).toBe(time(0));
    expect(timeAfter(new Date(T0), [time(0)])).toBe(time(1));
    expect(timeAfter(new Date(T0), [time(40), 'not a time', time(7)])).toBe(
      time(41)
    );
  });
});
