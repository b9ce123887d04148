/**
 * Reliability row (g), the cases done so far: each fault must end in a
 * closed-set answer or an inline per-cell error, the call must not hang
 * past its own work, and nothing may be lost from the notebook.
 *
 * - a 50 MB output (5 MB in CI) and 10,000-entry / garbage metadata, read
 *   by every tool that reads cells;
 * - the kernel shut down under a running call (@server: through the
 *   server's kernels API, as a killed kernel process looks to the page);
 * - the notebook closed while a call runs in it;
 * - the contents service answering 500, never answering (a timeout), or the
 *   page going offline, while the agent saves (@server: JupyterLite has no
 *   HTTP contents service).
 */
import { expect, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';
import { addKernelNotebook } from '../kernel-runs';
import { codeCell, notebookOf } from '../notebook-content';
import { callMany, envelopeProblem } from '../reliability/calls';
import { recordFigure, scaled, since } from '../reliability/figures';

const OUTPUT_MB = scaled(50, 5);

test('a 50 MB output (5 MB in CI) and huge or garbage metadata: bounded closed-set answers, nothing lost', async ({
  jupyter,
  agent,
  human
}) => {
  test.setTimeout(jupyter.kind === 'lite' ? 300_000 : 180_000);
  await jupyter.open();
  const huge = Object.fromEntries(
    Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])
  );
  const garbage = [
    42,
    'none',
    ['write'],
    { version: 'x', access: 7 },
    { version: 1, access: 'WRITE' },
    null
  ];
  const cells = [
    codeCell('f-big', 'print("big")'),
    codeCell('f-meta', 'x = 1', { metadata: huge }),
    ...garbage.map((value, i) =>
      codeCell(`f-garbage-${i}`, `g = ${i}`, {
        metadata: { jupyterlite_webmcp: value } as never
      })
    )
  ];
  const path = await jupyter.createNotebook('faults.ipynb', notebookOf(cells));
  await human.openNotebook(path, { kernel: false });
  await agent.waitForTools(IMPLEMENTED);
  // the big output arrives in the live model, as a kernel's would
  await jupyter.page.evaluate(() => {
    (window as unknown as { relBig: string }).relBig = 'y'.repeat(
      50 * 1024 * 1024
    );
  });
  await jupyter.page.evaluate(docPath => {
    const text = (window as unknown as { relBig: string }).relBig;
    const cell = window.uiTests.findNotebook(docPath)!.model!.sharedModel
      .cells[0] as unknown as { setOutputs(o: unknown[]): void };
    cell.setOutputs([{ output_type: 'stream', name: 'stdout', text }]);
  }, path);
  const before = await jupyter.page.evaluate(
    docPath =>
      window.uiTests
        .findNotebook(docPath)!
        .model!.sharedModel.cells.map(
          c =>
            `${c.id}:${c.getSource()}:${JSON.stringify(c.getMetadata()).length}`
        ),
    path
  );
  const started = Date.now();
  const calls = [
    {
      tool: 'jupyter_get_cells',
      input: { includeOutputs: true, endIndex: 100 }
    },
    {
      tool: 'jupyter_get_cells',
      input: { cellIds: ['f-big', 'f-meta'], includeOutputs: true }
    },
    { tool: 'jupyter_get_cell_access', input: {} },
    { tool: 'jupyter_export_notebook', input: {} },
    { tool: 'jupyter_get_context', input: {} },
    { tool: 'jupyter_list_comments', input: { status: 'all' } },
    {
      tool: 'jupyter_create_comment',
      input: { anchor: { kind: 'output', cellId: 'f-big' }, message: 'big' }
    },
    {
      tool: 'jupyter_insert_cell',
      input: { referenceCellId: 'f-meta', source: 'after = 1', activate: false }
    }
  ];
  const answers = await callMany(jupyter.page, calls);
  const seconds = since(started);
  const problems = answers
    .map((answer, i) => [calls[i].tool, envelopeProblem(answer)] as const)
    .filter(([, problem]) => problem)
    .map(([tool, problem]) => `${tool}: ${problem}`);
  const after = await jupyter.page.evaluate(
    docPath =>
      window.uiTests
        .findNotebook(docPath)!
        .model!.sharedModel.cells.map(
          c =>
            `${c.id}:${c.getSource()}:${JSON.stringify(c.getMetadata()).length}`
        ),
    path
  );
  // every cell still there, unchanged (the insert adds one)
  const lost = before.filter(cell => !after.includes(cell));
  recordFigure(test.info(), {
    row: 'faults: big output, huge/garbage metadata',
    app: jupyter.kind,
    count: calls.length,
    unit: 'calls',
    failures: problems.length + lost.length,
    seconds,
    notes: `${OUTPUT_MB} MB output; largest answer ${Math.max(...answers.map(a => a.result?.text?.length ?? 0))} chars`
  });
  expect(problems).toEqual([]);
  expect(lost).toEqual([]);
  expect(after.length).toBe(before.length + 1);
});

