/**
 * A notebook written before nbformat 4.5 (no cell ids, `nbformat_minor: 2`,
 * as Jupyter wrote them before 2021), through native WebMCP: the ids the
 * agent reads from the closed file are the same on every read, keep
 * addressing the same cells once the notebook is open, and a save writes
 * them. In JupyterLab and Lite a write tool opens it in the background; in
 * Notebook 7 (one notebook per tab) jupyter_open_notebook opens it, at a cell
 * the agent read, in a new tab. See docs/legacy-notebooks.md.
 */
import type { ICell, INotebookContent } from '@jupyterlab/nbformat';

import { expect, test } from '../fixtures';
import type { Agent } from '../agent';

const FIXTURE = 'legacy-nbformat-4.2.ipynb';

/** Cells 3 and 4 of the fixture are the same code with the same output. */
const DUPLICATE = 'print(total / len(rain))';
const EDITED = 'print(round(total / len(rain), 1))';

interface INotebookInfo {
  path: string;
  dirty: boolean;
  revision: string;
  cellCount: number;
}

interface ICells {
  notebook: INotebookInfo;
  cells: { id: string; index: number; source: string; sourceHash: string }[];
}

interface IOpened {
  notebook: INotebookInfo;
  focus: { activeCellId: string | null; activeCellIndex: number | null } | null;
  openedIn?: string;
}

interface IListed {
  threads: {
    anchor: { kind: string; cellId: string; cellIndex: number; state: string };
  }[];
}

const TOOLS = [
  'jupyter_get_cells',
  'jupyter_update_cell',
  'jupyter_open_notebook',
  'jupyter_create_comment',
  'jupyter_list_comments',
  'jupyter_save_notebook'
];

const text = (source: ICell['source']) =>
  Array.isArray(source) ? source.join('') : source;

async function readCells(agent: Agent, notebookPath: string): Promise<ICells> {
  const read = await agent.call<ICells>('jupyter_get_cells', {
    notebookPath,
    includeOutputs: false
  });
  expect(read.isError, read.text).toBe(false);
  return read.structured!;
}

// each test works in its own notebooks: they share one app start-up
test.use({ shareApp: true });

test('a notebook without cell ids: the ids read from its closed file address the same cells once open, and a save writes them', async ({
  jupyter,
  human,
  agent
}) => {
  await jupyter.open();
  const path = await jupyter.addFixture(FIXTURE, 'rainfall.ipynb');
  await agent.waitForTools(TOOLS);
  // The app hands the file over as written: no ids, nbformat 4.2.
  const stored = await jupyter.readNotebook(path);
  expect(stored.nbformat_minor).toBe(2);
  expect(stored.cells.map(cell => cell.id)).toEqual(
    stored.cells.map(() => undefined)
  );

  // Closed: the same ids and revision on every read, one per cell.
  const first = await readCells(agent, path);
  const second = await readCells(agent, path);
  const ids = first.cells.map(cell => cell.id);
  expect(second.cells.map(cell => cell.id)).toEqual(ids);
  expect(second.notebook.revision).toBe(first.notebook.revision);
  expect(new Set(ids).size).toBe(6);
  expect(first.cells[3].source).toBe(DUPLICATE);
  expect(first.cells[4].source).toBe(DUPLICATE);

  if (jupyter.ui === 'notebook') {
    // One notebook per tab: the agent opens it at a cell it read, in a new
    // tab, and acts there.
    const [tab, opened] = await Promise.all([
      jupyter.context.waitForEvent('page'),
      agent.call<IOpened>('jupyter_open_notebook', { path, cellId: ids[3] })
    ]);
    expect(opened.isError, opened.text).toBe(false);
    expect(opened.structured).toMatchObject({ openedIn: 'new-tab' });
    jupyter.usePage(tab);
    await jupyter.waitForApp(tab);
    await jupyter.waitForNotebook(path, { kernel: false });
    await agent.waitForTools(TOOLS);
  }

  // The second of the identical cells, by the id and hash of the closed
  // read: in JupyterLab the tool opens the notebook in the background.
  const update = await agent.call<{ cell: { id: string; index: number } }>(
    'jupyter_update_cell',
    {
      notebookPath: path,
      cellId: ids[4],
      source: EDITED,
      expectedSourceHash: first.cells[4].sourceHash
    }
  );
  expect(update.isError, update.text).toBe(false);
  expect(update.structured!.cell).toMatchObject({ id: ids[4], index: 4 });
  const sources = first.cells.map(cell => cell.source);
  sources[4] = EDITED;
  expect(await human.cellSources({ path })).toEqual(sources);
  expect(await human.cellIds({ path })).toEqual(ids);

  // The person opens it: the same ids, and the agent's read of the open
  // notebook gives them too.
  await human.openNotebook(path, { kernel: false });
  expect(await human.cellIds({ path })).toEqual(ids);
  expect((await readCells(agent, path)).cells.map(cell => cell.id)).toEqual(
    ids
  );

  const comment = await agent.call('jupyter_create_comment', {
    notebookPath: path,
    anchor: { kind: 'cell', cellId: ids[5] },
    message: 'December is not in this data set.'
  });
  expect(comment.isError, comment.text).toBe(false);

  if (jupyter.ui !== 'notebook') {
    const opened = await agent.call<IOpened>('jupyter_open_notebook', {
      path,
      cellId: ids[3]
    });
    expect(opened.isError, opened.text).toBe(false);
    expect(opened.structured!.focus).toMatchObject({
      activeCellId: ids[3],
      activeCellIndex: 3
    });
  }

  // Saved: the file now carries those ids, as nbformat 4.5.
  const saved = await agent.call('jupyter_save_notebook', {
    notebookPath: path
  });
  expect(saved.isError, saved.text).toBe(false);
  const file: INotebookContent = await jupyter.readNotebook(path);
  expect(file.nbformat).toBe(4);
  expect(file.nbformat_minor).toBe(5);
  expect(file.cells.map(cell => cell.id)).toEqual(ids);
  expect(file.cells.map(cell => text(cell.source))).toEqual(sources);

  // The thread is anchored to its cell, in the live notebook and the file.
  const listed = await agent.call<IListed>('jupyter_list_comments', {
    notebookPath: path
  });
  expect(listed.isError, listed.text).toBe(false);
  expect(listed.structured!.threads).toEqual([
    expect.objectContaining({
      anchor: expect.objectContaining({
        kind: 'cell',
        cellId: ids[5],
        cellIndex: 5,
        state: 'exact'
      })
    })
  ]);
  expect(JSON.stringify(file.metadata)).toContain(ids[5]);
});
