/**
 * jupyter_run_cells through native WebMCP: which cells run, in which order,
 * what each result says (statuses, execution counts, errors, summaries),
 * the selectors that are refused before anything runs, a notebook with no
 * kernel, targets the human deletes or locks while earlier ones run, and the
 * trust of what an agent runs.
 */
import type { Agent } from '../agent';
import { expect, test } from '../fixtures';
import type { JupyterApp } from '../jupyter';
import {
  addKernelNotebook as addNotebook,
  executeRequests,
  streamText as stdout
} from '../kernel-runs';
import {
  codeCell as code,
  markdownCell as markdown
} from '../notebook-content';

const RUN = 'jupyter_run_cells';

interface ICellResult {
  cellId: string;
  index: number;
  status: 'ok' | 'error' | 'abort' | 'no-op';
  executionCount?: number | null;
  outputSummary: string;
  ename?: string;
  evalue?: string;
  traceback?: string;
}

interface IRunResult {
  status: 'ok' | 'error' | 'aborted';
  notebook: { path: string; name: string; cellCount: number };
  results: ICellResult[];
}

interface IToolError {
  error: string;
  message: string;
  [key: string]: unknown;
}

async function run(agent: Agent, input: Record<string, unknown>) {
  return agent.call<IRunResult & IToolError>(RUN, input);
}

/** Runs and expects a result (not an error). */
async function runOk(
  agent: Agent,
  input: Record<string, unknown>
): Promise<IRunResult> {
  const result = await run(agent, input);
  expect(result.isError, result.text).toBe(false);
  return result.structured!;
}

/** Runs and expects the error `code`; returns its structured error. */
async function runFails(
  agent: Agent,
  input: Record<string, unknown>,
  code: string
): Promise<IToolError> {
  const result = await run(agent, input);
  expect(result.isError, `${JSON.stringify(input)}: ${result.text}`).toBe(true);
  expect(result.structured?.error, JSON.stringify(input)).toBe(code);
  return result.structured!;
}

/** What a target that did not run must not carry. */
function expectNotRun(result: ICellResult): void {
  expect(result.executionCount ?? null).toBeNull();
  expect(result.ename).toBeUndefined();
  expect(result.evalue).toBeUndefined();
  expect(result.traceback).toBeUndefined();
}

const ESC = '\u001b';
const CUT = '…[truncated]';
const utf8 = (text: string) => Buffer.byteLength(text, 'utf-8');
const codePoints = (text: string) => [...text].length;
const STOPPED = 'Not run: an earlier cell failed and stopOnError is true.';

