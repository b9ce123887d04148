/**
 * jupyter_open_notebook and jupyter_create_notebook through native WebMCP.
 *
 * In JupyterLab (and JupyterLite's Lab UI) a notebook opens in this page. In
 * Notebook 7 each notebook has its own tab: another notebook opens in a new
 * tab and the result says so.
 */
import { expect, test } from '../fixtures';
import type { JupyterApp } from '../jupyter';
import type { Agent } from '../agent';
import { codeCell, notebookOf } from '../notebook-content';

interface INotebookInfo {
  path: string;
  name: string;
  dirty: boolean;
  revision: string;
  cellCount: number;
}

interface IOpened {
  notebook: INotebookInfo;
  kernel: { name: string | null; status: string };
  focus: { activeCellId: string | null; activeCellIndex: number | null } | null;
  review: { openThreads: number; totalThreads: number };
  openedIn?: string;
  message?: string;
}

interface ICreated {
  path: string;
  notebook: INotebookInfo;
  kernel: { name: string | null; status: string };
  openedIn?: string;
  message?: string;
}

test.describe('jupyter_open_notebook', () => {
  // each test works in its own notebooks: they share one app start-up
  test.use({ shareApp: true });

  test('opens a notebook and activates the given cell', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    const path = await jupyter.addFixture('simple.ipynb');
    await agent.waitForTools(['jupyter_open_notebook']);
    if (jupyter.ui === 'notebook') {
      const [tab, result] = await Promise.all([
        jupyter.context.waitForEvent('page'),
        agent.call<IOpened>('jupyter_open_notebook', { path, cellId: 'greet' })
      ]);
      expect(result.isError).toBe(false);
      expect(result.structured).toMatchObject({
        notebook: { path, name: 'simple.ipynb', cellCount: 3, dirty: false },
        kernel: { name: 'python3', status: 'unavailable' },
        focus: null,
        openedIn: 'new-tab',
        message: expect.stringContaining('new browser tab')
      });
      await tab.waitForURL(/simple\.ipynb/);
      return;
    }
    const result = await agent.call<IOpened>('jupyter_open_notebook', {
      path,
      cellId: 'greet'
    });
    expect(result.isError).toBe(false);
    expect(result.structured).toMatchObject({
      notebook: { path, name: 'simple.ipynb', cellCount: 3 },
      focus: { activeCellId: 'greet', activeCellIndex: 2 },
      review: { openThreads: 0, totalThreads: 0 }
    });
    expect(result.structured!.openedIn).toBeUndefined();
    // The human sees it: the notebook is the current one, cell 3 active.
    await expect(await jupyter.cell(2, path)).toHaveClass(/jp-mod-active/);
    const context = await agent.call<{ notebook: INotebookInfo }>(
      'jupyter_get_context'
    );
    expect(context.structured!.notebook!.path).toBe(path);
  });

  test('reuses an open notebook with its unsaved edits @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    const path = await (async () => {
      await jupyter.start();
      return jupyter.addFixture('simple.ipynb');
    })();
    await human.openNotebook(path);
    await human.setCellSource(1, 'x = "unsaved"');
    const pages = jupyter.context.pages().length;
    const result = await agent.call<IOpened>('jupyter_open_notebook', {
      path,
      cellId: 'set-x'
    });
    expect(result.isError).toBe(false);
    expect(result.structured).toMatchObject({
      notebook: { path, dirty: true },
      focus: { activeCellId: 'set-x', activeCellIndex: 1 }
    });
    expect((await human.cellSources({ path }))[1]).toBe('x = "unsaved"');
    // Reused, never opened again in another tab.
    expect(jupyter.context.pages()).toHaveLength(pages);
  });

  test('missing files, non-notebooks and unknown cells are structured errors @backend', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    const path = await jupyter.addFixture('simple.ipynb');
    const text = await jupyter.createFile('notes.txt', 'hello');
    await agent.waitForTools(['jupyter_open_notebook']);

    const missing = await agent.call('jupyter_open_notebook', {
      path: jupyter.path('missing.ipynb')
    });
    expect(missing.isError).toBe(true);
    expect(missing.structured).toEqual({
      error: 'NOTEBOOK_NOT_FOUND',
      message: `No notebook found at "${jupyter.path('missing.ipynb')}".`,
      path: jupyter.path('missing.ipynb')
    });
    const notNotebook = await agent.call('jupyter_open_notebook', {
      path: text
    });
    expect(notNotebook.structured).toMatchObject({
      error: 'NOTEBOOK_NOT_FOUND',
      path: text
    });
    const absolute = await agent.call('jupyter_open_notebook', {
      path: `/${path}`
    });
    expect(absolute.structured).toMatchObject({ error: 'INVALID_PATH' });

    const badCell = await agent.call('jupyter_open_notebook', {
      path,
      cellId: 'no-such-cell'
    });
    expect(badCell.structured).toEqual({
      error: 'CELL_NOT_FOUND',
      message: 'No cell with id "no-such-cell" in this notebook.',
      cellId: 'no-such-cell'
    });
    expect(jupyter.context.pages()).toHaveLength(1);
  });
});

