/**
 * jupyter_focus_cell, jupyter_save_notebook and jupyter_export_notebook
 * through native WebMCP.
 *
 * Focus changes only what is on screen: a far cell of a windowed notebook is
 * scrolled to before its editor gets the selection, and a bad cell or
 * position changes nothing. Save goes through the app's own save. Export
 * renders the live notebook as markdown.
 */
import { expect, shareInLab, test } from '../fixtures';
import type { Agent } from '../agent';
import type { Human } from '../human';
import { type JupyterApp, readFixture } from '../jupyter';
import { codeCell, markdownCell, notebookOf } from '../notebook-content';

interface INotebookInfo {
  path: string;
  name: string;
  dirty: boolean;
  revision: string;
  cellCount: number;
}

interface IPosition {
  line: number;
  column: number;
}

interface IFocus {
  activeCellId: string | null;
  activeCellIndex: number | null;
  activeCellType: string | null;
  selectedCellIds: string[];
  hiddenSelectedCellCount: number;
  hiddenActiveCell: boolean;
  cursor: IPosition | null;
  textSelection: {
    start: IPosition;
    end: IPosition;
    text: string;
    truncated?: boolean;
  } | null;
}

interface IFocused {
  notebook: INotebookInfo;
  focus: IFocus;
}

interface IContext {
  notebook: INotebookInfo | null;
  focus: IFocus | null;
}

interface IExport {
  notebookPath: string;
  document: string;
  truncated: boolean;
  cellCount: number;
  hiddenCellCount: number;
}

interface IError {
  error: string;
  message: string;
  [key: string]: unknown;
}

const TOOLS = [
  'jupyter_get_context',
  'jupyter_get_cells',
  'jupyter_focus_cell',
  'jupyter_save_notebook',
  'jupyter_export_notebook'
];
const TRACKER = '@jupyterlab/notebook-extension:tracker';

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

async function context(agent: Agent): Promise<IContext> {
  return (await agent.call<IContext>('jupyter_get_context')).structured!;
}

/**
 * The context without the kernel's status, which the kernel changes on its
 * own (a Pyodide kernel may still be booting while a test runs).
 */
function withoutKernelStatus(value: IContext): unknown {
  const { kernel, ...rest } = value as IContext & {
    kernel?: Record<string, unknown> | null;
  };
  return { ...rest, kernel: kernel ? { ...kernel, status: 'any' } : kernel };
}

function notebookNotFound(path: string): IError {
  return {
    error: 'NOTEBOOK_NOT_FOUND',
    message: `No notebook found at "${path}".`,
    path
  };
}

function otherTab(path: string): Record<string, unknown> {
  return {
    error: 'INVALID_ARGUMENT',
    message: expect.stringContaining("act in that notebook's tab"),
    path,
    reason: 'other-tab'
  };
}

/** A saved source: nbformat allows a string or a list of lines. */
function text(source: string | string[]): string {
  return Array.isArray(source) ? source.join('') : source;
}

/** 200 two-line code cells, c0 … c199. */
const WINDOWED = notebookOf(
  Array.from({ length: 200 }, (_, i) =>
    codeCell(`c${i}`, `value_${i} = ${i}\nprint(value_${i})`)
  )
);

/** "value_150" on the second line of c150. */
const SELECTION = {
  start: { line: 1, column: 6 },
  end: { line: 1, column: 15 }
};

/**
 * Focuses c150 with a selection and checks it is on screen, active, in edit
 * mode, with exactly that text selected in its editor.
 */
