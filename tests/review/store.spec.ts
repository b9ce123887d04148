/**
 * The review store's write side on real notebook models: the format it
 * writes (0.1.1's), replies and status changes, the message cap of results,
 * and the merge rule under real-time collaboration: two `YNotebook`s synced
 * with Yjs updates, written to at once in many interleavings.
 */
import { type ISharedNotebook, YNotebook } from '@jupyter/ydoc';
import * as Y from 'yjs';

import { utf8Length } from '../../src/common/text';
import { LIMITS } from '../../src/limits';
import {
  AGENT_AUTHOR,
  type IMessageAuthor,
  type IReviewThread,
  type IThreadMessage,
  REVIEW_METADATA_KEY,
  ReviewStore,
  cappedThread,
  newId,
  storedThreads
} from '../../src/review/storage';
import { code, setAccess } from '../jupyter/ymodel';
import { silenceKnownWarnings } from '../quiet';
import { FIXTURE_THREADS, fromFile } from './fixture';

silenceKnownWarnings();

const ADA: IMessageAuthor = { kind: 'human', name: 'Ada' };
const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);

const models: YNotebook[] = [];
const stores: ReviewStore[] = [];

afterEach(() => {
  stores.splice(0).forEach(store => store.dispose());
  models.splice(0).forEach(model => model.dispose());
});

function store(): ReviewStore {
  const made = new ReviewStore();
  stores.push(made);
  return made;
}

function notebook(): YNotebook {
  const model = YNotebook.create();
  model.insertCells(0, [code('c1', 'x = 1'), code('c2', 'y = 2')]);
  models.push(model);
  return model;
}

/** The raw stored value. */
function raw(model: ISharedNotebook): {
  threads: Record<string, unknown>[];
  version: number;
} {
  return model.getMetadata(REVIEW_METADATA_KEY) as never;
}

