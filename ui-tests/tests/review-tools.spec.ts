/**
 * The seven comment tools through native WebMCP, on the notebook
 * jupyterlite-webmcp 0.1.1 annotated (ui-tests/fixtures, a copy of
 * tests/fixtures): five threads, one of them on the hidden ("none") cell
 * rv-code-2, one on the read-only cell rv-code-3. The hidden cell's thread
 * never appears and naming it answers exactly what an unknown id answers;
 * anchors are reported as they stand now; the agent's threads are saved in
 * the file; read-only cells and notebooks refuse writes; long threads are
 * capped.
 */
import type { Agent } from '../agent';
import { expect, test } from '../fixtures';
import type { Human } from '../human';
import type { JupyterApp } from '../jupyter';
import type { IToolResult } from '../results';

const FIXTURE = 'annotated-by-0.1.1.ipynb';
/** The hidden cell's thread and source hold these; no answer may. */
const CANARIES = ['CANARY-THREAD-e1c0', 'CANARY-REVIEW-55aa'];
const THREAD = {
  cell: 'a616b942-473a-4cdc-b78e-83a8a8db1b75',
  range: '808743df-5dab-444f-ada4-3295452de0b7',
  output: '3ab1e429-4f47-4726-b862-d45bb5463755',
  hidden: '71b896f7-1cd5-4dae-bddc-4b3efc9493d9',
  readOnly: '70458636-b072-4b04-8f92-4f8805d25810'
};
/** A thread id that never existed, of the same shape as the hidden one. */
const UNKNOWN = '71b896f7-0000-4000-8000-000000000000';
const REVIEW_KEY = 'jupyterlite_webmcp_review';

const TOOLS = [
  'jupyter_get_context',
  'jupyter_save_notebook',
  'jupyter_list_comments',
  'jupyter_get_comment',
  'jupyter_create_comment',
  'jupyter_reply_comment',
  'jupyter_resolve_comment',
  'jupyter_reopen_comment',
  'jupyter_focus_comment'
];

interface IAuthor {
  kind: string;
  name: string;
}

interface IThread {
  id: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  anchor: Record<string, unknown> & { kind: string; cellId: string };
  messages: { id: string; author: IAuthor; createdAt: string; body: string }[];
}

interface ISummary {
  threadId: string;
  status: string;
  messageCount: number;
  anchor: {
    kind: string;
    cellId: string;
    cellIndex: number | null;
    selectedText?: string;
    outputIndex?: number;
    state: string;
    outputChanged?: boolean;
  };
  lastMessage: { author: IAuthor; createdAt: string; body: string } | null;
}

interface IList {
  notebookPath: string;
  counts: { openThreads: number; totalThreads: number };
  threads: ISummary[];
  truncated: boolean;
  omittedCount: number;
}

interface IWhole {
  notebookPath: string;
  thread: IThread;
  omittedMessages: number;
  counts?: { openThreads: number; totalThreads: number };
}

interface IGet extends IWhole {
  anchorStatus: Record<string, unknown>;
  context: { cell?: { id: string; source?: string; outputs?: unknown[] } };
  hiddenCellCount: number;
}

interface IError {
  error: string;
  message: string;
  [key: string]: unknown;
}

const HIDE = { version: 1, access: 'none' };
const READ_ONLY_NOTEBOOK = { version: 1, notebookAccess: 'read' };

/** Opens the fixture for the agent; returns its path. */
async function openFixture(
  jupyter: JupyterApp,
  human: Human,
  agent: Agent
): Promise<string> {
  await jupyter.start();
  const path = await jupyter.addFixture(FIXTURE);
  if (jupyter.ui === 'notebook') {
    await jupyter.open(path, { kernel: false });
  } else {
    await human.openNotebook(path, { kernel: false });
  }
  await agent.waitForTools(TOOLS);
  return path;
}

/** A call that must succeed and leak nothing hidden. */
async function ok<T>(
  agent: Agent,
  tool: string,
  args: Record<string, unknown> = {}
): Promise<T> {
  const result = await agent.call<T>(tool, args);
  expect(result.isError, `${tool}: ${result.text}`).toBe(false);
  expectNoCanary(result);
  return result.structured!;
}

/** A call that must fail; returns its structured error. */
async function fails(
  agent: Agent,
  tool: string,
  args: Record<string, unknown>
): Promise<IError> {
  const result = await agent.call<IError>(tool, args);
  expect(result.isError, `${tool}: ${result.text}`).toBe(true);
  expectNoCanary(result);
  return result.structured!;
}

