/**
 * The Agent panel as a person uses it: opened from the command palette by
 * keyboard, access changed in its Access tab with clicks and keys, and the
 * agent's calls (made through native WebMCP) watched in its Activity tab.
 */
import type { Locator, Page } from '@playwright/test';

import { expect, test } from '../fixtures';
import type { Human } from '../human';
import type { JupyterApp } from '../jupyter';
import { addKernelNotebook } from '../kernel-runs';
import { codeCell } from '../notebook-content';

// any console error (beyond the apps' own known noise) fails a test
test.use({ failOnConsoleErrors: true });

const KEY = 'jupyterlite_webmcp';

interface ICells {
  cells: { id: string; sourceHash: string }[];
  hiddenCellCount: number;
}

/** Opens the Agent panel the way a keyboard user does: the palette. */
async function openPanel(jupyter: JupyterApp, human: Human): Promise<Locator> {
  const page = jupyter.page;
  // command mode on the first cell, so the palette shortcut reaches the app
  await (
    await jupyter.cell(0)
  )
    .locator('.jp-InputPrompt')
    .first()
    .click({ position: { x: 20, y: 6 } });
  await human.runFromPalette('Open Agent Panel', /^Open Agent Panel/);
  const panel = page.locator('#jp-agent-panel');
  await expect(panel).toBeVisible();
  await expect(
    panel.getByRole('heading', { name: 'Agent', exact: true })
  ).toBeVisible();
  return panel;
}

/** The select of a cell's access in the Access tab (1-based, as shown). */
function cellSelect(panel: Locator, number: number): Locator {
  return panel.getByRole('combobox', {
    name: `Agent access of cell ${number}`,
    exact: true
  });
}

/** The Access tab's row button of a cell (1-based). */
function cellRow(panel: Locator, number: number): Locator {
  return panel.getByRole('button', {
    name: new RegExp(`^Select cell ${number}:`)
  });
}

/** The Activity tab's rows. */
function activityRows(panel: Locator): Locator {
  return panel
    .getByRole('list', { name: 'Agent tool calls, newest first' })
    .getByRole('listitem');
}

async function cellMetadata(page: Page, index: number): Promise<unknown> {
  return page.evaluate(
    ([k, i]) =>
      window.uiTests
        .findNotebook(null)
        ?.content.model?.sharedModel.cells[i].getMetadata(k) ?? null,
    [KEY, index] as const
  );
}

/** The indexes of the current notebook's selected cells (active included). */
async function selectedCells(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const notebook = window.uiTests.findNotebook(null)!.content;
    return notebook.widgets
      .map((cell, index) => (notebook.isSelectedOrActive(cell) ? index : -1))
      .filter(index => index >= 0);
  });
}