async function focusFarCell(
  jupyter: JupyterApp,
  agent: Agent,
  path: string
): Promise<void> {
  const revision = (await context(agent)).notebook!.revision;
  expect((await jupyter.cellView(150)).inViewport).toBe(false);

  const result = await agent.call<IFocused>('jupyter_focus_cell', {
    cellId: 'c150',
    selection: SELECTION
  });
  expect(result.isError).toBe(false);
  const selection = { ...SELECTION, text: 'value_150' };
  expect(result.structured).toEqual({
    notebook: expect.objectContaining({ path, cellCount: 200, revision }),
    focus: {
      activeCellId: 'c150',
      activeCellIndex: 150,
      activeCellType: 'code',
      selectedCellIds: ['c150'],
      hiddenSelectedCellCount: 0,
      hiddenActiveCell: false,
      cursor: expect.any(Object),
      textSelection: selection
    }
  });
  // On screen: scrolled to, its editor shown and in edit mode. Under full
  // windowing the list measures the cells it rendered around c150 at their
  // real heights after the call, which can move c150 off screen for a frame
  // until the list scrolls back to the item it was asked for (seen once in
  // 30 runs under CPU load: off by 52 px, back 30 ms later; at rest it stays
  // on screen through the rest of the notebook's first rendering).
  await expect
    .poll(() => jupyter.cellView(150), { timeout: 5_000 })
    .toMatchObject({
      id: 'c150',
      attached: true,
      inViewport: true,
      active: true,
      editorVisible: true
    });
  expect(await jupyter.notebookView()).toMatchObject({
    activeCellIndex: 150,
    mode: 'edit',
    current: true
  });
  // What the editor holds is what the agent reads next.
  const now = await context(agent);
  expect(now.focus).toMatchObject({
    activeCellId: 'c150',
    textSelection: selection
  });
  expect(now.notebook!.revision).toBe(revision);
}

/**
 * Waits for the notebook to render more of the cells still missing from the
 * DOM (the default windowing renders them in order when the browser is idle,
 * each one pushing down what follows), then checks the cell at `index` is
 * still on screen and active.
 */
async function stillOnScreenAsCellsRender(
  jupyter: JupyterApp,
  index: number
): Promise<void> {
  const cells = (await jupyter.notebook()).locator('.jp-Cell');
  const rendered = await cells.count();
  expect(rendered).toBeLessThan(index);
  await expect
    .poll(() => cells.count(), { timeout: 30_000 })
    .toBeGreaterThan(rendered + 20);
  expect(await jupyter.cellView(index)).toMatchObject({
    inViewport: true,
    active: true
  });
}