/**
 * Open a notebook at an unknown cell and at a cell the owner hid: both answer
 * exactly CELL_NOT_FOUND, and nothing opens, neither a tab in this page nor
 * another browser tab.
 */
async function expectBadCellOpensNothing(
  jupyter: JupyterApp,
  agent: Agent
): Promise<void> {
  const path = await jupyter.createNotebook(
    'cells.ipynb',
    notebookOf([
      codeCell('shown', 'x = 1'),
      codeCell('hidden-cell', 'y = 2', {
        metadata: { jupyterlite_webmcp: { version: 1, access: 'none' } }
      })
    ])
  );
  await agent.waitForTools(['jupyter_open_notebook']);
  const pages = jupyter.context.pages().length;
  const opened: string[] = [];
  // a tab that opens fails the test at once (the call may not return while
  // the new tab loads)
  const tabOpened = new Promise<string>(resolve =>
    jupyter.context.on('page', page => {
      opened.push(page.url());
      resolve(page.url());
    })
  );
  for (const cellId of ['no-such-cell', 'hidden-cell']) {
    const result = await Promise.race([
      agent.call('jupyter_open_notebook', { path, cellId }),
      tabOpened.then(url => {
        throw new Error(`jupyter_open_notebook opened a tab: ${url}`);
      })
    ]);
    expect(result.isError, cellId).toBe(true);
    expect(result.structured, cellId).toEqual({
      error: 'CELL_NOT_FOUND',
      message: `No cell with id "${cellId}" in this notebook.`,
      cellId
    });
  }
  // a tab the app opens appears within a moment of the call
  await jupyter.page.waitForTimeout(1000);
  expect(opened).toEqual([]);
  expect(jupyter.context.pages()).toHaveLength(pages);
  const context = await agent.call<{
    workspace: { openDocuments: string[] };
  }>('jupyter_get_context');
  expect(context.structured!.workspace.openDocuments).not.toContain(path);
}

test.describe('jupyter_open_notebook with a cell it cannot show', () => {
  // each test works in its own notebooks: they share one app start-up
  test.use({ shareApp: true });

  test('an unknown or hidden cellId opens nothing @backend', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    await expectBadCellOpensNothing(jupyter, agent);
  });

  test("in JupyterLite's one-notebook-per-tab pages too @lite-only", async ({
    jupyter,
    agent
  }) => {
    await jupyter.open(undefined, { ui: 'notebook' });
    await expectBadCellOpensNothing(jupyter, agent);
  });
});

test.describe('jupyter_create_notebook', () => {
  // each test works in its own notebooks: they share one app start-up
  test.use({ shareApp: true });

  test('creates an empty notebook, opens it, and never overwrites', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    const dir = await jupyter.ensureDir();
    await agent.waitForTools(['jupyter_create_notebook']);
    const create = () =>
      agent.call<ICreated>('jupyter_create_notebook', {
        name: 'fresh',
        directory: dir,
        kernel: 'PYTHON'
      });
    const [tab, result] = await Promise.all([
      jupyter.ui === 'notebook'
        ? jupyter.context.waitForEvent('page')
        : Promise.resolve(null),
      create()
    ]);
    const path = jupyter.path('fresh.ipynb');
    expect(result.isError).toBe(false);
    expect(result.structured).toMatchObject({
      path,
      notebook: { path, name: 'fresh.ipynb' }
    });
    const saved = await jupyter.readNotebook(path);
    expect(saved.cells).toEqual([]);
    expect(saved.metadata.kernelspec).toMatchObject({ language: 'python' });
    if (tab) {
      expect(result.structured!.openedIn).toBe('new-tab');
      await tab.waitForURL(/fresh\.ipynb/);
    } else {
      expect(result.structured!.kernel.name).toBe(
        saved.metadata.kernelspec!.name
      );
      const context = await agent.call<{ notebook: INotebookInfo }>(
        'jupyter_get_context'
      );
      expect(context.structured!.notebook!.path).toBe(path);
    }

    // A second creation refuses, and the file is untouched.
    const before = await jupyter.read(path);
    const again = await agent.call('jupyter_create_notebook', {
      name: 'fresh.ipynb',
      directory: dir
    });
    expect(again.isError).toBe(true);
    expect(again.structured).toEqual({
      error: 'PATH_EXISTS',
      message: `A file already exists at "${path}"; nothing was overwritten.`,
      path
    });
    expect((await jupyter.read(path)).last_modified).toBe(before.last_modified);
    expect((await jupyter.list()).map(entry => entry.name)).toEqual([
      'fresh.ipynb'
    ]);
  });

  test('an existing file of another kind is never overwritten either @backend', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    const text = await jupyter.createFile('report.ipynb', 'not json at all');
    await agent.waitForTools(['jupyter_create_notebook']);
    const result = await agent.call('jupyter_create_notebook', {
      name: 'report',
      directory: jupyter.dir
    });
    expect(result.structured).toMatchObject({ error: 'PATH_EXISTS' });
    expect(await jupyter.readText(text)).toBe('not json at all');
  });
});