test.describe('jupyter_run_cells', () => {
  // each test runs its own notebook: they share one app start-up
  test.use({ shareApp: true });

  test('a range with a failing cell: stopOnError stops there, false runs on @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'range.ipynb', 'run-range.ipynb');
    await human.openNotebook(path);
    await agent.waitForTools([RUN, 'jupyter_get_cells']);
    await jupyter.recordKernelMessages();

    // stopOnError defaults to true
    const stopped = await runOk(agent, { startIndex: 1, endIndex: 7 });
    expect(stopped.status).toBe('error');
    expect(stopped.notebook).toMatchObject({
      path,
      name: 'range.ipynb',
      cellCount: 7
    });
    const [one, two, ...rest] = stopped.results;
    expect(stopped.results.map(r => [r.cellId, r.index, r.status])).toEqual([
      ['one', 1, 'ok'],
      ['two', 2, 'error'],
      ['three', 3, 'abort'],
      ['notes', 4, 'abort'],
      ['empty', 5, 'abort'],
      ['four', 6, 'abort']
    ]);
    expect(one).toEqual({
      cellId: 'one',
      index: 1,
      status: 'ok',
      executionCount: 1,
      outputSummary: 'one'
    });

    // the error, ANSI-stripped and bounded
    expect(two).toMatchObject({ status: 'error', executionCount: 2 });
    expect(two.ename).toMatch(/ValueError/);
    expect(utf8(two.ename!)).toBeLessThanOrEqual(400);
    const evalue = two.evalue!;
    expect(evalue.startsWith(`boom ${'x'.repeat(100)}`)).toBe(true);
    expect(evalue.endsWith(CUT)).toBe(true);
    expect(utf8(evalue)).toBeLessThanOrEqual(10 * 1024);
    const traceback = two.traceback!;
    expect(traceback).toContain('ValueError');
    expect(traceback).not.toContain(ESC);
    expect(traceback.endsWith(CUT)).toBe(true);
    expect(utf8(traceback)).toBeLessThanOrEqual(10 * 1024);
    // a bounded one-line summary: the output, then the error
    const summary = two.outputSummary;
    expect(summary).toMatch(/^two \| error: .*ValueError.*: boom x+/);
    expect(summary).not.toContain(ESC);
    expect(summary).not.toContain('\n');
    expect(summary.endsWith(CUT)).toBe(true);
    expect(codePoints(summary)).toBeLessThanOrEqual(600);
    // the same serializer as jupyter_get_cells
    const read = await agent.call<{
      cells: { outputs: Record<string, unknown>[] }[];
    }>('jupyter_get_cells', { cellIds: ['two'], includeOutputs: true });
    const error = read.structured!.cells[0].outputs.find(
      output => output.outputType === 'error'
    );
    expect({
      ename: two.ename,
      evalue: two.evalue,
      traceback: two.traceback
    }).toEqual({
      ename: error?.ename,
      evalue: error?.evalue,
      traceback: error?.traceback
    });

    for (const result of rest) {
      expect(result.outputSummary).toBe(STOPPED);
      expectNotRun(result);
    }
    let cells = await jupyter.cellRuns();
    for (const index of [3, 5, 6]) {
      expect(cells[index]).toMatchObject({ executionCount: null, outputs: [] });
    }
    expect(await executeRequests(jupyter)).toBe(2);

    // stopOnError: false runs every target; raw and empty cells are no-ops
    const all = await runOk(agent, {
      startIndex: 1,
      endIndex: 7,
      stopOnError: false
    });
    expect(all.status).toBe('error');
    expect(
      all.results.map(r => [r.cellId, r.index, r.status, r.executionCount])
    ).toEqual([
      ['one', 1, 'ok', 3],
      ['two', 2, 'error', 4],
      ['three', 3, 'ok', 5],
      ['notes', 4, 'no-op', undefined],
      ['empty', 5, 'no-op', undefined],
      ['four', 6, 'ok', 6]
    ]);
    expect(all.results[1].ename).toMatch(/ValueError/);
    expect(all.results[2].outputSummary).toBe('three');
    expect(all.results[5].outputSummary).toBe('four');
    cells = await jupyter.cellRuns();
    expect(cells.map(cell => cell.executionCount)).toEqual([
      null,
      3,
      4,
      5,
      null,
      null,
      6
    ]);
    expect(await stdout(jupyter, 6)).toBe('four\n');
    // the raw and the empty cell never reached the kernel
    expect(await executeRequests(jupyter)).toBe(6);
  });

  test('markdown renders, raw and empty code cells are no-ops that never reach the kernel @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'noop.ipynb', 'run-range.ipynb');
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    // the human opens the markdown cell for editing
    await (await jupyter.cell(0)).locator('.jp-MarkdownOutput').dblclick();
    await expect
      .poll(async () => (await jupyter.cellView(0)).rendered)
      .toBe(false);
    await jupyter.recordKernelMessages();

    const result = await runOk(agent, {
      cellIds: ['title', 'notes', 'empty']
    });
    expect(result.status).toBe('ok');
    expect(result.results.map(r => [r.cellId, r.index, r.status])).toEqual([
      ['title', 0, 'no-op'],
      ['notes', 4, 'no-op'],
      ['empty', 5, 'no-op']
    ]);
    result.results.forEach(expectNotRun);
    expect(result.results[1].outputSummary).toMatch(/not (be )?executed/i);
    expect((await jupyter.cellView(0)).rendered).toBe(true);
    expect((await jupyter.cellRuns())[5]).toMatchObject({
      executionCount: null,
      running: false,
      outputs: []
    });
    expect(await jupyter.kernelMessages()).not.toContain('execute_request');
  });

  test('selectors: refused before anything runs, ids in the given order, the active cell @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'select.ipynb', 'run-range.ipynb');
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    await jupyter.recordKernelMessages();

    const invalid: Record<string, unknown>[] = [
      { cellIds: ['one'], startIndex: 1, endIndex: 2 },
      { cellIds: ['one'], startIndex: 1 },
      { startIndex: 1 },
      { endIndex: 2 },
      { startIndex: 3, endIndex: 1 },
      { startIndex: -1, endIndex: 2 },
      { startIndex: 0.5, endIndex: 2 },
      // the schema's maxItems: 101 ids of a cell that exists
      { cellIds: Array<string>(101).fill('one') }
    ];
    for (const input of invalid) {
      await runFails(agent, input, 'INVALID_ARGUMENT');
    }

    // an unknown id fails the call before the known one runs
    const unknown = await runFails(
      agent,
      { cellIds: ['one', 'nope'] },
      'CELL_NOT_FOUND'
    );
    expect(unknown).toMatchObject({ cellId: 'nope' });

    // hidden: by id exactly like an unknown id; in a range, only the index
    const access = (value: string) => ({ version: 1, access: value });
    await human.setCellMetadata(3, 'jupyterlite_webmcp', access('none'));
    const hiddenById = await runFails(
      agent,
      { cellIds: ['one', 'three'] },
      'CELL_NOT_FOUND'
    );
    expect(hiddenById).toEqual({
      ...unknown,
      message: unknown.message.replace('nope', 'three'),
      cellId: 'three'
    });
    const hiddenInRange = await runFails(
      agent,
      { startIndex: 1, endIndex: 5 },
      'CELL_NOT_FOUND'
    );
    expect(hiddenInRange).toEqual({
      error: 'CELL_NOT_FOUND',
      message: expect.any(String),
      index: 3
    });
    expect(JSON.stringify(hiddenInRange)).not.toContain('three');

    // read-only: refused up front, naming the cell
    await human.setCellMetadata(3, 'jupyterlite_webmcp', access('read'));
    const locked = await runFails(
      agent,
      { startIndex: 1, endIndex: 5 },
      'CELL_ACCESS_DENIED'
    );
    expect(locked).toMatchObject({ cellId: 'three', access: 'read' });

    // nothing of the above reached the kernel
    expect(await jupyter.kernelMessages()).not.toContain('execute_request');
    expect((await jupyter.cellRuns()).map(cell => cell.executionCount)).toEqual(
      [null, null, null, null, null, null, null]
    );

    // cellIds run in the order given
    await human.setCellMetadata(3, 'jupyterlite_webmcp', access('write'));
    const ordered = await runOk(agent, { cellIds: ['four', 'one'] });
    expect(ordered).toMatchObject({
      status: 'ok',
      results: [
        { cellId: 'four', index: 6, status: 'ok', executionCount: 1 },
        { cellId: 'one', index: 1, status: 'ok', executionCount: 2 }
      ]
    });

    // no selector: the active cell, and only it
    await human.selectCells(3);
    const active = await runOk(agent, {});
    expect(active).toEqual({
      status: 'ok',
      notebook: expect.objectContaining({ path }),
      results: [
        {
          cellId: 'three',
          index: 3,
          status: 'ok',
          executionCount: 3,
          outputSummary: 'three'
        }
      ]
    });
    expect((await jupyter.cellRuns()).map(cell => cell.executionCount)).toEqual(
      [null, 2, null, 3, null, null, 1]
    );
    expect(await executeRequests(jupyter)).toBe(3);
  });

  test('an empty cellIds list is INVALID_ARGUMENT: it never runs nothing, nor the active cell @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'no-ids.ipynb', 'run-range.ipynb');
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    // the schema the agent reads says it
    const tool = (await agent.tools()).find(t => t.name === RUN)!;
    const schema = tool.inputSchema as {
      properties: Record<string, { minItems?: number }>;
    };
    expect(schema.properties.cellIds.minItems).toBe(1);
    await human.selectCells(1);
    await jupyter.recordKernelMessages();

    const empty = await runFails(agent, { cellIds: [] }, 'INVALID_ARGUMENT');
    expect(empty).toMatchObject({ field: 'cellIds' });
    expect(empty.message).toContain('cellIds');
    expect(await jupyter.kernelMessages()).not.toContain('execute_request');
    expect((await jupyter.cellRuns())[1].executionCount).toBeNull();
  });

  test('a range holds at most 100 cells @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const cells = Array.from({ length: 101 }, (_, i) =>
      code(`c${i}`, `v = ${i}`)
    );
    const path = await addNotebook(jupyter, 'hundred.ipynb', cells);
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    await jupyter.recordKernelMessages();

    const tooMany = await runFails(
      agent,
      { startIndex: 0, endIndex: 101 },
      'INVALID_ARGUMENT'
    );
    expect(tooMany.message).toContain('100');
    expect(await jupyter.kernelMessages()).not.toContain('execute_request');

    const hundred = await runOk(agent, { startIndex: 1, endIndex: 101 });
    expect(hundred.status).toBe('ok');
    expect(hundred.results.map(r => [r.cellId, r.index, r.status])).toEqual(
      Array.from({ length: 100 }, (_, i) => [`c${i + 1}`, i + 1, 'ok'])
    );
    expect(hundred.results.map(r => r.executionCount)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1)
    );
    expect((await jupyter.cellRuns())[0].executionCount).toBeNull();
  });

  test('with no kernel: code cells are KERNEL_UNAVAILABLE, markdown still renders @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'nokernel.ipynb', [
      markdown('m1', '# First'),
      markdown('m2', 'Second'),
      code('c1', "print('never')")
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    await human.shutdownKernel();
    expect(await jupyter.kernel()).toBeNull();

    const byId = await runFails(
      agent,
      { cellIds: ['c1'] },
      'KERNEL_UNAVAILABLE'
    );
    expect(byId.message).toMatch(/kernel/i);
    await runFails(agent, { startIndex: 0, endIndex: 3 }, 'KERNEL_UNAVAILABLE');

    // a notebook of markdown cells only needs no kernel
    await human.deleteCell(2);
    const result = await runOk(agent, { startIndex: 0, endIndex: 2 });
    expect(result).toMatchObject({
      status: 'ok',
      results: [
        { cellId: 'm1', index: 0, status: 'no-op' },
        { cellId: 'm2', index: 1, status: 'no-op' }
      ]
    });
    expect((await jupyter.cellView(0)).rendered).toBe(true);
    // running markdown started no kernel
    expect(await jupyter.kernel()).toBeNull();
  });

  test('with no kernel: an empty code cell is a code cell, KERNEL_UNAVAILABLE too @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'nokernel-empty.ipynb', [
      markdown('m1', '# First'),
      code('blank', ''),
      code('spaces', '  \n')
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    await human.shutdownKernel();
    expect(await jupyter.kernel()).toBeNull();

    for (const input of [
      { cellIds: ['blank'] },
      { cellIds: ['spaces'] },
      { cellIds: ['m1', 'blank'] },
      { startIndex: 0, endIndex: 3 }
    ]) {
      const refused = await runFails(agent, input, 'KERNEL_UNAVAILABLE');
      expect(refused.message).toMatch(/kernel/i);
    }
    // the markdown cell of those calls needs no kernel, alone
    const markdownOnly = await runOk(agent, { cellIds: ['m1'] });
    expect(markdownOnly).toMatchObject({
      status: 'ok',
      results: [{ cellId: 'm1', index: 0, status: 'no-op' }]
    });
    // nothing started a kernel
    expect(await jupyter.kernel()).toBeNull();
  });

  test('targets the human deletes or makes read-only while earlier ones run are skipped @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'changes.ipynb', [
      code(
        'slow',
        "import time\nprint('started', flush=True)\ntime.sleep(3)\nprint('slow done')"
      ),
      code('gone', "print('gone')"),
      code('locked', "print('locked')"),
      code('last', "print('last')")
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    await jupyter.recordKernelMessages();

    const call = run(agent, { cellIds: ['slow', 'gone', 'locked', 'last'] });
    await expect
      .poll(() => stdout(jupyter, 0), { timeout: 30_000 })
      .toContain('started');
    await human.deleteCell(1);
    await human.setCellMetadata(1, 'jupyterlite_webmcp', {
      version: 1,
      access: 'read'
    });
    // the changes landed while the first target was still running
    expect((await jupyter.cellRuns())[0].running).toBe(true);

    const result = await call;
    expect(result.isError, result.text).toBe(false);
    const { status, results } = result.structured!;
    expect(status).toBe('ok');
    expect(results.map(r => [r.cellId, r.index, r.status])).toEqual([
      ['slow', 0, 'ok'],
      ['gone', -1, 'no-op'],
      ['locked', 1, 'no-op'],
      ['last', 2, 'ok']
    ]);
    expect(results[0]).toMatchObject({
      executionCount: 1,
      outputSummary: 'started slow done'
    });
    expectNotRun(results[1]);
    expectNotRun(results[2]);
    expect(results[3]).toMatchObject({
      executionCount: 2,
      outputSummary: 'last'
    });
    expect((await jupyter.cellRuns())[1]).toMatchObject({
      id: 'locked',
      executionCount: null,
      outputs: []
    });
    expect(await executeRequests(jupyter)).toBe(2);
  });

  test('a range target deleted mid-call reads as "" at -1; a notebook made read-only skips the rest @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'range-changes.ipynb', [
      code(
        'slow',
        "import time\nprint('started', flush=True)\ntime.sleep(3)\nprint('slow done')"
      ),
      code('gone', "print('gone')"),
      code('next', "print('next')"),
      code('last', "print('last')")
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    await jupyter.recordKernelMessages();

    const call = run(agent, { startIndex: 0, endIndex: 4 });
    await expect
      .poll(() => stdout(jupyter, 0), { timeout: 30_000 })
      .toContain('started');
    await human.deleteCell(1);
    await human.setNotebookMetadata('jupyterlite_webmcp', {
      version: 1,
      notebookAccess: 'read'
    });
    expect((await jupyter.cellRuns())[0].running).toBe(true);

    const result = await call;
    expect(result.isError, result.text).toBe(false);
    const { status, results } = result.structured!;
    expect(status).toBe('ok');
    expect(results.map(r => [r.cellId, r.index, r.status])).toEqual([
      ['slow', 0, 'ok'],
      ['', -1, 'no-op'],
      ['next', 1, 'no-op'],
      ['last', 2, 'no-op']
    ]);
    results.slice(1).forEach(expectNotRun);
    expect((await jupyter.cellRuns()).map(cell => cell.executionCount)).toEqual(
      [1, null, null]
    );
    expect(await executeRequests(jupyter)).toBe(1);
  });

  test('notebookPath of a notebook that is not open here', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const other = await addNotebook(jupyter, 'other.ipynb', [
      code('o1', "print('other')")
    ]);
    const path = await addNotebook(jupyter, 'here.ipynb', [
      code('h1', "print('here')")
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);

    if (jupyter.ui === 'notebook') {
      // one notebook per tab: another tab's notebook is refused
      const refused = await runFails(
        agent,
        { notebookPath: other, cellIds: ['o1'] },
        'INVALID_ARGUMENT'
      );
      expect(refused).toMatchObject({ path: other, reason: 'other-tab' });
      expect(await jupyter.exists(other)).toBe(true);
      return;
    }
    // JupyterLab opens it in the background and runs it on its kernel
    const result = await run(agent, { notebookPath: other, cellIds: ['o1'] });
    expect(result.isError, result.text).toBe(false);
    expect(result.structured).toEqual({
      status: 'ok',
      notebook: expect.objectContaining({ path: other }),
      results: [
        {
          cellId: 'o1',
          index: 0,
          status: 'ok',
          executionCount: 1,
          outputSummary: 'other'
        }
      ]
    });
    expect((await jupyter.mainArea()).current?.path).toBe(path);
  });
});

