/**
 * Propose mode for what the agent runs, inserts and deletes, and for kernel
 * actions, through native WebMCP with the human's real clicks and typing:
 * a run waits in one block listing every cell's code and the kernel, and
 * runs on Accept only what was shown (a cell edited during review does not
 * run); Deny runs nothing; an insert exists only once accepted (on Deny
 * nothing is in the notebook or its undo), at the top of an empty notebook;
 * a delete is re-checked on Accept (a human edit wins), and its block
 * follows a moved cell; a denied restart leaves the kernel's variables; a run
 * accepted with "allow again" runs again without review until its code
 * changes. Axe on each kind of block, light and dark, and a screenshot of a
 * run block.
 */
import type { Locator } from '@playwright/test';

import { axeViolations as violations } from '../axe';
import { expect, shareInLab, test } from '../fixtures';
import type { Agent } from '../agent';
import type { Human } from '../human';
import { toToolResult } from '../results';
import type { JupyterApp } from '../jupyter';
import {
  addKernelNotebook,
  executeRequests,
  pythonKernelspec,
  streamText
} from '../kernel-runs';
import { codeCell } from '../notebook-content';

// any console error (beyond the apps' own known noise) fails a test
test.use({ failOnConsoleErrors: true });

const RUN = 'jupyter_run_cells';
const INSERT = 'jupyter_insert_cell';
const DELETE = 'jupyter_delete_cell';
const ACTION = 'jupyter_kernel_action';
const GET = 'jupyter_get_cells';
const TOOLS = [GET, RUN, INSERT, DELETE, ACTION];
const SET_MODE = 'jupyterlite-webmcp:set-propose-mode';

const RUN_BLOCK = 'Agent wants to run code on the kernel';
const INSERT_BLOCK = 'Agent proposes a new cell here';
const DELETE_BLOCK = 'Agent proposes to delete this cell';
const RESTART_BLOCK = 'Agent wants to restart the kernel';
const CHANGED =
  'Not run: its code changed after the notebook owner approved the run. Call jupyter_run_cells again to have the new code reviewed.';

interface ICellResult {
  cellId: string;
  index: number;
  status: 'ok' | 'error' | 'abort' | 'no-op';
  executionCount?: number | null;
  outputSummary: string;
}

interface IRunResult {
  status: string;
  notebook: { path: string };
  results: ICellResult[];
  proposalId?: string;
}

interface ICell {
  id: string;
  source: string;
  sourceHash: string;
}

/**
 * Opens a notebook of `cells` for the app's Python kernel, in Propose mode,
 * with the agent's tools there; `kernel: false` does not wait for the
 * kernel (a test that runs nothing).
 */
async function openInPropose(
  jupyter: JupyterApp,
  human: Human,
  agent: Agent,
  name: string,
  cells: ReturnType<typeof codeCell>[],
  options: { kernel?: boolean; propose?: boolean } = {}
): Promise<string> {
  const kernel = options.kernel ?? true;
  await jupyter.isolateSettings();
  await jupyter.start();
  const path = await addKernelNotebook(jupyter, name, cells);
  if (jupyter.ui === 'notebook') {
    await jupyter.open(path, { kernel });
  } else {
    await human.openNotebook(path, { kernel });
  }
  await agent.waitForTools(TOOLS);
  if (options.propose ?? true) {
    await human.command(SET_MODE, { mode: 'propose' });
  }
  return path;
}

async function hashes(agent: Agent): Promise<Record<string, string>> {
  const read = await agent.call<{ cells: ICell[] }>(GET);
  expect(read.isError, read.text).toBe(false);
  return Object.fromEntries(
    read.structured!.cells.map(cell => [cell.id, cell.sourceHash])
  );
}

/** The block named `name` in cell `index`. */
async function blockIn(
  jupyter: JupyterApp,
  index: number,
  name: string
): Promise<Locator> {
  return (await jupyter.cell(index)).getByRole('region', { name });
}