describe('writing', () => {
  it('creates a thread in the format 0.1.1 writes, keys sorted', () => {
    const model = notebook();
    const created = store().createThread(model, {
      anchor: { kind: 'cell', cellId: 'c1' },
      body: 'Why 1?',
      author: AGENT_AUTHOR,
      now: at(0)
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'open',
      createdAt: '2026-12-01T10:00:00.000Z',
      updatedAt: '2026-12-01T10:00:00.000Z',
      anchor: { kind: 'cell', cellId: 'c1' },
      messages: [
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          author: { kind: 'agent', name: 'Browser agent' },
          createdAt: '2026-12-01T10:00:00.000Z',
          body: 'Why 1?'
        }
      ]
    });
    const value = raw(model);
    expect(Object.keys(value)).toEqual(['threads', 'version']);
    expect(value.version).toBe(1);
    expect(Object.keys(value.threads[0])).toEqual([
      'anchor',
      'createdAt',
      'id',
      'messages',
      'status',
      'updatedAt'
    ]);
    expect(
      Object.keys((value.threads[0].messages as Record<string, unknown>[])[0])
    ).toEqual(['author', 'body', 'createdAt', 'id']);
  });

  it('stores only the anchor fields it reads, and refuses an anchor it cannot', () => {
    const model = notebook();
    const reviews = store();
    const created = reviews.createThread(model, {
      anchor: {
        kind: 'output',
        cellId: 'c1',
        outputIndex: 0,
        outputFingerprint: 'sha256:0123456789abcdef',
        extra: 'dropped'
      } as never,
      body: 'b',
      author: ADA
    });
    expect(created.anchor).toEqual({
      kind: 'output',
      cellId: 'c1',
      outputIndex: 0,
      outputFingerprint: 'sha256:0123456789abcdef'
    });
    expect(() =>
      reviews.createThread(model, {
        anchor: { kind: 'line', cellId: 'c1' } as never,
        body: 'b',
        author: ADA
      })
    ).toThrow(Error);
  });

  it('replies, resolves with a closing message, reopens without one', () => {
    const model = notebook();
    const reviews = store();
    const { id } = reviews.createThread(model, {
      anchor: { kind: 'cell', cellId: 'c1' },
      body: 'first',
      author: ADA,
      now: at(0)
    });
    const replied = reviews.reply(model, id, {
      body: 'second',
      author: AGENT_AUTHOR,
      now: at(10)
    });
    expect(replied.messages.map(m => m.body)).toEqual(['first', 'second']);
    expect(replied.updatedAt).toBe(at(10).toISOString());
    expect(replied.status).toBe('open');
    const resolved = reviews.setStatus(
      model,
      id,
      'resolved',
      { body: 'done', author: AGENT_AUTHOR },
      at(20)
    );
    expect(resolved.status).toBe('resolved');
    expect(resolved.messages.map(m => m.body)).toEqual([
      'first',
      'second',
      'done'
    ]);
    expect(resolved.updatedAt).toBe(at(20).toISOString());
    // the public thread does not carry the merge's clock; the file does
    expect(resolved).not.toHaveProperty('statusChangedAt');
    expect(raw(model).threads[0].statusChangedAt).toBe(at(20).toISOString());
    const reopened = reviews.setStatus(
      model,
      id,
      'open',
      { body: 'ignored', author: ADA },
      at(30)
    );
    expect(reopened.status).toBe('open');
    expect(reopened.messages).toHaveLength(3);
    expect(reviews.getThread(model, id)).toEqual(reopened);
  });

  it('a reply sorts after what it answers, even from a clock behind', () => {
    const model = notebook();
    const reviews = store();
    const { id } = reviews.createThread(model, {
      anchor: { kind: 'cell', cellId: 'c1' },
      body: 'first',
      author: ADA,
      now: at(5000)
    });
    const replied = reviews.reply(model, id, {
      body: 'from a slow clock',
      author: ADA,
      now: at(0)
    });
    expect(replied.messages.map(m => m.body)).toEqual([
      'first',
      'from a slow clock'
    ]);
    expect(replied.messages[1].createdAt).toBe(at(5001).toISOString());
    // two writes in the same millisecond keep their order
    reviews.setStatus(model, id, 'resolved', { body: 'a', author: ADA }, at(0));
    reviews.setStatus(model, id, 'open', null, at(0));
    const last = reviews.setStatus(
      model,
      id,
      'resolved',
      { body: 'b', author: ADA },
      at(0)
    );
    expect(last.status).toBe('resolved');
    expect(last.messages.map(m => m.body).slice(-2)).toEqual(['a', 'b']);
  });

  it('throws a plain Error for an unknown thread', () => {
    const model = notebook();
    const reviews = store();
    expect(() =>
      reviews.reply(model, 'nope', { body: 'x', author: ADA })
    ).toThrow(/No review thread/);
    expect(() => reviews.setStatus(model, 'nope', 'resolved')).toThrow(
      /No review thread/
    );
    expect(reviews.getThread(model, 'nope')).toBeNull();
  });

  it('writes nothing when nothing changes', () => {
    const model = notebook();
    const reviews = store();
    const { id } = reviews.createThread(model, {
      anchor: { kind: 'cell', cellId: 'c1' },
      body: 'first',
      author: ADA
    });
    let updates = 0;
    model.ydoc.on('update', () => updates++);
    reviews.setStatus(model, id, 'open');
    expect(updates).toBe(0);
    reviews.setStatus(model, id, 'resolved');
    expect(updates).toBe(1);
  });

  it('getThread and allThreads see hidden cells; threads and counts do not', () => {
    const model = notebook();
    const reviews = store();
    const { id } = reviews.createThread(model, {
      anchor: { kind: 'cell', cellId: 'c2' },
      body: 'secret',
      author: ADA
    });
    setAccess(model.cells[1], 'none');
    expect(reviews.getThread(model, id)?.id).toBe(id);
    expect(reviews.allThreads(model)).toHaveLength(1);
    expect(reviews.threads(model)).toEqual([]);
    expect(reviews.counts(model)).toEqual({ openThreads: 0, totalThreads: 0 });
  });

  it('changes one thread of the fixture and leaves the others as 0.1.1 wrote them', () => {
    const model = fromFile();
    models.push(model);
    const before = raw(model).threads;
    const reviews = store();
    reviews.reply(model, FIXTURE_THREADS.range, {
      body: 'Agreed.',
      author: ADA
    });
    reviews.setStatus(model, FIXTURE_THREADS.output, 'open');
    const after = raw(model).threads;
    expect(after.map(t => t.id)).toEqual(before.map(t => t.id));
    for (const [i, thread] of after.entries()) {
      if (thread.id === FIXTURE_THREADS.range) {
        expect(thread.messages).toHaveLength(2);
      } else if (thread.id === FIXTURE_THREADS.output) {
        expect(thread.status).toBe('open');
        expect(thread.statusChangedAt).toEqual(expect.any(String));
      } else {
        expect(JSON.stringify(thread)).toBe(JSON.stringify(before[i]));
      }
    }
  });

  it('says when it wrote', () => {
    const model = notebook();
    const reviews = store();
    const seen: ISharedNotebook[] = [];
    reviews.changed.connect((_, { model }) => seen.push(model));
    const { id } = reviews.createThread(model, {
      anchor: { kind: 'cell', cellId: 'c1' },
      body: 'x',
      author: ADA
    });
    reviews.reply(model, id, { body: 'y', author: ADA });
    expect(seen).toEqual([model, model]);
  });

  it('newId makes a v4 UUID without crypto.randomUUID too', () => {
    const original = globalThis.crypto.randomUUID;
    try {
      Object.defineProperty(globalThis.crypto, 'randomUUID', {
        value: undefined,
        configurable: true
      });
      const id = newId();
      expect(id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
      );
      expect(newId()).not.toBe(id);
    } finally {
      Object.defineProperty(globalThis.crypto, 'randomUUID', {
        value: original,
        configurable: true
      });
    }
  });
});

