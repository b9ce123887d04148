import { YNotebook, type ISharedCell, type YCodeCell } from '@jupyter/ydoc';
import type { CodeMirrorEditor } from '@jupyterlab/codemirror';
import type * as nbformat from '@jupyterlab/nbformat';
import type {
  NotebookActions as NotebookActionsType,
  NotebookPanel,
  NotebookTracker as NotebookTrackerType
} from '@jupyterlab/notebook';
import type { NBTestUtils as NBTestUtilsType } from '@jupyterlab/notebook/lib/testutils';
import { Widget } from '@lumino/widgets';
import * as Y from 'yjs';

import { ACCESS_METADATA_KEY, type AgentAccess } from '../../src/access/model';
import { assertSourceHash } from '../../src/jupyter/cells';
import {
  assertWritableSource,
  deleteCell,
  insertCell,
  updateCell,
  type IInsertArgs
} from '../../src/jupyter/edit';
import { type IJupyterEnvironment } from '../../src/jupyter/environment';
import { normalizeError } from '../../src/common/errors';
import { sourceHash } from '../../src/common/hash';
import { NotebookResolver } from '../../src/jupyter/notebook';
import { TRUNCATION_MARKER } from '../../src/common/text';
import { LIMITS } from '../../src/limits';
import { silenceKnownWarnings } from '../quiet';

const WRITE_MAX = LIMITS.MAX_CELL_SOURCE_WRITE_BYTES;

silenceKnownWarnings();

/** The normalized error a call gives. */
async function failure(
  call: Promise<unknown> | (() => unknown)
): Promise<Record<string, unknown>> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (error) {
    return normalizeError(error);
  }
  throw new Error('expected a failure');
}

function setAccess(cell: ISharedCell, access: AgentAccess): void {
  cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access });
}

/** A code cell of nbformat 4.5. */
function code(id: string, source: string): nbformat.ICodeCell {
  return {
    id,
    cell_type: 'code',
    source,
    metadata: {},
    outputs: [],
    execution_count: null
  };
}

function markdown(id: string, source: string): nbformat.IMarkdownCell {
  return { id, cell_type: 'markdown', source, metadata: {} };
}

describe('assertSourceHash', () => {
  let notebook: YNotebook;

  beforeEach(() => {
    notebook = YNotebook.create();
  });

  afterEach(() => {
    notebook.dispose();
  });

  it('accepts the current hash', () => {
    const [cell] = notebook.insertCells(0, [code('c1', 'x = 1')]);
    expect(() =>
      assertSourceHash(cell, sourceHash('code', 'x = 1'), 'unused')
    ).not.toThrow();
  });

  it('refuses a stale hash with exactly the STALE_CELL shape', async () => {
    const [cell] = notebook.insertCells(0, [code('c1', 'x = 1')]);
    const read = sourceHash('code', 'x = 1');
    cell.setSource('x = 2  # the human');
    const error = await failure(() =>
      assertSourceHash(cell, read, 'Cell changed since it was read.')
    );
    expect(error).toEqual({
      error: 'STALE_CELL',
      message: 'Cell changed since it was read.',
      cellId: 'c1',
      expectedSourceHash: read,
      currentSourceHash: sourceHash('code', 'x = 2  # the human'),
      currentSourcePreview: 'x = 2  # the human'
    });
    // the code and the message lead, as the specification lists them
    expect(Object.keys(error)).toEqual([
      'error',
      'message',
      'cellId',
      'expectedSourceHash',
      'currentSourceHash',
      'currentSourcePreview'
    ]);
  });

  it('compares the type too: same source, other type, is stale', async () => {
    const [cell] = notebook.insertCells(0, [markdown('m1', 'x = 1')]);
    const error = await failure(() =>
      assertSourceHash(cell, sourceHash('code', 'x = 1'), 'stale')
    );
    expect(error.error).toBe('STALE_CELL');
  });

  it('bounds the preview to 400 characters, marker included', async () => {
    const [exact, over, wide] = notebook.insertCells(0, [
      code('c1', 'a'.repeat(400)),
      code('c2', 'b'.repeat(401)),
      // 4-byte characters count as one character each
      code('c3', '😀'.repeat(450))
    ]);
    const preview = async (cell: ISharedCell) =>
      String(
        (await failure(() => assertSourceHash(cell, 'sha256:0', 'stale')))
          .currentSourcePreview
      );
    expect(await preview(exact)).toBe('a'.repeat(400));
    const cut = await preview(over);
    expect(cut).toBe(
      'b'.repeat(400 - TRUNCATION_MARKER.length) + TRUNCATION_MARKER
    );
    expect([...cut]).toHaveLength(LIMITS.MAX_PREVIEW_CHARS);
    const emoji = await preview(wide);
    expect([...emoji]).toHaveLength(400);
    expect(emoji.startsWith('😀'.repeat(400 - TRUNCATION_MARKER.length))).toBe(
      true
    );
  });
});

