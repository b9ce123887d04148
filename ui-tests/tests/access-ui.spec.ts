/**
 * The owner's access control, as a person uses it: the real context menus
 * (a cell's; a notebook's in the file browser, which Notebook 7 has on
 * /tree), the keyboard, the notebook toolbar item; the markers they leave;
 * and what an agent calling the tools through native WebMCP then gets.
 */
import type { INotebookContent } from '@jupyterlab/nbformat';
import type { Locator, Page } from '@playwright/test';

import { expect, shareInLab, test } from '../fixtures';
import type { JupyterApp } from '../jupyter';
import { codeCell, notebookOf } from '../notebook-content';

// any console error (beyond the apps' own known noise) fails a test
test.use({ failOnConsoleErrors: true });

const KEY = 'jupyterlite_webmcp';

const READ = 'Read-only for agent';
const HIDDEN = 'Hidden from agent';
const INVALID = 'Invalid agent access value — treated as hidden';

const CELL_ITEM = /^Cycle Agent Access(?! for)/;
const NOTEBOOK_ITEM = /^Cycle Agent Access for Notebook/;

interface ICells {
  cells: { id: string; sourceHash: string; source?: string }[];
  hiddenCellCount: number;
}

/** A cell's `jupyterlite_webmcp` metadata in the live model. */
async function cellAccess(jupyter: JupyterApp, index: number) {
  return jupyter.page.evaluate(
    ([k, i]) =>
      window.uiTests
        .findNotebook(null)
        ?.content.model?.sharedModel.cells[i].getMetadata(k) ?? null,
    [KEY, index] as const
  );
}

/** The notebook's `jupyterlite_webmcp` metadata in its live model. */
async function liveNotebookAccess(jupyter: JupyterApp) {
  return jupyter.page.evaluate(
    k =>
      window.uiTests
        .findNotebook(null)
        ?.content.model?.sharedModel.getMetadata(k) ?? null,
    KEY
  );
}

/**
 * The notebook's `jupyterlite_webmcp` metadata in its file. A Jupyter server
 * writes a file in place: read while it saves, it may not parse yet.
 */
async function fileNotebookAccess(jupyter: JupyterApp, path: string) {
  try {
    let metadata: Record<string, unknown>;
    if (jupyter.kind === 'lite') {
      metadata = (await jupyter.readNotebook(path)).metadata;
    } else {
      // from the test, not the page: a Jupyter server saves a notebook in
      // place, so a read that meets a save finds it empty and answers 400
      // (seen in Notebook 7 while its tab saved the access it had just
      // written), which in the page is a console error; here the poll
      // simply reads again
      const url = `${jupyter.baseURL}/api/contents/${path
        .split('/')
        .map(encodeURIComponent)
        .join('/')}?content=1&type=notebook`;
      const answer = await jupyter.page.request.get(url);
      if (!answer.ok()) {
        return `unreadable: ${answer.status()}`;
      }
      metadata = ((await answer.json()) as { content: INotebookContent })
        .content.metadata;
    }
    return (metadata as Record<string, unknown>)[KEY] ?? null;
  } catch (error) {
    return `unreadable: ${String(error)}`;
  }
}

