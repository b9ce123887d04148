/**
 * The comment tools' semantic layer (src/review/thread-tools.ts) on real models:
 * the notebook jupyterlite-webmcp 0.1.1 annotated, open in a real
 * NotebookPanel (a live YNotebook) or read from its file by the resolver,
 * with the real review store. Hidden threads read exactly like unknown ones,
 * read-only cells and notebooks refuse writes, bounds are the spec's, and no
 * tool touches a cell's source.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';
import type {
  NotebookPanel,
  NotebookTracker as NotebookTrackerType
} from '@jupyterlab/notebook';
import type { NBTestUtils as NBTestUtilsType } from '@jupyterlab/notebook/lib/testutils';
import { Widget } from '@lumino/widgets';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { normalizeError } from '../../src/common/errors';
import { utf8Length } from '../../src/common/text';
import { type ICallTrace } from '../../src/jupyter/call';
import { type IJupyterEnvironment } from '../../src/jupyter/environment';
import { NotebookResolver } from '../../src/jupyter/notebook';
import { getComment, listComments } from '../../src/review/thread-read-tools';
import {
  commentNotFoundError,
  focusComment,
  type IReviewServices
} from '../../src/review/thread-tools';
import {
  createComment,
  reopenComment,
  replyComment,
  resolveComment
} from '../../src/review/thread-write-tools';
import { LIMITS } from '../../src/limits';
import {
  AGENT_AUTHOR,
  cappedThread,
  ReviewStore,
  type IReviewThread
} from '../../src/review/storage';
import { successResult } from '../../src/webmcp/results';
import type { CellActivityKind } from '../../src/tokens';
import { setAccess } from '../jupyter/ymodel';
import { disposePanel, failure } from '../panel-kit';
import { silenceKnownWarnings } from '../quiet';
import { fixtureContent } from './fixture';

silenceKnownWarnings();

const THREAD = {
  cell: 'a616b942-473a-4cdc-b78e-83a8a8db1b75',
  range: '808743df-5dab-444f-ada4-3295452de0b7',
  output: '3ab1e429-4f47-4726-b862-d45bb5463755',
  hidden: '71b896f7-1cd5-4dae-bddc-4b3efc9493d9',
  readOnly: '70458636-b072-4b04-8f92-4f8805d25810'
};
/** Only the hidden cell and its thread hold these. */
const CANARIES = ['CANARY-THREAD-e1c0', 'CANARY-REVIEW-55aa', 'rv-code-2'];
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const FILE = 'work/annotated.ipynb';

/** Every cell's source, to show no tool changed one. */
function sources(model: ISharedNotebook): string[] {
  return model.cells.map(cell => cell.getSource());
}

/** A call trace that records the cells reported. */
function trace(): ICallTrace & {
  reports: [string, string, CellActivityKind][];
} {
  const reports: [string, string, CellActivityKind][] = [];
  return {
    signal: new AbortController().signal,
    reportCell: (notebookPath, cellId, kind) =>
      reports.push([notebookPath, cellId, kind]),
    reports
  };
}

function expectNoCanary(value: unknown): void {
  const text = JSON.stringify(value);
  for (const canary of CANARIES) {
    expect(text).not.toContain(canary);
  }
}

/**
 * The notebook packages, loaded once the known warnings are silenced (an
 * import would load them first, and the clipboard's warning would print).
 */
function loadPanelKit() {
  const { NBTestUtils } = jest.requireActual<{
    NBTestUtils: typeof NBTestUtilsType;
  }>('@jupyterlab/notebook/lib/testutils');
  const { NotebookTracker } = jest.requireActual<{
    NotebookTracker: typeof NotebookTrackerType;
  }>('@jupyterlab/notebook');
  return { NBTestUtils, NotebookTracker };
}