describe('assertWritableSource', () => {
  it('accepts exactly 256 KiB of UTF-8', () => {
    expect(() => assertWritableSource('a'.repeat(WRITE_MAX))).not.toThrow();
    // 4-byte character ending exactly on the bound
    expect(() =>
      assertWritableSource(`${'a'.repeat(WRITE_MAX - 4)}😀`)
    ).not.toThrow();
    // 87,381 € signs: 262,143 bytes
    expect(() => assertWritableSource('€'.repeat(87381))).not.toThrow();
    expect(() => assertWritableSource('')).not.toThrow();
  });

  it('refuses 256 KiB + 1 byte, with its UTF-8 length', async () => {
    const error = await failure(() =>
      assertWritableSource('a'.repeat(WRITE_MAX + 1))
    );
    expect(error).toEqual({
      error: 'INVALID_ARGUMENT',
      message: `Invalid argument "source": ${WRITE_MAX + 1} bytes of UTF-8, more than the ${WRITE_MAX} allowed. Nothing was written.`,
      field: 'source',
      rule: 'maxBytes',
      bytes: WRITE_MAX + 1
    });
  });

  it('measures bytes, not characters', async () => {
    // 87,382 € signs: far fewer characters than the bound, 262,146 bytes
    expect(
      await failure(() => assertWritableSource('€'.repeat(87382)))
    ).toMatchObject({ error: 'INVALID_ARGUMENT', bytes: 262146 });
    // one 2-byte character tips it over
    expect(
      await failure(() => assertWritableSource(`${'a'.repeat(WRITE_MAX - 1)}é`))
    ).toMatchObject({ bytes: WRITE_MAX + 1 });
    // a 4-byte character one byte over the bound
    expect(
      await failure(() =>
        assertWritableSource(`${'a'.repeat(WRITE_MAX - 3)}😀`)
      )
    ).toMatchObject({ bytes: WRITE_MAX + 1 });
  });

  it('names the field it checked', async () => {
    expect(
      await failure(() =>
        assertWritableSource('a'.repeat(WRITE_MAX + 1), 'text')
      )
    ).toMatchObject({ field: 'text' });
  });
});

/**
 * updateCell on the shared model JupyterLab gives a notebook: a YNotebook with
 * per-cell undo (JupyterLab's NotebookModel sets
 * disableDocumentWideUndoRedo), resolved as the live notebook. updateCell
 * never touches the panel, so none is needed here; the panel tests below
 * repeat the essentials with a real NotebookPanel.
 */