test.describe('jupyter_focus_cell', () => {
  // each test works in its own notebooks: in JupyterLab they share the
  // worker's app start-up, but the one that changes the windowing setting
  test.use(shareInLab);

  test.describe('full windowing', () => {
    test.use({ shareApp: false });

    test('full windowing: a cell far off screen is scrolled to, then its editor gets the selection @shell', async ({
      jupyter,
      human,
      agent
    }) => {
      await jupyter.open();
      const path = await jupyter.createNotebook('windowed.ipynb', WINDOWED);
      await human.setSetting(TRACKER, 'windowingMode', 'full');
      await openForAgent(jupyter, human, agent, path);
      expect((await jupyter.notebookView()).windowingMode).toBe('full');
      // Windowed out: not even in the DOM. While the notebook is new, the
      // notebook renders each cell once in idle time to measure it, attached
      // for a frame, so this waits for a moment it is not.
      await expect
        .poll(async () => (await jupyter.cellView(150)).attached)
        .toBe(false);
      await focusFarCell(jupyter, agent, path);
    });
  });

  test('default windowing: a cell far off screen is scrolled to, then its editor gets the selection @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.createNotebook('windowed.ipynb', WINDOWED);
    await openForAgent(jupyter, human, agent, path);
    // JupyterLab 4.6's default: every cell is attached, in the background,
    // and the browser skips rendering those off screen
    expect((await jupyter.notebookView()).windowingMode).toBe(
      'contentVisibility'
    );
    await expect
      .poll(async () => (await jupyter.cellView(199)).attached, {
        timeout: 60_000
      })
      .toBe(true);
    await focusFarCell(jupyter, agent, path);
  });

  test('default windowing, 2,000 cells: a far cell not yet rendered is on screen when the call returns @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.createNotebook(
      'large.ipynb',
      notebookOf(
        Array.from({ length: 2000 }, (_, i) =>
          codeCell(`k${i}`, `cell_${i} = ${i}`)
        )
      )
    );
    await openForAgent(jupyter, human, agent, path);
    expect((await jupyter.cellView(1000)).attached).toBe(false);
    const result = await agent.call<IFocused>('jupyter_focus_cell', {
      cellId: 'k1000',
      cursor: { line: 0, column: 4 }
    });
    expect(result.isError).toBe(false);
    expect(result.structured!.focus).toMatchObject({
      activeCellId: 'k1000',
      cursor: { line: 0, column: 4 }
    });
    expect(await jupyter.cellView(1000)).toMatchObject({
      attached: true,
      inViewport: true,
      active: true
    });
    await stillOnScreenAsCellsRender(jupyter, 1000);
  });

  test('a cursor without a selection; a selection wins over a cursor; a markdown cell shows its editor @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('cells-basic.ipynb');
    await openForAgent(jupyter, human, agent, path);
    const { revision } = (await context(agent)).notebook!;

    const cursor = await agent.call<IFocused>('jupyter_focus_cell', {
      cellId: 'load',
      cursor: { line: 1, column: 5 }
    });
    expect(cursor.structured!.focus).toMatchObject({
      activeCellId: 'load',
      activeCellIndex: 1,
      cursor: { line: 1, column: 5 },
      textSelection: null
    });
    expect((await context(agent)).focus!.cursor).toEqual({
      line: 1,
      column: 5
    });
    // the end of a line is a position too ("total = sum(data)": 17 characters)
    const end = await agent.call<IFocused>('jupyter_focus_cell', {
      cellId: 'load',
      cursor: { line: 1, column: 17 }
    });
    expect(end.structured!.focus.cursor).toEqual({ line: 1, column: 17 });

    // "Cells" in "# Cells"; the cursor is ignored, even one out of range
    const markdown = await agent.call<IFocused>('jupyter_focus_cell', {
      cellId: 'intro',
      cursor: { line: 99, column: 99 },
      selection: { start: { line: 0, column: 2 }, end: { line: 0, column: 7 } }
    });
    expect(markdown.isError).toBe(false);
    expect(markdown.structured!.focus).toMatchObject({
      activeCellId: 'intro',
      activeCellType: 'markdown',
      textSelection: {
        start: { line: 0, column: 2 },
        end: { line: 0, column: 7 },
        text: 'Cells'
      }
    });
    expect(await jupyter.cellView(0)).toMatchObject({
      rendered: false,
      editorVisible: true,
      active: true
    });
    // focusing never changes content
    const fixture = readFixture('cells-basic.ipynb').cells;
    expect(await human.cellIds()).toEqual(fixture.map(cell => cell.id));
    expect(await human.cellSources()).toEqual(
      fixture.map(cell => text(cell.source))
    );
    expect((await context(agent)).notebook!.revision).toBe(revision);
  });

  test('a bad cellId or position changes nothing on screen @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const path = await jupyter.createNotebook(
      'forty.ipynb',
      notebookOf(
        Array.from({ length: 40 }, (_, i) =>
          codeCell(`c${i}`, `value_${i} = ${i}\nprint(value_${i})`)
        )
      )
    );
    const other = await jupyter.createNotebook(
      'other.ipynb',
      notebookOf([codeCell('o1', 'o = 1')])
    );
    const missing = jupyter.path('missing.ipynb');
    await agent.waitForTools(TOOLS);
    const focus = (args: Record<string, unknown>) =>
      agent.call<IError>('jupyter_focus_cell', args);

    const none = await focus({ cellId: 'c1' });
    expect(none.structured).toEqual({
      error: 'NO_ACTIVE_NOTEBOOK',
      message: expect.any(String)
    });
    expect(
      (await focus({ notebookPath: missing, cellId: 'c1' })).structured
    ).toEqual(notebookNotFound(missing));

    // The kernel is left to finish starting first: its status is not
    // something focusing changes, and it must not move under the check below.
    await openForAgent(jupyter, human, agent, path, jupyter.kind !== 'lite');
    await expect
      .poll(async () => (await jupyter.cellView(39)).attached, {
        timeout: 30_000
      })
      .toBe(true);
    await human.setCellMetadata(5, 'jupyterlite_webmcp', {
      version: 1,
      access: 'none'
    });
    // The human is at cell 20, "value_20" selected, the notebook scrolled there.
    await human.selectText(20, 0, 8);
    const view = await jupyter.notebookView();
    const mainArea = await jupyter.mainArea();
    const before = await context(agent);
    expect(before.focus).toMatchObject({
      activeCellId: 'c20',
      textSelection: { text: 'value_20' }
    });

    const unknown = await focus({ cellId: 'nope' });
    expect(unknown.structured).toEqual({
      error: 'CELL_NOT_FOUND',
      message: 'No cell with id "nope" in this notebook.',
      cellId: 'nope'
    });
    // a cell the owner hid reads exactly the same
    expect((await focus({ cellId: 'c5' })).structured).toEqual({
      error: 'CELL_NOT_FOUND',
      message: 'No cell with id "c5" in this notebook.',
      cellId: 'c5'
    });
    for (const bad of [
      { cellId: 'c30', cursor: { line: 2, column: 0 } },
      { cellId: 'c30', cursor: { line: 1, column: 17 } },
      {
        cellId: 'c30',
        selection: {
          start: { line: 0, column: 0 },
          end: { line: 5, column: 0 }
        }
      },
      {
        cellId: 'c30',
        selection: {
          // "value_30 = 30" has 13 characters
          start: { line: 0, column: 14 },
          end: { line: 1, column: 0 }
        }
      },
      { cellId: 'c30', selection: { start: { line: 0, column: 0 } } },
      { cellId: 'c30', cursor: { line: -1, column: 0 } },
      { cellId: 'c30', cursor: { line: 0 } }
    ]) {
      const result = await focus(bad);
      expect(result.isError, JSON.stringify(bad)).toBe(true);
      expect(result.structured, JSON.stringify(bad)).toMatchObject({
        error: 'INVALID_ARGUMENT'
      });
    }
    if (jupyter.ui !== 'notebook') {
      // a bad cell of a notebook that is not open does not open it
      expect(
        (await focus({ notebookPath: other, cellId: 'nope' })).structured
      ).toMatchObject({ error: 'CELL_NOT_FOUND', cellId: 'nope' });
    }

    // Nothing moved: same active cell, scroll position, mode, selection.
    expect(await jupyter.notebookView()).toEqual(view);
    expect(await jupyter.mainArea()).toEqual(mainArea);
    expect(withoutKernelStatus(await context(agent))).toEqual(
      withoutKernelStatus(before)
    );
  });

  test('a notebook that is not open: JupyterLab opens it in front at the cell; Notebook 7 refuses', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const mine = await jupyter.addFixture('cells-basic.ipynb', 'mine.ipynb');
    const other = await jupyter.createNotebook(
      'other.ipynb',
      notebookOf([codeCell('o1', 'o = 1'), codeCell('o2', 'p = 2')])
    );
    await openForAgent(jupyter, human, agent, mine);
    const pages = jupyter.context.pages().length;
    const result = await agent.call<IFocused>('jupyter_focus_cell', {
      notebookPath: other,
      cellId: 'o2',
      cursor: { line: 0, column: 1 }
    });
    if (jupyter.ui === 'notebook') {
      expect(result.isError).toBe(true);
      expect(result.structured).toEqual(otherTab(other));
      expect(jupyter.context.pages()).toHaveLength(pages);
      expect((await context(agent)).notebook!.path).toBe(mine);
      return;
    }
    expect(result.isError).toBe(false);
    expect(result.structured).toMatchObject({
      notebook: { path: other, cellCount: 2 },
      focus: { activeCellId: 'o2', cursor: { line: 0, column: 1 } }
    });
    expect((await jupyter.mainArea()).current!.path).toBe(other);
    expect(await jupyter.cellView(1, other)).toMatchObject({
      id: 'o2',
      active: true,
      inViewport: true
    });
  });
});

