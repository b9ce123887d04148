/**
 * jupyter_kernel_action through native WebMCP: a restart loses every
 * variable, an interrupt stops what the human started (ipykernel; Pyodide
 * cannot stop a running cell), and what is refused: an action other than
 * interrupt/restart, and an interrupt with no kernel.
 */
import type { Agent } from '../agent';
import { expect, test } from '../fixtures';
import type { JupyterApp } from '../jupyter';
import {
  addKernelNotebook as addNotebook,
  errorNames,
  streamText
} from '../kernel-runs';
import { codeCell as code } from '../notebook-content';

const ACTION = 'jupyter_kernel_action';
const RUN = 'jupyter_run_cells';

interface IKernelActionResult {
  action: string;
  notebookPath: string;
  kernel: { name: string | null; displayName?: string; status: string };
  message: string;
}

interface IRunResult {
  status: string;
  results: {
    cellId: string;
    status: string;
    executionCount?: number | null;
    outputSummary: string;
    ename?: string;
    evalue?: string;
  }[];
}

interface IToolError {
  error: string;
  message: string;
  [key: string]: unknown;
}

const KERNEL_STATUSES = [
  'idle',
  'busy',
  'starting',
  'dead',
  'unavailable',
  'unknown'
];

async function kernelAction(agent: Agent, input: Record<string, unknown>) {
  return agent.call<IKernelActionResult & IToolError>(ACTION, input);
}

async function runCells(agent: Agent, cellIds: string[]): Promise<IRunResult> {
  const result = await agent.call<IRunResult>(RUN, { cellIds });
  expect(result.isError, result.text).toBe(false);
  return result.structured!;
}

/** What a cell's run left: its stream text and the names of its errors. */
async function cellOutput(
  jupyter: JupyterApp,
  index: number
): Promise<{ stdout: string; errors: string[] }> {
  return {
    stdout: await streamText(jupyter, index),
    errors: await errorNames(jupyter, index)
  };
}

test.describe('jupyter_kernel_action', () => {
  // each test works in its own notebooks: they share one app start-up
  test.use({ shareApp: true });

  test('restart: every in-memory variable is lost @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'restart.ipynb', [
      code('set', "secret = 41\nprint('set')"),
      code('read', 'print(secret + 1)')
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([ACTION, RUN]);

    const before = await runCells(agent, ['set', 'read']);
    expect(before.status).toBe('ok');
    expect(before.results[1].outputSummary).toBe('42');

    const restarted = await kernelAction(agent, { action: 'restart' });
    expect(restarted.isError, restarted.text).toBe(false);
    const result = restarted.structured!;
    expect(result).toEqual({
      action: 'restart',
      notebookPath: path,
      kernel: expect.objectContaining({ name: expect.any(String) }),
      message: expect.any(String)
    });
    expect(KERNEL_STATUSES).toContain(result.kernel.status);
    expect(result.message).toMatch(/in-memory/i);
    expect(result.message).toMatch(/variable/i);
    expect(result.message).toMatch(/lost/i);

    await expect
      .poll(async () => (await jupyter.kernel())?.status, {
        timeout: jupyter.readyTimeout
      })
      .toBe('idle');
    const after = await runCells(agent, ['read']);
    expect(after.status).toBe('error');
    expect(after.results[0]).toMatchObject({
      cellId: 'read',
      status: 'error',
      // a fresh kernel counts from 1 again
      executionCount: 1
    });
    expect(after.results[0].ename).toMatch(/NameError/);
    expect(after.results[0].evalue).toContain('secret');
  });

  test('interrupt acts on the shared kernel: it stops the human’s running cell (ipykernel) @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    // Pyodide cannot interrupt a running cell: keep its run short there
    const seconds = jupyter.kind === 'lite' ? 4 : 30;
    const path = await addNotebook(jupyter, 'interrupt.ipynb', [
      code(
        'human',
        `import time\nprint('started', flush=True)\ntime.sleep(${seconds})\nprint('human done')`
      ),
      code('probe', "print('probe')")
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([ACTION]);

    await human.startRunCell(0);
    await expect
      .poll(async () => (await cellOutput(jupyter, 0)).stdout, {
        timeout: 30_000
      })
      .toBe('started\n');
    const interrupted = await kernelAction(agent, { action: 'interrupt' });
    expect(interrupted.isError, interrupted.text).toBe(false);
    expect(interrupted.structured).toEqual({
      action: 'interrupt',
      notebookPath: path,
      kernel: expect.objectContaining({ name: expect.any(String) }),
      message: expect.any(String)
    });
    expect(KERNEL_STATUSES).toContain(interrupted.structured!.kernel.status);

    if (jupyter.kind === 'lite') {
      await expect
        .poll(async () => (await cellOutput(jupyter, 0)).stdout, {
          timeout: 30_000
        })
        .toBe('started\nhuman done\n');
    } else {
      // long before the 30 s sleep ends
      await expect
        .poll(async () => (await cellOutput(jupyter, 0)).errors, {
          timeout: 15_000
        })
        .toEqual(['KeyboardInterrupt']);
      expect((await cellOutput(jupyter, 0)).stdout).toBe('started\n');
    }
    // the kernel is still there and usable
    const probe = await human.runCell(1);
    expect(probe).toMatchObject({ ok: true, executionCount: 2 });
  });

  test('refused: an unknown action, a missing one, and an interrupt with no kernel @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addNotebook(jupyter, 'refused.ipynb', [
      code('c', "print('c')")
    ]);
    await human.openNotebook(path);
    await agent.waitForTools([ACTION]);
    const kernel = await jupyter.kernel();
    expect(kernel).not.toBeNull();

    for (const input of [{ action: 'shutdown' }, {}, { action: 'RESTART' }]) {
      const refused = await kernelAction(agent, input);
      expect(refused.isError, JSON.stringify(input)).toBe(true);
      expect(refused.structured).toMatchObject({ error: 'INVALID_ARGUMENT' });
      expect(refused.structured!.message).toMatch(/action/);
    }
    // nothing happened to the kernel
    expect(await jupyter.kernel()).toEqual({ ...kernel, status: 'idle' });

    await human.shutdownKernel();
    expect(await jupyter.kernel()).toBeNull();
    const none = await kernelAction(agent, { action: 'interrupt' });
    expect(none.isError).toBe(true);
    expect(none.structured).toMatchObject({ error: 'KERNEL_UNAVAILABLE' });
    expect(await jupyter.kernel()).toBeNull();
  });
});
