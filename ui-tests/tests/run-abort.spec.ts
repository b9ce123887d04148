/**
 * jupyter_run_cells and its AbortSignal, through native WebMCP
 * (`document.modelContext.executeTool` with a signal) and through the CDP
 * WebMCP domain (`WebMCP.cancelInvocation`).
 *
 * A caller that aborts gets an AbortError and never sees the tool's result,
 * so these tests judge the call by what it did to the notebook and the
 * kernel: which cells ran, their outputs and execution counts, and the
 * human's own work left alone. ipykernel (lab, notebook) can interrupt a
 * running cell; Pyodide (lite) cannot, so there the cell runs to completion.
 */
import type { Page } from '@playwright/test';

import { keepRegisteredTools } from '../agent';
import { expect, test } from '../fixtures';
import type { JupyterApp } from '../jupyter';
import {
  addKernelNotebook as addNotebook,
  errorNames as errors,
  executeRequests,
  streamText as stdout
} from '../kernel-runs';
import { codeCell as code } from '../notebook-content';
import { toToolResult } from '../results';

const RUN = 'jupyter_run_cells';

/**
 * Waits until the notebook's kernel takes execute requests again after an
 * interrupt. ipykernel aborts the execute requests that reach it while it
 * is still "aborting the queue" after an error (KeyboardInterrupt included),
 * until a marker message it posts to itself comes through; under load a
 * cell run right after the interrupt can land in that window and come back
 * aborted, whoever runs it. A silent request on a second connection (not
 * counted by `recordKernelMessages`) is repeated until it is answered `ok`.
 */
async function kernelTakesRequestsAgain(jupyter: JupyterApp): Promise<void> {
  await expect
    .poll(
      () =>
        jupyter.page.evaluate(async () => {
          const kernel =
            window.uiTests.findNotebook(null)?.sessionContext.session?.kernel;
          if (!kernel) {
            return 'no kernel';
          }
          const other = kernel.clone();
          try {
            const reply = await other.requestExecute({
              code: '',
              silent: true,
              store_history: false
            }).done;
            return reply.content.status;
          } finally {
            other.dispose();
          }
        }),
      { timeout: 15_000 }
    )
    .toBe('ok');
}

/**
 * Counts the `toolactivated` events of `document.modelContext` from now on.
 * The listener is added once per page and the list starts empty at each
 * call: this file's tests share the worker's page (ui-tests/shared-app.ts),
 * where a second listener would count every event twice.
 */
async function watchActivations(page: Page): Promise<void> {
  await page.evaluate(() => {
    const holder = window as unknown as {
      uiTestsActivations: string[];
      uiTestsActivationsWatched?: boolean;
    };
    holder.uiTestsActivations = [];
    if (holder.uiTestsActivationsWatched) {
      return;
    }
    holder.uiTestsActivationsWatched = true;
    document.modelContext!.addEventListener('toolactivated', event => {
      holder.uiTestsActivations.push(
        (event as Event & { toolName?: string }).toolName ?? ''
      );
    });
  });
}

async function activations(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      (window as unknown as { uiTestsActivations: string[] }).uiTestsActivations
  );
}

/**
 * A `debugInfo` request on the kernel's control channel, as JupyterLab's
 * debugger sends when the human switches to a notebook (ipykernel only).
 */
async function debuggerAsksForInfo(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const kernel =
      window.uiTests.findNotebook(null)?.sessionContext.session?.kernel;
    if (!kernel) {
      throw new Error('no kernel');
    }
    await kernel.requestDebug({
      seq: 0,
      type: 'request',
      command: 'debugInfo'
    }).done;
  });
}

const SLOW =
  "import time\nprint('started', flush=True)\ntime.sleep(5)\nprint('slow done')";

interface ILateAbortRun {
  /** What `execute` returned. */
  raw: unknown;
  /** Whether the signal had fired by then. */
  signalFired: boolean;
}

/**
 * Calls jupyter_run_cells' registered `execute` on `cellIds` of the current
 * notebook with a signal that fires the moment the cell `abortAt` gets its
 * agent "ran" provenance entry: that cell has finished, and the call has not
 * returned yet (it records the run right before it moves on).
 */
async function runAbortingAfterRun(
  page: Page,
  cellIds: string[],
  abortAt: string
): Promise<ILateAbortRun> {
  return page.evaluate(
    async ([ids, at]) => {
      const tools = (
        window as unknown as {
          uiTestsTools: Map<string, IWebMcpToolDefinition>;
        }
      ).uiTestsTools;
      const tool = tools.get('jupyter_run_cells')!;
      const cells = window.uiTests.findNotebook(null)!.content.model!.cells;
      let cell = null;
      for (let i = 0; i < cells.length; i++) {
        if (cells.get(i).id === at) {
          cell = cells.get(i);
        }
      }
      if (!cell) {
        throw new Error(`no cell ${at}`);
      }
      const target = cell;
      const history = () =>
        JSON.stringify(
          (
            target.getMetadata('jupyterlite_webmcp') as
              { history?: { actor: string; action: string }[] } | undefined
          )?.history?.filter(
            entry => entry.actor === 'agent' && entry.action === 'ran'
          ) ?? []
        );
      const before = history();
      const controller = new AbortController();
      const onChange = () => {
        if (history() !== before) {
          controller.abort();
        }
      };
      target.metadataChanged.connect(onChange);
      try {
        const raw: unknown = await tool.execute(
          { cellIds: ids },
          { signal: controller.signal }
        );
        return { raw, signalFired: controller.signal.aborted };
      } finally {
        target.metadataChanged.disconnect(onChange);
      }
    },
    [cellIds, abortAt] as const
  );
}