describe('cappedThread', () => {
  function long(count: number, body: (i: number) => string): IReviewThread {
    const messages: IThreadMessage[] = Array.from(
      { length: count },
      (_, i) => ({
        id: `m${i}`,
        author: ADA,
        createdAt: at(i).toISOString(),
        body: body(i)
      })
    );
    return {
      id: 't1',
      status: 'open',
      createdAt: messages[0]?.createdAt ?? at(0).toISOString(),
      updatedAt: at(count).toISOString(),
      anchor: { kind: 'cell', cellId: 'c1' },
      messages
    };
  }

  it('leaves a short thread whole', () => {
    const thread = long(LIMITS.MAX_COMMENT_MESSAGES_RETURNED, i => `${i}`);
    expect(cappedThread(thread)).toEqual({ thread, omittedMessages: 0 });
    const empty = long(0, String);
    expect(cappedThread(empty)).toEqual({ thread: empty, omittedMessages: 0 });
  });

  it('keeps the first and the most recent, in order, up to the count', () => {
    const { thread, omittedMessages } = cappedThread(long(45, i => `${i}`));
    expect(thread.messages.map(m => m.id)).toEqual([
      'm0',
      ...Array.from({ length: 19 }, (_, i) => `m${26 + i}`)
    ]);
    expect(omittedMessages).toBe(25);
  });

  it('keeps them within the byte budget, measured in UTF-8', () => {
    // 2,000 CJK characters: 6,000 bytes of UTF-8 but 2,000 UTF-16 units
    const full = long(12, i => `${i}:${'東'.repeat(2000)}`);
    const { thread, omittedMessages } = cappedThread(full);
    const bytes = utf8Length(JSON.stringify(thread.messages));
    expect(bytes).toBeLessThanOrEqual(LIMITS.MAX_COMMENT_MESSAGES_BYTES);
    expect(thread.messages.map(m => m.id)).toEqual(['m0', 'm9', 'm10', 'm11']);
    expect(omittedMessages).toBe(8);
    // one more would not have fitted
    const more = [
      thread.messages[0],
      full.messages[8],
      ...thread.messages.slice(1)
    ];
    expect(utf8Length(JSON.stringify(more))).toBeGreaterThan(
      LIMITS.MAX_COMMENT_MESSAGES_BYTES
    );
  });

  it('always keeps the first message', () => {
    const { thread, omittedMessages } = cappedThread(
      long(3, () => 'x'.repeat(LIMITS.MAX_COMMENT_MESSAGES_BYTES))
    );
    expect(thread.messages.map(m => m.id)).toEqual(['m0']);
    expect(omittedMessages).toBe(2);
  });
});