function expectNoCanary(result: IToolResult): void {
  const text = JSON.stringify({ text: result.text, raw: result.raw });
  for (const canary of CANARIES) {
    expect(text).not.toContain(canary);
  }
  // the hidden cell is never named either
  expect(text).not.toContain('rv-code-2');
}

/**
 * Calls `tool` naming the hidden thread and a thread that never existed:
 * the two answers are the same bytes, but for the id the call named.
 */
async function expectHiddenLikeUnknown(
  agent: Agent,
  tool: string,
  args: Record<string, unknown> = {}
): Promise<void> {
  const hidden = await agent.call(tool, { ...args, threadId: THREAD.hidden });
  const unknown = await agent.call(tool, { ...args, threadId: UNKNOWN });
  expectNoCanary(hidden);
  expect(unknown.isError).toBe(true);
  expect(unknown.structured).toMatchObject({
    error: 'COMMENT_NOT_FOUND',
    threadId: UNKNOWN
  });
  expect(hidden.isError).toBe(true);
  expect(hidden.text!.split(THREAD.hidden).join(UNKNOWN)).toBe(unknown.text);
}

async function list(
  agent: Agent,
  args: Record<string, unknown> = {}
): Promise<IList> {
  return ok<IList>(agent, 'jupyter_list_comments', args);
}

function byId(listed: IList): Record<string, ISummary> {
  return Object.fromEntries(listed.threads.map(t => [t.threadId, t]));
}