interface IRunResult {
  status: string;
  results: {
    cellId: string;
    status: string;
    executionCount?: number | null;
  }[];
}

test.describe('jupyter_run_cells: abort', () => {
  // each test works in its own notebook and kernel: they share the worker's
  // app start-up (ui-tests/shared-app.ts)
  test.use({ shareApp: true });

  test('an already-aborted signal: the tool is never called and nothing runs @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'pre-aborted.ipynb', [
      code('target', "print('ran')"),
      code('probe', "print('probe')")
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    const cdp = await agent.cdp();
    await watchActivations(jupyter.page);
    await jupyter.recordKernelMessages();

    const aborted = await agent.start(
      RUN,
      { cellIds: ['target'] },
      { abortFirst: true }
    );
    expect((await aborted.settled()).error?.name).toBe('AbortError');

    // the same watchers do see a call that is made
    const probe = await agent.start(RUN, { cellIds: ['probe'] });
    const settled = await probe.settled();
    expect(settled.result?.isError, settled.result?.text).toBe(false);
    expect(await activations(jupyter.page)).toEqual([RUN]);
    expect(cdp.invoked.map(event => JSON.parse(event.input))).toEqual([
      { cellIds: ['probe'] }
    ]);

    const cells = await jupyter.cellRuns();
    expect(cells[0]).toMatchObject({ executionCount: null, outputs: [] });
    expect(cells[1].executionCount).toBe(1);
    expect(await executeRequests(jupyter)).toBe(1);
  });

  test('an abort while the agent’s own cell runs stops the call; ipykernel interrupts the cell @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'own-cell.ipynb', [
      code('slow', SLOW),
      code('after', "print('after')"),
      code('probe', "print('probe')")
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    await jupyter.recordKernelMessages();

    const call = await agent.start(RUN, { cellIds: ['slow', 'after'] });
    await expect
      .poll(() => stdout(jupyter, 0), { timeout: 30_000 })
      .toContain('started');
    await call.abort();
    expect((await call.settled()).error?.name).toBe('AbortError');

    if (jupyter.kind === 'lite') {
      // Pyodide cannot interrupt a running cell: it runs to completion
      await expect
        .poll(() => stdout(jupyter, 0), { timeout: 30_000 })
        .toBe('started\nslow done\n');
      expect(await errors(jupyter, 0)).toEqual([]);
    } else {
      await expect
        .poll(() => errors(jupyter, 0), { timeout: 15_000 })
        .toEqual(['KeyboardInterrupt']);
      expect(await stdout(jupyter, 0)).toBe('started\n');
    }
    // its reply (and so its execution count) follows its last output
    await expect
      .poll(async () => (await jupyter.cellRuns())[0])
      .toMatchObject({ running: false, executionCount: 1 });

    // the kernel is still usable, and the remaining target never ran
    await kernelTakesRequestsAgain(jupyter);
    const probe = await human.runCell(2);
    expect(probe).toMatchObject({ ok: true, executionCount: 2 });
    expect(await stdout(jupyter, 2)).toBe('probe\n');
    expect((await jupyter.cellRuns())[1]).toMatchObject({
      executionCount: null,
      running: false,
      outputs: []
    });
    expect(await executeRequests(jupyter)).toBe(2);
  });

  test('a caller that cancels through the CDP WebMCP domain stops the call the same way @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'cdp-cancel.ipynb', [
      code('slow', SLOW),
      code('after', "print('after')"),
      code('probe', "print('probe')")
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    await jupyter.recordKernelMessages();

    const canceled = await agent.invokeViaCdp(
      RUN,
      { cellIds: ['slow', 'after'] },
      { cancelAfterMs: 1500 }
    );
    expect(canceled.status).toBe('Canceled');

    // the same interrupt as an abort (JupyterLab only: the caller's path is
    // the browser's; the test above checks what the kernel does on an abort
    // in JupyterLab and JupyterLite)
    await expect
      .poll(() => errors(jupyter, 0), { timeout: 15_000 })
      .toEqual(['KeyboardInterrupt']);
    expect(await stdout(jupyter, 0)).toBe('started\n');
    await kernelTakesRequestsAgain(jupyter);
    const probe = await human.runCell(2);
    expect(probe).toMatchObject({ ok: true, executionCount: 2 });
    expect((await jupyter.cellRuns())[1]).toMatchObject({
      executionCount: null,
      outputs: []
    });
    expect(await executeRequests(jupyter)).toBe(2);
  });

  /**
   * The human starts a 4 s cell; the agent calls jupyter_run_cells on another
   * cell, which must wait; meanwhile the app's debugger queries the kernel
   * (ipykernel); then the agent aborts. The human's cell must run to its end,
   * uninterrupted, and the agent's cell must never be sent.
   */
  test('a call waiting behind the human’s running cell is withdrawn by an abort; the human’s cell is not interrupted @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'behind-human.ipynb', [
      code('warm', "print('warm')"),
      code('human', "import time\ntime.sleep(4)\nprint('human done')"),
      code('agent', "print('agent ran')")
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([RUN]);
    expect(await human.runCell(0)).toMatchObject({
      ok: true,
      executionCount: 1
    });
    await watchActivations(jupyter.page);
    await jupyter.recordKernelMessages();

    await human.startRunCell(1);
    await expect
      .poll(async () => (await jupyter.kernel())?.status, { timeout: 30_000 })
      .toBe('busy');
    const call = await agent.start(RUN, { cellIds: ['agent'] });
    await expect.poll(() => activations(jupyter.page)).toEqual([RUN]);
    // give the call time to reach its wait for the kernel (not observable
    // from outside); the human's cell sleeps 4 s, far longer
    await jupyter.page.waitForTimeout(500);
    if (jupyter.kind !== 'lite') {
      // what JupyterLab's debugger does whenever a cell starts executing: a
      // debugInfo request on the control channel, which ipykernel answers,
      // with busy/idle status messages, while the human's cell still
      // executes. (Pyodide has no debugger, and handles one message at a
      // time: nothing answers there until the human's cell is done.)
      await debuggerAsksForInfo(jupyter.page);
    }
    const before = await jupyter.cellRuns();
    expect(before[1].running).toBe(true);
    // never sent, so never shown as queued
    expect(before[2].running).toBe(false);
    await call.abort();
    expect((await call.settled()).error?.name).toBe('AbortError');

    // the human's cell runs to its end, with its output
    await expect
      .poll(() => stdout(jupyter, 1), { timeout: 30_000 })
      .toBe('human done\n');
    expect(await errors(jupyter, 1)).toEqual([]);
    // its reply (and so its execution count) follows its last output
    await expect
      .poll(async () => (await jupyter.cellRuns())[1])
      .toMatchObject({ running: false, executionCount: 2 });

    // anything queued before this run would have run before it
    expect(await human.runCell(0)).toMatchObject({
      ok: true,
      executionCount: 3
    });
    expect((await jupyter.cellRuns())[2]).toMatchObject({
      executionCount: null,
      running: false,
      outputs: []
    });
    expect(await executeRequests(jupyter)).toBe(2);
  });
  test.describe('with the tools kept from the page load', () => {
    // keepRegisteredTools is an init script: it needs a page of its own
    test.use({ shareApp: false });

    test('an abort after the last cell finished leaves the status the results give; one that skips a cell makes it aborted @backend', async ({
      jupyter,
      human,
      agent
    }) => {
      await keepRegisteredTools(jupyter.context);
      await jupyter.start();
      const path = await addNotebook(jupyter, 'late-abort.ipynb', [
        code('one', "print('one')"),
        code('two', "print('two')"),
        code('three', "print('three')"),
        code('four', "print('four')")
      ]);
      await human.openNotebook(path);
      await agent.waitForTools([RUN]);
      await jupyter.recordKernelMessages();

      // the signal fires once the last cell has run, before the call returns
      const late = await runAbortingAfterRun(
        jupyter.page,
        ['one', 'two'],
        'two'
      );
      expect(late.signalFired).toBe(true);
      const lateResult = toToolResult<IRunResult>(late.raw);
      expect(lateResult.isError, lateResult.text).toBe(false);
      expect(lateResult.structured).toMatchObject({
        status: 'ok',
        results: [
          { cellId: 'one', status: 'ok', executionCount: 1 },
          { cellId: 'two', status: 'ok', executionCount: 2 }
        ]
      });

      // the same signal fired once the first cell has run stops the second
      const early = await runAbortingAfterRun(
        jupyter.page,
        ['three', 'four'],
        'three'
      );
      const earlyResult = toToolResult<IRunResult>(early.raw);
      expect(earlyResult.structured).toMatchObject({
        status: 'aborted',
        results: [
          { cellId: 'three', status: 'ok', executionCount: 3 },
          { cellId: 'four', status: 'abort' }
        ]
      });
      expect((await jupyter.cellRuns())[3]).toMatchObject({
        executionCount: null,
        outputs: []
      });
      expect(await executeRequests(jupyter)).toBe(3);
    });
  });
});