// ---------------------------------------------------------------------------
// Collaboration: two browsers, each with its own model and store, synced by
// exchanging Yjs updates the way a collaboration provider does.

interface IBrowser {
  model: YNotebook;
  store: ReviewStore;
}

function browsers(): [IBrowser, IBrowser] {
  const a = notebook();
  const b = new YNotebook();
  models.push(b);
  Y.applyUpdate(b.ydoc, Y.encodeStateAsUpdate(a.ydoc));
  return [
    { model: a, store: store() },
    { model: b, store: store() }
  ];
}

/** Send `from`'s changes that `to` has not seen. */
function send(from: IBrowser, to: IBrowser): void {
  const update = Y.encodeStateAsUpdate(
    from.model.ydoc,
    Y.encodeStateVector(to.model.ydoc)
  );
  Y.applyUpdate(to.model.ydoc, update);
}

function sameState(a: IBrowser, b: IBrowser): boolean {
  return Buffer.from(Y.encodeStateVector(a.model.ydoc)).equals(
    Buffer.from(Y.encodeStateVector(b.model.ydoc))
  );
}

/** Sync both ways until neither has anything new; fails on a write loop. */
function settle(a: IBrowser, b: IBrowser): void {
  for (let round = 0; round < 10; round++) {
    send(a, b);
    send(b, a);
    if (sameState(a, b)) {
      return;
    }
  }
  throw new Error('the two browsers keep writing: a write loop');
}

const cell = (cellId: string) => ({ kind: 'cell' as const, cellId });