test.describe('jupyter_run_cells and trust', () => {
  const SCRIPTED =
    'from IPython.display import HTML\n' +
    'HTML(\'<b id="x">bold</b><script>window.__ranScript = true</script>\')';

  /** Inserts the scripted cell as the agent, runs it, returns its id. */
  async function insertAndRun(
    jupyter: JupyterApp,
    agent: Agent
  ): Promise<string> {
    const inserted = await agent.call<{ cell: { id: string } }>(
      'jupyter_insert_cell',
      { referenceCellId: 'first', position: 'below', source: SCRIPTED }
    );
    expect(inserted.isError, inserted.text).toBe(false);
    const cellId = inserted.structured!.cell.id;
    const result = await runOk(agent, { cellIds: [cellId] });
    expect(result.results).toEqual([
      expect.objectContaining({ cellId, index: 1, status: 'ok' })
    ]);
    return cellId;
  }

  const ranScript = (jupyter: JupyterApp) =>
    jupyter.page.evaluate(
      () => (window as unknown as { __ranScript?: boolean }).__ranScript
    );

  test('an agent run never trusts the cell: its HTML renders sanitized, its script never runs @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'trust.ipynb', [
      code('first', '1 + 1')
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([RUN, 'jupyter_insert_cell']);
    await insertAndRun(jupyter, agent);

    const output = (await jupyter.cell(1)).locator('.jp-OutputArea-output');
    await expect(output).toHaveText('bold');
    expect(await output.locator('script').count()).toBe(0);
    const view = await jupyter.cellView(1);
    expect(view.trusted).toBe(false);
    expect(await ranScript(jupyter)).toBeUndefined();
  });

  test('an agent run leaves no trust behind: saved and reopened, the cell is still untrusted @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'trust-saved.ipynb', [
      code('first', '1 + 1')
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([RUN, 'jupyter_insert_cell']);
    await insertAndRun(jupyter, agent);
    expect((await jupyter.cellView(1)).trusted).toBe(false);

    await human.save();
    const saved = await jupyter.readNotebook(path);
    // nothing in the file marks the agent's cell trusted
    expect.soft(saved.cells[1].metadata.trusted ?? null).not.toBe(true);

    await jupyter.page.reload();
    await jupyter.waitForApp();
    await jupyter.waitForNotebook(path);
    await expect
      .poll(async () => (await jupyter.cellView(1)).outputCount)
      .toBe(1);
    expect.soft((await jupyter.cellView(1)).trusted).toBe(false);
    expect(await ranScript(jupyter)).toBeUndefined();
  });
});