test.describe('jupyter_save_notebook', () => {
  // each test works in its own notebooks: they share one app start-up
  test.use({ shareApp: true });

  test('saves the live model through the app: the file has the edits, dirty is false @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('cells-basic.ipynb');
    // With its kernel up, in every app: a kernel that starts later writes
    // its language into the notebook's metadata, which makes it dirty again
    // after a save (seen in JupyterLite, where Pyodide finished booting
    // between the save and the next read)
    await openForAgent(jupyter, human, agent, path, true);
    await human.typeInCell(2, ' + 1');
    expect((await context(agent)).notebook!.dirty).toBe(true);

    const result = await agent.call('jupyter_save_notebook');
    expect(result.isError).toBe(false);
    expect(result.structured).toEqual({ saved: true, path, dirty: false });
    expect(text((await jupyter.readNotebook(path)).cells[2].source)).toBe(
      'total + 1'
    );
    expect((await context(agent)).notebook!.dirty).toBe(false);

    await human.typeInCell(2, ' + 2');
    const byPath = await agent.call('jupyter_save_notebook', {
      notebookPath: path
    });
    expect(byPath.structured).toEqual({ saved: true, path, dirty: false });
    expect(text((await jupyter.readNotebook(path)).cells[2].source)).toBe(
      'total + 1 + 2'
    );
  });

  test('a notebook that is not open, and errors: nothing is written', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const mine = await jupyter.addFixture('cells-basic.ipynb', 'mine.ipynb');
    const other = await jupyter.createNotebook(
      'other.ipynb',
      notebookOf([codeCell('o1', 'o = 1')])
    );
    const hidden = await jupyter.createNotebook(
      'hidden.ipynb',
      notebookOf([codeCell('h', 'h = 1')], {
        jupyterlite_webmcp: { version: 1, notebookAccess: 'none' }
      })
    );
    const missing = jupyter.path('missing.ipynb');
    await agent.waitForTools(TOOLS);
    const save = (args: Record<string, unknown> = {}) =>
      agent.call<IError>('jupyter_save_notebook', args);

    expect((await save()).structured).toEqual({
      error: 'NO_ACTIVE_NOTEBOOK',
      message: expect.any(String)
    });
    expect((await save({ notebookPath: missing })).structured).toEqual(
      notebookNotFound(missing)
    );
    expect((await save({ notebookPath: hidden })).structured).toEqual(
      notebookNotFound(hidden)
    );

    await openForAgent(jupyter, human, agent, mine);
    const stamp = (await jupyter.read(other)).last_modified;
    const mainArea = await jupyter.mainArea();
    const pages = jupyter.context.pages().length;
    const result = await save({ notebookPath: other });
    if (jupyter.ui === 'notebook') {
      // its unsaved edits, if any, live in its own tab
      expect(result.structured).toEqual(otherTab(other));
    } else {
      // nothing unsaved: its file is the notebook
      expect(result.isError).toBe(false);
      expect(result.structured).toEqual({
        saved: true,
        path: other,
        dirty: false
      });
    }
    expect((await jupyter.read(other)).last_modified).toBe(stamp);
    expect(await jupyter.mainArea()).toEqual(mainArea);
    expect(jupyter.context.pages()).toHaveLength(pages);

    // The owner makes the open notebook read-only: saving is refused.
    await human.typeInCell(2, ' + 1');
    await human.setNotebookMetadata('jupyterlite_webmcp', {
      version: 1,
      notebookAccess: 'read'
    });
    const mineStamp = (await jupyter.read(mine)).last_modified;
    expect((await save()).structured).toEqual({
      error: 'NOTEBOOK_ACCESS_DENIED',
      message: expect.any(String),
      path: mine,
      access: 'read'
    });
    expect((await jupyter.read(mine)).last_modified).toBe(mineStamp);
    expect((await context(agent)).notebook!.dirty).toBe(true);
    expect((await save({ extra: true })).structured).toMatchObject({
      error: 'INVALID_ARGUMENT'
    });
  });
});