describe('two browsers writing at once', () => {
  it('both keep threads created at the same time', () => {
    const [a, b] = browsers();
    const ta = a.store.createThread(a.model, {
      anchor: cell('c1'),
      body: 'from A',
      author: ADA,
      now: at(10)
    });
    const tb = b.store.createThread(b.model, {
      anchor: cell('c2'),
      body: 'from B',
      author: ADA,
      now: at(5)
    });
    settle(a, b);
    for (const { model } of [a, b]) {
      expect(storedThreads(model).map(t => t.id)).toEqual([tb.id, ta.id]);
    }
    expect(storedThreads(a.model)).toEqual(storedThreads(b.model));
  });

  it('keeps both replies, and a resolve against a stale reply', () => {
    const [a, b] = browsers();
    const { id } = a.store.createThread(a.model, {
      anchor: cell('c1'),
      body: 'first',
      author: ADA,
      now: at(0)
    });
    settle(a, b);
    a.store.reply(a.model, id, { body: 'A says', author: ADA, now: at(10) });
    a.store.setStatus(a.model, id, 'resolved', null, at(20));
    // B has not seen either, and replies later
    b.store.reply(b.model, id, { body: 'B says', author: ADA, now: at(30) });
    settle(a, b);
    for (const { model } of [a, b]) {
      const [thread] = storedThreads(model);
      expect(thread.status).toBe('resolved');
      expect(thread.messages.map(m => m.body)).toEqual([
        'first',
        'A says',
        'B says'
      ]);
      expect(thread.updatedAt).toBe(at(30).toISOString());
    }
  });

  it('setting a status a thread already has claims nothing', () => {
    const [a, b] = browsers();
    const { id } = a.store.createThread(a.model, {
      anchor: cell('c1'),
      body: 'first',
      author: ADA,
      now: at(0)
    });
    a.store.setStatus(a.model, id, 'resolved', null, at(1));
    settle(a, b);
    // A reopens; B, not having seen that, "resolves" the resolved thread
    // later: nothing to change there, so A's reopen stands
    a.store.setStatus(a.model, id, 'open', null, at(10));
    b.store.setStatus(b.model, id, 'resolved', null, at(20));
    settle(a, b);
    for (const { model } of [a, b]) {
      expect(storedThreads(model)[0].status).toBe('open');
    }
  });

  it('a concurrent resolve and reopen: the later one wins, the tie opens', () => {
    for (const [resolveAt, reopenAt, expected] of [
      [10, 20, 'open'],
      [20, 10, 'resolved'],
      [15, 15, 'open']
    ] as const) {
      const [a, b] = browsers();
      const { id } = a.store.createThread(a.model, {
        anchor: cell('c1'),
        body: 'first',
        author: ADA,
        now: at(0)
      });
      b.store.createThread(b.model, {
        anchor: cell('c2'),
        body: 'other',
        author: ADA,
        now: at(0)
      });
      settle(a, b);
      // A resolves; B sees it resolved, and then: B reopens while A, not
      // having seen that, resolves again (with a closing message)
      a.store.setStatus(a.model, id, 'resolved', null, at(1));
      settle(a, b);
      a.store.setStatus(a.model, id, 'open', null, at(2));
      a.store.setStatus(
        a.model,
        id,
        'resolved',
        { body: 'closing', author: ADA },
        at(resolveAt)
      );
      b.store.setStatus(b.model, id, 'open', null, at(reopenAt));
      settle(a, b);
      for (const { model } of [a, b]) {
        const thread = storedThreads(model).find(t => t.id === id)!;
        expect(thread.status).toBe(expected);
        expect(thread.messages.map(m => m.body)).toEqual(['first', 'closing']);
      }
      expect(storedThreads(a.model)).toEqual(storedThreads(b.model));
    }
  });

  it('merges a remote change and says so', () => {
    const [a, b] = browsers();
    const seen: string[] = [];
    b.store.changed.connect(() => seen.push('b'));
    const { id } = a.store.createThread(a.model, {
      anchor: cell('c1'),
      body: 'A',
      author: ADA
    });
    settle(a, b);
    // B has not written yet: it does not watch the model
    expect(seen).toEqual([]);
    b.store.reply(b.model, id, { body: 'B', author: ADA });
    expect(seen).toEqual(['b']);
    a.store.reply(a.model, id, { body: 'A again', author: ADA });
    settle(a, b);
    expect(seen).toEqual(['b', 'b']);
  });

  it('a stale overwrite by a third writer is repaired by the store that wrote', () => {
    const [a, b] = browsers();
    const { id } = a.store.createThread(a.model, {
      anchor: cell('c1'),
      body: 'A',
      author: ADA
    });
    settle(a, b);
    // someone without this store (an old version, a hand edit) writes the
    // key from a copy taken before A's thread existed
    b.model.setMetadata(REVIEW_METADATA_KEY, { version: 1, threads: [] });
    settle(a, b);
    for (const { model } of [a, b]) {
      expect(storedThreads(model).map(t => t.id)).toEqual([id]);
    }
  });
});

/** A small seeded PRNG (mulberry32), so a failing run can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface IStatusChange {
  status: 'open' | 'resolved';
  at: string;
}

/**
 * One random run: both browsers create, reply, resolve and reopen, with
 * syncs one way, the other, both or not at all between steps, and clocks
 * that drift apart. Returns a description of the first broken expectation.
 */
