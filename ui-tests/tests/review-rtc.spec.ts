/**
 * Review threads under real-time collaboration (the `rtc` project only: the
 * lab-rtc server, JupyterLab with jupyter-collaboration; see
 * playwright.config.ts and servers/start.py).
 *
 * Two people, each in a browser context of their own (two anonymous
 * identities of the server, so two collaboration identities), open the same
 * notebook, which the server shares between them as one Yjs document. At
 * the same time each of them, and the agent of each page, adds threads and
 * replies (also to threads the others created), then each changes statuses
 * at the same time as the other: resolves, resolves with a closing message,
 * resolves and reopens, the same thread resolved from both sides, replies to
 * a thread being resolved and reopened. Afterwards both browsers and the
 * file the server saved hold every thread and every message exactly once,
 * each thread with the status expected of it, and the same value.
 *
 * How each writes:
 * - the agents: native WebMCP (Playwright's `page.webmcp`, i.e.
 *   `document.modelContext`), `jupyter_create_comment`,
 *   `jupyter_reply_comment`, `jupyter_list_comments`,
 *   `jupyter_resolve_comment` and `jupyter_reopen_comment`;
 * - the humans: the human comment commands (`jupyterlite-webmcp:add-comment`
 *   and the Comments tab) are not on this branch, so each human writes
 *   through the review store itself (the `jupyterlite-webmcp:review-store`
 *   plugin's IReviewStore, which those commands use, taken from the app's
 *   plugin registry), as `{ kind: 'human', name: <the collaboration
 *   identity's display name> }`.
 *
 * Every check reads the stored value (notebook metadata
 * `jupyterlite_webmcp_review`) as it is, not through the store's reader,
 * which would hide a repeated id: ids are counted, not collected into sets.
 * No cell is touched, so there is no provenance to repeat; the cells are
 * checked to be the same ones, once each, in both browsers and in the file.
 */
import type { Browser, Page } from '@playwright/test';
import type { INotebookContent } from '@jupyterlab/nbformat';

import { Agent } from '../agent';
import { expect, test } from '../fixtures';
import { Human } from '../human';
import { JupyterApp } from '../jupyter';
import { installPageHelpers } from '../page-helpers';

const REVIEW_KEY = 'jupyterlite_webmcp_review';
const CELLS = 10;
/** Threads (each followed by one reply) per human, and per agent. */
const HUMAN_THREADS = 50;
const AGENT_THREADS = 25;
/** Threads in each group of status changes. */
const GROUP = 12;

const TOOLS = [
  'jupyter_list_comments',
  'jupyter_create_comment',
  'jupyter_reply_comment',
  'jupyter_resolve_comment',
  'jupyter_reopen_comment'
];

interface IStoredMessage {
  id: string;
  body: string;
  author: { kind: string; name: string };
}
interface IStoredThread {
  id: string;
  status: string;
  anchor: { cellId: string };
  messages: IStoredMessage[];
}
interface IStoredValue {
  threads: IStoredThread[];
  version: number;
}

/** What one writer did: each thread it created and each message it wrote. */
interface IWrites {
  threads: string[];
  /** [threadId, body] of every message written (first messages included). */
  messages: [string, string][];
}

/** One person: a browser context with the app, its human and its agent. */
interface IPerson {
  tag: string;
  jupyter: JupyterApp;
  human: Human;
  agent: Agent;
  page: Page;
}

function notebookContent(): INotebookContent {
  return {
    cells: Array.from({ length: CELLS }, (_, i) => ({
      id: `rtc-cell-${i}`,
      cell_type: 'code',
      source: `value_${i} = ${i} * 2\nprint(value_${i})`,
      metadata: {},
      execution_count: null,
      outputs: []
    })),
    metadata: {
      kernelspec: {
        name: 'python3',
        display_name: 'Python 3 (ipykernel)',
        language: 'python'
      },
      language_info: { name: 'python' }
    },
    nbformat: 4,
    nbformat_minor: 5
  };
}