test.describe('jupyter_export_notebook', () => {
  // each test works in its own notebooks: they share one app start-up
  test.use({ shareApp: true });

  const PNG_BYTES = (() => {
    const cell = readFixture('cells-export.ipynb').cells[2] as unknown as {
      outputs: { data: Record<string, string> }[];
    };
    return Buffer.from(cell.outputs[0].data['image/png'], 'base64').length;
  })();
  const TRACEBACK = (
    readFixture('cells-export.ipynb').cells[3] as unknown as {
      outputs: { traceback: string[] }[];
    }
  ).outputs[0].traceback
    .map(line => line.replace(/\u001b\[[0-9;]*m/g, ''))
    .join('\n');

  test('markdown verbatim, code fenced in the kernel language, outputs, image placeholders, longer fences @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('cells-export.ipynb');
    await openForAgent(jupyter, human, agent, path);
    const result = await agent.call<IExport>('jupyter_export_notebook');
    expect(result.isError).toBe(false);
    const exported = result.structured!;
    expect(exported).toMatchObject({
      notebookPath: path,
      truncated: false,
      cellCount: 6,
      hiddenCellCount: 0
    });
    const blocks = [
      // markdown, verbatim
      '# Report\n\nSome `inline` code and a list:\n\n- one\n- two',
      // code holding ``` is fenced with four
      "````python\ns = '''\n```\nnot a fence end\n```\n'''\nprint(s)\n````",
      // an output holding ```` is fenced with five
      '`````\n````\nfour backticks inside\n````\n`````',
      '```python\nplt.plot([1, 2, 3])\n```',
      '```\n<Figure size 640x480 with 1 Axes>\n```',
      `![output](image/png, ${PNG_BYTES} bytes — not included)`,
      '```python\nraise ValueError("bad value")\n```',
      // the traceback, without its colours
      `\`\`\`\n${TRACEBACK}\n\`\`\``,
      // a raw cell: fenced, no language
      '```\nraw text, not markdown\n```',
      '```python\n6 * 7\n```',
      '```\n42\n```'
    ];
    let at = -1;
    for (const block of blocks) {
      const found = exported.document.indexOf(block, at + 1);
      expect(found, `in order: ${block}`).toBeGreaterThan(at);
      at = found;
    }
    expect(exported.document.split('\n')).toContain(
      `![output](image/png, ${PNG_BYTES} bytes — not included)`
    );
    expect(exported.document).not.toContain('iVBORw0KGgo');
    expect(exported.document).not.toContain('\u001b');

    // Without outputs: the cells only.
    const bare = (
      await agent.call<IExport>('jupyter_export_notebook', {
        includeOutputs: false
      })
    ).structured!;
    expect(bare.document).toContain('```python\n6 * 7\n```');
    expect(bare.document).not.toContain('```\n42\n```');
    expect(bare.document).not.toContain('four backticks inside');
    expect(bare.document).not.toContain('![output]');
    expect(bare.document).not.toContain('ValueError: bad value');
  });

  test('the live notebook with its unsaved edits and hidden cells, another language from its file, errors @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const path = await jupyter.addFixture('cells-basic.ipynb');
    const julia = await jupyter.createNotebook(
      'julia.ipynb',
      notebookOf(
        [markdownCell('j0', '# Julia'), codeCell('j1', 'println(1 + 1)')],
        {
          kernelspec: {
            display_name: 'Julia 1.10',
            language: 'julia',
            name: 'julia-1.10'
          },
          language_info: { name: 'julia' }
        }
      )
    );
    const missing = jupyter.path('missing.ipynb');
    await agent.waitForTools(TOOLS);
    const exportIt = (args: Record<string, unknown> = {}) =>
      agent.call<IExport>('jupyter_export_notebook', args);

    expect((await exportIt()).structured).toEqual({
      error: 'NO_ACTIVE_NOTEBOOK',
      message: expect.any(String)
    });
    expect((await exportIt({ notebookPath: missing })).structured).toEqual(
      notebookNotFound(missing)
    );
    // Not open: read from its file, fenced in its kernel's language, no tab.
    const mainArea = await jupyter.settledMainArea();
    const fromFile = await exportIt({ notebookPath: julia });
    expect(fromFile.structured).toEqual({
      notebookPath: julia,
      document: '# Julia\n\n```julia\nprintln(1 + 1)\n```',
      truncated: false,
      cellCount: 2,
      hiddenCellCount: 0
    });
    expect(await jupyter.mainArea()).toEqual(mainArea);

    // kernel up, so it does not dirty the notebook after the human's save
    await openForAgent(jupyter, human, agent, path, jupyter.kind !== 'lite');
    await human.typeInCell(2, ' * 100');
    await human.save();
    await human.typeInCell(5, ' (unsaved)');
    await human.setCellMetadata(3, 'jupyterlite_webmcp', {
      version: 1,
      access: 'none'
    });
    const live = (await exportIt({ includeOutputs: false })).structured!;
    expect(live).toMatchObject({ cellCount: 5, hiddenCellCount: 1 });
    expect(live.document).toContain('```python\ntotal * 100\n```');
    expect(live.document).toContain('```python\n# the end (unsaved)\n```');
    // a hidden cell leaves no trace
    expect(live.document).not.toContain('a raw cell');
    // reading never marks the notebook dirty (it was, by the human)
    await human.save();
    await exportIt();
    expect((await context(agent)).notebook!.dirty).toBe(false);

    for (const bad of [{ format: 'pdf' }, { includeOutputs: 'no' }]) {
      const result = await exportIt(bad);
      expect(result.isError, JSON.stringify(bad)).toBe(true);
      expect(result.structured, JSON.stringify(bad)).toMatchObject({
        error: 'INVALID_ARGUMENT'
      });
    }
  });
});