/** Clicks a cell's prompt (its first line, where the execution count is). */
async function clickPrompt(
  cell: Locator,
  button: 'left' | 'right' = 'left'
): Promise<void> {
  const click = () =>
    cell
      .locator('.jp-InputPrompt')
      .first()
      .click({ button, position: { x: 20, y: 6 } });
  if (button === 'right') {
    await click();
    return;
  }
  // a click can land on the cell above when a cell above finishes rendering
  // (the fixture's markdown heading, an output) and pushes the cells down
  // under the pointer (seen: Shift+G then set cells 0 and 1): the person
  // sees the wrong cell selected and clicks again
  await expect(async () => {
    await click();
    await expect(cell).toHaveClass(/jp-mod-active/, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}

/** Right-clicks a cell's prompt and cycles its access from the menu. */
async function cellMenu(jupyter: JupyterApp, index: number): Promise<void> {
  await clickPrompt(await jupyter.cell(index), 'right');
  await jupyter.page.getByRole('menuitem', { name: CELL_ITEM }).click();
}

/**
 * Opens the context menu of the focused element from the keyboard, moves
 * to `item` with the arrow keys and presses Enter.
 */
async function keyboardMenu(page: Page, item: RegExp): Promise<void> {
  await page.keyboard.press('Shift+F10');
  const menu = page.locator('.lm-Menu.lm-ContextMenu, .lm-Menu').last();
  await expect(menu).toBeVisible();
  const active = menu.locator('.lm-Menu-item.lm-mod-active');
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('ArrowDown');
    const label = (await active.count())
      ? await active.locator('.lm-Menu-itemLabel').innerText()
      : '';
    if (item.test(label)) {
      await page.keyboard.press('Enter');
      await expect(menu).toBeHidden();
      return;
    }
  }
  throw new Error(`no menu item ${item}`);
}

/** The file browser showing the test's directory, and a notebook in it. */
async function fileItem(jupyter: JupyterApp, name: string): Promise<Locator> {
  await jupyter.page.evaluate(
    path =>
      window.uiTests.execute('filebrowser:go-to-path', {
        path,
        dontShowBrowser: false
      }),
    jupyter.dir
  );
  const item = jupyter.page
    .locator('.jp-DirListing-item[data-file-type="notebook"]')
    .filter({ hasText: name });
  await expect(item).toBeVisible();
  return item;
}

/** Right-clicks a notebook in the file browser and cycles its access. */
async function fileMenu(jupyter: JupyterApp, name: string): Promise<void> {
  const item = await fileItem(jupyter, name);
  await item.click({ button: 'right' });
  await jupyter.page.getByRole('menuitem', { name: NOTEBOOK_ITEM }).click();
}

function marker(cell: Locator, name: string): Locator {
  return cell.getByRole('img', { name, exact: true });
}

async function expectNoMarker(cell: Locator): Promise<void> {
  await expect(cell.locator('.jp-AgentAccessMarker')).toHaveCount(0);
}

/** The toolbar item of the current notebook. */
function toolbarItem(jupyter: JupyterApp, name: string): Locator {
  return jupyter.page
    .locator('.jp-NotebookPanel:visible .jp-Toolbar')
    .getByRole('button', { name, exact: true });
}

test.describe('agent access, set by the human', () => {
  // each test works in its own notebooks: in JupyterLab they share the
  // worker's app start-up (ui-tests/shared-app.ts). Not in Notebook 7 yet:
  // sharing there once read a file as unreadable (400) right after its
  // write was announced; most likely the same cause as stop 42's failure
  // of the file-browser test below (a click that opened the notebook in a
  // second tab, which saved after the toast; docs/testing.md), not shown
  test.use(shareInLab);

  test('cell context menu: write → read → none → write, and the agent @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    const cell = await jupyter.cell(1);
    const read = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['set-x']
    });
    const hash = read.structured!.cells[0].sourceHash;

    // write → read
    await cellMenu(jupyter, 1);
    await expect(marker(cell, READ)).toBeVisible();
    await expect(marker(cell, READ)).toHaveAttribute('title', /^Read-only/);
    expect(await cellAccess(jupyter, 1)).toEqual({
      version: 1,
      access: 'read'
    });
    const denied = await agent.call('jupyter_update_cell', {
      cellId: 'set-x',
      source: 'x = 0',
      expectedSourceHash: hash
    });
    expect(denied.isError).toBe(true);
    expect(denied.structured).toEqual({
      error: 'CELL_ACCESS_DENIED',
      message: expect.stringContaining('set-x'),
      cellId: 'set-x',
      access: 'read'
    });
    expect((await human.cellSources())[1]).toBe('x = 6 * 7\nx');
    // a read-only cell is still read
    const stillRead = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['set-x']
    });
    expect(stillRead.structured!.cells[0].id).toBe('set-x');

    // read → none
    await cellMenu(jupyter, 1);
    await expect(marker(cell, HIDDEN)).toBeVisible();
    await expect(marker(cell, READ)).toHaveCount(0);
    const hidden = await agent.call('jupyter_get_cells', {
      cellIds: ['set-x']
    });
    const unknown = await agent.call('jupyter_get_cells', {
      cellIds: ['no-such-cell']
    });
    expect(hidden.isError).toBe(true);
    expect(hidden.structured).toMatchObject({ error: 'CELL_NOT_FOUND' });
    expect(hidden.text!.replaceAll('set-x', 'no-such-cell')).toBe(unknown.text);
    const range = await agent.call<ICells>('jupyter_get_cells', {});
    expect(range.structured!.cells.map(c => c.id)).toEqual(['intro', 'greet']);
    expect(range.structured!.hiddenCellCount).toBe(1);

    // none → write: the key is gone, the marker too
    await cellMenu(jupyter, 1);
    await expectNoMarker(cell);
    expect(await cellAccess(jupyter, 1)).toBeNull();
    const back = await agent.call<ICells>('jupyter_get_cells', {});
    expect(back.structured!.hiddenCellCount).toBe(0);
    expect(back.structured!.cells).toHaveLength(3);
  });

  test('palette: Set Agent Access on the selected cell, and the agent @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    const cell = await jupyter.cell(1);
    /** Runs a palette item the way a person does: open, type, click. */
    const fromPalette = async (label: string) => {
      await clickPrompt(cell);
      await expect(cell).toHaveClass(/jp-mod-active/);
      await human.runFromPalette(label, new RegExp(`^${label}$`));
    };

    await fromPalette('Set Agent Access: hidden');
    await expect(marker(cell, HIDDEN)).toBeVisible();
    expect(await cellAccess(jupyter, 1)).toEqual({
      version: 1,
      access: 'none'
    });
    const hidden = await agent.call('jupyter_get_cells', {
      cellIds: ['set-x']
    });
    expect(hidden.structured).toMatchObject({ error: 'CELL_NOT_FOUND' });

    await fromPalette('Set Agent Access: read-only');
    await expect(marker(cell, READ)).toBeVisible();
    const read = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['set-x']
    });
    expect(read.structured!.cells[0].id).toBe('set-x');

    await fromPalette('Set Agent Access: read and write');
    await expectNoMarker(cell);
    expect(await cellAccess(jupyter, 1)).toBeNull();
  });

  test('keyboard: the shortcut on a selection, the context menu key, undo @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    const page = jupyter.page;
    const first = await jupyter.cell(1);
    const second = await jupyter.cell(2);

    // command mode on cell 1, extend the selection to cell 2, Shift+G
    await clickPrompt(first);
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+G');
    await expect(marker(first, READ)).toBeVisible();
    await expect(marker(second, READ)).toBeVisible();

    // the context menu from the keyboard, arrows and Enter: both hidden
    await keyboardMenu(page, CELL_ITEM);
    await expect(marker(first, HIDDEN)).toBeVisible();
    await expect(marker(second, HIDDEN)).toBeVisible();
    const range = await agent.call<ICells>('jupyter_get_cells', {});
    expect(range.structured!.cells.map(c => c.id)).toEqual(['intro']);
    expect(range.structured!.hiddenCellCount).toBe(2);

    // one undo step gives both back their read-only access: in the cells'
    // metadata, then in their markers
    await clickPrompt(first);
    await expect(page.locator('.jp-Notebook.jp-mod-commandMode')).toHaveCount(
      1
    );
    await page.keyboard.press('z');
    const readOnly = { version: 1, access: 'read' };
    await expect
      .poll(async () => [
        await cellAccess(jupyter, 1),
        await cellAccess(jupyter, 2)
      ])
      .toEqual([readOnly, readOnly]);
    await expect(marker(first, READ)).toBeVisible();
    await expect(marker(second, READ)).toBeVisible();

    // moving a cell: its marker moves with it
    await clickPrompt(await jupyter.cell(0));
    await page.keyboard.press('Control+Shift+ArrowDown');
    expect(await human.cellIds()).toEqual(['set-x', 'intro', 'greet']);
    await expect(marker(await jupyter.cell(0), READ)).toBeVisible();
    await expectNoMarker(await jupyter.cell(1));
    await expect(marker(await jupyter.cell(2), READ)).toBeVisible();
  });

  test('a hand-edited invalid value: invalid marker, hidden from the agent @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    const cell = await jupyter.cell(2);
    await human.setCellMetadata(2, KEY, { version: 1, access: 'READ' });
    await expect(marker(cell, INVALID)).toBeVisible();

    const byId = await agent.call('jupyter_get_cells', { cellIds: ['greet'] });
    const unknown = await agent.call('jupyter_get_cells', {
      cellIds: ['no-such-cell']
    });
    expect(byId.structured).toMatchObject({ error: 'CELL_NOT_FOUND' });
    expect(byId.text!.replaceAll('greet', 'no-such-cell')).toBe(unknown.text);
    const range = await agent.call<ICells>('jupyter_get_cells', {});
    expect(range.structured!.cells.map(c => c.id)).toEqual(['intro', 'set-x']);
    expect(range.structured!.hiddenCellCount).toBe(1);

    // one cycle repairs it to a valid none, never wider
    await cellMenu(jupyter, 2);
    await expect(marker(cell, HIDDEN)).toBeVisible();
    expect(await cellAccess(jupyter, 2)).toEqual({
      version: 1,
      access: 'none'
    });
  });

  test('notebook toolbar item: read-only, hidden, back, by mouse and keyboard @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    // With its kernel up: the kernel's items (the debugger's button, the
    // kernel's name) join the toolbar as it connects and move this item
    // left. A click as they came is the likely cause of one rehearsal's
    // failure (clicked, and the item still read "read and write" 10 s
    // later); not reproduced in 20 runs under load, so a guess.
    await human.openNotebook(path);

    await toolbarItem(jupyter, 'Agent: read and write').click();
    const readOnly = toolbarItem(jupyter, 'Agent: read-only');
    await expect(readOnly).toBeVisible();
    await expect(readOnly).toHaveText('Agent: read-only');
    expect(await liveNotebookAccess(jupyter)).toEqual({
      version: 1,
      notebookAccess: 'read'
    });
    const insert = await agent.call('jupyter_insert_cell', { source: 'y = 1' });
    expect(insert.isError).toBe(true);
    expect(insert.structured).toEqual({
      error: 'NOTEBOOK_ACCESS_DENIED',
      message: expect.stringContaining(path),
      path,
      access: 'read'
    });
    const cells = await agent.call<ICells>('jupyter_get_cells', {});
    expect(cells.isError).toBe(false);
    expect(cells.structured!.cells).toHaveLength(3);
    expect(await human.cellIds()).toHaveLength(3);
    // through the live model: the file is not written behind the owner
    expect(await fileNotebookAccess(jupyter, path)).toBeNull();

    // the keyboard: focus the item, Enter
    await readOnly.focus();
    await jupyter.page.keyboard.press('Enter');
    await expect(toolbarItem(jupyter, 'Agent: hidden')).toBeFocused();
    const context = await agent.call<{ notebook: unknown }>(
      'jupyter_get_context'
    );
    expect(context.structured!.notebook).toBeNull();
    const byPath = await agent.call('jupyter_get_cells', {
      notebookPath: path
    });
    jupyter.expectConsoleErrorsFor(/\/api\/contents\/.*\/missing\.ipynb\?/);
    const missing = await agent.call('jupyter_get_cells', {
      notebookPath: jupyter.path('missing.ipynb')
    });
    expect(byPath.structured).toMatchObject({ error: 'NOTEBOOK_NOT_FOUND' });
    expect(byPath.text!.replaceAll(path, jupyter.path('missing.ipynb'))).toBe(
      missing.text
    );

    await jupyter.page.keyboard.press('Space');
    await expect(toolbarItem(jupyter, 'Agent: read and write')).toBeFocused();
    expect(await liveNotebookAccess(jupyter)).toBeNull();
  });

  test('file browser, notebook not open: read, then hidden, in the file', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const path = await jupyter.addFixture('simple.ipynb', 'closed.ipynb');
    // the file is read once the person is told the write is done: a read
    // while jupyter_server saves a notebook can fail (the save writes it in
    // place after copying it to `.~closed.ipynb`), and can even lose it (a
    // failed read restores that copy by a rename; seen once in lab: the
    // read's rename failed, the save answered 404, the file was gone)
    const toldAccess = (access: string) =>
      expect(
        jupyter.page.getByText(`Agent access of closed.ipynb: ${access}`)
      ).toBeVisible();

    // right-click → read
    await fileMenu(jupyter, 'closed.ipynb');
    await toldAccess('read-only');
    expect(await fileNotebookAccess(jupyter, path)).toEqual({
      version: 1,
      notebookAccess: 'read'
    });
    const insert = await agent.call('jupyter_insert_cell', {
      notebookPath: path,
      source: 'y = 1'
    });
    expect(insert.structured).toEqual({
      error: 'NOTEBOOK_ACCESS_DENIED',
      message: expect.stringContaining(path),
      path,
      access: 'read'
    });
    const cells = await agent.call<ICells>('jupyter_get_cells', {
      notebookPath: path
    });
    expect(cells.isError).toBe(false);
    expect(cells.structured!.cells).toHaveLength(3);

    // the keyboard: the item focused and selected, its context menu,
    // arrows, Enter → none. Focused as Tab reaches it, not clicked: Notebook
    // 7's file browser opens a file on a single click (its tree sets
    // singleClickNavigation), and a tab with the notebook open takes the
    // write through its live model and saves it after the answer (seen in
    // the rehearsals as the file still read-only after the toast)
    const item = await fileItem(jupyter, 'closed.ipynb');
    await item.locator('.jp-DirListing-itemText').focus();
    await jupyter.page.keyboard.press('ArrowDown');
    await expect(item).toHaveClass(/jp-mod-selected/);
    await keyboardMenu(jupyter.page, NOTEBOOK_ITEM);
    await toldAccess('hidden');
    // still not open anywhere
    expect(jupyter.context.pages()).toHaveLength(1);
    expect(await fileNotebookAccess(jupyter, path)).toEqual({
      version: 1,
      notebookAccess: 'none'
    });
    // nothing else in the file changed
    const saved = await jupyter.readNotebook(path);
    expect(saved.cells.map(c => c.id)).toEqual(['intro', 'set-x', 'greet']);

    const hidden = await agent.call('jupyter_get_cells', {
      notebookPath: path
    });
    const missingPath = jupyter.path('missing.ipynb');
    jupyter.expectConsoleErrorsFor(/\/api\/contents\/.*\/missing\.ipynb\?/);
    const missing = await agent.call('jupyter_get_cells', {
      notebookPath: missingPath
    });
    expect(hidden.structured).toMatchObject({ error: 'NOTEBOOK_NOT_FOUND' });
    expect(hidden.text!.replaceAll(path, missingPath)).toBe(missing.text);

    // opened, it is hidden: the toolbar says so, the agent sees no notebook
    await human.openNotebook(path, { kernel: false });
    await expect(toolbarItem(jupyter, 'Agent: hidden')).toBeVisible();
    const context = await agent.call<{ notebook: unknown }>(
      'jupyter_get_context'
    );
    expect(context.structured!.notebook).toBeNull();
  });

  test.describe('in full windowing', () => {
    // it changes the notebooks' windowing setting, which a shared app would
    // carry to the next test
    test.use({ shareApp: false });

    test('markers survive windowing: full windowing, a 300-cell notebook @shell', async ({
      jupyter,
      human
    }) => {
      await jupyter.open();
      const access = (value: string) => ({
        [KEY]: { version: 1, access: value }
      });
      const path = await jupyter.createNotebook(
        'long.ipynb',
        notebookOf(
          Array.from({ length: 300 }, (_, i) =>
            codeCell(`k${i}`, `cell_${i} = ${i}`, {
              metadata:
                i === 5 ? access('read') : i === 250 ? access('none') : {}
            })
          )
        )
      );
      // only the cells in view are in the page; the others are not rendered yet
      await human.setSetting(
        '@jupyterlab/notebook-extension:tracker',
        'windowingMode',
        'full'
      );
      await human.openNotebook(path, { kernel: false });
      expect((await jupyter.notebookView()).windowingMode).toBe('full');
      const cellAt = (index: number) =>
        jupyter.page.locator(
          `.jp-Notebook .jp-Cell[data-windowed-list-index="${index}"]`
        );

      // out of view, a cell's input (and the marker in it) leaves the page
      const inPage = (index: number) =>
        cellAt(index).locator('.jp-Cell-inputWrapper');
      await expect(marker(cellAt(5), READ)).toBeVisible();
      await human.scrollToCell(250);
      await expect(marker(cellAt(250), HIDDEN)).toBeVisible();
      await expect(inPage(5)).toHaveCount(0);

      // a collaborator hides cell 5 while it is out of the page
      await human.setCellMetadata(5, KEY, { version: 1, access: 'none' });
      await human.scrollToCell(5);
      await expect(marker(cellAt(5), HIDDEN)).toBeVisible();
      await expect(inPage(250)).toHaveCount(0);

      // the human opens cell 250 again (its shortcut, in command mode on it),
      // then scrolls away and back
      await human.scrollToCell(250);
      await human.selectCells(250);
      await jupyter.page.evaluate(() =>
        window.uiTests.findNotebook(null)?.content.activeCell?.node.focus()
      );
      await jupyter.page.keyboard.press('Shift+G');
      await expectNoMarker(cellAt(250));
      expect(await cellAccess(jupyter, 250)).toBeNull();
      // (the active cell stays in the page: make another one active)
      await human.selectCells(0);
      await human.scrollToCell(0);
      await expect(inPage(250)).toHaveCount(0);
      await human.scrollToCell(250);
      await expect(inPage(250)).toHaveCount(1);
      await expectNoMarker(cellAt(250));
      await human.scrollToCell(5);
      await expect(marker(cellAt(5), HIDDEN)).toBeVisible();
    });
  });
});