/** The execution counts every cell shows. */
async function counts(jupyter: JupyterApp): Promise<(number | null)[]> {
  return (await jupyter.cellRuns()).map(cell => cell.executionCount);
}

/** Types at the end of a cell's editor, as the person does. */
async function typeAtEnd(
  jupyter: JupyterApp,
  index: number,
  text: string
): Promise<void> {
  const editor = (await jupyter.cell(index)).locator(
    '.jp-InputArea-editor .cm-content'
  );
  await editor.click();
  await jupyter.page.keyboard.press('Control+End');
  await jupyter.page.keyboard.type(text);
}

test.describe('Propose mode: runs, inserts, deletes, kernel actions', () => {
  // each test works in its own notebooks, so in JupyterLab they share the
  // worker's app start-up (ui-tests/shared-app.ts); the run-block
  // screenshot's theme switch puts JupyterLab Light back before it goes on.
  // In JupyterLab only (shareInLab, docs/testing.md); none of these tests
  // runs in JupyterLite any more
  test.use(shareInLab);
  test('a run approved: one block lists every cell and the kernel, Accept runs them @rule', async ({
    jupyter,
    human,
    agent
  }, testInfo) => {
    await openInPropose(jupyter, human, agent, 'run-ok.ipynb', [
      codeCell('a', 'x = 40'),
      codeCell('b', 'print(x + 2)')
    ]);
    const pending = await agent.start<IRunResult>(RUN, {
      cellIds: ['a', 'b']
    });
    const block = await blockIn(jupyter, 0, RUN_BLOCK);
    await expect(block).toBeVisible();
    await expect(block).toBeFocused();
    await expect(block).toHaveAttribute('data-proposal-kind', 'run');
    await expect(block).toContainText(
      `Kernel: ${pythonKernelspec(jupyter).display_name}`
    );
    await expect(block.locator('li pre')).toHaveText([
      'x = 40',
      'print(x + 2)'
    ]);
    // under the first cell's input; the second cell is noted and marked
    await expect(
      (await jupyter.cell(0)).locator(
        '.jp-Cell-inputWrapper + .jp-ProposalBlock'
      )
    ).toHaveCount(1);
    const second = await jupyter.cell(1);
    await expect(second).toHaveClass(/jp-mod-proposedRun/);
    await expect(second.getByRole('note')).toContainText(
      "Cell 2 of 2 of the agent's run proposal"
    );
    // nothing ran yet
    expect(await counts(jupyter)).toEqual([null, null]);
    if (testInfo.project.name === 'lab') {
      const page = jupyter.page;
      const themeApplied = async (light: boolean) => {
        await expect(page.locator('body')).toHaveAttribute(
          'data-jp-theme-light',
          String(light)
        );
        await expect(page.locator('#jupyterlab-splash')).toHaveCount(0);
      };
      await expect(block).toHaveScreenshot('run-block-light.png');
      await human.command('apputils:change-theme', {
        theme: 'JupyterLab Dark'
      });
      await themeApplied(false);
      await expect(block).toHaveScreenshot('run-block-dark.png');
      await human.command('apputils:change-theme', {
        theme: 'JupyterLab Light'
      });
      await themeApplied(true);
    }

    await block.getByRole('button', { name: 'Run it', exact: true }).click();
    const settled = (await pending.settled()).result!;
    expect(settled.isError, settled.text).toBe(false);
    const result = settled.structured!;
    expect(result).toMatchObject({
      status: 'ok',
      proposalId: expect.any(String),
      results: [
        { cellId: 'a', index: 0, status: 'ok', executionCount: 1 },
        {
          cellId: 'b',
          index: 1,
          status: 'ok',
          executionCount: 2,
          outputSummary: '42'
        }
      ]
    });
    await expect(block).toHaveCount(0);
    await expect(second).not.toHaveClass(/jp-mod-proposedRun/);
    await expect(second.getByRole('note')).toHaveCount(0);
    expect(await streamText(jupyter, 1)).toBe('42\n');
  });

  test('a run denied with a reason: nothing reaches the kernel @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await openInPropose(
      jupyter,
      human,
      agent,
      'run-denied.ipynb',
      [codeCell('a', 'x = 1'), codeCell('b', 'y = x + 1'), codeCell('c', '0')],
      { propose: false }
    );
    // the human ran a cell first: the kernel's count is 1
    expect(await human.runCell(2)).toMatchObject({ executionCount: 1 });
    await human.command(SET_MODE, { mode: 'propose' });
    await jupyter.recordKernelMessages();
    const pending = await agent.start(RUN, { cellIds: ['a', 'b'] });
    const block = await blockIn(jupyter, 0, RUN_BLOCK);
    await expect(block).toBeFocused();
    await block.getByRole('textbox').click();
    await jupyter.page.keyboard.type('not on my kernel');
    await block.getByRole('button', { name: 'Deny' }).click();
    const denied = (await pending.settled()).result!;
    expect(denied.isError, denied.text).toBe(false);
    expect(denied.structured).toEqual({
      status: 'denied',
      code: 'PROPOSAL_DENIED',
      proposalId: expect.any(String),
      cellIds: ['a', 'b'],
      reason: 'not on my kernel'
    });
    await expect(block).toHaveCount(0);
    expect(await executeRequests(jupyter)).toBe(0);
    expect(await counts(jupyter)).toEqual([null, null, 1]);
    // the next run is the kernel's second
    expect(await human.runCell(0)).toMatchObject({ executionCount: 2 });
  });

  test('a target the human edits during review does not run on that approval @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await openInPropose(jupyter, human, agent, 'run-edited.ipynb', [
      codeCell('a', "print('a')"),
      codeCell('b', "print('b')")
    ]);
    const pending = await agent.start<IRunResult>(RUN, {
      cellIds: ['a', 'b']
    });
    const block = await blockIn(jupyter, 0, RUN_BLOCK);
    await expect(block).toBeVisible();
    await typeAtEnd(jupyter, 1, "\nprint('mine')");
    await expect
      .poll(async () => (await human.cellSources())[1])
      .toBe("print('b')\nprint('mine')");
    // what was shown stays shown
    await expect(block.locator('li pre')).toHaveText([
      "print('a')",
      "print('b')"
    ]);
    await block.getByRole('button', { name: 'Run it', exact: true }).click();
    const result = (await pending.settled()).result!;
    expect(result.isError, result.text).toBe(false);
    const [a, b] = result.structured!.results;
    expect(a).toMatchObject({ cellId: 'a', status: 'ok', executionCount: 1 });
    expect(b).toMatchObject({
      cellId: 'b',
      status: 'no-op',
      outputSummary: CHANGED
    });
    expect(b.executionCount ?? null).toBeNull();
    expect(await counts(jupyter)).toEqual([1, null]);
    expect(await streamText(jupyter, 1)).toBe('');
  });

  test('an insert denied leaves nothing, not even an undo step; one accepted lands where it was shown @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await openInPropose(jupyter, human, agent, 'insert.ipynb', [
      codeCell('a', 'x = 1'),
      codeCell('b', 'y = 2')
    ]);
    const page = jupyter.page;
    // the notebook's undo history (what z in command mode undoes), once the
    // kernel has written what it writes into the notebook on start
    const undoSteps = () =>
      page.evaluate(
        () =>
          (
            window.uiTests.findNotebook(null)!.content.model!
              .sharedModel as unknown as {
              undoManager: { undoStack: unknown[] } | null;
            }
          ).undoManager?.undoStack.length ?? 0
      );
    const before = await undoSteps();

    // above the first cell: the block sits before the cell's content
    const denied = await agent.start(INSERT, {
      referenceCellId: 'a',
      position: 'above',
      cellType: 'markdown',
      source: '# Never'
    });
    const above = await blockIn(jupyter, 0, INSERT_BLOCK);
    await expect(above).toBeFocused();
    await expect(above).toContainText('A new Markdown cell, above this cell.');
    await expect(above.locator('pre')).toHaveText('# Never');
    const cellA = await jupyter.cell(0);
    await expect(
      cellA.locator('.jp-ProposalBlock ~ .jp-Cell-inputWrapper')
    ).toHaveCount(1);
    await above.getByRole('button', { name: 'Deny' }).click();
    expect((await denied.settled()).result!.structured).toEqual({
      status: 'denied',
      code: 'PROPOSAL_DENIED',
      proposalId: expect.any(String),
      cellId: null,
      reason: null
    });
    await expect(above).toHaveCount(0);
    expect(await human.cellSources()).toEqual(['x = 1', 'y = 2']);
    expect(await undoSteps()).toBe(before);
    // the notebook's undo (z in command mode) brings nothing of it back
    await human.pressInCommandMode(1, 'z');
    expect(await human.cellSources()).toEqual(['x = 1', 'y = 2']);
    // (z may undo an earlier step of the notebook, such as its mode)
    await human.command(SET_MODE, { mode: 'propose' });

    // below the last cell: the block after its outputs; Accept inserts it
    const accepted = await agent.start<{
      status: string;
      proposalId: string;
      cell: ICell;
    }>(INSERT, { referenceCellId: 'b', position: 'below', source: 'z = 3' });
    const below = await blockIn(jupyter, 1, INSERT_BLOCK);
    await expect(below).toBeFocused();
    await expect(below).toContainText('A new code cell, below this cell.');
    await expect(
      (await jupyter.cell(1)).locator(
        '.jp-Cell-inputWrapper ~ .jp-ProposalBlock:last-child'
      )
    ).toHaveCount(1);
    expect(await human.cellSources()).toEqual(['x = 1', 'y = 2']);
    await below.getByRole('button', { name: 'Accept' }).click();
    const result = (await accepted.settled()).result!;
    expect(result.isError, result.text).toBe(false);
    expect(result.structured).toMatchObject({
      status: 'accepted',
      proposalId: expect.any(String),
      cell: { source: 'z = 3' }
    });
    await expect(below).toHaveCount(0);
    expect(await human.cellSources()).toEqual(['x = 1', 'y = 2', 'z = 3']);
    expect((await human.cellIds())[2]).toBe(result.structured!.cell.id);
  });

  test('an insert into an empty notebook shows at the top of the notebook @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await openInPropose(
      jupyter,
      human,
      agent,
      'empty.ipynb',
      [codeCell('only', '')],
      { kernel: false }
    );
    // A notebook open in a view is never empty for long: the notebook
    // widget adds a default cell one frame after its last cell goes (and
    // to one saved with none). Here the frame callbacks queued by deleting
    // the last cell are held until the agent's insert has staged its
    // proposal: the agent's call reaches the notebook while it is empty.
    const page = jupyter.page;
    await page.evaluate(async tool => {
      const context = document.modelContext!;
      const insert = (await context.getTools()).find(t => t.name === tool)!;
      const raf = window.requestAnimationFrame;
      const held: FrameRequestCallback[] = [];
      window.requestAnimationFrame = callback => {
        held.push(callback);
        return 0;
      };
      try {
        window.uiTests
          .findNotebook(null)!
          .content.model!.sharedModel.deleteCell(0);
      } finally {
        window.requestAnimationFrame = raf;
      }
      (window as unknown as { emptyInsert: Promise<unknown> }).emptyInsert =
        context.executeTool(insert, { source: 'first = 1' });
      const deadline = performance.now() + 10_000;
      while (
        !document.querySelector('.jp-ProposalBlock') &&
        performance.now() < deadline
      ) {
        await new Promise(resolve => setTimeout(resolve, 20));
      }
      held.forEach(callback => raf(callback));
    }, INSERT);
    const notebook = await jupyter.notebook();
    const block = notebook.getByRole('region', { name: INSERT_BLOCK });
    await expect(block).toBeVisible();
    // (the focus is not checked: the default cell the notebook adds a frame
    // later takes it)
    await expect(block).toBeInViewport();
    await expect(block).toContainText(
      'A new code cell, the first of this notebook.'
    );
    // at the top of the notebook, above its (default) cell
    await expect(
      notebook.locator('.jp-WindowedPanel-outer > .jp-ProposalBlock')
    ).toHaveCount(1);
    await block.getByRole('button', { name: 'Accept' }).click();
    const result = toToolResult<{ status: string; cell: ICell }>(
      await page.evaluate(
        () =>
          (window as unknown as { emptyInsert: Promise<unknown> }).emptyInsert
      )
    );
    expect(result.isError, result.text).toBe(false);
    expect(result.structured).toMatchObject({
      status: 'accepted',
      cell: { source: 'first = 1' }
    });
    await expect(block).toHaveCount(0);
    expect(await human.cellSources()).toContain('first = 1');
  });

  test('a delete accepted, and one the human makes stale by editing the cell @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await openInPropose(
      jupyter,
      human,
      agent,
      'delete.ipynb',
      [codeCell('a', 'x = 1'), codeCell('b', 'y = 2'), codeCell('c', 'z = 3')],
      { kernel: false }
    );
    const hash = await hashes(agent);

    const accepted = await agent.start(DELETE, {
      cellId: 'a',
      expectedSourceHash: hash.a
    });
    const cellA = await jupyter.cell(0);
    const blockA = cellA.getByRole('region', { name: DELETE_BLOCK });
    await expect(blockA).toBeFocused();
    await expect(blockA.locator('pre del')).toHaveText('x = 1');
    await expect(cellA).toHaveClass(/jp-mod-proposedDelete/);
    await blockA.getByRole('button', { name: 'Delete it' }).click();
    const deleted = (await accepted.settled()).result!;
    expect(deleted.isError, deleted.text).toBe(false);
    expect(deleted.structured).toMatchObject({
      status: 'accepted',
      proposalId: expect.any(String),
      deletedCellId: 'a'
    });
    expect(await human.cellIds()).toEqual(['b', 'c']);

    const stale = await agent.start(DELETE, {
      cellId: 'c',
      expectedSourceHash: hash.c
    });
    const cellC = await jupyter.cell(1);
    const blockC = cellC.getByRole('region', { name: DELETE_BLOCK });
    await expect(blockC).toBeVisible();
    await expect(cellC).toHaveClass(/jp-mod-proposedDelete/);
    await typeAtEnd(jupyter, 1, '  # keep');
    await expect
      .poll(async () => (await human.cellSources())[1])
      .toBe('z = 3  # keep');
    await blockC.getByRole('button', { name: 'Delete it' }).click();
    const refused = (await stale.settled()).result!;
    expect(refused.isError).toBe(true);
    expect(refused.structured).toMatchObject({
      error: 'STALE_CELL',
      cellId: 'c'
    });
    await expect(blockC).toHaveCount(0);
    await expect(cellC).not.toHaveClass(/jp-mod-proposedDelete/);
    expect(await human.cellSources()).toEqual(['y = 2', 'z = 3  # keep']);
    await expect(
      jupyter.page.getByText(
        "The agent's delete was not applied. The cell changed while you reviewed it; it was not deleted."
      )
    ).toBeVisible();
  });

  test('a block and its mark follow their cell when the person moves it (its widget made anew) @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await openInPropose(
      jupyter,
      human,
      agent,
      'moved.ipynb',
      [codeCell('a', 'x = 1'), codeCell('b', 'y = 2')],
      { kernel: false }
    );
    const hash = await hashes(agent);
    const pending = await agent.start(DELETE, {
      cellId: 'a',
      expectedSourceHash: hash.a
    });
    await expect(await blockIn(jupyter, 0, DELETE_BLOCK)).toBeVisible();
    await human.selectCells(0);
    await human.command('notebook:move-cell-down');
    await expect.poll(() => human.cellIds()).toEqual(['b', 'a']);
    const moved = await jupyter.cell(1);
    const block = moved.getByRole('region', { name: DELETE_BLOCK });
    await expect(block).toBeVisible();
    await expect(moved).toHaveClass(/jp-mod-proposedDelete/);
    await expect(jupyter.page.locator('.jp-ProposalBlock')).toHaveCount(1);
    await expect(await jupyter.cell(0)).not.toHaveClass(
      /jp-mod-proposedDelete/
    );
    await block.getByRole('button', { name: 'Delete it' }).click();
    expect((await pending.settled()).result!.structured).toMatchObject({
      status: 'accepted',
      deletedCellId: 'a'
    });
    expect(await human.cellIds()).toEqual(['b']);
  });

  test('a restart denied: the kernel keeps its variables @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await openInPropose(
      jupyter,
      human,
      agent,
      'restart.ipynb',
      [codeCell('set', 'secret = 41'), codeCell('read', 'print(secret + 1)')],
      { propose: false }
    );
    expect(await human.runCell(0)).toMatchObject({ executionCount: 1 });
    await human.command(SET_MODE, { mode: 'propose' });
    const pending = await agent.start(ACTION, { action: 'restart' });
    const notebook = await jupyter.notebook();
    const block = notebook.getByRole('region', { name: RESTART_BLOCK });
    await expect(block).toBeFocused();
    await expect(block).toHaveAttribute('data-proposal-kind', 'kernel');
    await expect(block).toContainText(
      `Kernel: ${pythonKernelspec(jupyter).display_name}`
    );
    await expect(block).toContainText(
      "Every variable, import and definition in the kernel's memory is lost, and whatever is running stops."
    );
    // about no cell: at the top of the notebook, above its cells (deleting
    // the first cell would not end it)
    await expect(
      notebook.locator('.jp-WindowedPanel-outer > .jp-ProposalBlock')
    ).toHaveCount(1);
    await block.getByRole('textbox').click();
    await jupyter.page.keyboard.type('I need secret');
    await block.getByRole('button', { name: 'Deny' }).click();
    expect((await pending.settled()).result!.structured).toEqual({
      status: 'denied',
      code: 'PROPOSAL_DENIED',
      proposalId: expect.any(String),
      action: 'restart',
      reason: 'I need secret'
    });
    await expect(block).toHaveCount(0);
    // the same kernel, its variable still there, its count going on
    expect(await human.runCell(1)).toMatchObject({ executionCount: 2 });
    expect(await streamText(jupyter, 1)).toBe('42\n');
  });

  test('allowed while unchanged: the same run goes without review until the human edits a cell @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await openInPropose(jupyter, human, agent, 'allow.ipynb', [
      codeCell('a', 'n = 1'),
      codeCell('b', 'print(n)')
    ]);
    const run = () => agent.start<IRunResult>(RUN, { cellIds: ['a', 'b'] });
    const first = await run();
    const block = await blockIn(jupyter, 0, RUN_BLOCK);
    await block
      .getByRole('button', { name: 'Run, and allow again while unchanged' })
      .click();
    const firstResult = (await first.settled()).result!.structured!;
    expect(firstResult).toMatchObject({
      status: 'ok',
      proposalId: expect.any(String)
    });
    await expect(block).toHaveCount(0);

    // the same code again: it runs at once, no block, no proposal
    const again = await agent.call<IRunResult>(RUN, { cellIds: ['a', 'b'] });
    expect(again.isError, again.text).toBe(false);
    expect(again.structured!.status).toBe('ok');
    expect(again.structured).not.toHaveProperty('proposalId');
    expect(again.structured!.results.map(r => r.executionCount)).toEqual([
      3, 4
    ]);
    await expect(
      jupyter.page.getByRole('region', { name: RUN_BLOCK })
    ).toHaveCount(0);

    // the human edits a cell: the next run is reviewed again
    await typeAtEnd(jupyter, 1, '  # seen');
    await expect
      .poll(async () => (await human.cellSources())[1])
      .toBe('print(n)  # seen');
    const third = await run();
    const blockAgain = await blockIn(jupyter, 0, RUN_BLOCK);
    await expect(blockAgain).toBeVisible();
    await expect(blockAgain.locator('li pre')).toHaveText([
      'n = 1',
      'print(n)  # seen'
    ]);
    await blockAgain.getByRole('button', { name: 'Deny' }).click();
    expect((await third.settled()).result!.structured).toMatchObject({
      status: 'denied',
      cellIds: ['a', 'b']
    });
    expect(await counts(jupyter)).toEqual([3, 4]);
  });

  test.describe('in each theme', () => {
    // they leave the app in the theme they check, which a shared app would
    // carry to the next test
    test.use({ shareApp: false });
    for (const theme of [
      { name: 'JupyterLab Light', light: 'true' },
      { name: 'JupyterLab Dark', light: 'false' }
    ]) {
      test(`run, insert, delete and kernel blocks: no WCAG A/AA violations (${theme.name}) @rule`, async ({
        jupyter,
        human,
        agent
      }) => {
        const long = Array.from({ length: 20 }, (_, i) => `v${i} = ${i}`).join(
          '\n'
        );
        await openInPropose(jupyter, human, agent, 'a11y-actions.ipynb', [
          codeCell('a', 'x = 1'),
          codeCell('b', long),
          codeCell('c', 'z = 3'),
          codeCell('d', 'w = 4')
        ]);
        const page = jupyter.page;
        await human.command('apputils:change-theme', { theme: theme.name });
        await expect(page.locator('body')).toHaveAttribute(
          'data-jp-theme-light',
          theme.light
        );
        await expect(page.locator('#jupyterlab-splash')).toHaveCount(0);
        const hash = await hashes(agent);
        const calls = [
          await agent.start(RUN, { cellIds: ['a', 'b'] }),
          await agent.start(INSERT, {
            referenceCellId: 'c',
            position: 'below',
            source: 'inserted = 1'
          }),
          await agent.start(DELETE, {
            cellId: 'd',
            expectedSourceHash: hash.d
          }),
          await agent.start(ACTION, { action: 'restart' })
        ];
        const blocks = page.locator('.jp-ProposalBlock');
        await expect(blocks).toHaveCount(4);
        const kinds = await blocks.evaluateAll(nodes =>
          nodes.map(node => (node as HTMLElement).dataset.proposalKind).sort()
        );
        expect(kinds).toEqual(['delete', 'insert', 'kernel', 'run']);
        // the long source folded, then expanded by its button
        const toggle = page.locator('.jp-ProposalBlock-foldToggle');
        await expect(toggle).toHaveAttribute('aria-expanded', 'false');
        await toggle.click();
        await expect(toggle).toHaveAttribute('aria-expanded', 'true');
        await expect(
          page.getByRole('region', { name: RUN_BLOCK }).locator('li pre').nth(1)
        ).toHaveText(long);
        expect(
          await violations(page, ['.jp-ProposalBlock', '.jp-ProposalRunNote'])
        ).toEqual([]);
        // each Deny clicked, until no block is left
        for (let left = 4; left > 0; left--) {
          await blocks.first().locator('.jp-mod-deny').click();
          await expect(blocks).toHaveCount(left - 1);
        }
        for (const call of calls) {
          expect((await call.settled()).result!.structured).toMatchObject({
            status: 'denied'
          });
        }
      });
    }
  });
});