/** A second person: a browser context of its own on the same server. */
async function secondPerson(
  browser: Browser,
  first: JupyterApp,
  baseURL: string
): Promise<IPerson> {
  const context = await browser.newContext({ baseURL });
  await context.addInitScript(installPageHelpers);
  const page = await context.newPage();
  // a directory name of its own gives it a workspace of its own; it creates
  // no file, the notebook is the first person's
  const jupyter = new JupyterApp({
    context,
    page,
    kind: 'lab',
    ui: 'lab',
    baseURL,
    dir: `${first.dir}-b`
  });
  return {
    tag: 'B',
    jupyter,
    human: new Human(jupyter),
    agent: new Agent(jupyter),
    page
  };
}

/** The collaboration facts of a page: identity, and whether RTC is on. */
async function collaboration(page: Page, path: string) {
  return page.evaluate(async p => {
    const app = window.uiTests.app();
    await app.serviceManager.user.ready;
    const identity = app.serviceManager.user.identity;
    const panel = window.uiTests.findNotebook(p);
    return {
      username: identity?.username ?? null,
      name: identity?.display_name ?? identity?.name ?? null,
      collaborative: panel?.context.model.collaborative ?? null,
      docprovider: app
        .listPlugins()
        .some(id => id.startsWith('@jupyter/docprovider-extension:'))
    };
  }, path);
}

/** The stored review value of the open notebook in a page, as stored. */
async function storedInPage(
  page: Page,
  path: string
): Promise<IStoredValue | null> {
  return page.evaluate(
    ([p, key]) => {
      const panel = window.uiTests.findNotebook(p);
      const value = panel?.context.model.sharedModel.getMetadata(key);
      return (value ?? null) as unknown as IStoredValue | null;
    },
    [path, REVIEW_KEY] as const
  );
}

/** The cell ids of the open notebook in a page, in order. */
async function cellIdsInPage(page: Page, path: string): Promise<string[]> {
  return page.evaluate(p => window.uiTests.cellIds(p), path);
}

/** The notebook as saved on the server's disk (the contents API, raw text). */
async function savedNotebook(
  baseURL: string,
  path: string
): Promise<INotebookContent> {
  const url = `${baseURL}/api/contents/${path
    .split('/')
    .map(encodeURIComponent)
    .join('/')}?type=file&format=text&content=1`;
  const response = await fetch(url);
  expect(response.ok, `GET ${url}`).toBe(true);
  const model = (await response.json()) as { content: string };
  return JSON.parse(model.content) as INotebookContent;
}

/** Ids that occur more than once. */
function repeated(ids: string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of ids) {
    (seen.has(id) ? twice : seen).add(id);
  }
  return [...twice];
}

/**
 * The human's writes, run in the page: `count` threads, each followed by a
 * reply to a thread picked at random among all this browser holds (the
 * others' too), with random pauses so the writes of both browsers and both
 * agents interleave.
 */
async function humanWrites(
  page: Page,
  path: string,
  tag: string,
  count: number
): Promise<IWrites> {
  return page.evaluate(
    async ([p, t, n, cells]) => {
      const app = window.uiTests.app();
      const store = await reviewStore();
      await app.serviceManager.user.ready;
      const identity = app.serviceManager.user.identity;
      const author = {
        kind: 'human',
        name: identity?.display_name ?? identity?.name ?? t
      };
      const model = window.uiTests.findNotebook(p)!.context.model.sharedModel;
      const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
      const writes: IWrites = { threads: [], messages: [] };
      for (let i = 0; i < n; i++) {
        const body = `${t} human thread ${i}`;
        const thread = store.createThread(model, {
          anchor: { kind: 'cell', cellId: `rtc-cell-${i % cells}` },
          body,
          author
        });
        writes.threads.push(thread.id);
        writes.messages.push([thread.id, body]);
        await sleep(Math.random() * 30);
        const all = store.allThreads(model);
        const target = all[Math.floor(Math.random() * all.length)];
        const reply = `${t} human reply ${i}`;
        store.reply(model, target.id, { body: reply, author });
        writes.messages.push([target.id, reply]);
        await sleep(Math.random() * 30);
      }
      return writes;

      // the review store the human commands use (see the header)
      async function reviewStore() {
        const registry = (
          app as unknown as {
            pluginRegistry: {
              _plugins: Map<string, { provides?: unknown }>;
            };
          }
        ).pluginRegistry;
        const token = registry._plugins.get(
          'jupyterlite-webmcp:review-store'
        )?.provides;
        if (!token) {
          throw new Error('no review-store plugin');
        }
        return (await app.resolveRequiredService(token as never)) as {
          createThread(
            m: unknown,
            o: { anchor: unknown; body: string; author: unknown }
          ): { id: string };
          reply(
            m: unknown,
            id: string,
            o: { body: string; author: unknown }
          ): void;
          allThreads(m: unknown): { id: string }[];
        };
      }
    },
    [path, tag, count, CELLS] as const
  );
}

