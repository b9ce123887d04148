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
 *   HTTP contents service);
 * - the notebook renamed, or deleted, through the app's contents manager (the
 *   file browser's call) while a run, a read, an update, a save and a
 *   comment listing are in flight; and the same behind the page's back, by
 *   another process through the server's contents API (@server);
 * - the kernel's process killed with SIGKILL under a running call (@server),
 *   found by its kernel id in `ps`.
 */
import { execFileSync } from 'node:child_process';

import type { WebSocketRoute } from '@playwright/test';

import type { Agent } from '../agent';
import { expect, shareInLab, test } from '../fixtures';
import type { Human } from '../human';
import { IMPLEMENTED } from '../implemented';
import type { JupyterApp } from '../jupyter';
import { addKernelNotebook, streamText } from '../kernel-runs';
import { codeCell, notebookOf } from '../notebook-content';
import {
  type IAnswer,
  type ICall,
  callMany,
  envelopeProblem,
  errorCode
} from '../reliability/calls';
import type { IToolResult } from '../results';
import { recordFigure, scaled, since } from '../reliability/figures';

const OUTPUT_MB = scaled(50, 5);

// the tests that work in their own notebooks, with the page's own requests,
// share the worker's app start-up in JupyterLab (ui-tests/shared-app.ts)
test.use(shareInLab);