describe('updateCell on a live shared model', () => {
  let notebook: YNotebook;
  let resolved: number;

  const resolver = () =>
    ({
      resolveLive: async () => {
        resolved++;
        return {
          path: 'work/a.ipynb',
          panel: null,
          model: notebook,
          dirty: true,
          release() {
            /* a live model is not released */
          }
        };
      }
    }) as unknown as NotebookResolver;

  const update = (cellId: string, source: string, expectedSourceHash: string) =>
    updateCell(resolver(), { cellId, source, expectedSourceHash });

  const cell = (index = 0) => notebook.cells[index];

  beforeEach(() => {
    resolved = 0;
    notebook = YNotebook.create({ disableDocumentWideUndoRedo: true });
    notebook.insertCells(0, [
      code('c1', 'x = 1'),
      code('c2', 'y = 2'),
      markdown('m1', '# Notes')
    ]);
    // loading the notebook is not an undo step of the human's
    notebook.cells.forEach(c => c.undoManager?.clear());
  });

  afterEach(() => {
    notebook.dispose();
  });

  it('replaces the source and returns the new snapshot', async () => {
    const result = await update('c2', 'y = 3', sourceHash('code', 'y = 2'));
    expect(cell(1).getSource()).toBe('y = 3');
    expect(result.cell).toMatchObject({
      id: 'c2',
      index: 1,
      type: 'code',
      source: 'y = 3',
      sourceHash: sourceHash('code', 'y = 3'),
      executionCount: null
    });
    // the write is recorded as the agent's (provenance)
    expect(result.cell.lastEditedBy).toBe('agent');
    expect(Date.parse(result.cell.lastEditedAt ?? '')).not.toBeNaN();
    expect(result.notebook).toMatchObject({
      path: 'work/a.ipynb',
      name: 'a.ipynb',
      cellCount: 3
    });
  });

  it('writes the smallest edit, so a cursor elsewhere stays put', async () => {
    const source = 'def f(a):\n    return a + 1\n\nprint(f(2))\n';
    cell(0).setSource(source);
    const ytext = (cell(0) as YCodeCell).ysource;
    // the human's cursor, just before "print"
    const cursor = Y.createRelativePositionFromTypeIndex(
      ytext,
      source.indexOf('print')
    );
    const deltas: unknown[] = [];
    ytext.observe(event => deltas.push(event.delta));
    const next = source.replace('a + 1', 'a + 10');
    await update('c1', next, sourceHash('code', source));
    expect(cell(0).getSource()).toBe(next);
    expect(deltas).toEqual([
      [{ retain: source.indexOf('1\n') + 1 }, { insert: '0' }]
    ]);
    const moved = Y.createAbsolutePositionFromRelativePosition(
      cursor,
      notebook.ydoc
    );
    expect(moved?.index).toBe(next.indexOf('print'));
  });

  it('replaces only the differing middle', async () => {
    const ytext = (cell(0) as YCodeCell).ysource;
    const deltas: unknown[] = [];
    ytext.observe(event => deltas.push(event.delta));
    await update('c1', 'x = 2', sourceHash('code', 'x = 1'));
    expect(deltas).toEqual([[{ retain: 4 }, { insert: '2' }, { delete: 1 }]]);
  });

  it('writes nothing when the source is already the one sent', async () => {
    const changes: unknown[] = [];
    cell(0).changed.connect((_, change) => changes.push(change));
    const result = await update('c1', 'x = 1', sourceHash('code', 'x = 1'));
    expect(changes).toEqual([]);
    expect(cell(0).canUndo()).toBe(false);
    expect(result.cell.sourceHash).toBe(sourceHash('code', 'x = 1'));
  });

  it('empties a cell when sent an empty source', async () => {
    await update('c1', '', sourceHash('code', 'x = 1'));
    expect(cell(0).getSource()).toBe('');
  });

  it('is one undo step that restores the exact previous source', async () => {
    await update('c1', 'total = sum(values)', sourceHash('code', 'x = 1'));
    expect(cell(0).undo()).toBe(true);
    expect(cell(0).getSource()).toBe('x = 1');
    expect(cell(0).canUndo()).toBe(false);
  });

  it('does not merge with a human edit typed just before it', async () => {
    // control: two quick human edits are one undo step (the capture window)
    cell(1).updateSource(5, 5, '0');
    cell(1).updateSource(6, 6, '0');
    cell(1).undo();
    expect(cell(1).getSource()).toBe('y = 2');

    cell(0).updateSource(5, 5, '0'); // the human types "0": x = 10
    await update('c1', 'x = 11', sourceHash('code', 'x = 10'));
    expect(cell(0).getSource()).toBe('x = 11');
    cell(0).undo();
    expect(cell(0).getSource()).toBe('x = 10'); // the human's edit survives
    cell(0).undo();
    expect(cell(0).getSource()).toBe('x = 1');
  });

  it('does not merge with a human edit typed just after it', async () => {
    await update('c1', 'x = 2', sourceHash('code', 'x = 1'));
    cell(0).updateSource(5, 5, '  # checked'); // the human, right after
    cell(0).undo();
    expect(cell(0).getSource()).toBe('x = 2');
    cell(0).undo();
    expect(cell(0).getSource()).toBe('x = 1');
  });

  it('refuses a stale hash and leaves the human source intact', async () => {
    const read = sourceHash('code', 'x = 1');
    cell(0).updateSource(5, 5, '  # mine'); // the human's unsaved edit
    const error = await failure(update('c1', 'x = 42', read));
    expect(error).toEqual({
      error: 'STALE_CELL',
      message: 'Cell changed since it was read.',
      cellId: 'c1',
      expectedSourceHash: read,
      currentSourceHash: sourceHash('code', 'x = 1  # mine'),
      currentSourcePreview: 'x = 1  # mine'
    });
    expect(cell(0).getSource()).toBe('x = 1  # mine');
    // only the human's own step is on the undo stack
    cell(0).undo();
    expect(cell(0).getSource()).toBe('x = 1');
    expect(cell(0).canUndo()).toBe(false);
  });

  it('accepts the currentSourceHash of a STALE_CELL on retry', async () => {
    cell(0).setSource('x = 5');
    const error = await failure(
      update('c1', 'x = 6', sourceHash('code', 'x = 1'))
    );
    await update('c1', 'x = 6', String(error.currentSourceHash));
    expect(cell(0).getSource()).toBe('x = 6');
  });

  it('refuses a read-only cell and hides a hidden one', async () => {
    setAccess(cell(0), 'read');
    setAccess(cell(1), 'none');
    expect(
      await failure(update('c1', 'z', sourceHash('code', 'x = 1')))
    ).toMatchObject({ error: 'CELL_ACCESS_DENIED', cellId: 'c1' });
    const hidden = await failure(
      update('c2', 'z', sourceHash('code', 'y = 2'))
    );
    notebook.deleteCell(1);
    const missing = await failure(
      update('c2', 'z', sourceHash('code', 'y = 2'))
    );
    expect(JSON.stringify(hidden)).toBe(JSON.stringify(missing));
    expect(hidden.error).toBe('CELL_NOT_FOUND');
    expect(cell(0).getSource()).toBe('x = 1');
  });

  it('refuses a source over 256 KiB before resolving the notebook', async () => {
    const error = await failure(
      update('c1', '€'.repeat(90000), sourceHash('code', 'x = 1'))
    );
    expect(error).toMatchObject({ error: 'INVALID_ARGUMENT', bytes: 270000 });
    expect(resolved).toBe(0);
    expect(cell(0).getSource()).toBe('x = 1');
  });

  it('writes a source of exactly 256 KiB whole', async () => {
    const source = 'a'.repeat(WRITE_MAX);
    const result = await update('c1', source, sourceHash('code', 'x = 1'));
    expect(cell(0).getSource()).toBe(source);
    // the read bound still applies to the returned snapshot
    expect(result.cell.sourceTruncated).toBe(true);
    expect(result.cell.sourceHash).toBe(sourceHash('code', source));
  });

  it('edits non-ASCII text exactly', async () => {
    cell(0).setSource('s = "café — naïve"');
    const next = 's = "cafés — naïf"';
    await update('c1', next, sourceHash('code', 's = "café — naïve"'));
    expect(cell(0).getSource()).toBe(next);
  });

  // BUG (src/jupyter/edit.ts, replaceSource): the common prefix and suffix
  // are found in UTF-16 code units, so an edit between two characters
  // outside the BMP that share their first (or last) surrogate splits the
  // pair. Yjs then stores U+FFFD for the orphaned half: replacing "😀" with
  // "😁" (both \ud83d…) leaves "x�\ude01y" in the cell, and the call reports
  // success with the hash of that corrupted source. The prefix and suffix
  // must stop at a code point boundary. `it.failing` keeps the suite green
  // until the fix; it turns red then, and becomes a plain `it`.
  it.failing('replaces one emoji with another exactly', async () => {
    cell(0).setSource('x = "😀"');
    const next = 'x = "😁"';
    const result = await update('c1', next, sourceHash('code', 'x = "😀"'));
    expect(cell(0).getSource()).toBe(next);
    expect(result.cell.sourceHash).toBe(sourceHash('code', next));
  });

  it.failing(
    'replaces an astral character sharing its low surrogate',
    async () => {
      // U+10000 is \ud800\udc00, U+1F400 (🐀) is \ud83d\udc00
      cell(0).setSource('a\u{10000}b');
      await update('c1', 'a🐀b', sourceHash('code', 'a\u{10000}b'));
      expect(cell(0).getSource()).toBe('a🐀b');
    }
  );
});