test.describe('review comment tools', () => {
  // each test works in its own notebooks: they share one app start-up
  test.use({ shareApp: true });

  test('the 0.1.1 notebook reads exactly: every visible thread with its live anchor, never the hidden one @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    const path = await openFixture(jupyter, human, agent);

    const all = await list(agent, { status: 'all' });
    expect(all).toMatchObject({
      notebookPath: path,
      counts: { openThreads: 3, totalThreads: 4 },
      truncated: false,
      omittedCount: 0
    });
    // newest-created first
    expect(all.threads.map(t => t.threadId)).toEqual([
      THREAD.readOnly,
      THREAD.output,
      THREAD.range,
      THREAD.cell
    ]);
    const threads = byId(all);
    expect(threads[THREAD.cell]).toMatchObject({
      status: 'open',
      messageCount: 2,
      anchor: {
        kind: 'cell',
        cellId: 'rv-code-1',
        cellIndex: 1,
        state: 'exact'
      },
      lastMessage: {
        author: { kind: 'agent', name: 'Browser agent' },
        body: 'Suggest: mean = sum(values) / len(values)'
      }
    });
    expect(threads[THREAD.range].anchor).toEqual({
      kind: 'source-range',
      cellId: 'rv-code-1',
      cellIndex: 1,
      selectedText: 'sum(values) / 2',
      state: 'exact'
    });
    expect(threads[THREAD.output]).toMatchObject({
      status: 'resolved',
      anchor: {
        kind: 'output',
        cellId: 'rv-code-4',
        cellIndex: 4,
        outputIndex: 0,
        state: 'exact',
        outputChanged: false
      }
    });
    expect(threads[THREAD.readOnly].anchor).toMatchObject({
      cellId: 'rv-code-3',
      cellIndex: 3,
      state: 'exact'
    });

    // open by default; the same from the file, by path, and for one status
    const open = await list(agent);
    expect(open.threads.map(t => t.threadId)).toEqual([
      THREAD.readOnly,
      THREAD.range,
      THREAD.cell
    ]);
    const resolved = await list(agent, {
      notebookPath: path,
      status: 'resolved'
    });
    expect(resolved.threads.map(t => t.threadId)).toEqual([THREAD.output]);
    expect(resolved.counts).toEqual({ openThreads: 3, totalThreads: 4 });
    const limited = await list(agent, { status: 'all', limit: 2 });
    expect(limited).toMatchObject({ truncated: true, omittedCount: 2 });
    expect(limited.threads).toHaveLength(2);

    // every visible thread reads whole, with the code it is about
    const range = await ok<IGet>(agent, 'jupyter_get_comment', {
      threadId: THREAD.range
    });
    expect(range).toMatchObject({
      notebookPath: path,
      omittedMessages: 0,
      hiddenCellCount: 0,
      anchorStatus: {
        kind: 'source-range',
        cellId: 'rv-code-1',
        cellExists: true,
        cellIndex: 1,
        state: 'exact',
        range: { start: { line: 1, column: 7 }, end: { line: 1, column: 22 } },
        text: 'sum(values) / 2'
      },
      context: {
        cell: {
          id: 'rv-code-1',
          source: 'values = [3, 4, 5]\nmean = sum(values) / 2\nprint(mean)'
        }
      }
    });
    expect(range.context.cell?.outputs).toBeUndefined();
    expect(range.thread.messages.map(m => m.body)).toEqual([
      'This expression is the bug.'
    ]);
    const output = await ok<IGet>(agent, 'jupyter_get_comment', {
      notebookPath: path,
      threadId: THREAD.output
    });
    expect(output.context.cell?.outputs).toEqual([
      expect.objectContaining({ outputType: 'stream', text: '3\n' })
    ]);
    expect(output.anchorStatus).toMatchObject({ outputChanged: false });
    const readOnly = await ok<IGet>(agent, 'jupyter_get_comment', {
      threadId: THREAD.readOnly
    });
    expect(readOnly.thread.messages[0].body).toBe('Is 10 the right limit?');

    // the hidden thread answers exactly what an unknown one answers
    await expectHiddenLikeUnknown(agent, 'jupyter_get_comment');
    await expectHiddenLikeUnknown(agent, 'jupyter_get_comment', {
      notebookPath: path
    });
    await expectHiddenLikeUnknown(agent, 'jupyter_reply_comment', {
      message: 'hello'
    });
    await expectHiddenLikeUnknown(agent, 'jupyter_resolve_comment', {
      resolutionMessage: 'done'
    });
    await expectHiddenLikeUnknown(agent, 'jupyter_reopen_comment');
    await expectHiddenLikeUnknown(agent, 'jupyter_focus_comment');
    const unknown = await fails(agent, 'jupyter_get_comment', {
      threadId: UNKNOWN
    });
    expect(unknown).toEqual({
      error: 'COMMENT_NOT_FOUND',
      message: `No review thread with id "${UNKNOWN}" in this notebook.`,
      threadId: UNKNOWN
    });

    // none of that changed the hidden thread
    const file = await jupyter.readNotebook(path);
    expect(JSON.stringify(file.metadata[REVIEW_KEY])).toContain(CANARIES[0]);
  });

  test('anchor states are computed live as the human edits @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await openFixture(jupyter, human, agent);
    // the text moves down a line: found again
    await human.setCellSource(
      1,
      '# first\nvalues = [3, 4, 5]\nmean = sum(values) / 2\nprint(mean)'
    );
    let threads = byId(await list(agent, { status: 'all' }));
    expect(threads[THREAD.range].anchor.state).toBe('reanchored');
    const moved = await ok<IGet>(agent, 'jupyter_get_comment', {
      threadId: THREAD.range
    });
    expect(moved.anchorStatus).toMatchObject({
      state: 'reanchored',
      range: { start: { line: 2, column: 7 }, end: { line: 2, column: 22 } }
    });
    // the human fixes the bug: the text is gone
    await human.setCellSource(
      1,
      'values = [3, 4, 5]\nmean = sum(values) / len(values)\nprint(mean)'
    );
    threads = byId(await list(agent, { status: 'all' }));
    expect(threads[THREAD.range].anchor).toMatchObject({
      state: 'orphaned',
      cellIndex: 1
    });
    // the output changes
    await human.setCellOutputs(4, [
      { output_type: 'stream', name: 'stdout', text: '4\n' }
    ]);
    threads = byId(await list(agent, { status: 'all' }));
    expect(threads[THREAD.output].anchor).toMatchObject({
      state: 'exact',
      outputChanged: true
    });
    // the cell is deleted
    await human.deleteCell(4);
    threads = byId(await list(agent, { status: 'all' }));
    expect(threads[THREAD.output].anchor).toMatchObject({
      state: 'cell-missing',
      cellIndex: null
    });
    const gone = await ok<IGet>(agent, 'jupyter_get_comment', {
      threadId: THREAD.output
    });
    expect(gone.context).toEqual({});
  });

  test('threads the agent creates, answers, resolves and reopens are saved in the file @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    const path = await openFixture(jupyter, human, agent);
    const sources = await human.cellSources();

    const onCell = await ok<IWhole>(agent, 'jupyter_create_comment', {
      anchor: { kind: 'cell', cellId: 'rv-code-4' },
      message: 'This cell is fine.'
    });
    expect(onCell).toMatchObject({
      notebookPath: path,
      omittedMessages: 0,
      counts: { openThreads: 4, totalThreads: 5 },
      thread: {
        status: 'open',
        anchor: { kind: 'cell', cellId: 'rv-code-4' },
        messages: [
          {
            author: { kind: 'agent', name: 'Browser agent' },
            body: 'This cell is fine.'
          }
        ]
      }
    });
    const onText = await ok<IWhole>(agent, 'jupyter_create_comment', {
      notebookPath: path,
      anchor: { kind: 'source-range', cellId: 'rv-code-4', text: 'a + b' },
      message: 'Could be `sum((a, b))`.'
    });
    expect(onText.thread.anchor).toMatchObject({
      kind: 'source-range',
      sourceRange: {
        start: { line: 2, column: 4 },
        end: { line: 2, column: 9 }
      },
      selectedText: 'a + b',
      prefix: 'a = 1\nb = 2\nc = ',
      suffix: '\nprint(c)'
    });
    const onSelection = await ok<IWhole>(agent, 'jupyter_create_comment', {
      anchor: {
        kind: 'source-range',
        cellId: 'rv-md-1',
        selection: {
          start: { line: 0, column: 2 },
          end: { line: 0, column: 11 }
        }
      },
      message: 'A better title?'
    });
    expect(onSelection.thread.anchor.selectedText).toBe('Review me');
    const onOutput = await ok<IWhole>(agent, 'jupyter_create_comment', {
      anchor: { kind: 'output', cellId: 'rv-code-1' },
      message: '6.0 is wrong: the mean of 3, 4, 5 is 4.0.'
    });
    expect(onOutput.thread.anchor).toMatchObject({
      kind: 'output',
      outputIndex: 0
    });
    expect(onOutput.counts).toEqual({ openThreads: 7, totalThreads: 8 });

    const replied = await ok<IWhole>(agent, 'jupyter_reply_comment', {
      threadId: THREAD.cell,
      message: 'Still open: the division is unchanged.'
    });
    expect(replied.thread.messages.map(m => m.body)).toEqual([
      'The mean divides by 2, not by len(values).',
      'Suggest: mean = sum(values) / len(values)',
      'Still open: the division is unchanged.'
    ]);
    const resolved = await ok<IWhole>(agent, 'jupyter_resolve_comment', {
      threadId: onCell.thread.id,
      resolutionMessage: 'Nothing to change.'
    });
    expect(resolved.thread.status).toBe('resolved');
    expect(resolved.thread.messages.map(m => m.body)).toEqual([
      'This cell is fine.',
      'Nothing to change.'
    ]);
    const reopened = await ok<IWhole>(agent, 'jupyter_reopen_comment', {
      threadId: THREAD.output
    });
    expect(reopened.thread.status).toBe('open');
    expect(reopened.thread.messages).toHaveLength(2);
    const quiet = await ok<IWhole>(agent, 'jupyter_resolve_comment', {
      threadId: onText.thread.id
    });
    expect(quiet.thread.messages).toHaveLength(1);

    // the human sees the same threads; no cell source changed
    expect(await human.cellSources()).toEqual(sources);
    const listed = await list(agent, { status: 'all' });
    expect(listed.counts).toEqual({ openThreads: 6, totalThreads: 8 });
    expect(listed.threads.slice(0, 4).map(t => t.threadId)).toEqual([
      onOutput.thread.id,
      onSelection.thread.id,
      onText.thread.id,
      onCell.thread.id
    ]);

    // saved in the file, read back from it in a fresh page
    await ok(agent, 'jupyter_save_notebook');
    const file = await jupyter.readNotebook(path);
    const stored = (
      file.metadata[REVIEW_KEY] as unknown as { threads: IThread[] }
    ).threads;
    const storedIds = stored.map(thread => thread.id);
    for (const id of [
      onCell.thread.id,
      onText.thread.id,
      onSelection.thread.id,
      onOutput.thread.id,
      THREAD.hidden
    ]) {
      expect(storedIds).toContain(id);
    }
    expect(stored.find(t => t.id === onCell.thread.id)).toMatchObject({
      status: 'resolved',
      messages: [
        { author: { kind: 'agent', name: 'Browser agent' } },
        { body: 'Nothing to change.' }
      ]
    });
    await jupyter.page.reload();
    await jupyter.waitForApp();
    await agent.waitForTools(TOOLS);
    const reloaded = await list(agent, { notebookPath: path, status: 'all' });
    expect(reloaded.counts).toEqual(listed.counts);
    expect(reloaded.threads.map(t => t.threadId)).toEqual(
      listed.threads.map(t => t.threadId)
    );
    const back = await ok<IGet>(agent, 'jupyter_get_comment', {
      notebookPath: path,
      threadId: THREAD.cell
    });
    expect(back.thread.messages).toHaveLength(3);
    expect(back.thread.messages[2]).toMatchObject({
      author: { kind: 'agent', name: 'Browser agent' },
      body: 'Still open: the division is unchanged.'
    });
  });

  test('create refuses what it cannot anchor, hidden cells read as unknown ones @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    const path = await openFixture(jupyter, human, agent);
    const create = (anchor: Record<string, unknown>, message = 'A note.') =>
      agent.call<IError>('jupyter_create_comment', { anchor, message });

    const invalid: [
      Record<string, unknown>,
      string,
      Record<string, unknown>
    ][] = [
      [{ kind: 'cell', cellId: 'rv-code-1' }, ' \n ', { key: 'message' }],
      [
        { kind: 'cell', cellId: 'rv-code-1' },
        'é'.repeat(4097),
        { key: 'message', bytes: 8194 }
      ],
      [
        { kind: 'source-range', cellId: 'rv-code-1', text: 'x'.repeat(4097) },
        'ok',
        { key: 'anchor.text', bytes: 4097 }
      ],
      [{ kind: 'source-range', cellId: 'rv-code-1' }, 'ok', { key: 'anchor' }]
    ];
    for (const [anchor, message, details] of invalid) {
      const result = await create(anchor, message);
      expect(result.isError).toBe(true);
      expect(result.structured).toMatchObject({
        error: 'INVALID_ARGUMENT',
        ...details
      });
    }
    // the schema: a missing cellId, an unknown kind
    for (const anchor of [
      { kind: 'cell' },
      { kind: 'line', cellId: 'rv-code-1' }
    ]) {
      expect((await create(anchor)).structured).toMatchObject({
        error: 'INVALID_ARGUMENT'
      });
    }

    // stale anchors
    expect(
      await fails(agent, 'jupyter_create_comment', {
        anchor: {
          kind: 'source-range',
          cellId: 'rv-code-1',
          text: 'len(values)'
        },
        message: 'ok'
      })
    ).toMatchObject({ error: 'COMMENT_ANCHOR_STALE', cellId: 'rv-code-1' });
    expect(
      await fails(agent, 'jupyter_create_comment', {
        anchor: {
          kind: 'source-range',
          cellId: 'rv-code-1',
          selection: {
            start: { line: 5, column: 0 },
            end: { line: 6, column: 0 }
          }
        },
        message: 'ok'
      })
    ).toMatchObject({ error: 'COMMENT_ANCHOR_STALE' });
    expect(
      await fails(agent, 'jupyter_create_comment', {
        anchor: { kind: 'output', cellId: 'rv-code-4', outputIndex: 3 },
        message: 'ok'
      })
    ).toMatchObject({
      error: 'COMMENT_ANCHOR_STALE',
      cellId: 'rv-code-4',
      outputIndex: 3,
      outputCount: 1
    });

    // a hidden cell is an unknown cell, whatever the anchor
    for (const extra of [
      { kind: 'cell' },
      { kind: 'output' },
      { kind: 'source-range', text: 'secret_note' }
    ]) {
      const hidden = await create({ ...extra, cellId: 'rv-code-2' });
      const unknown = await create({ ...extra, cellId: 'rv-code-9' });
      expect(unknown.structured).toEqual({
        error: 'CELL_NOT_FOUND',
        message: 'No cell with id "rv-code-9" in this notebook.',
        cellId: 'rv-code-9'
      });
      expect(hidden.isError).toBe(true);
      expect(hidden.text!.split('rv-code-2').join('rv-code-9')).toBe(
        unknown.text
      );
      for (const canary of CANARIES) {
        expect(hidden.text).not.toContain(canary);
      }
    }

    // a read-only cell refuses a comment; nothing was written
    expect(
      await fails(agent, 'jupyter_create_comment', {
        anchor: { kind: 'cell', cellId: 'rv-code-3' },
        message: 'ok'
      })
    ).toEqual({
      error: 'CELL_ACCESS_DENIED',
      message:
        'The notebook owner made cell "rv-code-3" read-only for agents; it cannot be changed.',
      cellId: 'rv-code-3',
      access: 'read'
    });
    const listed = await list(agent, { status: 'all', notebookPath: path });
    expect(listed.counts).toEqual({ openThreads: 3, totalThreads: 4 });
  });

  test('read-only cells and notebooks refuse comment writes but can be read and focused @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    const path = await openFixture(jupyter, human, agent);

    const cellDenied = {
      error: 'CELL_ACCESS_DENIED',
      cellId: 'rv-code-3',
      access: 'read'
    };
    expect(
      await fails(agent, 'jupyter_reply_comment', {
        threadId: THREAD.readOnly,
        message: 'Yes.'
      })
    ).toMatchObject(cellDenied);
    expect(
      await fails(agent, 'jupyter_resolve_comment', {
        threadId: THREAD.readOnly,
        resolutionMessage: 'Yes.'
      })
    ).toMatchObject(cellDenied);
    expect(
      await fails(agent, 'jupyter_reopen_comment', {
        threadId: THREAD.readOnly
      })
    ).toMatchObject(cellDenied);
    await ok(agent, 'jupyter_get_comment', { threadId: THREAD.readOnly });
    const focused = await ok<{ anchorStatus: { cellIndex: number } }>(
      agent,
      'jupyter_focus_comment',
      { threadId: THREAD.readOnly }
    );
    expect(focused.anchorStatus.cellIndex).toBe(3);

    // the owner makes the whole notebook read-only
    await human.setNotebookMetadata('jupyterlite_webmcp', READ_ONLY_NOTEBOOK);
    const notebookDenied = {
      error: 'NOTEBOOK_ACCESS_DENIED',
      message: `The notebook owner made notebook "${path}" read-only for agents; it cannot be changed.`,
      path,
      access: 'read'
    };
    const writes: [string, Record<string, unknown>][] = [
      [
        'jupyter_create_comment',
        { anchor: { kind: 'cell', cellId: 'rv-code-1' }, message: 'ok' }
      ],
      ['jupyter_reply_comment', { threadId: THREAD.cell, message: 'ok' }],
      ['jupyter_resolve_comment', { threadId: THREAD.cell }],
      ['jupyter_reopen_comment', { threadId: THREAD.output }]
    ];
    for (const [tool, args] of writes) {
      expect(await fails(agent, tool, args)).toEqual(notebookDenied);
      expect(await fails(agent, tool, { ...args, notebookPath: path })).toEqual(
        notebookDenied
      );
    }
    // reads and focus still work
    const listed = await list(agent, { status: 'all' });
    expect(listed.counts).toEqual({ openThreads: 3, totalThreads: 4 });
    await ok(agent, 'jupyter_get_comment', { threadId: THREAD.cell });
    await ok(agent, 'jupyter_focus_comment', { threadId: THREAD.range });
    expect(
      (await ok<IGet>(agent, 'jupyter_get_comment', { threadId: THREAD.cell }))
        .thread.messages
    ).toHaveLength(2);
  });

  test('focus shows the thread’s code, and checks before anything moves @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    const path = await openFixture(jupyter, human, agent);
    interface IContext {
      focus: {
        activeCellId: string | null;
        textSelection: { text: string } | null;
      };
    }
    const focus = async () =>
      (await ok<IContext>(agent, 'jupyter_get_context')).focus;

    await human.selectCells(0);
    const focused = await ok<Record<string, unknown>>(
      agent,
      'jupyter_focus_comment',
      { threadId: THREAD.range }
    );
    expect(focused).toMatchObject({
      notebookPath: path,
      threadId: THREAD.range,
      anchorStatus: { state: 'exact', cellIndex: 1 },
      notebook: { path, cellCount: 5 }
    });
    expect(await focus()).toMatchObject({
      activeCellId: 'rv-code-1',
      textSelection: { text: 'sum(values) / 2' }
    });
    await expect(await jupyter.cell(1)).toHaveClass(/jp-mod-active/);

    // an output anchor: its cell, no text selection
    await ok(agent, 'jupyter_focus_comment', { threadId: THREAD.output });
    expect(await focus()).toMatchObject({
      activeCellId: 'rv-code-4',
      textSelection: null
    });

    // a hidden thread and a deleted cell: refused, nothing on screen moves
    await human.selectCells(0);
    await expectHiddenLikeUnknown(agent, 'jupyter_focus_comment');
    await human.deleteCell(4);
    expect(
      await fails(agent, 'jupyter_focus_comment', { threadId: THREAD.output })
    ).toEqual({
      error: 'COMMENT_ANCHOR_STALE',
      message: `The cell review thread "${THREAD.output}" is attached to no longer exists; there is nothing to show.`,
      threadId: THREAD.output,
      cellId: 'rv-code-4'
    });
    expect((await focus()).activeCellId).toBe('rv-md-1');

    // an orphaned range shows its cell without a selection
    await human.setCellSource(1, 'mean = 4.0');
    const orphaned = await ok<{ anchorStatus: { state: string } }>(
      agent,
      'jupyter_focus_comment',
      { threadId: THREAD.range }
    );
    expect(orphaned.anchorStatus.state).toBe('orphaned');
    expect(await focus()).toMatchObject({
      activeCellId: 'rv-code-1',
      textSelection: null
    });
  });

  test('current-cell scope, hidden threads leaving and joining the list, the message cap @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await openFixture(jupyter, human, agent);

    await human.selectCells(1);
    const onCell = await list(agent, { scope: 'current-cell', status: 'all' });
    expect(onCell.threads.map(t => t.threadId)).toEqual([
      THREAD.range,
      THREAD.cell
    ]);
    // a hidden active cell is no active cell to the agent
    await human.selectCells(2);
    expect(
      await fails(agent, 'jupyter_list_comments', { scope: 'current-cell' })
    ).toMatchObject({ error: 'NO_ACTIVE_NOTEBOOK' });

    // the owner hides rv-code-1: its two threads go, and read as unknown
    await human.setCellMetadata(1, 'jupyterlite_webmcp', HIDE);
    const fewer = await list(agent, { status: 'all' });
    expect(fewer.counts).toEqual({ openThreads: 1, totalThreads: 2 });
    const hidden = await agent.call('jupyter_get_comment', {
      threadId: THREAD.cell
    });
    const unknown = await agent.call('jupyter_get_comment', {
      threadId: UNKNOWN
    });
    expect(hidden.text!.split(THREAD.cell).join(UNKNOWN)).toBe(unknown.text);
    await human.setCellMetadata(1, 'jupyterlite_webmcp', {
      version: 1,
      access: 'write'
    });

    // a long thread: the first message and the most recent ones
    for (let i = 1; i <= 24; i++) {
      await ok(agent, 'jupyter_reply_comment', {
        threadId: THREAD.range,
        message: `reply ${i}`
      });
    }
    const long = await ok<IGet>(agent, 'jupyter_get_comment', {
      threadId: THREAD.range
    });
    expect(long.thread.messages).toHaveLength(20);
    expect(long.omittedMessages).toBe(5);
    expect(long.thread.messages.map(m => m.body)).toEqual([
      'This expression is the bug.',
      ...Array.from({ length: 19 }, (_, i) => `reply ${6 + i}`)
    ]);
    const summary = byId(await list(agent))[THREAD.range];
    expect(summary).toMatchObject({
      messageCount: 25,
      lastMessage: { body: 'reply 24' }
    });
    // big messages: about 25 KiB of them
    const big = 'ü'.repeat(4000);
    for (let i = 0; i < 6; i++) {
      await ok(agent, 'jupyter_reply_comment', {
        threadId: THREAD.cell,
        message: `${i}${big}`
      });
    }
    const heavy = await ok<IWhole>(agent, 'jupyter_resolve_comment', {
      threadId: THREAD.cell,
      resolutionMessage: 'All checked.'
    });
    expect(heavy.thread.messages[0].body).toBe(
      'The mean divides by 2, not by len(values).'
    );
    expect(heavy.thread.messages.at(-1)?.body).toBe('All checked.');
    expect(heavy.thread.messages.length).toBeLessThan(9);
    expect(heavy.omittedMessages).toBe(9 - heavy.thread.messages.length);
    expect(
      Buffer.byteLength(JSON.stringify(heavy.thread.messages), 'utf-8')
    ).toBeLessThanOrEqual(25 * 1024);
    // the bodies came back whole, never cut
    for (const message of heavy.thread.messages.slice(1, -1)) {
      expect(message.body.endsWith(big)).toBe(true);
    }
  });
});