/**
 * The agent's writes, through native WebMCP: `count` threads, each followed
 * by a reply to a thread picked at random from what jupyter_list_comments
 * shows (the 50 newest, whoever wrote them).
 */
async function agentWrites(
  agent: Agent,
  tag: string,
  count: number
): Promise<IWrites> {
  const writes: IWrites = { threads: [], messages: [] };
  for (let i = 0; i < count; i++) {
    const body = `${tag} agent thread ${i}`;
    const created = await agent.call<{ thread: { id: string } }>(
      'jupyter_create_comment',
      {
        anchor: { kind: 'cell', cellId: `rtc-cell-${(i * 3) % CELLS}` },
        message: body
      }
    );
    expect(created.isError, created.text).toBe(false);
    const id = created.structured!.thread.id;
    writes.threads.push(id);
    writes.messages.push([id, body]);

    const listed = await agent.call<{ threads: { threadId: string }[] }>(
      'jupyter_list_comments',
      { status: 'all' }
    );
    expect(listed.isError, listed.text).toBe(false);
    const threads = listed.structured!.threads;
    const target = threads[Math.floor(Math.random() * threads.length)];
    const reply = `${tag} agent reply ${i}`;
    const replied = await agent.call('jupyter_reply_comment', {
      threadId: target.threadId,
      message: reply
    });
    expect(replied.isError, replied.text).toBe(false);
    writes.messages.push([target.threadId, reply]);
  }
  return writes;
}

/** A status change by a human, through the store, in the page. */
async function humanStatus(
  page: Page,
  path: string,
  steps: { threadId: string; status: string; closing?: string }[]
): Promise<void> {
  await page.evaluate(
    async ([p, list]) => {
      const app = window.uiTests.app();
      const registry = (
        app as unknown as {
          pluginRegistry: { _plugins: Map<string, { provides?: unknown }> };
        }
      ).pluginRegistry;
      const store = (await app.resolveRequiredService(
        registry._plugins.get('jupyterlite-webmcp:review-store')!
          .provides as never
      )) as {
        setStatus(
          m: unknown,
          id: string,
          s: string,
          c?: { body: string; author: unknown } | null
        ): void;
        reply(
          m: unknown,
          id: string,
          o: { body: string; author: unknown }
        ): void;
      };
      const identity = app.serviceManager.user.identity;
      const author = {
        kind: 'human',
        name: identity?.display_name ?? identity?.name ?? 'human'
      };
      const model = window.uiTests.findNotebook(p)!.context.model.sharedModel;
      for (const step of list) {
        if (step.status === 'reply') {
          store.reply(model, step.threadId, { body: step.closing!, author });
        } else {
          store.setStatus(
            model,
            step.threadId,
            step.status,
            step.closing ? { body: step.closing, author } : null
          );
        }
        await new Promise(r => setTimeout(r, Math.random() * 20));
      }
    },
    [path, steps] as const
  );
}

/** Status changes by an agent, through native WebMCP. */
async function agentStatus(
  agent: Agent,
  steps: { threadId: string; status: string; closing?: string }[]
): Promise<void> {
  for (const step of steps) {
    const result =
      step.status === 'resolved'
        ? await agent.call('jupyter_resolve_comment', {
            threadId: step.threadId,
            resolutionMessage: step.closing ?? null
          })
        : await agent.call('jupyter_reopen_comment', {
            threadId: step.threadId
          });
    expect(result.isError, result.text).toBe(false);
  }
}

/**
 * Checks a stored value against what was written: every thread once, every
 * message once (by id and by body: every body written is unique), nothing
 * else, each thread with its expected status.
 */