test('a 50 MB output (5 MB in CI) and huge or garbage metadata: bounded closed-set answers, nothing lost @rule', async ({
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
  await jupyter.page.evaluate(mb => {
    (window as unknown as { relBig: string }).relBig = 'y'.repeat(
      mb * 1024 * 1024
    );
  }, OUTPUT_MB);
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

test('the kernel shut down under a running call: a closed-set or inline answer @server @backend', async ({
  jupyter,
  agent,
  human
}) => {
  await jupyter.start();
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
  await jupyter.start();
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

test.describe('contents-service faults', () => {
  // it routes the page's requests and takes the context offline: an app of its own
  test.use({ shareApp: false });

  test('contents 500, a timeout, offline while the agent saves: closed-set answers, nothing lost @server @backend', async ({
    jupyter,
    agent,
    human
  }) => {
    test.setTimeout(180_000);
    await jupyter.start();
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
});

/** The agent's calls on a notebook other than its long run. */
function sideCalls(
  notebookPath: string,
  edit: { cellId: string; source: string; hash: string }
): ICall[] {
  return [
    {
      tool: 'jupyter_get_cells',
      input: { notebookPath, includeOutputs: true }
    },
    {
      tool: 'jupyter_update_cell',
      input: {
        notebookPath,
        cellId: edit.cellId,
        source: edit.source,
        expectedSourceHash: edit.hash
      }
    },
    { tool: 'jupyter_save_notebook', input: { notebookPath } },
    { tool: 'jupyter_list_comments', input: { notebookPath, status: 'all' } }
  ];
}

/** The source hash the agent reads for a cell. */
async function hashOf(
  agent: Agent,
  notebookPath: string,
  cellId: string
): Promise<string> {
  const read = await agent.call<{ cells: { sourceHash: string }[] }>(
    'jupyter_get_cells',
    { notebookPath, cellIds: [cellId] }
  );
  expect(read.isError, read.text).toBe(false);
  return read.structured!.cells[0].sourceHash;
}

/** What is wrong with a finished run's answer, or null. */
function runProblem(settled: {
  result?: IToolResult;
  error?: { name: string };
}): string | null {
  if (!settled.result) {
    return `rejected: ${settled.error?.name}`;
  }
  const problem = envelopeProblem({ result: settled.result, ms: 0 });
  if (problem || settled.result.isError) {
    return problem;
  }
  const run = settled.result.structured as {
    status: string;
    results: { status: string }[];
  };
  const inSet = (status: string, set: string[]) => set.includes(status);
  return inSet(run.status, ['ok', 'error', 'aborted']) &&
    run.results.every(r => inSet(r.status, ['ok', 'error', 'abort', 'no-op']))
    ? null
    : `outside the closed set: ${settled.result.text?.slice(0, 300)}`;
}

/** Each answer's tool and what is wrong with it. */
function problemsOf(
  calls: ICall[],
  answers: IAnswer[],
  when: string
): string[] {
  return answers
    .map((answer, i) => [calls[i].tool, envelopeProblem(answer)] as const)
    .filter(([, problem]) => problem)
    .map(([tool, problem]) => `${when}: ${tool}: ${problem}`);
}

/** Codes (or "ok") of answers, one per call, for the figure's notes. */
function codesOf(calls: ICall[], answers: IAnswer[]): string {
  return answers
    .map(
      (a, i) =>
        `${calls[i].tool.replace('jupyter_', '')}=${errorCode(a) ?? 'ok'}`
    )
    .join(' ');
}

const SLEEPER =
  "import time\nprint('started', flush=True)\ntime.sleep(2)\nprint('end')";

/**
 * The scene of the rename and delete cases: a notebook of a sleeping cell, a
 * next cell and a cell to edit (ids `<prefix>-long`, `-next`, `-edit`), open
 * for the person, the agent's edit of the last one ready (its hash read),
 * and the agent's run of the first two under way (the kernel busy).
 */
async function runInFlight(
  {
    jupyter,
    agent,
    human
  }: { jupyter: JupyterApp; agent: Agent; human: Human },
  name: string,
  prefix: string
) {
  await jupyter.start();
  const path = await addKernelNotebook(jupyter, name, [
    codeCell(`${prefix}-long`, SLEEPER),
    codeCell(`${prefix}-next`, "print('next')"),
    codeCell(`${prefix}-edit`, 'e = 1')
  ]);
  await human.openNotebook(path);
  await agent.waitForTools(IMPLEMENTED);
  const edit = {
    cellId: `${prefix}-edit`,
    source: 'e = 2',
    hash: await hashOf(agent, path, `${prefix}-edit`)
  };
  const started = Date.now();
  const run = await agent.start('jupyter_run_cells', {
    notebookPath: path,
    cellIds: [`${prefix}-long`, `${prefix}-next`]
  });
  await expect
    .poll(async () => (await jupyter.kernel(path))?.status, { timeout: 60_000 })
    .toBe('busy');
  return { path, edit, started, run };
}

test('the notebook renamed mid-call, as the file browser does: every call answers, the cells and edits follow it @backend', async ({
  jupyter,
  agent,
  human
}) => {
  test.setTimeout(jupyter.kind === 'lite' ? 300_000 : 180_000);
  const { path, edit, started, run } = await runInFlight(
    { jupyter, agent, human },
    'before.ipynb',
    'm'
  );
  const renamed = jupyter.path('after.ipynb');
  // the agent's other calls, started in the task that renames the notebook
  const during = sideCalls(path, edit);
  const duringAnswers = await callMany(jupyter.page, during, {
    contentsChange: { rename: path, to: renamed }
  });
  // after it: the old path is gone, the new one is the open notebook
  const oldPath = sideCalls(path, { ...edit, source: 'e = 3' });
  const oldAnswers = await callMany(jupyter.page, oldPath);
  const newPath = sideCalls(renamed, {
    ...edit,
    hash: await hashOf(agent, renamed, 'm-edit'),
    source: 'e = 4'
  });
  const newAnswers = await callMany(jupyter.page, newPath);
  const settled = await run.settled();
  const seconds = since(started);
  const problems = [
    ...problemsOf(during, duringAnswers, 'during'),
    ...problemsOf(oldPath, oldAnswers, 'old path'),
    ...problemsOf(newPath, newAnswers, 'new path')
  ];
  const runFault = runProblem(settled);
  if (runFault) {
    problems.push(`run: ${runFault}`);
  }
  // a run that went on through the rename names the notebook where it is now
  const runPath = (
    settled.result?.structured as { notebook?: { path?: string } } | undefined
  )?.notebook?.path;
  if (runPath !== renamed) {
    problems.push(`run: answered the path ${runPath}`);
  }
  // the old path is no notebook any more, unless a save in flight when the
  // rename landed wrote it again (JupyterLab's save keeps the path it began
  // with); the new path is every call's, but a save the rename raced can
  // leave the page's version of the file behind the disk's: that save
  // answers NOTEBOOK_NOT_FOUND "changed-on-disk" and the person decides
  const oldFile = await jupyter.exists(path);
  oldAnswers.forEach((answer, i) => {
    if (!oldFile && errorCode(answer) !== 'NOTEBOOK_NOT_FOUND') {
      problems.push(
        `old path: ${oldPath[i].tool} did not answer NOTEBOOK_NOT_FOUND`
      );
    }
  });
  newAnswers.forEach((answer, i) => {
    const code = errorCode(answer);
    const onDisk =
      (answer.result?.structured as { reason?: string } | undefined)?.reason ===
      'changed-on-disk';
    if (code !== undefined && !(code === 'NOTEBOOK_NOT_FOUND' && onDisk)) {
      problems.push(`new path: ${newPath[i].tool}: ${code}`);
    }
  });
  // the person saves it with the app's own save; if JupyterLab asks about
  // the file on disk, they keep the version open here
  await human.pressInCommandMode(2, 'Control+s', { path: renamed });
  const conflict = jupyter.page
    .getByRole('dialog')
    .filter({ hasText: 'File Changed' });
  // (a read while the server writes the file can find it empty)
  const savedEdit = async () =>
    (await jupyter.readNotebook(renamed).catch(() => null))?.cells[2]?.source;
  // what the page shows when neither comes: the calls' problems so far, any
  // dialog, the live and the saved source of the edited cell
  const scene = async () =>
    JSON.stringify({
      problems,
      dialogs: await jupyter.page.getByRole('dialog').allInnerTexts(),
      live: (await human.cellSources({ path: renamed }).catch(() => []))[2],
      saved: await savedEdit()
    });
  await expect
    .poll(
      async () =>
        (await conflict.isVisible()) || (await savedEdit()) === 'e = 4',
      { message: 'the save asks or writes the edit', timeout: 30_000 }
    )
    .toBe(true)
    .catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await scene()}`);
    });
  const asked = await conflict.isVisible();
  if (asked) {
    await conflict.getByRole('button', { name: 'Overwrite' }).click();
  }
  await expect.poll(savedEdit).toBe('e = 4');
  // nothing lost: the open notebook is the renamed one, every cell in it,
  // the last edit in it and in its saved file, the run's output in it
  const open = await jupyter.page.evaluate(() =>
    window.uiTests.notebookPanels().map(p => p.context.path)
  );
  const ids = await human.cellIds({ path: renamed });
  const sources = await human.cellSources({ path: renamed });
  const saved = await jupyter.readNotebook(renamed);
  const runText = await streamText(jupyter, 0);
  recordFigure(test.info(), {
    row: 'faults: notebook renamed mid-call',
    app: jupyter.kind,
    count: 1 + during.length + oldPath.length + newPath.length,
    unit: 'calls',
    failures: problems.length,
    seconds,
    notes:
      `during the rename: ${codesOf(during, duringAnswers)}; ` +
      `old path afterwards: ${codesOf(oldPath, oldAnswers)}; ` +
      `the old file ${oldFile ? 'written again' : 'gone'}; ` +
      `the person's save ${asked ? 'asked (file changed on disk)' : 'saved'}; run: ` +
      settled.result?.text?.slice(0, 160)
  });
  expect(problems).toEqual([]);
  expect(open).toContain(renamed);
  if (!oldFile) {
    expect(open).not.toContain(path);
  }
  expect(ids).toEqual(['m-long', 'm-next', 'm-edit']);
  expect(sources[2]).toBe('e = 4');
  expect(saved.cells.map(c => c.id)).toEqual(ids);
  expect(saved.cells[2].source).toBe('e = 4');
  expect(runText).toContain('end');
});

test('the notebook deleted mid-call, as the file browser does: every call answers, the open notebook keeps everything, a save writes it again @backend', async ({
  jupyter,
  agent,
  human
}) => {
  test.setTimeout(jupyter.kind === 'lite' ? 300_000 : 180_000);
  const { path, edit, started, run } = await runInFlight(
    { jupyter, agent, human },
    'doomed.ipynb',
    'd'
  );
  const during = sideCalls(path, edit);
  const duringAnswers = await callMany(jupyter.page, during, {
    contentsChange: { delete: path }
  });
  const goneAfter = !(await jupyter.exists(path));
  // the notebook is still open at its path: every call still reaches it,
  // and a save writes the file again (JupyterLab saves a missing file anew)
  const after = sideCalls(path, {
    ...edit,
    hash: await hashOf(agent, path, 'd-edit'),
    source: 'e = 3'
  });
  const afterAnswers = await callMany(jupyter.page, after);
  const settled = await run.settled();
  const seconds = since(started);
  const problems = [
    ...problemsOf(during, duringAnswers, 'during'),
    ...problemsOf(after, afterAnswers, 'after')
  ];
  afterAnswers.forEach((answer, i) => {
    if (errorCode(answer) !== undefined) {
      problems.push(`after: ${after[i].tool}: ${errorCode(answer)}`);
    }
  });
  const runFault = runProblem(settled);
  if (runFault) {
    problems.push(`run: ${runFault}`);
  }
  const ids = await human.cellIds({ path });
  const sources = await human.cellSources({ path });
  const saved = await jupyter.readNotebook(path);
  const runText = await streamText(jupyter, 0);
  recordFigure(test.info(), {
    row: 'faults: notebook deleted mid-call',
    app: jupyter.kind,
    count: 1 + during.length + after.length,
    unit: 'calls',
    failures: problems.length,
    seconds,
    notes:
      `during the delete: ${codesOf(during, duringAnswers)}; the file ` +
      `${goneAfter ? 'gone' : 'written again by the save in flight'}; ` +
      `afterwards: ${codesOf(after, afterAnswers)}; run: ` +
      settled.result?.text?.slice(0, 120)
  });
  expect(problems).toEqual([]);
  expect(ids).toEqual(['d-long', 'd-next', 'd-edit']);
  expect(sources[2]).toBe('e = 3');
  expect(saved.cells.map(c => c.id)).toEqual(ids);
  expect(saved.cells[2].source).toBe('e = 3');
  expect(runText).toContain('end');
});

test.describe('another process', () => {
  // not shared while its failure at stop 40 is not explained (docs/testing.md)
  test.use({ shareApp: false });

  test('the notebook renamed, then deleted, by another process through the server: every call answers, a save writes the open notebook back @server @backend', async ({
    jupyter,
    agent,
    human
  }) => {
    test.setTimeout(180_000);
    await jupyter.start();
    const path = await addKernelNotebook(jupyter, 'elsewhere.ipynb', [
      codeCell('o-long', SLEEPER),
      codeCell('o-edit', 'e = 1')
    ]);
    const moved = jupyter.path('moved.ipynb');
    await human.openNotebook(path);
    await agent.waitForTools(IMPLEMENTED);
    const api = (p: string) => `${jupyter.baseURL}/api/contents/${p}`;
    const problems: string[] = [];
    const notes: string[] = [];
    const started = Date.now();
    const cases = [
      {
        fault: 'renamed',
        act: () =>
          jupyter.page.request.patch(api(path), { data: { path: moved } })
      },
      { fault: 'deleted', act: () => jupyter.page.request.delete(api(path)) }
    ];
    for (const [n, { fault, act }] of cases.entries()) {
      const source = `e = ${n + 2}`;
      const run = await agent.start('jupyter_run_cells', {
        notebookPath: path,
        cellIds: ['o-long']
      });
      await expect
        .poll(async () => (await jupyter.kernel(path))?.status, {
          timeout: 60_000
        })
        .toBe('busy');
      // the page hears nothing of it: the notebook stays open at its path
      const calls = sideCalls(path, {
        cellId: 'o-edit',
        source,
        hash: await hashOf(agent, path, 'o-edit')
      });
      const [answers, response] = await Promise.all([
        callMany(jupyter.page, calls, { concurrent: true }),
        act()
      ]);
      expect(response.ok(), `${fault}: ${response.status()}`).toBe(true);
      const settled = await run.settled();
      problems.push(...problemsOf(calls, answers, fault));
      const runFault = runProblem(settled);
      if (runFault) {
        problems.push(`${fault}: run: ${runFault}`);
      }
      // a save now (the agent's) writes the open notebook at its path again
      const save = await agent.call<{ path: string }>('jupyter_save_notebook', {
        notebookPath: path
      });
      notes.push(
        `${fault}: ${codesOf(calls, answers)}, then save=${save.isError ? save.text : 'ok'}`
      );
      // Unless the save among the calls lost the race inside the server:
      // Jupyter Server writes the file, then reads its checkpoint, which the
      // rename or delete has just moved or removed, and answers 500 (seen
      // in 1 of 17 runs: "Uploading file to …", then FileNotFoundError on
      // .ipynb_checkpoints/elsewhere-checkpoint.ipynb). That save answers
      // NOTEBOOK_NOT_FOUND, and the page never learns of the file it wrote,
      // so this save finds a file changed on disk and leaves it to the
      // person, as for any file changed on disk; the open notebook keeps
      // everything.
      const sideSave =
        answers[calls.findIndex(c => c.tool === 'jupyter_save_notebook')];
      const reason = (save.structured as { reason?: string } | undefined)
        ?.reason;
      if (
        save.isError &&
        reason === 'changed-on-disk' &&
        errorCode(sideSave) === 'NOTEBOOK_NOT_FOUND'
      ) {
        expect(await human.cellIds({ path })).toEqual(['o-long', 'o-edit']);
        continue;
      }
      if (save.isError) {
        problems.push(`${fault}: the save after it: ${save.text}`);
      }
      const saved = await jupyter.readNotebook(path);
      if (
        saved.cells.map(c => c.id).join() !== 'o-long,o-edit' ||
        saved.cells[1].source !== (await human.cellSources({ path }))[1]
      ) {
        problems.push(`${fault}: the saved file is not the open notebook`);
      }
    }
    // the moved copy keeps what was on disk when it moved
    const movedCells = (await jupyter.readNotebook(moved)).cells.map(c => c.id);
    recordFigure(test.info(), {
      row: 'faults: renamed / deleted by another process',
      app: jupyter.kind,
      count: cases.length * 6,
      unit: 'calls',
      failures: problems.length,
      seconds: since(started),
      notes: notes.join('; ')
    });
    expect(problems).toEqual([]);
    expect(await human.cellIds({ path })).toEqual(['o-long', 'o-edit']);
    expect(movedCells).toEqual(['o-long', 'o-edit']);
  });
});

/** A run's first per-cell result, short, for the figure's notes. */
function firstCell(result: IToolResult | undefined): string {
  const cell = (
    result?.structured as { results?: Record<string, unknown>[] } | undefined
  )?.results?.[0];
  if (!cell) {
    return `${result?.text?.slice(0, 160)}`;
  }
  const { status, ename, evalue, outputSummary } = cell;
  return JSON.stringify({ status, ename, evalue, outputSummary }).slice(0, 240);
}

/** The pid of the ipykernel process of kernel `id` (its connection file names it). */
function kernelPid(id: string): number {
  const line = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf-8' })
    .split('\n')
    .find(l => l.includes(`kernel-${id}.json`) && l.includes('ipykernel'));
  if (!line) {
    throw new Error(`no ipykernel process for kernel ${id}`);
  }
  return Number(line.trim().split(/\s+/)[0]);
}

/** Kill kernel `id`'s process and wait until the server has started another. */
async function killKernel(id: string): Promise<void> {
  const pid = kernelPid(id);
  process.kill(pid, 'SIGKILL');
  await expect
    .poll(
      () => {
        try {
          return kernelPid(id) !== pid;
        } catch {
          return false;
        }
      },
      { timeout: 60_000 }
    )
    .toBe(true);
}

/**
 * How a run on a kernel the page may not reach ended: `ok`, the closed-set
 * `KERNEL_UNAVAILABLE`, an inline per-cell error, or what is wrong with it.
 */
function reachOutcome(settled: {
  result?: IToolResult;
  error?: { name: string };
}): { kind: 'ok' | 'unavailable' | 'inline' | 'wrong'; text: string } {
  const problem = runProblem(settled);
  const result = settled.result;
  if (problem || !result) {
    return { kind: 'wrong', text: problem ?? 'no result' };
  }
  if (result.isError) {
    const code = errorCode({ result, ms: 0 });
    return code === 'KERNEL_UNAVAILABLE'
      ? { kind: 'unavailable', text: result.text ?? '' }
      : { kind: 'wrong', text: `${code}: ${result.text}` };
  }
  const run = result.structured as { status: string };
  const kind =
    run.status === 'ok'
      ? 'ok'
      : run.status === 'error' && firstStatus(result) === 'error'
        ? 'inline'
        : 'wrong';
  return { kind, text: firstCell(result) };
}

function firstStatus(result: IToolResult): string | undefined {
  return (result.structured as { results?: { status?: string }[] }).results?.[0]
    ?.status;
}

test.describe('a killed kernel', () => {
  // it routes the context's kernel sockets: an app of its own
  test.use({ shareApp: false });

  test('the kernel process killed by SIGKILL under a running call: an inline answer, no cell lost, a run on a kernel the page cannot reach answers, the next run works @server @backend', async ({
    jupyter,
    agent,
    human
  }) => {
    test.setTimeout(300_000);
    // the page's kernel sockets pass through the test; while `holding`, a
    // new one opens but never reaches the server, as a connection that came
    // back without word from the kernel's new process
    let holding = false;
    const through: WebSocketRoute[] = [];
    await jupyter.page
      .context()
      .routeWebSocket(/\/api\/kernels\/[^/]+\/channels/, ws => {
        if (!holding) {
          ws.connectToServer();
          through.push(ws);
        }
      });
    await jupyter.start();
    const sources = [
      "import time\nprint('started', flush=True)\ntime.sleep(60)\nprint('end')",
      "print('after')"
    ];
    const path = await addKernelNotebook(jupyter, 'sigkill.ipynb', [
      codeCell('x-long', sources[0]),
      codeCell('x-after', sources[1])
    ]);
    await human.openNotebook(path);
    await agent.waitForTools(IMPLEMENTED);
    const kernel = (await jupyter.kernel(path))!;
    const started = Date.now();
    const call = await agent.start('jupyter_run_cells', {
      cellIds: ['x-long']
    });
    await expect
      .poll(async () => (await jupyter.kernel(path))?.status, {
        timeout: 30_000
      })
      .toBe('busy');
    await killKernel(kernel.id);
    const settled = await call.settled();
    const answeredIn = since(started);
    const problem = runProblem(settled);
    const notes = [
      `killed under the run: answered in ${answeredIn.toFixed(1)} s, cell ${firstCell(settled.result)}`
    ];
    const problems = problem ? [`the killed run: ${problem}`] : [];
    let calls = 1;

    /**
     * How the agent's run ended, sent at `sent`: ok, KERNEL_UNAVAILABLE or an
     * inline error, never a wait for ever. When it is not ok, the agent
     * restarts the kernel (`jupyter_kernel_action`) and runs x-after again,
     * which must work.
     */
    const answerThenRecover = async (
      when: string,
      sent: number,
      run: Awaited<ReturnType<typeof agent.start>>
    ) => {
      const first = reachOutcome(await run.settled());
      calls += 1;
      notes.push(
        `${when}: ${first.kind} in ${since(sent).toFixed(1)} s (${first.text.slice(0, 200)})`
      );
      if (first.kind === 'wrong') {
        problems.push(`${when}: ${first.text}`);
      }
      if (first.kind === 'ok') {
        return first.kind;
      }
      holding = false;
      const restart = await agent.call('jupyter_kernel_action', {
        action: 'restart'
      });
      const again = await agent.call<{ status: string }>('jupyter_run_cells', {
        cellIds: ['x-after']
      });
      calls += 2;
      if (restart.isError) {
        problems.push(`${when}: the restart: ${restart.text}`);
      }
      if (again.isError || again.structured?.status !== 'ok') {
        problems.push(`${when}: the run after the restart: ${again.text}`);
      }
      notes.push(
        `${when}: after jupyter_kernel_action restart, ${firstCell(again)}`
      );
      return first.kind;
    };
    const runAfter = async (when: string) => {
      const sent = Date.now();
      const run = await agent.start('jupyter_run_cells', {
        cellIds: ['x-after']
      });
      return answerThenRecover(when, sent, run);
    };

    // 1. at once after the server's restart, the connection left to itself
    const natural = await runAfter('the run after the server restarted it');
    // 2. killed again while the page's new connection cannot reach it: the
    // run must answer (KERNEL_UNAVAILABLE, or its cell an inline error)
    holding = true;
    await killKernel(kernel.id);
    const held = await runAfter('the run while the connection was held');
    if (held === 'ok') {
      problems.push(
        'the run while the connection was held: ok, not unreachable'
      );
    }
    // 3. the connection lost under a running cell, and held: the cell must
    // end with an inline error, not wait for its reply
    const sent = Date.now();
    const long = await agent.start('jupyter_run_cells', {
      cellIds: ['x-long']
    });
    await expect
      .poll(async () => (await jupyter.kernel(path))?.status, {
        timeout: 30_000
      })
      .toBe('busy');
    holding = true;
    // an abnormal close: JupyterLab reconnects, into a held socket
    await Promise.all(
      through.splice(0).map(ws => ws.close({ code: 4000, reason: 'cut' }))
    );
    const cut = await answerThenRecover(
      'the running cell whose connection was cut and held',
      sent,
      long
    );
    if (cut !== 'inline') {
      problems.push(
        `the running cell whose connection was cut and held: ${cut}, not an inline error`
      );
    }
    holding = false;
    recordFigure(test.info(), {
      row: 'faults: kernel process SIGKILLed mid-run',
      app: jupyter.kind,
      count: calls,
      unit: 'calls',
      failures: problems.length,
      seconds: since(started),
      notes: `${notes.join('; ')}; unreachable path hit in the natural case: ${natural !== 'ok'}`
    });
    expect(problems).toEqual([]);
    expect(await streamText(jupyter, 1)).toContain('after');
    expect(await human.cellIds({ path })).toEqual(['x-long', 'x-after']);
    expect(await human.cellSources({ path })).toEqual(sources);
  });
});