/**
 * A notebook open while its access changes from the file browser. JupyterLab
 * has both in one app; Notebook 7 and JupyterLite's Notebook UI (used here for
 * JupyterLite) have the file browser on /tree and the notebook in a tab of its
 * own, another app, reached through the tabs' channel.
 */
test.describe('agent access of an open notebook, from the file browser', () => {
  test.use({ liteUi: 'notebook', ...shareInLab });

  test('file browser, notebook open: written through its live model', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const path = await jupyter.addFixture('simple.ipynb', 'open.ipynb');
    const home = jupyter.page;
    // with its kernel settled and saved: nothing unsaved (JupyterLite's kernel
    // changes the notebook's kernelspec as it starts)
    await human.openNotebook(path);
    await human.save();
    expect((await jupyter.waitForNotebook(path)).dirty).toBe(false);
    const notebookPage = jupyter.page;

    // Notebook 7: the file browser is on /tree, the notebook in its own tab
    jupyter.usePage(home);
    await fileMenu(jupyter, 'open.ipynb');
    await expect(
      home.getByText('Agent access of open.ipynb: read-only')
    ).toBeVisible();
    jupyter.usePage(notebookPage);

    await expect(toolbarItem(jupyter, 'Agent: read-only')).toBeVisible();
    expect(await liveNotebookAccess(jupyter)).toEqual({
      version: 1,
      notebookAccess: 'read'
    });
    const insert = await agent.call('jupyter_insert_cell', { source: 'y = 1' });
    expect(insert.structured).toMatchObject({
      error: 'NOTEBOOK_ACCESS_DENIED',
      path,
      access: 'read'
    });
    if (jupyter.ui === 'notebook') {
      // the notebook's tab wrote it and saved it (it had no unsaved edits),
      // so the file browser's tab reads the same from the file, and so does
      // its agent
      await expect
        .poll(() => fileNotebookAccess(jupyter, path))
        .toEqual({ version: 1, notebookAccess: 'read' });
      jupyter.usePage(home);
      const fromTree = await agent.call('jupyter_insert_cell', {
        notebookPath: path,
        source: 'y = 1'
      });
      expect(fromTree.structured).toMatchObject({
        error: 'NOTEBOOK_ACCESS_DENIED',
        path
      });
      jupyter.usePage(notebookPage);
    } else {
      // the same app: the live model only, saved when the owner saves
      expect(await fileNotebookAccess(jupyter, path)).toBeNull();
      await human.save();
      await expect
        .poll(() => fileNotebookAccess(jupyter, path))
        .toEqual({ version: 1, notebookAccess: 'read' });
    }

    // with unsaved edits, the notebook is never saved behind its owner
    await human.setCellSource(1, 'x = 1');
    jupyter.usePage(home);
    await fileMenu(jupyter, 'open.ipynb');
    jupyter.usePage(notebookPage);
    await expect(toolbarItem(jupyter, 'Agent: hidden')).toBeVisible();
    const context = await agent.call<{ notebook: unknown }>(
      'jupyter_get_context'
    );
    expect(context.structured!.notebook).toBeNull();
    expect(await fileNotebookAccess(jupyter, path)).toEqual({
      version: 1,
      notebookAccess: 'read'
    });
    if (jupyter.ui === 'notebook') {
      await expect(
        home.getByText(
          /open\.ipynb is open with unsaved changes in another tab/
        )
      ).toBeVisible();
    }
  });
});