function run(seed: number): string | null {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T =>
    items[Math.floor(next() * items.length)];
  const [a, b] = browsers();
  const clocks = new Map<IBrowser, number>([
    [a, 0],
    [b, Math.floor(next() * 40) - 20]
  ]);
  const threadIds = new Set<string>();
  const messageIds = new Set<string>();
  const changes = new Map<string, IStatusChange[]>();
  const steps = 10 + Math.floor(next() * 20);
  for (let step = 0; step < steps; step++) {
    const browser = pick([a, b]);
    // clocks advance by 0-3 ms: same-millisecond writes happen
    clocks.set(browser, clocks.get(browser)! + Math.floor(next() * 4));
    const now = at(clocks.get(browser)!);
    const known = storedThreads(browser.model);
    const action = next();
    if (action < 0.25 || known.length === 0) {
      const thread = browser.store.createThread(browser.model, {
        anchor: cell(pick(['c1', 'c2'])),
        body: `t${step}`,
        author: ADA,
        now
      });
      threadIds.add(thread.id);
      messageIds.add(thread.messages[0].id);
    } else if (action < 0.55) {
      const target = pick(known);
      const before = new Set(target.messages.map(m => m.id));
      const thread = browser.store.reply(browser.model, target.id, {
        body: `r${step}`,
        author: ADA,
        now
      });
      thread.messages
        .filter(m => !before.has(m.id))
        .forEach(m => messageIds.add(m.id));
    } else if (action < 0.8) {
      const target = pick(known);
      const status = pick(['open', 'resolved'] as const);
      const before = new Set(target.messages.map(m => m.id));
      const closing = next() < 0.5 ? { body: `c${step}`, author: ADA } : null;
      const thread = browser.store.setStatus(
        browser.model,
        target.id,
        status,
        closing,
        now
      );
      thread.messages
        .filter(m => !before.has(m.id))
        .forEach(m => messageIds.add(m.id));
      if (target.status !== status) {
        const stored = raw(browser.model).threads.find(
          t => t.id === target.id
        )!;
        const list = changes.get(target.id) ?? [];
        list.push({ status, at: stored.statusChangedAt as string });
        changes.set(target.id, list);
      }
    } else {
      const direction = pick(['ab', 'ba', 'both']);
      if (direction !== 'ba') {
        send(a, b);
      }
      if (direction !== 'ab') {
        send(b, a);
      }
    }
  }
  settle(a, b);
  const threadsA = storedThreads(a.model);
  const threadsB = storedThreads(b.model);
  if (JSON.stringify(threadsA) !== JSON.stringify(threadsB)) {
    return 'the two browsers hold different threads';
  }
  const ids = threadsA.map(t => t.id);
  if (ids.length !== threadIds.size || ids.some(id => !threadIds.has(id))) {
    return `threads: expected ${threadIds.size}, found ${ids.length}`;
  }
  const messages = threadsA.flatMap(t => t.messages.map(m => m.id));
  if (
    messages.length !== messageIds.size ||
    new Set(messages).size !== messages.length ||
    messages.some(id => !messageIds.has(id))
  ) {
    return `messages: expected ${messageIds.size}, found ${messages.length}`;
  }
  for (const thread of threadsA) {
    if (!thread.messages[0].body.startsWith('t')) {
      return `thread ${thread.id} does not start with its first message`;
    }
    // the status last set wins; open on a tie; open if never changed
    const list = changes.get(thread.id) ?? [];
    const last = list.reduce<string | null>(
      (latest, change) =>
        latest === null || change.at > latest ? change.at : latest,
      null
    );
    const expected =
      last === null ||
      list.some(change => change.at === last && change.status === 'open')
        ? 'open'
        : 'resolved';
    if (thread.status !== expected) {
      return `thread ${thread.id}: status ${thread.status}, expected ${expected}`;
    }
  }
  return null;
}