function expectHolds(
  where: string,
  value: IStoredValue | null | undefined,
  expected: Map<string, { bodies: string[]; status: string }>
): void {
  expect(value, `${where}: no review value`).toBeTruthy();
  const threads = value!.threads;
  const ids = threads.map(thread => thread.id);
  expect(repeated(ids), `${where}: threads stored twice`).toEqual([]);
  expect(ids.length, `${where}: thread count`).toBe(expected.size);
  expect([...ids].sort(), `${where}: thread ids`).toEqual(
    [...expected.keys()].sort()
  );
  for (const thread of threads) {
    const want = expected.get(thread.id)!;
    const messageIds = thread.messages.map(message => message.id);
    const bodies = thread.messages.map(message => message.body);
    expect(
      repeated(messageIds),
      `${where}: messages stored twice in ${thread.id}`
    ).toEqual([]);
    expect(repeated(bodies), `${where}: a message written twice`).toEqual([]);
    expect([...bodies].sort(), `${where}: messages of ${thread.id}`).toEqual(
      [...want.bodies].sort()
    );
    expect(thread.status, `${where}: status of ${thread.id}`).toBe(want.status);
  }
}

test.describe('review threads under real-time collaboration', () => {
  test('two browsers and two agents write at once: both browsers and the saved file hold everything once', async ({
    jupyter,
    human,
    agent,
    browser,
    baseURL
  }) => {
    // every write lands in a shared document a few hundred times over
    test.setTimeout(240_000);
    await jupyter.open();
    const path = await jupyter.createNotebook('rtc.ipynb', notebookContent());
    const a: IPerson = { tag: 'A', jupyter, human, agent, page: jupyter.page };
    const b = await secondPerson(browser, jupyter, baseURL!);
    try {
      await b.jupyter.open();
      for (const person of [a, b]) {
        await person.human.openNotebook(path, { kernel: false });
        await person.agent.waitForTools(TOOLS);
      }

      // one shared document, two identities
      const [infoA, infoB] = [
        await collaboration(a.page, path),
        await collaboration(b.page, path)
      ];
      for (const info of [infoA, infoB]) {
        expect(info.collaborative).toBe(true);
        expect(info.docprovider).toBe(true);
      }
      expect(infoA.username).toBeTruthy();
      expect(infoB.username).toBeTruthy();
      expect(infoA.username).not.toBe(infoB.username);

      // 1. threads and replies, all four writers at once
      const writes = await Promise.all([
        humanWrites(a.page, path, 'A', HUMAN_THREADS),
        humanWrites(b.page, path, 'B', HUMAN_THREADS),
        agentWrites(a.agent, 'A', AGENT_THREADS),
        agentWrites(b.agent, 'B', AGENT_THREADS)
      ]);
      const expected = new Map<string, { bodies: string[]; status: string }>();
      for (const w of writes) {
        for (const id of w.threads) {
          expect(expected.has(id), `thread id ${id} returned twice`).toBe(
            false
          );
          expected.set(id, { bodies: [], status: 'open' });
        }
      }
      for (const w of writes) {
        for (const [id, body] of w.messages) {
          expected.get(id)!.bodies.push(body);
        }
      }
      expect(expected.size).toBe(2 * (HUMAN_THREADS + AGENT_THREADS));

      // both browsers hold all of it before anyone changes a status
      for (const person of [a, b]) {
        await expect(async () =>
          expectHolds(
            `browser ${person.tag}`,
            await storedInPage(person.page, path),
            expected
          )
        ).toPass({ timeout: 60_000 });
      }

      // 2. status changes, both browsers at once, on disjoint and shared
      // groups of threads (picked across writers: sorted by id)
      const ids = [...expected.keys()].sort();
      const group = (k: number) => ids.slice(k * GROUP, (k + 1) * GROUP);
      type Step = { threadId: string; status: string; closing?: string };
      const steps = {
        agentA: [] as Step[],
        agentB: [] as Step[],
        humanA: [] as Step[],
        humanB: [] as Step[]
      };
      const expect_ = (id: string, status: string, ...bodies: string[]) => {
        const want = expected.get(id)!;
        want.status = status;
        want.bodies.push(...bodies);
      };
      // agent A resolves with a closing message
      for (const id of group(0)) {
        const closing = `A agent closes ${id}`;
        steps.agentA.push({ threadId: id, status: 'resolved', closing });
        expect_(id, 'resolved', closing);
      }
      // human B resolves, then reopens
      for (const id of group(1)) {
        steps.humanB.push({ threadId: id, status: 'resolved' });
        steps.humanB.push({ threadId: id, status: 'open' });
        expect_(id, 'open');
      }
      // both resolve the same threads, each with a closing message
      for (const id of group(2)) {
        const fromA = `A human closes ${id}`;
        const fromB = `B agent closes ${id}`;
        steps.humanA.push({ threadId: id, status: 'resolved', closing: fromA });
        steps.agentB.push({ threadId: id, status: 'resolved', closing: fromB });
        expect_(id, 'resolved', fromA, fromB);
      }
      // agent B resolves and reopens while human A replies to them
      for (const id of group(3)) {
        const reply = `A human replies during ${id}`;
        steps.agentB.push({ threadId: id, status: 'resolved' });
        steps.agentB.push({ threadId: id, status: 'open' });
        steps.humanA.push({ threadId: id, status: 'reply', closing: reply });
        expect_(id, 'open', reply);
      }
      // human B resolves (no message) while agent A replies to them
      for (const id of group(4)) {
        steps.humanB.push({ threadId: id, status: 'resolved' });
        const reply = `A agent replies during ${id}`;
        expect_(id, 'resolved', reply);
      }
      await Promise.all([
        agentStatus(a.agent, steps.agentA).then(async () => {
          for (const id of group(4)) {
            const replied = await a.agent.call('jupyter_reply_comment', {
              threadId: id,
              message: `A agent replies during ${id}`
            });
            expect(replied.isError, replied.text).toBe(false);
          }
        }),
        agentStatus(b.agent, steps.agentB),
        humanStatus(a.page, path, steps.humanA),
        humanStatus(b.page, path, steps.humanB)
      ]);

      // 3. both browsers converge on exactly what was written
      for (const person of [a, b]) {
        await expect(async () =>
          expectHolds(
            `browser ${person.tag}`,
            await storedInPage(person.page, path),
            expected
          )
        ).toPass({ timeout: 60_000 });
      }
      const valueA = await storedInPage(a.page, path);
      const valueB = await storedInPage(b.page, path);
      expect(valueB).toEqual(valueA);

      // the agents count the same threads (the 50-row list is capped)
      const open = [...expected.values()].filter(t => t.status === 'open');
      for (const person of [a, b]) {
        const listed = await person.agent.call<{
          counts: { openThreads: number; totalThreads: number };
          truncated: boolean;
        }>('jupyter_list_comments', { status: 'all' });
        expect(listed.structured?.counts).toEqual({
          openThreads: open.length,
          totalThreads: expected.size
        });
        expect(listed.structured?.truncated).toBe(true);
      }

      // 4. saved: the file on disk holds the same, once each. The server
      // saves the shared document by itself (a second after the last
      // change). No save is requested: in jupyter-collaboration 5.0.4 a
      // save request can go unanswered when a document change cancels the
      // server's save task before it starts (its handler catches Exception,
      // and CancelledError is not one), which leaves the page's save, and
      // so jupyter_save_notebook, waiting for ever (seen once in 10 runs)
      const cellIds = Array.from({ length: CELLS }, (_, i) => `rtc-cell-${i}`);
      await expect(async () => {
        const file = await savedNotebook(baseURL!, path);
        const stored = file.metadata[REVIEW_KEY] as unknown as IStoredValue;
        expectHolds('saved file', stored, expected);
        expect(stored).toEqual(valueA);
        expect(file.cells.map(cell => cell.id)).toEqual(cellIds);
      }).toPass({ timeout: 30_000 });
      // no cell was duplicated or lost in either browser either
      expect(await cellIdsInPage(a.page, path)).toEqual(cellIds);
      expect(await cellIdsInPage(b.page, path)).toEqual(cellIds);

      // the humans' messages carry their identities
      const authors = new Set(
        valueA!.threads.flatMap(thread =>
          thread.messages
            .filter(message => message.author.kind === 'human')
            .map(message => message.author.name)
        )
      );
      expect(authors).toEqual(new Set([infoA.name, infoB.name]));
    } finally {
      await b.agent.dispose();
      await b.jupyter.dispose();
      await b.jupyter.context.close();
    }
  });
});