test.describe('the Agent panel', () => {
  test('opens from the palette; cell access set there binds the agent @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    const page = jupyter.page;
    const panel = await openPanel(jupyter, human);

    // the Access tab lists the three cells, all read and write
    await expect(cellSelect(panel, 3)).toHaveValue('write');
    await expect(cellRow(panel, 2)).toContainText('x = 6 * 7');
    const read = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['set-x']
    });
    const hash = read.structured!.cells[0].sourceHash;

    // a click on the row, Tab to its access control, one arrow down: read
    await cellRow(panel, 2).click();
    await page.keyboard.press('Tab');
    await expect(cellSelect(panel, 2)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(cellSelect(panel, 2)).toHaveValue('read');
    await expect
      .poll(() => cellMetadata(page, 1))
      .toEqual({ version: 1, access: 'read' });
    await expect(
      (await jupyter.cell(1)).getByRole('img', { name: 'Read-only for agent' })
    ).toBeVisible();
    const denied = await agent.call('jupyter_update_cell', {
      cellId: 'set-x',
      source: 'x = 0',
      expectedSourceHash: hash
    });
    expect(denied.structured).toMatchObject({
      error: 'CELL_ACCESS_DENIED',
      cellId: 'set-x',
      access: 'read'
    });
    expect((await human.cellSources())[1]).toBe('x = 6 * 7\nx');

    // hidden: to the agent the cell does not exist
    await cellSelect(panel, 2).selectOption({ label: 'hidden' });
    await expect
      .poll(() => cellMetadata(page, 1))
      .toEqual({ version: 1, access: 'none' });
    const hidden = await agent.call('jupyter_get_cells', {
      cellIds: ['set-x']
    });
    expect(hidden.structured).toMatchObject({ error: 'CELL_NOT_FOUND' });

    // a change made elsewhere (the cell's context menu) shows in the tab
    await human.setCellMetadata(2, KEY, { version: 1, access: 'read' });
    await expect(cellSelect(panel, 3)).toHaveValue('read');

    // back to read and write: the key is gone
    await cellSelect(panel, 2).selectOption({ label: 'read and write' });
    await expect.poll(() => cellMetadata(page, 1)).toBeNull();
    const back = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['set-x']
    });
    expect(back.structured!.cells[0].id).toBe('set-x');
  });

  test('notebook access and "apply to all cells" from the Access tab @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    const panel = await openPanel(jupyter, human);

    const notebookSelect = panel.getByRole('combobox', {
      name: `Agent access to ${path}`
    });
    await expect(notebookSelect).toHaveValue('write');
    await notebookSelect.selectOption({ label: 'read-only' });
    await expect(notebookSelect).toHaveValue('read');
    const insert = await agent.call('jupyter_insert_cell', { source: 'y = 1' });
    expect(insert.structured).toMatchObject({
      error: 'NOTEBOOK_ACCESS_DENIED',
      path,
      access: 'read'
    });
    expect(await human.cellIds()).toHaveLength(3);
    // the notebook toolbar item follows
    await expect(
      jupyter.page
        .locator('.jp-NotebookPanel:visible .jp-Toolbar')
        .getByRole('button', { name: 'Agent: read-only', exact: true })
    ).toBeVisible();
    await notebookSelect.selectOption({ label: 'read and write' });
    await expect(notebookSelect).toHaveValue('write');

    // every cell hidden at once, with the keyboard-reachable button
    await panel
      .getByRole('combobox', { name: 'All cells:' })
      .selectOption({ label: 'hidden' });
    await panel.getByRole('button', { name: 'Apply to all cells' }).click();
    for (const number of [1, 2, 3]) {
      await expect(cellSelect(panel, number)).toHaveValue('none');
    }
    const range = await agent.call<ICells>('jupyter_get_cells', {});
    expect(range.structured!.cells).toEqual([]);
    expect(range.structured!.hiddenCellCount).toBe(3);
  });

  test('Activity shows each call, refusals as refused; a cell link selects the cell @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    const panel = await openPanel(jupyter, human);
    const rows = activityRows(panel);

    const read = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['greet', 'set-x']
    });
    const hash = read.structured!.cells[1].sourceHash;
    const first = rows.filter({ hasText: 'jupyter_get_cells' }).first();
    await expect(first).toBeVisible();
    await expect(first).toContainText('ok');
    await expect(
      first.getByRole('button', { name: `Go to cell greet in ${path}` })
    ).toBeVisible();

    // a refused call shows as refused, newest first
    await cellSelect(panel, 2).selectOption({ label: 'read-only' });
    await expect.poll(() => cellMetadata(jupyter.page, 1)).not.toBeNull();
    const denied = await agent.call('jupyter_delete_cell', {
      cellId: 'set-x',
      expectedSourceHash: hash
    });
    expect(denied.structured).toMatchObject({ error: 'CELL_ACCESS_DENIED' });
    await expect(rows.first()).toContainText('jupyter_delete_cell');
    await expect(rows.first()).toContainText(
      'refused by access (CELL_ACCESS_DENIED)'
    );

    // the notebook's active cell is the first; the link selects "greet"
    await cellRow(panel, 1).click();
    await expect
      .poll(async () => (await jupyter.notebookView()).activeCellIndex)
      .toBe(0);
    await expect(cellRow(panel, 1)).toHaveAttribute('aria-current', 'true');
    // Shift+click extends the notebook's selection
    await cellRow(panel, 2).click({ modifiers: ['Shift'] });
    await expect.poll(() => selectedCells(jupyter.page)).toEqual([0, 1]);
    // a selection made in the notebook shows in the rows
    // (from cell 3 up to cell 2: the active cell is where it ends)
    await human.selectCells(2, 1);
    const selectedRows = panel.locator(
      '.jp-AgentPanel-accessRow.jp-mod-selected'
    );
    await expect(selectedRows).toHaveCount(2);
    await expect(selectedRows.first()).toContainText('x = 6 * 7');
    await expect(cellRow(panel, 2)).toHaveAttribute('aria-current', 'true');
    await first
      .getByRole('button', { name: `Go to cell greet in ${path}` })
      .click();
    await expect
      .poll(async () => (await jupyter.notebookView()).activeCellIndex)
      .toBe(2);
    // and the Access tab highlights that cell's row
    await expect(cellRow(panel, 3)).toHaveAttribute('aria-current', 'true');
    await expect(cellRow(panel, 1)).not.toHaveAttribute('aria-current');
  });
});