describe('two browsers, many random interleavings', () => {
  it('always converge on every thread and message, once, with the latest status', () => {
    const base = Number(process.env.REVIEW_MERGE_SEED ?? 20261201);
    const failures: string[] = [];
    for (let i = 0; i < 150 && failures.length === 0; i++) {
      const seed = base + i;
      let problem: string | null;
      try {
        problem = run(seed);
      } catch (error) {
        problem = String(error);
      }
      if (problem) {
        failures.push(`seed ${seed} (REVIEW_MERGE_SEED=${seed}): ${problem}`);
      }
      stores.splice(0).forEach(made => made.dispose());
      models.splice(0).forEach(model => model.dispose());
    }
    expect(failures).toEqual([]);
  });
});

describe('reads kept between changes', () => {
  it('a read after any change that matters sees it', () => {
    const model = notebook();
    const reviews = store();
    const { id } = reviews.createThread(model, {
      anchor: cell('c2'),
      body: 'kept?',
      author: ADA
    });
    expect(reviews.threads(model).map(t => t.id)).toEqual([id]);

    // the cell's access: hidden, then shown again
    setAccess(model.cells[1], 'none');
    expect(reviews.threads(model)).toEqual([]);
    expect(reviews.counts(model)).toEqual({ openThreads: 0, totalThreads: 0 });
    setAccess(model.cells[1], 'write');
    expect(reviews.counts(model)).toEqual({ openThreads: 1, totalThreads: 1 });

    // a new cell with that id, hidden: a cell id held twice is hidden if
    // any of its cells is
    model.insertCells(2, [code('c2', 'again')]);
    setAccess(model.cells[2], 'none');
    expect(reviews.threads(model)).toEqual([]);
    model.deleteCell(2);
    expect(reviews.threads(model).map(t => t.id)).toEqual([id]);

    // a hand edit of the stored value (no store involved): resolved later
    const edited = raw(model);
    edited.threads[0].status = 'resolved';
    edited.threads[0].statusChangedAt = '2099-01-01T00:00:00.000Z';
    model.setMetadata(REVIEW_METADATA_KEY, edited as never);
    expect(reviews.getThread(model, id)?.status).toBe('resolved');
    expect(reviews.counts(model)).toEqual({ openThreads: 0, totalThreads: 1 });
  });

  it('a read inside an outer transaction sees the store’s own writes', () => {
    const model = notebook();
    const reviews = store();
    model.transact(() => {
      const { id } = reviews.createThread(model, {
        anchor: cell('c1'),
        body: 'first',
        author: ADA,
        now: at(0)
      });
      const replied = reviews.reply(model, id, {
        body: 'second',
        author: AGENT_AUTHOR,
        now: at(1)
      });
      expect(replied.messages.map(m => m.body)).toEqual(['first', 'second']);
      expect(reviews.setStatus(model, id, 'resolved').status).toBe('resolved');
      expect(reviews.counts(model)).toEqual({
        openThreads: 0,
        totalThreads: 1
      });
    });
  });

  it('another browser’s write shows in the next read, and the read is a copy', () => {
    const [a, b] = browsers();
    expect(b.store.threads(b.model)).toEqual([]);
    const { id } = a.store.createThread(a.model, {
      anchor: cell('c1'),
      body: 'from a',
      author: ADA
    });
    send(a, b);
    const seen = b.store.threads(b.model);
    expect(seen.map(t => t.id)).toEqual([id]);
    seen.pop();
    expect(b.store.threads(b.model)).toHaveLength(1);
    expect(b.store.allThreads(b.model)).toHaveLength(1);
    // the threads in it are shared until the next change, and read-only
    const [thread] = b.store.allThreads(b.model);
    expect(() => thread.messages.push(thread.messages[0])).toThrow(TypeError);
    expect(() => {
      (thread.messages[0] as { body: string }).body = 'changed';
    }).toThrow(TypeError);
    expect(b.store.getThread(b.model, id)?.messages.map(m => m.body)).toEqual([
      'from a'
    ]);
  });
});