describe('the comment tools', () => {
  const { NBTestUtils, NotebookTracker } = loadPanelKit();
  let tracker: NotebookTrackerType;
  let panel: NotebookPanel;
  let files: Map<string, nbformat.INotebookContent>;
  let activated: string[];
  let services: IReviewServices;
  let store: ReviewStore;

  /** The open notebook's live model. */
  const live = () => panel.content.model!.sharedModel;
  const livePath = () => panel.context.localPath;

  beforeEach(async () => {
    tracker = new NotebookTracker({ namespace: 'review-spec' });
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON(fixtureContent());
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    await tracker.add(panel);
    panel.content.activeCellIndex = 1;
    files = new Map([[FILE, fixtureContent()]]);
    activated = [];
    const env = {
      app: { shell: { activateById: (id: string) => activated.push(id) } },
      tracker,
      multiDocument: false,
      contents: {
        get: async (file: string) => {
          const content = files.get(file);
          if (!content) {
            throw { response: { status: 404 } };
          }
          return { type: 'notebook', content };
        }
      }
    } as unknown as IJupyterEnvironment;
    store = new ReviewStore();
    services = { env, resolver: new NotebookResolver(env), review: store };
  });

  afterEach(() => {
    store.dispose();
    disposePanel(panel, tracker);
  });

  describe('secrets in anchored code', () => {
    const TOKEN = 'ghp_' + 'R7kQ2mXw'.repeat(4) + 'Zt9B';
    const SEEN = '[secret withheld: GitHub token]';

    it('withholds them from the anchor, its context and its live text; a placeholder anchors by text', async () => {
      const cell = live().cells[1];
      cell.setSource(`headers = {"Authorization": "${TOKEN}"}\nfetch(headers)`);
      const created = await createComment(services, {
        anchor: {
          kind: 'source-range',
          cellId: cell.id,
          text: `"${SEEN}"}`
        },
        message: 'Keep the token out of the notebook.'
      });
      expect(JSON.stringify(created)).not.toContain(TOKEN);
      expect(created.thread.anchor.selectedText).toBe(`"${SEEN}"}`);
      // the store keeps the real text the anchor was made on
      const stored = store
        .threads(live())
        .find(thread => thread.id === created.thread.id)!;
      expect(stored.anchor.selectedText).toBe(`"${TOKEN}"}`);
      const listed = await listComments(services, {});
      expect(JSON.stringify(listed)).not.toContain(TOKEN);
      expect(JSON.stringify(listed)).toContain(SEEN);
      const read = await getComment(services, {
        threadId: created.thread.id
      });
      expect(JSON.stringify(read)).not.toContain(TOKEN);
      expect(read.anchorStatus.text).toBe(`"${SEEN}"}`);
      expect(read.context.cell?.source).toContain(SEEN);
    });
  });

  describe('jupyter_list_comments', () => {
    it('lists the visible threads newest first, with live anchor states', async () => {
      const all = await listComments(services, { status: 'all' });
      expectNoCanary(all);
      expect(all.notebookPath).toBe(livePath());
      expect(all.counts).toEqual({ openThreads: 3, totalThreads: 4 });
      expect(all.threads.map(thread => thread.threadId)).toEqual([
        THREAD.readOnly,
        THREAD.output,
        THREAD.range,
        THREAD.cell
      ]);
      expect(all).toMatchObject({ truncated: false, omittedCount: 0 });
      const byId = Object.fromEntries(all.threads.map(t => [t.threadId, t]));
      expect(byId[THREAD.range]).toEqual({
        threadId: THREAD.range,
        status: 'open',
        createdAt: '2026-12-01T19:11:43.821Z',
        updatedAt: '2026-12-01T19:11:43.821Z',
        messageCount: 1,
        anchor: {
          kind: 'source-range',
          cellId: 'rv-code-1',
          cellIndex: 1,
          selectedText: 'sum(values) / 2',
          state: 'exact'
        },
        lastMessage: {
          author: { kind: 'agent', name: 'Browser agent' },
          createdAt: '2026-12-01T19:11:43.821Z',
          body: 'This expression is the bug.'
        }
      });
      expect(byId[THREAD.output].anchor).toEqual({
        kind: 'output',
        cellId: 'rv-code-4',
        cellIndex: 4,
        outputIndex: 0,
        state: 'exact',
        outputChanged: false
      });
      expect(byId[THREAD.output].lastMessage?.body).toBe('Checked, resolving.');
      expect(byId[THREAD.readOnly].anchor.cellIndex).toBe(3);
    });

    it('filters by status, open by default', async () => {
      const open = await listComments(services, {});
      expect(open.threads.map(thread => thread.threadId)).toEqual([
        THREAD.readOnly,
        THREAD.range,
        THREAD.cell
      ]);
      const resolved = await listComments(services, { status: 'resolved' });
      expect(resolved.threads.map(thread => thread.threadId)).toEqual([
        THREAD.output
      ]);
      // counts are every visible thread, whatever the filter
      expect(resolved.counts).toEqual({ openThreads: 3, totalThreads: 4 });
    });

    it('reads a notebook that is not open from its file, the same way', async () => {
      const listed = await listComments(services, {
        notebookPath: FILE,
        status: 'all'
      });
      expectNoCanary(listed);
      expect(listed.notebookPath).toBe(FILE);
      expect(listed.counts).toEqual({ openThreads: 3, totalThreads: 4 });
      expect(listed.threads).toHaveLength(4);
    });

    it('computes anchor states live: edited, moved and deleted anchors', async () => {
      const model = live();
      // the range's text moves down a line: re-anchored
      model.cells[1].setSource(
        '# first\nvalues = [3, 4, 5]\nmean = sum(values) / 2\nprint(mean)'
      );
      let listed = await listComments(services, { status: 'all' });
      const state = (id: string) =>
        listed.threads.find(thread => thread.threadId === id)!.anchor;
      expect(state(THREAD.range).state).toBe('reanchored');
      // the output changes
      model.transact(() => {
        (
          model.cells[4] as unknown as {
            setOutputs(outputs: nbformat.IOutput[]): void;
          }
        ).setOutputs([{ output_type: 'stream', name: 'stdout', text: '4\n' }]);
      });
      listed = await listComments(services, { status: 'all' });
      expect(state(THREAD.output)).toMatchObject({
        state: 'exact',
        outputChanged: true
      });
      // the text is gone: orphaned; the cell deleted: cell-missing
      model.cells[1].setSource('mean = 2');
      listed = await listComments(services, { status: 'all' });
      expect(state(THREAD.range)).toMatchObject({
        state: 'orphaned',
        cellIndex: 1
      });
      model.deleteCell(1);
      listed = await listComments(services, { status: 'all' });
      expect(state(THREAD.range)).toMatchObject({
        state: 'cell-missing',
        cellIndex: null
      });
      expect(state(THREAD.cell)).toMatchObject({
        state: 'cell-missing',
        cellIndex: null
      });
    });

    it('hides and shows a thread with its cell’s access', async () => {
      setAccess(live().cells[3], 'none');
      const hidden = await listComments(services, { status: 'all' });
      expect(hidden.counts).toEqual({ openThreads: 2, totalThreads: 3 });
      expect(hidden.threads.map(t => t.threadId)).not.toContain(
        THREAD.readOnly
      );
      setAccess(live().cells[2], 'write');
      const shown = await listComments(services, { status: 'all' });
      expect(shown.threads.map(t => t.threadId)).toContain(THREAD.hidden);
    });

    it('lists the active cell’s threads for scope current-cell', async () => {
      panel.content.activeCellIndex = 1;
      const onCell = await listComments(services, {
        scope: 'current-cell',
        status: 'all'
      });
      expect(onCell.threads.map(t => t.threadId)).toEqual([
        THREAD.range,
        THREAD.cell
      ]);
      expect(onCell.counts).toEqual({ openThreads: 3, totalThreads: 4 });
    });

    it('answers NO_ACTIVE_NOTEBOOK for current-cell without a visible active cell', async () => {
      const noCell = {
        error: 'NO_ACTIVE_NOTEBOOK',
        message: `No cell is active in "${FILE}", so there is no current cell to list threads for. Pass scope "notebook", or select a cell first.`,
        path: FILE
      };
      // a notebook read from its file has no active cell
      expect(
        await failure(
          listComments(services, { notebookPath: FILE, scope: 'current-cell' })
        )
      ).toEqual(noCell);
      // a hidden active cell is no active cell to the agent
      panel.content.activeCellIndex = 2;
      const hidden = await failure(
        listComments(services, { scope: 'current-cell' })
      );
      expect(hidden).toMatchObject({ error: 'NO_ACTIVE_NOTEBOOK' });
      expectNoCanary(hidden);
    });

    it('applies the limit and says how many were left out', async () => {
      const listed = await listComments(services, { status: 'all', limit: 1 });
      expect(listed.threads.map(t => t.threadId)).toEqual([THREAD.readOnly]);
      expect(listed).toMatchObject({ truncated: true, omittedCount: 3 });
    });

    it('bounds the last message to 400 characters', async () => {
      store.reply(live(), THREAD.cell, {
        body: 'é'.repeat(1000),
        author: { kind: 'human', name: 'Ada' }
      });
      const listed = await listComments(services, {});
      const last = listed.threads.find(
        t => t.threadId === THREAD.cell
      )!.lastMessage!;
      expect(Array.from(last.body)).toHaveLength(LIMITS.MAX_PREVIEW_CHARS);
      expect(last.body.endsWith('…[truncated]')).toBe(true);
      expect(last.author).toEqual({ kind: 'human', name: 'Ada' });
    });

    it('stops a long list at a whole thread just under the result bound', async () => {
      const model = live();
      // 50 threads of 4 KiB of selected text each: far over 50 KiB
      model.cells[4].setSource('x'.repeat(5000));
      for (let i = 0; i < 50; i++) {
        await createComment(services, {
          anchor: {
            kind: 'source-range',
            cellId: 'rv-code-4',
            selection: {
              start: { line: 0, column: i },
              end: { line: 0, column: i + 4000 }
            }
          },
          message: `thread ${i}`
        });
      }
      const listed = await listComments(services, { status: 'open' });
      const bytes = utf8Length(JSON.stringify(listed));
      expect(bytes).toBeLessThan(LIMITS.MAX_TOTAL_RESULT_BYTES);
      expect(bytes).toBeGreaterThan(LIMITS.MAX_TOTAL_RESULT_BYTES - 8 * 1024);
      expect(listed.truncated).toBe(true);
      expect(listed.threads.length).toBeLessThan(50);
      expect(listed.threads.length + listed.omittedCount).toBe(53);
      // newest first: the last one created leads
      expect(listed.threads[0].lastMessage?.body).toBe('thread 49');
    });

    it('refuses a hidden notebook exactly like a missing one', async () => {
      const content = fixtureContent();
      content.metadata[ACCESS_METADATA_KEY] = {
        version: 1,
        notebookAccess: 'none'
      };
      files.set('work/hidden.ipynb', content);
      const hidden = await failure(
        listComments(services, { notebookPath: 'work/hidden.ipynb' })
      );
      const missing = await failure(
        listComments(services, { notebookPath: 'work/absent.ipynb' })
      );
      expect(JSON.stringify(hidden).replace(/hidden/g, 'absent')).toBe(
        JSON.stringify(missing)
      );
      expect(missing.error).toBe('NOTEBOOK_NOT_FOUND');
    });
  });

  describe('jupyter_get_comment', () => {
    it('reads a thread, its anchor now and the code it is about', async () => {
      const call = trace();
      const read = await getComment(services, { threadId: THREAD.range }, call);
      expect(read).toMatchObject({
        notebookPath: livePath(),
        omittedMessages: 0,
        hiddenCellCount: 0,
        anchorStatus: {
          kind: 'source-range',
          cellId: 'rv-code-1',
          cellExists: true,
          cellIndex: 1,
          state: 'exact',
          range: {
            start: { line: 1, column: 7 },
            end: { line: 1, column: 22 }
          },
          text: 'sum(values) / 2'
        },
        context: {
          cell: {
            id: 'rv-code-1',
            index: 1,
            source: 'values = [3, 4, 5]\nmean = sum(values) / 2\nprint(mean)'
          }
        }
      });
      expect(read.thread.id).toBe(THREAD.range);
      expect(read.thread.messages[0].body).toBe('This expression is the bug.');
      expect(read.context.cell?.outputs).toBeUndefined();
      expect(call.reports).toEqual([[livePath(), 'rv-code-1', 'reading']]);
    });

    it('includes the outputs for an output anchor', async () => {
      const read = await getComment(services, { threadId: THREAD.output });
      expect(read.context.cell?.outputs).toEqual([
        { outputType: 'stream', name: 'stdout', text: '3\n', truncated: false }
      ]);
      expect(read.anchorStatus).toMatchObject({
        kind: 'output',
        outputIndex: 0,
        outputChanged: false
      });
    });

    it('reads a thread on a read-only cell', async () => {
      const read = await getComment(services, { threadId: THREAD.readOnly });
      expect(read.context.cell?.id).toBe('rv-code-3');
    });

    it('has no cell context once the cell is gone', async () => {
      live().deleteCell(1);
      const read = await getComment(services, { threadId: THREAD.cell });
      expect(read.context).toEqual({});
      expect(read.anchorStatus).toMatchObject({
        cellExists: false,
        cellIndex: null,
        state: 'cell-missing'
      });
    });

    it('answers for a hidden thread exactly what an unknown id gives', async () => {
      const hidden = await failure(
        getComment(services, { threadId: THREAD.hidden })
      );
      const unknown = await failure(
        getComment(services, { threadId: UNKNOWN })
      );
      expect(unknown).toEqual({
        error: 'COMMENT_NOT_FOUND',
        message: `No review thread with id "${UNKNOWN}" in this notebook.`,
        threadId: UNKNOWN
      });
      expect(hidden).toEqual(
        normalizeError(commentNotFoundError(THREAD.hidden))
      );
      expect(JSON.stringify(hidden).split(THREAD.hidden).join(UNKNOWN)).toBe(
        JSON.stringify(unknown)
      );
      expectNoCanary(hidden);
    });

    it('caps a long thread: the first message and the most recent ones', async () => {
      for (let i = 1; i <= 30; i++) {
        store.reply(live(), THREAD.cell, {
          body: `reply ${i}`,
          author: AGENT_AUTHOR
        });
      }
      const read = await getComment(services, { threadId: THREAD.cell });
      expect(read.thread.messages).toHaveLength(
        LIMITS.MAX_COMMENT_MESSAGES_RETURNED
      );
      expect(read.omittedMessages).toBe(32 - 20);
      expect(read.thread.messages[0].body).toBe(
        'The mean divides by 2, not by len(values).'
      );
      expect(read.thread.messages.slice(1).map(m => m.body)).toEqual(
        Array.from({ length: 19 }, (_, i) => `reply ${12 + i}`)
      );
    });
  });

  describe('jupyter_get_comment within the whole result bound', () => {
    const MAX = LIMITS.MAX_TOTAL_RESULT_BYTES;
    const bytes = (value: unknown) =>
      new TextEncoder().encode(JSON.stringify(value)).length;

    /** Replies of varying sizes, in 2-, 3- and 4-byte characters. */
    function reply(threadId: string, count: number): void {
      const chars = ['é', '€', '😀'];
      for (let i = 1; i <= count; i++) {
        const body = `${i} ` + chars[i % 3].repeat(40 + ((i * 397) % 1800));
        store.reply(live(), threadId, { body, author: AGENT_AUTHOR });
      }
    }

    function stored(threadId: string): IReviewThread {
      return store.threads(live()).find(thread => thread.id === threadId)!;
    }

    /** The call as the agent gets it: through the result envelope. */
    async function read(threadId: string) {
      const envelope = successResult(await getComment(services, { threadId }));
      const text = envelope.content[0].text;
      expect(bytes(JSON.parse(text))).toBeLessThanOrEqual(MAX);
      expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(MAX);
      expect(envelope.structuredContent).toEqual(JSON.parse(text));
      return envelope.structuredContent as Awaited<
        ReturnType<typeof getComment>
      >;
    }

    /**
     * The spec's rule, whatever else the result holds: the first message,
     * then the most recent ones, as many as fit (one more would pass the
     * 20 messages, their 25 KiB or the whole result's bound), and
     * omittedMessages counting exactly those between.
     */
    function expectMessageRule(
      result: Awaited<ReturnType<typeof getComment>>,
      all: IReviewThread['messages']
    ): void {
      const kept = result.thread.messages;
      expect(result.thread).not.toHaveProperty('truncated');
      expect(result.thread).not.toHaveProperty('omittedCount');
      expect(kept[0]).toEqual(all[0]);
      const recent = kept.length - 1;
      expect(kept.slice(1)).toEqual(all.slice(all.length - recent));
      expect(result.omittedMessages).toBe(all.length - kept.length);
      if (result.omittedMessages > 0) {
        const more = [kept[0], all[all.length - recent - 1], ...kept.slice(1)];
        const wider = {
          ...result,
          thread: { ...result.thread, messages: more },
          omittedMessages: result.omittedMessages - 1
        };
        expect(
          more.length > LIMITS.MAX_COMMENT_MESSAGES_RETURNED ||
            bytes(more) > LIMITS.MAX_COMMENT_MESSAGES_BYTES ||
            bytes(wider) > MAX
        ).toBe(true);
      }
    }

    it('keeps the rule just under the bound, and one byte over it', async () => {
      reply(THREAD.cell, 40);
      const all = stored(THREAD.cell).messages;
      const cell = live().cells[1];
      cell.setSource('');
      const base = bytes(await getComment(services, { threadId: THREAD.cell }));
      // a multi-byte source that brings the whole result to MAX - 1 bytes
      const room = MAX - 1 - base;
      cell.setSource('ü'.repeat(Math.floor(room / 2)) + 'x'.repeat(room % 2));
      const under = await read(THREAD.cell);
      expect(bytes(under)).toBe(MAX - 1);
      expect(under.omittedMessages).toBe(
        (await getComment(services, { threadId: THREAD.cell })).omittedMessages
      );
      expectMessageRule(under, all);
      expect(under.context.cell?.source).toBe(cell.getSource());

      cell.setSource(cell.getSource() + 'xx');
      const over = await read(THREAD.cell);
      expectMessageRule(over, all);
      expect(over.omittedMessages).toBeGreaterThan(under.omittedMessages);
      expect(over.context.cell?.source).toBe(cell.getSource());
    });

    it('keeps the rule with a large source and a long thread', async () => {
      reply(THREAD.cell, 30);
      // under the source bound (25 KiB of UTF-8), whole, but 32,000 bytes
      // of JSON: with the messages at their cap, far over the bound
      const source = 'é\n'.repeat(8000);
      live().cells[1].setSource(source);
      expect(
        bytes(source) + bytes(cappedThread(stored(THREAD.cell)).thread)
      ).toBeGreaterThan(MAX);
      const result = await read(THREAD.cell);
      expectMessageRule(result, stored(THREAD.cell).messages);
      expect(result.context.cell?.source).toBe(source);
      expect(result.context.cell).not.toHaveProperty('sourceTruncated');
    });

    it('drops trailing outputs of the cell before any message', async () => {
      reply(THREAD.output, 30);
      const model = live();
      model.transact(() => {
        (
          model.cells[4] as unknown as {
            setOutputs(outputs: nbformat.IOutput[]): void;
          }
        ).setOutputs(
          Array.from({ length: 10 }, (_, i) => ({
            output_type: 'stream',
            name: 'stdout',
            text: `${i} ` + 'ü'.repeat(4500)
          }))
        );
      });
      const result = await read(THREAD.output);
      const all = stored(THREAD.output).messages;
      expectMessageRule(result, all);
      // the messages take their whole share; the outputs give way
      expect(result.omittedMessages).toBe(
        (await getComment(services, { threadId: THREAD.output }))
          .omittedMessages
      );
      const outputs = result.context.cell!.outputs!;
      expect(outputs.length).toBeGreaterThan(0);
      expect(outputs.length).toBeLessThan(10);
      expect(outputs.map(output => output.text?.slice(0, 2))).toEqual(
        Array.from({ length: outputs.length }, (_, i) => `${i} `)
      );
      expect(result.context.cell!.outputsTruncated).toBe(true);
    });

    it('shortens a source that alone fills the result, keeping the first message', async () => {
      reply(THREAD.cell, 25);
      // quotes take two bytes each in JSON: 50 KiB of JSON in 25 KiB of source
      live().cells[1].setSource('"'.repeat(25 * 1024 - 100));
      const result = await read(THREAD.cell);
      expectMessageRule(result, stored(THREAD.cell).messages);
      expect(result.context.cell!.sourceTruncated).toBe(true);
      expect(result.context.cell!.source).toMatch(/^"+…\[truncated\]$/);
    });
  });

  describe('jupyter_create_comment', () => {
    const create = (anchor: Record<string, unknown>, message = 'A note.') =>
      createComment(services, {
        anchor: anchor as never,
        message
      });

    it('creates a cell thread by the agent, without touching the source', async () => {
      const before = sources(live());
      const call = trace();
      const created = await createComment(
        services,
        {
          anchor: { kind: 'cell', cellId: 'rv-code-4' },
          message: 'Looks right.'
        },
        call
      );
      expect(created.notebookPath).toBe(livePath());
      expect(created.omittedMessages).toBe(0);
      expect(created.counts).toEqual({ openThreads: 4, totalThreads: 5 });
      expect(created.thread).toMatchObject({
        status: 'open',
        anchor: { kind: 'cell', cellId: 'rv-code-4' },
        messages: [{ author: AGENT_AUTHOR, body: 'Looks right.' }]
      });
      expect(store.getThread(live(), created.thread.id)).toEqual(
        created.thread
      );
      expect(sources(live())).toEqual(before);
      expect(call.reports).toEqual([[livePath(), 'rv-code-4', 'editing']]);
    });

    it('anchors to the first occurrence of exact text', async () => {
      const created = await create({
        kind: 'source-range',
        cellId: 'rv-code-4',
        text: 'a + b'
      });
      expect(created.thread.anchor).toMatchObject({
        kind: 'source-range',
        cellId: 'rv-code-4',
        sourceRange: {
          start: { line: 2, column: 4 },
          end: { line: 2, column: 9 }
        },
        selectedText: 'a + b',
        prefix: 'a = 1\nb = 2\nc = ',
        suffix: '\nprint(c)'
      });
      const read = await getComment(services, { threadId: created.thread.id });
      expect(read.anchorStatus).toMatchObject({
        state: 'exact',
        text: 'a + b'
      });
    });

    it('anchors to a selection', async () => {
      const created = await create({
        kind: 'source-range',
        cellId: 'rv-code-1',
        selection: {
          start: { line: 0, column: 0 },
          end: { line: 0, column: 6 }
        }
      });
      expect(created.thread.anchor).toMatchObject({
        sourceRange: {
          start: { line: 0, column: 0 },
          end: { line: 0, column: 6 }
        },
        selectedText: 'values'
      });
    });

    it('anchors to an output, the first by default', async () => {
      const created = await create({ kind: 'output', cellId: 'rv-code-1' });
      expect(created.thread.anchor).toMatchObject({
        kind: 'output',
        cellId: 'rv-code-1',
        outputIndex: 0,
        mimeType: 'text/plain'
      });
      const listed = await listComments(services, {});
      expect(
        listed.threads.find(t => t.threadId === created.thread.id)!.anchor
      ).toMatchObject({ state: 'exact', outputChanged: false });
    });

    it('refuses an anchor that does not fit the cell now', async () => {
      const before = JSON.stringify(live().toJSON());
      expect(
        await failure(
          create({
            kind: 'source-range',
            cellId: 'rv-code-1',
            text: 'len(values)'
          })
        )
      ).toMatchObject({
        error: 'COMMENT_ANCHOR_STALE',
        cellId: 'rv-code-1',
        reason: 'text-not-found'
      });
      for (const selection of [
        { start: { line: 0, column: 3 }, end: { line: 0, column: 3 } },
        { start: { line: 7, column: 0 }, end: { line: 8, column: 1 } },
        { start: { line: 0, column: 0 }, end: { line: 0, column: 99 } }
      ]) {
        expect(
          await failure(
            create({ kind: 'source-range', cellId: 'rv-code-1', selection })
          )
        ).toMatchObject({
          error: 'COMMENT_ANCHOR_STALE',
          reason: 'selection-invalid'
        });
      }
      expect(
        await failure(
          create({ kind: 'output', cellId: 'rv-code-1', outputIndex: 1 })
        )
      ).toEqual({
        error: 'COMMENT_ANCHOR_STALE',
        message:
          'Cell "rv-code-1" has no output 1 (it has 1). Run it first, or attach the comment to the cell.',
        cellId: 'rv-code-1',
        outputIndex: 1,
        outputCount: 1
      });
      expect(
        await failure(create({ kind: 'output', cellId: 'rv-md-1' }))
      ).toMatchObject({ error: 'COMMENT_ANCHOR_STALE', outputCount: 0 });
      expect(JSON.stringify(live().toJSON())).toBe(before);
    });

    it('refuses bad arguments with INVALID_ARGUMENT before reading the notebook', async () => {
      const cases: [
        Record<string, unknown>,
        string,
        Record<string, unknown>
      ][] = [
        [{ kind: 'cell', cellId: 'rv-code-1' }, '  \n', { key: 'message' }],
        [
          { kind: 'cell', cellId: 'rv-code-1' },
          'é'.repeat(4097),
          { key: 'message', bytes: 8194 }
        ],
        [
          { kind: 'source-range', cellId: 'rv-code-1', text: '€'.repeat(1366) },
          'ok',
          { key: 'anchor.text', bytes: 4098 }
        ],
        [
          { kind: 'source-range', cellId: 'rv-code-1' },
          'ok',
          { key: 'anchor' }
        ],
        [
          {
            kind: 'source-range',
            cellId: 'rv-code-1',
            text: 'mean',
            selection: {
              start: { line: 0, column: 0 },
              end: { line: 0, column: 1 }
            }
          },
          'ok',
          { key: 'anchor' }
        ],
        [
          { kind: 'source-range', cellId: 'rv-code-1', text: '' },
          'ok',
          { key: 'anchor.text' }
        ],
        [
          { kind: 'cell', cellId: 'rv-code-1', text: 'mean' },
          'ok',
          { key: 'anchor.text' }
        ],
        [
          {
            kind: 'source-range',
            cellId: 'rv-code-1',
            text: 'm',
            outputIndex: 0
          },
          'ok',
          { key: 'anchor.outputIndex' }
        ]
      ];
      for (const [anchor, message, details] of cases) {
        // even on an unknown cell of an unknown notebook
        for (const notebookPath of [null, 'work/absent.ipynb']) {
          const error = await failure(
            createComment(services, {
              notebookPath,
              anchor: anchor as never,
              message
            })
          );
          expect(error).toMatchObject({
            error: 'INVALID_ARGUMENT',
            ...details
          });
        }
      }
      // exactly at the bounds is accepted
      const atBound = await create(
        { kind: 'cell', cellId: 'rv-code-1' },
        'é'.repeat(4096)
      );
      expect(utf8Length(atBound.thread.messages[0].body)).toBe(8192);
    });

    it('answers CELL_NOT_FOUND for a hidden cell exactly as for an unknown one', async () => {
      for (const kind of ['cell', 'output', 'source-range']) {
        const extra = kind === 'source-range' ? { text: 'secret' } : {};
        const hidden = await failure(
          create({ kind, cellId: 'rv-code-2', ...extra })
        );
        const unknown = await failure(
          create({ kind, cellId: 'rv-code-9', ...extra })
        );
        expect(unknown).toEqual({
          error: 'CELL_NOT_FOUND',
          message: 'No cell with id "rv-code-9" in this notebook.',
          cellId: 'rv-code-9'
        });
        expect(JSON.stringify(hidden).replace(/rv-code-2/g, 'rv-code-9')).toBe(
          JSON.stringify(unknown)
        );
      }
      expect(store.allThreads(live())).toHaveLength(5);
    });

    it('refuses a read-only cell and a read-only notebook', async () => {
      expect(
        await failure(create({ kind: 'cell', cellId: 'rv-code-3' }))
      ).toEqual({
        error: 'CELL_ACCESS_DENIED',
        message:
          'The notebook owner made cell "rv-code-3" read-only for agents; it cannot be changed.',
        cellId: 'rv-code-3',
        access: 'read'
      });
      live().setMetadata(ACCESS_METADATA_KEY, {
        version: 1,
        notebookAccess: 'read'
      });
      expect(
        await failure(create({ kind: 'cell', cellId: 'rv-code-1' }))
      ).toEqual({
        error: 'NOTEBOOK_ACCESS_DENIED',
        message: `The notebook owner made notebook "${livePath()}" read-only for agents; it cannot be changed.`,
        path: livePath(),
        access: 'read'
      });
      expect(store.allThreads(live())).toHaveLength(5);
    });
  });

  describe('jupyter_reply_comment, jupyter_resolve_comment, jupyter_reopen_comment', () => {
    it('replies as the agent, leaving status and anchor alone', async () => {
      const call = trace();
      const replied = await replyComment(
        services,
        { threadId: THREAD.range, message: 'Fixed in the next cell.' },
        call
      );
      expect(replied.thread.status).toBe('open');
      expect(replied.thread.anchor.selectedText).toBe('sum(values) / 2');
      expect(replied.thread.messages.map(m => m.body)).toEqual([
        'This expression is the bug.',
        'Fixed in the next cell.'
      ]);
      expect(replied.thread.messages[1].author).toEqual(AGENT_AUTHOR);
      expect(call.reports).toEqual([[livePath(), 'rv-code-1', 'editing']]);
    });

    it('resolves with and without a closing message, and reopens without one', async () => {
      const resolved = await resolveComment(services, {
        threadId: THREAD.cell,
        resolutionMessage: 'Fixed.'
      });
      expect(resolved.thread.status).toBe('resolved');
      expect(resolved.thread.messages.map(m => m.body)).toEqual([
        'The mean divides by 2, not by len(values).',
        'Suggest: mean = sum(values) / len(values)',
        'Fixed.'
      ]);
      const reopened = await reopenComment(services, { threadId: THREAD.cell });
      expect(reopened.thread.status).toBe('open');
      expect(reopened.thread.messages).toHaveLength(3);
      for (const resolutionMessage of [null, undefined, '   ']) {
        const again = await resolveComment(services, {
          threadId: THREAD.cell,
          resolutionMessage
        });
        expect(again.thread.status).toBe('resolved');
        expect(again.thread.messages).toHaveLength(3);
        await reopenComment(services, { threadId: THREAD.cell });
      }
      expect((await listComments(services, {})).counts).toEqual({
        openThreads: 3,
        totalThreads: 4
      });
    });

    it('works on a thread whose cell is gone', async () => {
      live().deleteCell(1);
      const call = trace();
      const replied = await replyComment(
        services,
        { threadId: THREAD.cell, message: 'The cell was deleted.' },
        call
      );
      expect(replied.thread.messages).toHaveLength(3);
      expect(call.reports).toEqual([]);
    });

    it('answers for a hidden thread exactly what an unknown id gives', async () => {
      const before = JSON.stringify(live().toJSON());
      const writes = [
        (threadId: string) =>
          replyComment(services, { threadId, message: 'hello' }),
        (threadId: string) =>
          resolveComment(services, { threadId, resolutionMessage: 'done' }),
        (threadId: string) => reopenComment(services, { threadId })
      ];
      for (const write of writes) {
        const hidden = await failure(write(THREAD.hidden));
        const unknown = await failure(write(UNKNOWN));
        expect(unknown).toMatchObject({ error: 'COMMENT_NOT_FOUND' });
        expect(JSON.stringify(hidden).split(THREAD.hidden).join(UNKNOWN)).toBe(
          JSON.stringify(unknown)
        );
        expectNoCanary(hidden);
      }
      expect(JSON.stringify(live().toJSON())).toBe(before);
    });

    it('refuses a thread on a read-only cell, and a read-only notebook', async () => {
      const denied = {
        error: 'CELL_ACCESS_DENIED',
        cellId: 'rv-code-3',
        access: 'read'
      };
      const threadId = THREAD.readOnly;
      expect(
        await failure(replyComment(services, { threadId, message: 'hi' }))
      ).toMatchObject(denied);
      expect(
        await failure(resolveComment(services, { threadId }))
      ).toMatchObject(denied);
      expect(
        await failure(reopenComment(services, { threadId }))
      ).toMatchObject(denied);
      live().setMetadata(ACCESS_METADATA_KEY, {
        version: 1,
        notebookAccess: 'read'
      });
      for (const write of [
        replyComment(services, { threadId: THREAD.cell, message: 'hi' }),
        resolveComment(services, { threadId: THREAD.cell }),
        reopenComment(services, { threadId: THREAD.output })
      ]) {
        expect(await failure(write)).toMatchObject({
          error: 'NOTEBOOK_ACCESS_DENIED',
          path: livePath()
        });
      }
      // a notebook read from its file: refused before anything is opened
      const content = fixtureContent();
      content.metadata[ACCESS_METADATA_KEY] = {
        version: 1,
        notebookAccess: 'read'
      };
      files.set('work/read.ipynb', content);
      expect(
        await failure(
          replyComment(services, {
            notebookPath: 'work/read.ipynb',
            threadId: THREAD.cell,
            message: 'hi'
          })
        )
      ).toMatchObject({
        error: 'NOTEBOOK_ACCESS_DENIED',
        path: 'work/read.ipynb'
      });
      expect(store.getThread(live(), THREAD.cell)?.messages).toHaveLength(2);
    });

    it('refuses blank and oversized messages', async () => {
      expect(
        await failure(
          replyComment(services, { threadId: THREAD.cell, message: ' \t' })
        )
      ).toMatchObject({ error: 'INVALID_ARGUMENT', key: 'message' });
      expect(
        await failure(
          replyComment(services, {
            threadId: UNKNOWN,
            message: 'x'.repeat(8193)
          })
        )
      ).toMatchObject({
        error: 'INVALID_ARGUMENT',
        key: 'message',
        bytes: 8193
      });
      expect(
        await failure(
          resolveComment(services, {
            threadId: THREAD.cell,
            resolutionMessage: '😀'.repeat(2049)
          })
        )
      ).toMatchObject({
        error: 'INVALID_ARGUMENT',
        key: 'resolutionMessage',
        bytes: 8196
      });
      expect(store.getThread(live(), THREAD.cell)?.status).toBe('open');
    });
  });

  describe('jupyter_focus_comment', () => {
    it('checks the thread before anything on screen changes', async () => {
      panel.content.activeCellIndex = 0;
      const hidden = await failure(
        focusComment(services, { threadId: THREAD.hidden })
      );
      const unknown = await failure(
        focusComment(services, { threadId: UNKNOWN })
      );
      expect(JSON.stringify(hidden).split(THREAD.hidden).join(UNKNOWN)).toBe(
        JSON.stringify(unknown)
      );
      live().deleteCell(1);
      expect(
        await failure(focusComment(services, { threadId: THREAD.range }))
      ).toEqual({
        error: 'COMMENT_ANCHOR_STALE',
        message: `The cell review thread "${THREAD.range}" is attached to no longer exists; there is nothing to show.`,
        threadId: THREAD.range,
        cellId: 'rv-code-1'
      });
      expect(activated).toEqual([]);
      expect(panel.content.activeCellIndex).toBe(0);
    });

    it('reveals the cell and selects a range that still resolves', async () => {
      panel.content.activeCellIndex = 0;
      const call = trace();
      const focused = await focusComment(
        services,
        { threadId: THREAD.range },
        call
      );
      expect(activated).toEqual([panel.id]);
      expect(focused).toMatchObject({
        notebookPath: livePath(),
        threadId: THREAD.range,
        anchorStatus: { state: 'exact', cellIndex: 1 },
        notebook: { path: livePath(), cellCount: 5 }
      });
      expect(panel.content.activeCell?.model.id).toBe('rv-code-1');
      const editor = panel.content.activeCell!.editor!;
      expect(editor.getSelection()).toMatchObject({
        start: { line: 1, column: 7 },
        end: { line: 1, column: 22 }
      });
      expect(call.reports).toEqual([[livePath(), 'rv-code-1', 'reading']]);
    });

    it('focuses a read-only cell, and an orphaned range without a selection', async () => {
      const onReadOnly = await focusComment(services, {
        threadId: THREAD.readOnly
      });
      expect(onReadOnly.anchorStatus.cellIndex).toBe(3);
      expect(panel.content.activeCell?.model.id).toBe('rv-code-3');
      live().cells[1].setSource('mean = 2');
      const orphaned = await focusComment(services, { threadId: THREAD.range });
      expect(orphaned.anchorStatus.state).toBe('orphaned');
      expect(panel.content.activeCell?.model.id).toBe('rv-code-1');
    });
  });
});
