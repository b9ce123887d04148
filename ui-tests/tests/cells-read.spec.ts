/**
 * jupyter_get_cells through native WebMCP: reads come from the live model
 * (unsaved edits included), a notebook that is not open is read from its
 * file without opening a tab, changing focus or starting a kernel, source
 * hashes depend only on a cell's type and source, and the revision only on
 * the cells the agent can see.
 */
import { expect, test } from '../fixtures';
import type { Agent } from '../agent';
import type { Human } from '../human';
import type { JupyterApp } from '../jupyter';
import {
  codeCell,
  markdownCell,
  notebookOf,
  rawCell
} from '../notebook-content';

interface INotebookInfo {
  path: string;
  name: string;
  dirty: boolean;
  revision: string;
  cellCount: number;
}

interface ICell {
  id: string;
  index: number;
  type: string;
  source?: string;
  sourceTruncated?: boolean;
  sourceHash: string;
  executionCount?: number | null;
  outputs?: Record<string, unknown>[];
  outputsTruncated?: boolean;
  metadata?: Record<string, unknown>;
}

interface ICells {
  notebook: INotebookInfo;
  cells: ICell[];
  truncated: boolean;
  omittedCount: number;
  hiddenCellCount: number;
}

interface IFocus {
  activeCellId: string | null;
  activeCellIndex: number | null;
  selectedCellIds: string[];
}

interface IContext {
  notebook: INotebookInfo | null;
  focus: IFocus | null;
}

const TOOLS = ['jupyter_get_context', 'jupyter_get_cells'];

/**
 * What every app computes for a code cell `x = 1` and a markdown cell
 * `x = 1`: the hash is a function of the cell type and source only, so each
 * app (and each fresh page) must give exactly these.
 */
const HASH_CODE_X1 = 'sha256:89811aa68d45fc05';
const HASH_MARKDOWN_X1 = 'sha256:ec78fe474fc76944';

/** The access metadata the owner's context menu writes to hide a cell. */
const HIDDEN = { version: 1, access: 'none' };

/** Opens a notebook where the agent acts on it: this tab (Notebook 7: its own). */
async function openForAgent(
  jupyter: JupyterApp,
  human: Human,
  agent: Agent,
  path: string,
  kernel = false
): Promise<void> {
  if (jupyter.ui === 'notebook') {
    await jupyter.open(path, { kernel });
  } else {
    await human.openNotebook(path, { kernel });
  }
  await agent.waitForTools(TOOLS);
}

/** A saved source: nbformat allows a string or a list of lines. */
function text(source: string | string[]): string {
  return Array.isArray(source) ? source.join('') : source;
}