test('the kernel shut down under a running call: a closed-set or inline answer @server', async ({
  jupyter,
  agent,
  human
}) => {
  await jupyter.open();
  const path = await addKernelNotebook(jupyter, 'killed.ipynb', [
    codeCell(
      'k-long',
      "import time\nprint('started', flush=True)\ntime.sleep(30)\nprint('end')"
    )
  ]);
  await human.openNotebook(path);
  await agent.waitForTools(IMPLEMENTED);
  const kernel = await jupyter.kernel(path);
  const started = Date.now();
  const call = await agent.start('jupyter_run_cells', { cellIds: ['k-long'] });
  await expect
    .poll(async () => (await jupyter.kernel(path))?.status, { timeout: 30_000 })
    .toBe('busy');
  // what a killed kernel process looks like to the page
  const response = await jupyter.page.request.delete(
    `${jupyter.baseURL}/api/kernels/${kernel!.id}`
  );
  expect(response.status()).toBe(204);
  const settled = await call.settled();
  const problem = settled.result
    ? envelopeProblem({ result: settled.result, ms: 0 })
    : `rejected: ${settled.error?.name}`;
  recordFigure(test.info(), {
    row: 'faults: kernel shut down mid-run',
    app: jupyter.kind,
    count: 1,
    unit: 'call',
    failures: problem ? 1 : 0,
    seconds: since(started),
    notes: settled.result?.text?.slice(0, 160)
  });
  expect(problem).toBeNull();
  expect(await human.cellIds({ path })).toEqual(['k-long']);
});

test('the notebook closed while a call runs in it: the call answers @server', async ({
  jupyter,
  agent,
  human
}) => {
  await jupyter.open();
  const path = await addKernelNotebook(jupyter, 'closed.ipynb', [
    codeCell('c-long', "import time\ntime.sleep(3)\nprint('end')")
  ]);
  await human.openNotebook(path);
  await agent.waitForTools(IMPLEMENTED);
  const started = Date.now();
  const call = await agent.start('jupyter_run_cells', { cellIds: ['c-long'] });
  await expect
    .poll(async () => (await jupyter.kernel(path))?.status, { timeout: 30_000 })
    .toBe('busy');
  await jupyter.page.evaluate(async docPath => {
    const panel = window.uiTests.findNotebook(docPath)!;
    await panel.context.save();
    panel.dispose();
  }, path);
  const settled = await call.settled();
  const problem = settled.result
    ? envelopeProblem({ result: settled.result, ms: 0 })
    : `rejected: ${settled.error?.name}`;
  recordFigure(test.info(), {
    row: 'faults: notebook closed mid-call',
    app: jupyter.kind,
    count: 1,
    unit: 'call',
    failures: problem ? 1 : 0,
    seconds: since(started),
    notes: settled.result?.text?.slice(0, 160)
  });
  expect(problem).toBeNull();
  expect((await jupyter.readNotebook(path)).cells.map(c => c.id)).toEqual([
    'c-long'
  ]);
});

test('contents 500, a timeout, offline while the agent saves: closed-set answers, nothing lost @server', async ({
  jupyter,
  agent,
  human
}) => {
  test.setTimeout(180_000);
  await jupyter.open();
  const path = await jupyter.createNotebook(
    'save.ipynb',
    notebookOf([codeCell('s-a', 'a = 1')])
  );
  await human.openNotebook(path, { kernel: false });
  await agent.waitForTools(IMPLEMENTED);
  jupyter.expectConsoleErrorsFor(/./);
  const problems: string[] = [];
  const started = Date.now();
  const cases = ['500', 'timeout', 'offline'] as const;
  for (const fault of cases) {
    await human.setCellSource(0, `a = '${fault}'`);
    const matcher = (url: URL) =>
      url.pathname.endsWith(`/api/contents/${path}`);
    const pending: (() => void)[] = [];
    if (fault === '500') {
      await jupyter.page.route(matcher, route =>
        route.request().method() === 'PUT'
          ? route.fulfill({ status: 500, body: '{"message":"broken"}' })
          : route.fallback()
      );
    } else if (fault === 'timeout') {
      await jupyter.page.route(matcher, route =>
        route.request().method() === 'PUT'
          ? new Promise<void>(resolve =>
              pending.push(() => {
                void route.abort('timedout').finally(resolve);
              })
            )
          : route.fallback()
      );
    } else {
      await jupyter.context.setOffline(true);
    }
    const call = await agent.start('jupyter_save_notebook', {});
    if (fault === 'timeout') {
      // the request hangs for a while, then times out
      await expect.poll(() => pending.length, { timeout: 20_000 }).toBe(1);
      await jupyter.page.waitForTimeout(2000);
      pending.forEach(release => release());
    }
    const settled = await call.settled();
    await jupyter.page.unrouteAll({ behavior: 'ignoreErrors' });
    await jupyter.context.setOffline(false);
    const problem = settled.result
      ? envelopeProblem({ result: settled.result, ms: 0 })
      : `rejected: ${settled.error?.name}`;
    if (problem) {
      problems.push(`${fault}: ${problem}`);
    }
    // nothing lost: the live notebook still holds the edit, and a save now works
    if ((await human.cellSources())[0] !== `a = '${fault}'`) {
      problems.push(`${fault}: the edit is gone from the notebook`);
    }
  }
  const saved = await agent.call('jupyter_save_notebook', {});
  expect(saved.isError, saved.text).toBe(false);
  expect((await jupyter.readNotebook(path)).cells[0].source).toBe(
    "a = 'offline'"
  );
  recordFigure(test.info(), {
    row: 'faults: contents 500 / timeout / offline on save',
    app: jupyter.kind,
    count: cases.length,
    unit: 'calls',
    failures: problems.length,
    seconds: since(started)
  });
  expect(problems).toEqual([]);
});
