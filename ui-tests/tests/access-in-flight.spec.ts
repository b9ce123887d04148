/**
 * The owner's word and the caller's abort while a call is in flight, through
 * native WebMCP: a run whose notebook the owner hides while its last target
 * runs answers exactly as a hidden notebook would, with nothing about the
 * cells already run; a caller's signal from another realm (an iframe's, as
 * an extension's isolated world hands one) aborts a run as the page's own.
 * (Proposals the owner ends by changing access: propose.spec.ts.)
 */
import type { Page } from '@playwright/test';

import { keepRegisteredTools } from '../agent';
import { expect, test } from '../fixtures';
import { addKernelNotebook } from '../kernel-runs';
import { codeCell as code } from '../notebook-content';
import { toToolResult } from '../results';

const RUN = 'jupyter_run_cells';
const SET_NOTEBOOK_ACCESS = 'jupyterlite-webmcp:set-notebook-access';
const SLOW =
  "import time\nprint('started', flush=True)\ntime.sleep(2)\nprint('done')";

interface IRunResult {
  status: string;
  results: { cellId: string; status: string }[];
}

/** Resolves once cell `index` of the current notebook shows as running. */
async function running(page: Page, index: number): Promise<void> {
  await page.waitForFunction(
    i =>
      (
        window.uiTests.findNotebook(null)?.content.widgets[i]?.model as
          { executionState?: string } | undefined
      )?.executionState === 'running',
    index
  );
}

test('a run in flight: hidden while its last target runs, it answers as a hidden notebook; a foreign signal aborts it @rule', async ({
  jupyter,
  human,
  agent
}) => {
  test.setTimeout(90_000);
  await keepRegisteredTools(jupyter.context);
  await jupyter.start();
  const path = await addKernelNotebook(jupyter, 'in-flight.ipynb', [
    code('one', "print('one')"),
    code('slow', SLOW),
    code('after', "print('after')")
  ]);
  await human.openNotebook(path);
  await agent.waitForTools([RUN]);
  const page = jupyter.page;

  // the registered execute, given an iframe's signal, aborted while the
  // slow cell runs: the cell after it is not run, the call says aborted
  await page.evaluate(() => {
    const frame = document.createElement('iframe');
    document.body.appendChild(frame);
    const realm = frame.contentWindow as unknown as {
      AbortController: typeof AbortController;
    };
    const controller = new realm.AbortController();
    const tools = (
      window as unknown as { uiTestsTools: Map<string, IWebMcpToolDefinition> }
    ).uiTestsTools;
    const raw = Promise.resolve(
      tools
        .get('jupyter_run_cells')!
        .execute({ cellIds: ['slow', 'after'] }, { signal: controller.signal })
    );
    Object.assign(window, { uiTestsForeign: { controller, raw } });
  });
  await running(page, 1);
  const raw = await page.evaluate(() => {
    const held = (
      window as unknown as {
        uiTestsForeign: { controller: AbortController; raw: Promise<unknown> };
      }
    ).uiTestsForeign;
    held.controller.abort();
    return held.raw;
  });
  const aborted = toToolResult<IRunResult>(raw);
  expect(aborted.isError, aborted.text).toBe(false);
  expect(aborted.structured).toMatchObject({
    status: 'aborted',
    results: [{ cellId: 'slow' }, { cellId: 'after', status: 'abort' }]
  });
  expect((await jupyter.cellRuns())[2]).toMatchObject({ outputs: [] });

  // hidden while the last target runs, by path and as the current notebook
  for (const byPath of [true, false]) {
    const args = {
      ...(byPath ? { notebookPath: path } : {}),
      cellIds: ['one', 'slow']
    };
    const pending = await agent.start<IRunResult>(RUN, args);
    await running(page, 1);
    await human.command(SET_NOTEBOOK_ACCESS, { access: 'none' });
    const answer = (await pending.settled()).result!;
    // what the same call answers when it starts on the hidden notebook
    const now = await agent.call(RUN, args);
    expect(answer.isError, answer.text).toBe(true);
    expect(answer.text).toBe(now.text);
    expect(answer.structured).toMatchObject({
      error: byPath ? 'NOTEBOOK_NOT_FOUND' : 'NO_ACTIVE_NOTEBOOK'
    });
    // nothing of the cells already run, nor of the notebook unless named
    for (const secret of ['results', 'slow', 'revision', 'cellCount']) {
      expect(answer.text).not.toContain(secret);
    }
    if (!byPath) {
      expect(answer.text).not.toContain('in-flight');
    }
    await human.command(SET_NOTEBOOK_ACCESS, { access: 'write' });
  }
});