test.describe('jupyter_get_cells', () => {
  // each test works in its own notebooks: they share one app start-up
  test.use({ shareApp: true });

  test('reads the live model: unsaved edits, ranges, ids in order, outputs on request @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('cells-basic.ipynb');
    // A kernel that starts writes its language into the notebook's metadata,
    // which makes it dirty: up first (Pyodide too), and saved, so the edits
    // below are the only unsaved ones.
    await openForAgent(jupyter, human, agent, path, true);
    await human.save();

    const all = await agent.call<ICells>('jupyter_get_cells');
    expect(all.isError).toBe(false);
    const read = all.structured!;
    expect(read.notebook).toMatchObject({
      path,
      name: 'cells-basic.ipynb',
      dirty: false,
      cellCount: 6
    });
    expect(read).toMatchObject({
      truncated: false,
      omittedCount: 0,
      hiddenCellCount: 0
    });
    expect(read.cells.map(cell => [cell.id, cell.index, cell.type])).toEqual([
      ['intro', 0, 'markdown'],
      ['load', 1, 'code'],
      ['show', 2, 'code'],
      ['note', 3, 'raw'],
      ['tagged', 4, 'code'],
      ['last', 5, 'code']
    ]);
    expect(read.cells.map(cell => cell.source)).toEqual([
      '# Cells\n\nA fixture for the cell tools.',
      'data = [1, 2, 3]\ntotal = sum(data)',
      'total',
      'a raw cell',
      "print('tagged')",
      '# the end'
    ]);
    // execution counts on code cells only; outputs only when asked for
    expect(read.cells.map(cell => cell.executionCount)).toEqual([
      undefined,
      1,
      2,
      undefined,
      null,
      null
    ]);
    expect(read.cells.filter(cell => 'outputs' in cell)).toEqual([]);
    expect(read.cells[4].metadata).toMatchObject({ tags: ['keep'] });
    expect(new Set(read.cells.map(cell => cell.sourceHash)).size).toBe(6);

    // The human's unsaved edit is what the agent reads, by default or by path.
    await human.typeInCell(1, '\nmean = total / len(data)');
    const edited =
      'data = [1, 2, 3]\ntotal = sum(data)\nmean = total / len(data)';
    for (const args of [{}, { notebookPath: path }]) {
      const live = (
        await agent.call<ICells>('jupyter_get_cells', {
          ...args,
          cellIds: ['load']
        })
      ).structured!;
      expect(live.notebook.dirty).toBe(true);
      expect(live.cells).toEqual([
        expect.objectContaining({ id: 'load', index: 1, source: edited })
      ]);
      expect(live.cells[0].sourceHash).not.toBe(read.cells[1].sourceHash);
    }
    const saved = await jupyter.readNotebook(path);
    expect(text(saved.cells[1].source)).toBe(
      'data = [1, 2, 3]\ntotal = sum(data)'
    );

    // Ids come back in the order asked, and win over a range.
    const picked = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['last', 'intro', 'show'],
      startIndex: 3,
      endIndex: 4
    });
    expect(picked.structured!.cells.map(cell => [cell.id, cell.index])).toEqual(
      [
        ['last', 5],
        ['intro', 0],
        ['show', 2]
      ]
    );

    // Ranges: inclusive start, exclusive end, clamped to the notebook.
    const ids = async (args: Record<string, unknown>) =>
      (
        await agent.call<ICells>('jupyter_get_cells', args)
      ).structured!.cells.map(cell => cell.id);
    expect(await ids({ startIndex: 2, endIndex: 4 })).toEqual(['show', 'note']);
    expect(await ids({ startIndex: 4, endIndex: 99 })).toEqual([
      'tagged',
      'last'
    ]);
    expect(await ids({ startIndex: 6 })).toEqual([]);

    // Without source, the hash is still there to write with.
    const bare = (
      await agent.call<ICells>('jupyter_get_cells', { includeSource: false })
    ).structured!;
    expect(bare.cells.filter(cell => 'source' in cell)).toEqual([]);
    expect(bare.cells[0].sourceHash).toBe(read.cells[0].sourceHash);

    const withOutputs = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['show', 'tagged'],
      includeOutputs: true
    });
    expect(withOutputs.structured!.cells.map(cell => cell.outputs)).toEqual([
      [
        {
          outputType: 'execute_result',
          executionCount: 2,
          text: '6',
          truncated: false
        }
      ],
      []
    ]);
  });

  test('sourceHash depends only on type and source, in every page and app; revision only on agent-visible cells', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const path = await jupyter.createNotebook(
      'hashes.ipynb',
      notebookOf([
        codeCell('a', 'x = 1'),
        codeCell('b', 'x = 1'),
        markdownCell('c', 'x = 1'),
        codeCell('d', 'y = 2')
      ])
    );
    await openForAgent(jupyter, human, agent, path);
    const read = async (args: Record<string, unknown> = {}) =>
      (await agent.call<ICells>('jupyter_get_cells', args)).structured!;
    const hashes = (cells: ICell[]) =>
      Object.fromEntries(cells.map(cell => [cell.id, cell.sourceHash]));

    const first = await read();
    const hash = hashes(first.cells);
    expect(hash.a).toBe(HASH_CODE_X1);
    expect(hash.b).toBe(HASH_CODE_X1);
    expect(hash.c).toBe(HASH_MARKDOWN_X1);
    expect(hash.d).not.toBe(HASH_CODE_X1);
    const revision = first.notebook.revision;

    // What the agent cannot see as cell content leaves the revision alone:
    // selection, outputs, metadata, saving.
    await human.selectCells(1, 2);
    await human.setCellOutputs(3, [
      { output_type: 'stream', name: 'stdout', text: 'printed\n' }
    ]);
    await human.setCellMetadata(3, 'tags', ['later']);
    await human.save();
    const quiet = await read();
    expect(quiet.notebook.revision).toBe(revision);
    expect(hashes(quiet.cells)).toEqual(hash);

    // An edit changes the cell's hash and the revision; undoing the text
    // gives both back, since they hash content, not time.
    await human.typeInCell(3, ' + 1');
    const edited = await read({ cellIds: ['d'] });
    expect(edited.cells[0].sourceHash).not.toBe(hash.d);
    expect(edited.notebook.revision).not.toBe(revision);
    await human.setCellSource(3, 'y = 2');
    const back = await read({ cellIds: ['d'] });
    expect(back.cells[0].sourceHash).toBe(hash.d);
    expect(back.notebook.revision).toBe(revision);

    // Hiding a cell changes which cells the agent sees, so the revision;
    // edits to the hidden cell then do not.
    await human.setCellMetadata(1, 'jupyterlite_webmcp', HIDDEN);
    const hidden = await read();
    expect(hidden.cells.map(cell => cell.id)).toEqual(['a', 'c', 'd']);
    expect(hidden.hiddenCellCount).toBe(1);
    expect(hidden.notebook.revision).not.toBe(revision);
    await human.setCellSource(1, 'secret = 42');
    expect((await read()).notebook.revision).toBe(hidden.notebook.revision);

    // A fresh page (a new app, nothing cached) computes the same hashes.
    await human.save();
    await jupyter.page.reload();
    await jupyter.waitForApp();
    await agent.waitForTools(TOOLS);
    const fresh = await read({ notebookPath: path, cellIds: ['a', 'c', 'd'] });
    expect(hashes(fresh.cells)).toEqual({
      a: HASH_CODE_X1,
      c: HASH_MARKDOWN_X1,
      d: hash.d
    });
  });

  test('a notebook that is not open is read from its file: no tab, no focus change, no kernel', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const mine = await jupyter.addFixture('cells-basic.ipynb', 'mine.ipynb');
    const other = await jupyter.createNotebook(
      'other.ipynb',
      notebookOf([
        markdownCell('o-intro', '# Other'),
        codeCell('o-run', 'print("from the file")', {
          outputs: [
            { output_type: 'stream', name: 'stdout', text: 'from the file\n' }
          ],
          executionCount: 3
        })
      ])
    );
    // The human works in their notebook, kernel up (Pyodide boots too slowly
    // to wait for in JupyterLite).
    await openForAgent(jupyter, human, agent, mine, jupyter.kind !== 'lite');
    await human.selectCells(2);

    const pages = jupyter.context.pages().length;
    const mainArea = await jupyter.mainArea();
    const sessions = await jupyter.sessions();
    const view = await jupyter.notebookView(mine);
    const context = (await agent.call<IContext>('jupyter_get_context'))
      .structured!;
    expect(context.notebook!.path).toBe(mine);
    expect(context.focus!.activeCellId).toBe('show');

    const result = await agent.call<ICells>('jupyter_get_cells', {
      notebookPath: other,
      includeOutputs: true
    });
    expect(result.isError).toBe(false);
    expect(result.structured).toEqual({
      notebook: expect.objectContaining({
        path: other,
        name: 'other.ipynb',
        dirty: false,
        cellCount: 2
      }),
      cells: [
        expect.objectContaining({
          id: 'o-intro',
          index: 0,
          type: 'markdown',
          source: '# Other'
        }),
        expect.objectContaining({
          id: 'o-run',
          index: 1,
          type: 'code',
          source: 'print("from the file")',
          executionCount: 3,
          outputs: [
            {
              outputType: 'stream',
              name: 'stdout',
              text: 'from the file\n',
              truncated: false
            }
          ]
        })
      ],
      truncated: false,
      omittedCount: 0,
      hiddenCellCount: 0
    });

    // Nothing opened, nothing moved, no kernel for it.
    expect(jupyter.context.pages()).toHaveLength(pages);
    expect(await jupyter.mainArea()).toEqual(mainArea);
    const after = await jupyter.sessions();
    expect(after.map(session => session.path)).not.toContain(other);
    if (jupyter.kind !== 'lite') {
      // (JupyterLite's own session for the human's notebook may still be starting)
      expect(after).toEqual(sessions);
    }
    expect(await jupyter.notebookView(mine)).toEqual(view);
    const focus = (await agent.call<IContext>('jupyter_get_context'))
      .structured!;
    expect(focus.notebook!.path).toBe(mine);
    expect(focus.focus).toEqual(context.focus);
  });

  test('at most 100 cells per call; the default range is 20 @rule', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    const cells = Array.from({ length: 130 }, (_, i) =>
      i % 3 === 2 ? rawCell(`n${i}`, `raw ${i}`) : codeCell(`n${i}`, `n = ${i}`)
    );
    const path = await jupyter.createNotebook('many.ipynb', notebookOf(cells));
    await agent.waitForTools(TOOLS);
    const read = async (args: Record<string, unknown>) =>
      (
        await agent.call<ICells>('jupyter_get_cells', {
          notebookPath: path,
          ...args
        })
      ).structured!;
    const range = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `n${from + i}`);

    const capped = await read({ startIndex: 0, endIndex: 130 });
    expect(capped.cells.map(cell => cell.id)).toEqual(range(0, 100));
    expect(capped).toMatchObject({ truncated: true, omittedCount: 30 });
    expect(capped.notebook.cellCount).toBe(130);

    const byIds = await read({ cellIds: range(0, 101).reverse() });
    expect(byIds.cells.map(cell => cell.id)).toEqual(range(1, 101).reverse());
    expect(byIds).toMatchObject({ truncated: true, omittedCount: 1 });

    const first = await read({});
    expect(first.cells.map(cell => cell.id)).toEqual(range(0, 20));
    expect(first).toMatchObject({ truncated: false, omittedCount: 0 });
    const tail = await read({ startIndex: 120 });
    expect(tail.cells.map(cell => cell.id)).toEqual(range(120, 130));
  });

  test('errors: no notebook, missing or hidden notebook, unknown or hidden cell, bad range @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const path = await jupyter.addFixture('cells-basic.ipynb');
    const missing = jupyter.path('missing.ipynb');
    const notes = await jupyter.createFile('notes.txt', 'not a notebook');
    const secret = await jupyter.createNotebook(
      'secret.ipynb',
      notebookOf([codeCell('s', 'hidden = True')], {
        jupyterlite_webmcp: { version: 1, notebookAccess: 'none' }
      })
    );
    await agent.waitForTools(TOOLS);
    const call = async (args: Record<string, unknown>) =>
      agent.call('jupyter_get_cells', args);
    const notFound = (p: string) => ({
      error: 'NOTEBOOK_NOT_FOUND',
      message: `No notebook found at "${p}".`,
      path: p
    });

    // Nothing open and no path.
    const none = await call({});
    expect(none.isError).toBe(true);
    expect(none.structured).toEqual({
      error: 'NO_ACTIVE_NOTEBOOK',
      message: expect.any(String)
    });
    // A missing file, a file that is not a notebook, and a notebook the
    // owner hid all read the same.
    expect((await call({ notebookPath: missing })).structured).toEqual(
      notFound(missing)
    );
    expect((await call({ notebookPath: notes })).structured).toEqual(
      notFound(notes)
    );
    const hiddenNotebook = await call({ notebookPath: secret });
    expect(hiddenNotebook.isError).toBe(true);
    expect(hiddenNotebook.structured).toEqual(notFound(secret));

    await openForAgent(jupyter, human, agent, path);
    const unknown = await call({ cellIds: ['load', 'nope'] });
    expect(unknown.isError).toBe(true);
    expect(unknown.structured).toEqual({
      error: 'CELL_NOT_FOUND',
      message: 'No cell with id "nope" in this notebook.',
      cellId: 'nope'
    });
    // A cell the owner hid reads exactly like one that does not exist.
    await human.setCellMetadata(3, 'jupyterlite_webmcp', HIDDEN);
    expect((await call({ cellIds: ['note'] })).structured).toEqual({
      error: 'CELL_NOT_FOUND',
      message: 'No cell with id "note" in this notebook.',
      cellId: 'note'
    });

    const backwards = await call({ startIndex: 4, endIndex: 2 });
    expect(backwards.isError).toBe(true);
    expect(backwards.structured).toMatchObject({ error: 'INVALID_ARGUMENT' });
    for (const bad of [
      { startIndex: -1 },
      { endIndex: 1.5 },
      { cellIds: 'load' },
      { includeOutputs: 'yes' },
      { unknownField: true }
    ]) {
      const result = await call(bad);
      expect(result.isError, JSON.stringify(bad)).toBe(true);
      expect(result.structured, JSON.stringify(bad)).toMatchObject({
        error: 'INVALID_ARGUMENT'
      });
    }

    // The owner hides the open notebook: it reads like no notebook at all.
    await human.setNotebookMetadata('jupyterlite_webmcp', {
      version: 1,
      notebookAccess: 'none'
    });
    expect((await call({})).structured).toEqual(none.structured);
    expect((await call({ notebookPath: path })).structured).toEqual(
      notFound(path)
    );
  });
});