test.describe('the Agent panel, live', () => {
  test('a call that runs a while shows as running, on its cell, then ok @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await addKernelNotebook(jupyter, 'slow.ipynb', [
      codeCell(
        'slow',
        "import time\nprint('started', flush=True)\ntime.sleep(3)\nprint('done')"
      ),
      codeCell('after', "print('after')")
    ]);
    await human.openNotebook(path);
    const panel = await openPanel(jupyter, human);
    const rows = activityRows(panel);

    const cell = await jupyter.cell(0);
    const input = cell.locator('.jp-Cell-inputWrapper');
    const before = await input.boundingBox();
    const call = await agent.start('jupyter_run_cells', { cellIds: ['slow'] });
    // the cell says the agent runs it, painted over its input: nothing
    // moves (the outputs below grow as they come)
    const presence = cell.locator('.jp-AgentPresence');
    await expect(presence).toHaveText('Agent running', { timeout: 30_000 });
    expect(await input.boundingBox()).toEqual(before);
    const row = rows.filter({ hasText: 'jupyter_run_cells' }).first();
    await expect(row).toHaveAttribute('aria-busy', 'true', {
      timeout: 30_000
    });
    await expect(row).toContainText('running');
    await expect(row).toContainText('running cell slow');
    await expect(
      row.getByRole('button', { name: `Go to cell slow in ${path}` })
    ).toBeVisible();

    const settled = await call.settled();
    expect(settled.result?.isError).toBe(false);
    await expect(row).not.toHaveAttribute('aria-busy');
    await expect(row.locator('.jp-AgentPanel-activityOutcome')).toHaveText(
      'ok'
    );
    await expect(row).not.toContainText('running cell');
    // and it goes a moment after the call ended
    await expect(presence).toHaveCount(0);
    // it lasted the cell's three seconds
    await expect(row.locator('.jp-AgentPanel-activityDuration')).toHaveText(
      /^([3-9]|[1-5]\d)\.\d s$/
    );
  });
});

test.describe('the Agent panel, where the app puts sidebars', () => {
  test('in its sidebar (Notebook 7: View › Right Sidebar), claiming no agent @shell', async ({
    jupyter,
    human
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    const page = jupyter.page;
    const panel = page.locator('#jp-agent-panel');
    await expect(panel).toBeHidden();
    if (jupyter.ui === 'notebook') {
      // the View menu is taller than the page: its last items, the
      // sidebars, are reached with the keyboard (up wraps to the end)
      // (plain Playwright fixtures here: galata's page.menu does not exist)
      // eslint-disable-next-line jupyter/galata-prefer-menu-helper
      await page.getByRole('menuitem', { name: 'View' }).click();
      const active = page.locator('.lm-Menu .lm-Menu-item.lm-mod-active');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await expect(active.locator('.lm-Menu-itemLabel')).toHaveText(
        'Right Sidebar'
      );
      await page.keyboard.press('ArrowRight');
      // eslint-disable-next-line jupyter/galata-prefer-menu-helper
      await page
        .getByRole('menuitem', {
          name: 'Show Agent: comments, proposals, access and activity'
        })
        .click();
    } else {
      const tab = page.getByRole('tab', { name: 'Agent', exact: true });
      await expect(tab).toHaveAttribute(
        'title',
        'Agent: comments, proposals, access and activity'
      );
      await tab.click();
    }
    await expect(panel).toBeVisible();
    await expect(panel).toHaveClass(/\bjp-AgentPanel\b/);
    // the four tabs, in this order on screen and in the page (which is
    // the order a screen reader reads them in)
    const titles = panel.locator('.lm-AccordionPanel-title');
    await expect(titles).toHaveText([
      /Comments/,
      /Proposals/,
      /Access/,
      /Activity/
    ]);
    const tops = await titles.evaluateAll(nodes =>
      nodes.map(node => node.getBoundingClientRect().top)
    );
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    const sections = await panel
      .locator('.lm-AccordionPanel > [role="region"]')
      .evaluateAll(nodes => nodes.map(node => node.id));
    expect(sections).toEqual([
      'jp-agent-panel-comments',
      'jp-agent-panel-proposals',
      'jp-agent-panel-access',
      'jp-agent-panel-activity'
    ]);
    // no call yet: the Activity tab says so, and never that one is connected
    await expect(panel).toContainText('No agent tool call has been seen yet.');
    await expect(panel).not.toContainText(/connected/i);
  });

  test('without WebMCP the panel works, and Activity says so @no-webmcp', async ({
    jupyter,
    human
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    const panel = await openPanel(jupyter, human);
    // the registry looks for a while (a polyfill may come late), then stops
    await expect(panel).toContainText('WebMCP is unavailable in this browser', {
      timeout: 30_000
    });
    await expect(panel).not.toContainText('No agent tool call has been seen');
    await cellSelect(panel, 1).selectOption({ label: 'read-only' });
    await expect
      .poll(() => cellMetadata(jupyter.page, 0))
      .toEqual({ version: 1, access: 'read' });
  });
});