describe('deleteCell refusals (no write happens, so no panel is touched)', () => {
  let notebook: YNotebook;

  const resolver = () =>
    ({
      resolveLive: async () => ({
        path: 'a.ipynb',
        panel: null,
        model: notebook,
        dirty: false,
        release() {
          /* live */
        }
      })
    }) as unknown as NotebookResolver;

  beforeEach(() => {
    notebook = YNotebook.create({ disableDocumentWideUndoRedo: true });
    notebook.insertCells(0, [code('c1', 'x = 1'), code('c2', 'y = 2')]);
  });

  afterEach(() => {
    notebook.dispose();
  });

  it('refuses a stale hash with its own message, the cell kept', async () => {
    const read = sourceHash('code', 'x = 1');
    notebook.cells[0].setSource('x = 1  # the human');
    const error = await failure(
      deleteCell(resolver(), { cellId: 'c1', expectedSourceHash: read })
    );
    expect(error).toEqual({
      error: 'STALE_CELL',
      message: 'Cell changed since it was read; it was not deleted.',
      cellId: 'c1',
      expectedSourceHash: read,
      currentSourceHash: sourceHash('code', 'x = 1  # the human'),
      currentSourcePreview: 'x = 1  # the human'
    });
    expect(notebook.cells.map(c => c.id)).toEqual(['c1', 'c2']);
  });

  it('refuses read-only cells, and hidden ones exactly like unknown ids', async () => {
    setAccess(notebook.cells[0], 'read');
    setAccess(notebook.cells[1], 'none');
    const args = (cellId: string) => ({
      cellId,
      expectedSourceHash: sourceHash(
        'code',
        cellId === 'c1' ? 'x = 1' : 'y = 2'
      )
    });
    expect(await failure(deleteCell(resolver(), args('c1')))).toMatchObject({
      error: 'CELL_ACCESS_DENIED'
    });
    const hidden = await failure(deleteCell(resolver(), args('c2')));
    notebook.deleteCell(1);
    const missing = await failure(deleteCell(resolver(), args('c2')));
    expect(JSON.stringify(hidden)).toBe(JSON.stringify(missing));
    expect(notebook.cells).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------
// With a real NotebookPanel (JupyterLab's own test utilities, in jsdom)

interface IPanelKit {
  NBTestUtils: typeof NBTestUtilsType;
  NotebookActions: typeof NotebookActionsType;
  NotebookTracker: typeof NotebookTrackerType;
}

/**
 * JupyterLab's notebook packages ship ES modules. jest transforms them only
 * when jest.config.js lists '@jupyterlab/' among the packages to transform;
 * without it they fail to parse, and this suite fails with them.
 */
function loadPanelKit(): IPanelKit {
  const { NBTestUtils } = jest.requireActual<{
    NBTestUtils: typeof NBTestUtilsType;
  }>('@jupyterlab/notebook/lib/testutils');
  const { NotebookActions, NotebookTracker } = jest.requireActual<{
    NotebookActions: typeof NotebookActionsType;
    NotebookTracker: typeof NotebookTrackerType;
  }>('@jupyterlab/notebook');
  return { NBTestUtils, NotebookActions, NotebookTracker };
}

describe('with a real NotebookPanel', () => {
  const { NBTestUtils, NotebookActions, NotebookTracker } = loadPanelKit();
  let panel: NotebookPanel;
  let tracker: NotebookTrackerType;
  let resolver: NotebookResolver;

  const model = () => {
    const notebook = panel.content.model;
    if (!notebook) {
      throw new Error('the panel has no model');
    }
    return notebook.sharedModel as YNotebook;
  };
  const ids = () => model().cells.map(c => c.id);
  const cellOf = (id: string) => {
    const found = model().cells.find(c => c.id === id);
    if (!found) {
      throw new Error(`no cell ${id}`);
    }
    return found;
  };
  const widgetOf = (id: string) => {
    const found = panel.content.widgets.find(w => w.model.id === id);
    if (!found) {
      throw new Error(`no cell widget ${id}`);
    }
    return found;
  };

  /** What a person typing in a cell's editor does: a CodeMirror change. */
  function type(id: string, at: number, text: string): void {
    const widget = widgetOf(id);
    const editor = widget.editor as CodeMirrorEditor | null;
    if (!editor) {
      throw new Error(`cell ${id} has no editor`);
    }
    editor.editor.dispatch({ changes: { from: at, insert: text } });
  }

  async function open(cells: nbformat.ICell[]): Promise<void> {
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({
      cells,
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    });
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    await tracker.add(panel);
    // opening a notebook is not an undo step of the human's
    model().undoManager.clear();
    model().cells.forEach(c => c.undoManager?.clear());
    panel.content.activeCellIndex = 0;
  }

  beforeEach(async () => {
    tracker = new NotebookTracker({ namespace: 'edit-spec' });
    resolver = new NotebookResolver({
      tracker,
      multiDocument: true
    } as unknown as IJupyterEnvironment);
    await open([
      code('c1', 'x = 1'),
      markdown('m1', '# Notes'),
      code('c2', 'y = 2')
    ]);
  });

  afterEach(() => {
    const context = panel.context;
    panel.dispose();
    context.dispose();
    tracker.dispose();
  });

  it('resolves the tracker’s current panel, and by its path', async () => {
    expect(tracker.currentWidget).toBe(panel);
    const byPath = await resolver.resolveLive(panel.context.localPath, 'write');
    expect(byPath.panel).toBe(panel);
    expect(byPath.model).toBe(model());
  });

  describe('updateCell', () => {
    const hashOf = (id: string) =>
      sourceHash(cellOf(id).cell_type, cellOf(id).getSource());

    it('changes the source the editor shows, and dirties the notebook', async () => {
      const result = await updateCell(resolver, {
        cellId: 'c2',
        source: 'y = 20',
        expectedSourceHash: hashOf('c2')
      });
      expect(widgetOf('c2').editor?.model.sharedModel.getSource()).toBe(
        'y = 20'
      );
      expect(result.cell).toMatchObject({
        id: 'c2',
        index: 2,
        source: 'y = 20'
      });
      expect(result.notebook.dirty).toBe(true);
      expect(panel.content.model?.dirty).toBe(true);
    });

    it('is one undo step, apart from what the human typed just before', async () => {
      // control: two quick keystrokes in the editor are one undo step
      type('c2', 5, '0');
      type('c2', 6, '0');
      cellOf('c2').undo();
      expect(cellOf('c2').getSource()).toBe('y = 2');

      type('c1', 5, '0'); // "x = 10", typed in the editor
      expect(cellOf('c1').getSource()).toBe('x = 10');
      await updateCell(resolver, {
        cellId: 'c1',
        source: 'x = 10 + offset',
        expectedSourceHash: hashOf('c1')
      });
      cellOf('c1').undo();
      expect(cellOf('c1').getSource()).toBe('x = 10');
      cellOf('c1').undo();
      expect(cellOf('c1').getSource()).toBe('x = 1');
    });

    it('stays one step when the human types right after it', async () => {
      await updateCell(resolver, {
        cellId: 'c1',
        source: 'x = 2',
        expectedSourceHash: hashOf('c1')
      });
      type('c1', 5, '  # ok');
      cellOf('c1').undo();
      expect(cellOf('c1').getSource()).toBe('x = 2');
      cellOf('c1').undo();
      expect(cellOf('c1').getSource()).toBe('x = 1');
    });

    it('refuses STALE_CELL after a typed edit and keeps the human text', async () => {
      const read = hashOf('c1');
      type('c1', 5, '  # mine');
      const error = await failure(
        updateCell(resolver, {
          cellId: 'c1',
          source: 'x = 99',
          expectedSourceHash: read
        })
      );
      expect(error).toMatchObject({
        error: 'STALE_CELL',
        currentSourcePreview: 'x = 1  # mine'
      });
      expect(cellOf('c1').getSource()).toBe('x = 1  # mine');
      expect(widgetOf('c1').editor?.model.sharedModel.getSource()).toBe(
        'x = 1  # mine'
      );
    });
  });

  describe('deleteCell', () => {
    it('deletes the cell and reports the active cell', async () => {
      panel.content.activeCellIndex = 1;
      const result = await deleteCell(resolver, {
        cellId: 'm1',
        expectedSourceHash: sourceHash('markdown', '# Notes')
      });
      expect(ids()).toEqual(['c1', 'c2']);
      expect(result.deletedCellId).toBe('m1');
      expect(result.activeCellId).toBe(
        panel.content.activeCell?.model.id ?? null
      );
      expect(['c1', 'c2']).toContain(result.activeCellId);
      expect(result.notebook.cellCount).toBe(2);
    });

    it('is one undo step that brings the cell back as it was', async () => {
      await deleteCell(resolver, {
        cellId: 'm1',
        expectedSourceHash: sourceHash('markdown', '# Notes')
      });
      NotebookActions.undo(panel.content);
      expect(ids()).toEqual(['c1', 'm1', 'c2']);
      expect(cellOf('m1').getSource()).toBe('# Notes');
      expect(cellOf('m1').cell_type).toBe('markdown');
    });

    it('is not undone together with a human insert just before it', async () => {
      // the human adds a cell at the end, then the agent deletes c1
      model().insertCell(3, { cell_type: 'code', source: 'human()' });
      await deleteCell(resolver, {
        cellId: 'c1',
        expectedSourceHash: sourceHash('code', 'x = 1')
      });
      NotebookActions.undo(panel.content);
      expect(ids().slice(0, 3)).toEqual(['c1', 'm1', 'c2']);
      expect(model().cells).toHaveLength(4);
      expect(model().cells[3].getSource()).toBe('human()');
    });

    it('leaves a cell the human edited since the read', async () => {
      const read = sourceHash('code', 'y = 2');
      type('c2', 0, '# keep\n');
      expect(
        await failure(
          deleteCell(resolver, { cellId: 'c2', expectedSourceHash: read })
        )
      ).toMatchObject({
        error: 'STALE_CELL',
        message: 'Cell changed since it was read; it was not deleted.'
      });
      expect(ids()).toEqual(['c1', 'm1', 'c2']);
      expect(cellOf('c2').getSource()).toBe('# keep\ny = 2');
    });

    it('reports no active cell id when the new active cell is hidden', async () => {
      // whichever neighbour becomes active (JupyterLab picks the one above)
      setAccess(cellOf('c1'), 'none');
      setAccess(cellOf('c2'), 'none');
      panel.content.activeCellIndex = 1;
      const result = await deleteCell(resolver, {
        cellId: 'm1',
        expectedSourceHash: sourceHash('markdown', '# Notes')
      });
      expect(['c1', 'c2']).toContain(panel.content.activeCell?.model.id);
      expect(result.activeCellId).toBeNull();
      expect(JSON.stringify(result)).not.toMatch(/"c[12]"/);
    });
  });

  describe('insertCell', () => {
    const insert = (args: IInsertArgs) => insertCell(resolver, args);

    it('inserts below the reference cell by default, never run', async () => {
      const result = await insert({ referenceCellId: 'c1', source: 'z = 3' });
      expect(ids()[1]).toBe(result.cell.id);
      expect(result.cell).toMatchObject({
        index: 1,
        type: 'code',
        source: 'z = 3',
        executionCount: null,
        sourceHash: sourceHash('code', 'z = 3')
      });
      expect(result.notebook.cellCount).toBe(4);
    });

    it('inserts above the reference cell', async () => {
      const result = await insert({
        referenceCellId: 'c2',
        position: 'above',
        cellType: 'markdown',
        source: 'Intro'
      });
      expect(ids()).toEqual(['c1', 'm1', result.cell.id, 'c2']);
      expect(result.cell.type).toBe('markdown');
    });

    it('uses the active cell when no reference is given', async () => {
      panel.content.activeCellIndex = 1;
      const below = await insert({ source: 'after m1', activate: false });
      expect(ids()).toEqual(['c1', 'm1', below.cell.id, 'c2']);
      panel.content.activeCellIndex = 1;
      const above = await insert({
        source: 'before m1',
        position: 'above',
        activate: false
      });
      expect(ids()).toEqual(['c1', above.cell.id, 'm1', below.cell.id, 'c2']);
    });

    it('does not reveal a hidden active cell: end or start instead', async () => {
      setAccess(cellOf('m1'), 'none');
      panel.content.activeCellIndex = 1;
      const below = await insert({ source: 'b', activate: false });
      expect(ids()[3]).toBe(below.cell.id);
      const above = await insert({
        source: 'a',
        position: 'above',
        activate: false
      });
      expect(ids()[0]).toBe(above.cell.id);
    });

    it('refuses an unknown or hidden reference alike', async () => {
      setAccess(cellOf('m1'), 'none');
      const hidden = await failure(insert({ referenceCellId: 'm1' }));
      const unknown = await failure(insert({ referenceCellId: 'nope' }));
      expect(hidden).toEqual({
        error: 'CELL_NOT_FOUND',
        message: 'No cell with id "m1" in this notebook.',
        cellId: 'm1'
      });
      expect(unknown.error).toBe('CELL_NOT_FOUND');
      expect(ids()).toEqual(['c1', 'm1', 'c2']);
    });

    it('appends to an empty notebook whatever reference and position', async () => {
      model().deleteCellRange(0, model().cells.length);
      expect(model().cells).toHaveLength(0);
      const result = await insert({
        referenceCellId: 'gone',
        position: 'above',
        source: 'first'
      });
      expect(ids()).toEqual([result.cell.id]);
      expect(result.cell.index).toBe(0);
    });

    it('never marks the new cell trusted', async () => {
      const result = await insert({
        referenceCellId: 'c1',
        source: 'import os'
      });
      const widget = widgetOf(result.cell.id);
      expect(widget.model.trusted).toBe(false);
      expect(cellOf(result.cell.id).getMetadata('trusted')).toBeUndefined();
      const saved = panel.content.model?.toJSON() as nbformat.INotebookContent;
      expect(saved.cells[1].metadata).not.toHaveProperty('trusted');
      // nothing but our own (provenance) key is written
      expect(
        Object.keys(saved.cells[1].metadata).filter(
          key => key !== ACCESS_METADATA_KEY
        )
      ).toEqual([]);
    });

    it('activates the new cell and renders a markdown one', async () => {
      const result = await insert({
        referenceCellId: 'c1',
        cellType: 'markdown',
        source: '## Results'
      });
      expect(panel.content.activeCell?.model.id).toBe(result.cell.id);
      expect(
        (panel.content.activeCell as unknown as { rendered: boolean }).rendered
      ).toBe(true);
    });

    it('leaves the active cell alone with activate: false', async () => {
      panel.content.activeCellIndex = 2;
      await insert({ referenceCellId: 'c1', activate: false });
      expect(panel.content.activeCell?.model.id).toBe('c2');
    });

    it('is one undo step', async () => {
      await insert({ referenceCellId: 'c1', source: 'tmp' });
      NotebookActions.undo(panel.content);
      expect(ids()).toEqual(['c1', 'm1', 'c2']);
    });

    it('refuses an unknown cell type and an oversize source, inserting nothing', async () => {
      expect(await failure(insert({ cellType: 'sql' }))).toMatchObject({
        error: 'INVALID_CELL_TYPE',
        cellType: 'sql'
      });
      expect(
        await failure(insert({ source: 'a'.repeat(WRITE_MAX + 1) }))
      ).toMatchObject({ error: 'INVALID_ARGUMENT', bytes: WRITE_MAX + 1 });
      expect(ids()).toEqual(['c1', 'm1', 'c2']);
    });
  });
});
