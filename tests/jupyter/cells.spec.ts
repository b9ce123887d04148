import {
  YNotebook,
  type ISharedCell,
  type ISharedCodeCell,
  type SharedCell
} from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { cellAccess, isCellVisible } from '../../src/access/read';
import { cellHash } from '../../src/jupyter/cell-cache';
import {
  cellRange,
  cellSnapshot,
  findCell,
  getCells,
  type IGetCellsArgs
} from '../../src/jupyter/cells';
import { normalizeError } from '../../src/common/errors';
import { getCellAccess } from '../../src/jupyter/cell-access';
import * as hash from '../../src/common/hash';
import { notebookRevision } from '../../src/jupyter/model-index';
import { type NotebookResolver } from '../../src/jupyter/notebook';
import { serializeOutputs } from '../../src/jupyter/outputs/outputs';
import { TRUNCATION_MARKER } from '../../src/common/text';
import { LIMITS } from '../../src/limits';
import { silenceKnownWarnings } from '../quiet';
import { code, markdown, setAccess } from './ymodel';

/** UTF-8 bytes, measured independently of the module under test. */
const bytes = (text: string): number => new TextEncoder().encode(text).length;

const SOURCE_MAX = LIMITS.MAX_CELL_SOURCE_BYTES;
const FULL = { includeSource: true, includeOutputs: true };
const SOURCE_ONLY = { includeSource: true, includeOutputs: false };

let notebook: YNotebook;

silenceKnownWarnings();

beforeEach(() => {
  notebook = YNotebook.create();
});

afterEach(() => {
  notebook.dispose();
});

/** Append cells to the test notebook and return them. */
function add(...cells: SharedCell.Cell[]): ISharedCell[] {
  return notebook.insertCells(notebook.cells.length, cells);
}

/** The normalized error a failed call gives, as JSON. */
async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return JSON.stringify(normalizeError(error));
  }
  throw new Error('expected a failure');
}

function stream(text: string): nbformat.IStream {
  return { output_type: 'stream', name: 'stdout', text };
}

describe('cellSnapshot', () => {
  it('gives id, index, type and the hash of the full source', () => {
    const [cell] = add(markdown('m1', '# Title'));
    expect(cellSnapshot(cell, 7, SOURCE_ONLY)).toEqual({
      id: 'm1',
      index: 7,
      type: 'markdown',
      source: '# Title',
      sourceHash: hash.sourceHash('markdown', '# Title')
    });
  });

  it('leaves the source out when not asked for, keeping the hash', () => {
    const [cell] = add(code('c1', 'print(1)'));
    const snapshot = cellSnapshot(cell, 0, {
      includeSource: false,
      includeOutputs: false
    });
    expect(snapshot).not.toHaveProperty('source');
    expect(snapshot).not.toHaveProperty('sourceTruncated');
    expect(snapshot.sourceHash).toBe('sha256:e1f73808d954be2b');
  });

  it('returns a source of exactly 25 KiB whole', () => {
    const source = 'a'.repeat(SOURCE_MAX);
    const [cell] = add(code('c1', source));
    const snapshot = cellSnapshot(cell, 0, SOURCE_ONLY);
    expect(snapshot.source).toBe(source);
    expect(snapshot).not.toHaveProperty('sourceTruncated');
  });

  it('cuts a source one byte over 25 KiB, marker inside the bound', () => {
    const source = 'a'.repeat(SOURCE_MAX + 1);
    const [cell] = add(code('c1', source));
    const snapshot = cellSnapshot(cell, 0, SOURCE_ONLY);
    expect(snapshot.sourceTruncated).toBe(true);
    expect(snapshot.source?.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(bytes(snapshot.source ?? '')).toBeLessThanOrEqual(SOURCE_MAX);
    expect(bytes(snapshot.source ?? '')).toBeGreaterThan(SOURCE_MAX - 16);
    // the hash still covers the whole source: it must guard the whole cell
    expect(snapshot.sourceHash).toBe(hash.sourceHash('code', source));
  });

  it('bounds in UTF-8 bytes and never splits a character', () => {
    // 9,000 € signs: 9,000 characters but 27,000 bytes of UTF-8
    const source = '€'.repeat(9000);
    const [cell] = add(code('c1', source));
    const snapshot = cellSnapshot(cell, 0, SOURCE_ONLY);
    expect(snapshot.sourceTruncated).toBe(true);
    const text = snapshot.source ?? '';
    expect(bytes(text)).toBeLessThanOrEqual(SOURCE_MAX);
    const kept = text.slice(0, -TRUNCATION_MARKER.length);
    expect(kept).toBe('€'.repeat(kept.length));

    // 4-byte characters: a surrogate pair is never cut in half
    const [emoji] = add(code('c2', '😀'.repeat(7000)));
    const cut = cellSnapshot(emoji, 1, SOURCE_ONLY).source ?? '';
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(bytes(cut)).toBeLessThanOrEqual(SOURCE_MAX);
  });

  it('shows short metadata and never our own key', () => {
    const [cell] = add({
      ...code('c1'),
      metadata: {
        tags: ['setup'],
        [ACCESS_METADATA_KEY]: { version: 1, access: 'read' }
      }
    });
    const snapshot = cellSnapshot(cell, 0, SOURCE_ONLY);
    expect(snapshot.metadata).toEqual({ tags: ['setup'] });
    expect(JSON.stringify(snapshot)).not.toContain(ACCESS_METADATA_KEY);
  });

  it('leaves metadata out when only our key is there', () => {
    const [cell] = add(code('c1'));
    cell.setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      history: [
        { at: '2026-01-01T00:00:00.000Z', actor: 'human', action: 'edited' }
      ]
    });
    const snapshot = cellSnapshot(cell, 0, SOURCE_ONLY);
    expect(snapshot).not.toHaveProperty('metadata');
    expect(JSON.stringify(snapshot)).not.toContain(ACCESS_METADATA_KEY);
  });

  it('shows metadata of exactly 512 characters, not of 513', () => {
    // {"note":"…"} is 11 characters around the value
    const [at, over] = add(code('c1'), code('c2'));
    at.setMetadata('note', 'n'.repeat(512 - 11));
    over.setMetadata('note', 'n'.repeat(512 - 10));
    expect(JSON.stringify(at.getMetadata()).length).toBe(512);
    expect(cellSnapshot(at, 0, SOURCE_ONLY).metadata).toEqual({
      note: 'n'.repeat(501)
    });
    expect(cellSnapshot(over, 1, SOURCE_ONLY)).not.toHaveProperty('metadata');
  });

  it('measures the 512 characters without our key', () => {
    // our history can be long; it must not push the user's metadata out
    const [cell] = add(code('c1'));
    cell.setMetadata('tags', ['keep']);
    cell.setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      history: Array.from({ length: 20 }, (_, i) => ({
        at: new Date(Date.UTC(2026, 0, 1, 0, i * 2)).toISOString(),
        actor: 'agent',
        action: 'edited',
        tool: 'jupyter_update_cell'
      }))
    });
    expect(JSON.stringify(cell.getMetadata()).length).toBeGreaterThan(512);
    expect(cellSnapshot(cell, 0, SOURCE_ONLY).metadata).toEqual({
      tags: ['keep']
    });
  });

  // BUG (src/jupyter/cells.ts, visibleMetadata): the bound is compared with
  // `json.length`, UTF-16 units, while LIMITS says every *_CHARS bound counts
  // code points (as boundChars does). Metadata with characters outside the
  // BMP is hidden at half the documented size. `it.failing` keeps the suite
  // green until the fix; it turns red then, and becomes a plain `it`.
  it.failing(
    'counts the 512 metadata characters as code points (LIMITS *_CHARS)',
    () => {
      // 501 emoji: 512 code points of JSON, but 1,013 UTF-16 units
      const [cell] = add(code('c1'));
      const value = '😀'.repeat(512 - 11);
      cell.setMetadata('note', value);
      expect([...JSON.stringify(cell.getMetadata())].length).toBe(512);
      expect(cellSnapshot(cell, 0, SOURCE_ONLY).metadata).toEqual({
        note: value
      });
    }
  );

  it('gives a code cell its execution count, null when never run', () => {
    const [ran, fresh] = add(
      { ...code('c1'), execution_count: 3, outputs: [] },
      code('c2')
    );
    expect(cellSnapshot(ran, 0, SOURCE_ONLY).executionCount).toBe(3);
    expect(cellSnapshot(fresh, 1, SOURCE_ONLY).executionCount).toBeNull();
  });

  it('gives markdown and raw cells no execution count or outputs', () => {
    const [md, raw] = add(markdown('m1'), {
      id: 'r1',
      cell_type: 'raw',
      source: 'raw text',
      metadata: {}
    });
    for (const cell of [md, raw]) {
      const snapshot = cellSnapshot(cell, 0, FULL);
      expect(snapshot).not.toHaveProperty('executionCount');
      expect(snapshot).not.toHaveProperty('outputs');
    }
  });

  it('serializes outputs only when asked for, through serializeOutputs', () => {
    const outputs: nbformat.IOutput[] = [
      stream('\u001b[31mred\u001b[0m and plain\n'),
      {
        output_type: 'execute_result',
        execution_count: 4,
        data: { 'text/plain': '42', 'image/png': 'iVBORw0KGgo=' },
        metadata: {}
      },
      {
        output_type: 'error',
        ename: 'ValueError',
        evalue: 'bad',
        traceback: ['Traceback', '\u001b[0;31mValueError\u001b[0m: bad']
      }
    ];
    const [cell] = add({ ...code('c1'), execution_count: 4, outputs });
    const stored = (cell as ISharedCodeCell).getOutputs() as nbformat.IOutput[];
    const snapshot = cellSnapshot(cell, 0, FULL);
    expect(snapshot.outputs).toEqual(serializeOutputs(stored).outputs);
    expect(snapshot.outputs).toHaveLength(3);
    expect(snapshot).not.toHaveProperty('outputsTruncated');
    expect(JSON.stringify(snapshot.outputs)).not.toContain('\u001b');
    expect(JSON.stringify(snapshot.outputs)).not.toContain('iVBORw0KGgo=');
    expect(cellSnapshot(cell, 0, SOURCE_ONLY)).not.toHaveProperty('outputs');
  });

  it('keeps at most 10 outputs and says so', () => {
    const outputs = Array.from({ length: 12 }, (_, i) => stream(`line ${i}\n`));
    const [cell] = add({ ...code('c1'), outputs });
    const snapshot = cellSnapshot(cell, 0, FULL);
    expect(snapshot.outputs).toHaveLength(LIMITS.MAX_OUTPUTS_PER_CELL);
    expect(snapshot.outputsTruncated).toBe(true);
  });

  it('gives lastEditedBy/At from the most recent source change in history', () => {
    const [cell, untouched] = add(code('c1'), code('c2'));
    cell.setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      history: [
        { at: '2026-01-01T10:00:00.000Z', actor: 'human', action: 'inserted' },
        {
          at: '2026-01-01T11:00:00.000Z',
          actor: 'agent',
          action: 'edited',
          tool: 'jupyter_update_cell'
        },
        // running does not change the source a reader sees
        {
          at: '2026-01-01T12:00:00.000Z',
          actor: 'human',
          action: 'ran'
        }
      ]
    });
    const snapshot = cellSnapshot(cell, 0, SOURCE_ONLY);
    expect(snapshot.lastEditedBy).toBe('agent');
    expect(snapshot.lastEditedAt).toBe('2026-01-01T11:00:00.000Z');
    const plain = cellSnapshot(untouched, 1, SOURCE_ONLY);
    expect(plain).not.toHaveProperty('lastEditedBy');
    expect(plain).not.toHaveProperty('lastEditedAt');
  });

  it('ignores a malformed history rather than failing', () => {
    const [cell] = add(code('c1'));
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, history: 'oops' });
    expect(cellSnapshot(cell, 0, SOURCE_ONLY)).not.toHaveProperty(
      'lastEditedBy'
    );
  });
});

describe('the cell cache', () => {
  it('gives the hash of the current type and source', () => {
    const [cell] = add(code('c1', 'a = 1'));
    expect(cellHash(cell)).toBe(hash.sourceHash('code', 'a = 1'));
    expect(cellHash(cell)).toBe(cellHash(cell));
  });

  it('follows a source change', () => {
    const [cell] = add(code('c1', 'a = 1'));
    const before = cellHash(cell);
    cell.setSource('a = 2');
    expect(cellHash(cell)).toBe(hash.sourceHash('code', 'a = 2'));
    expect(cellHash(cell)).not.toBe(before);
    cell.updateSource(0, 1, 'b');
    expect(cellHash(cell)).toBe(hash.sourceHash('code', 'b = 2'));
  });

  it('hashes a cell again only after its source changed', () => {
    const spy = jest.spyOn(hash, 'sourceHash');
    const [cell] = add(code('c1', 'a = 1'));
    cellHash(cell);
    cellHash(cell);
    cellHash(cell);
    expect(spy).toHaveBeenCalledTimes(1);
    cell.setMetadata('tags', ['x']);
    cellHash(cell);
    expect(spy).toHaveBeenCalledTimes(1);
    cell.setSource('a = 2');
    cellHash(cell);
    cellHash(cell);
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  it('follows an access change', () => {
    const [cell] = add(code('c1'));
    expect(cellAccess(cell)).toBe('write');
    setAccess(cell, 'read');
    expect(cellAccess(cell)).toBe('read');
    expect(isCellVisible(cell)).toBe(true);
    setAccess(cell, 'none');
    expect(isCellVisible(cell)).toBe(false);
    cell.deleteMetadata(ACCESS_METADATA_KEY);
    expect(cellAccess(cell)).toBe('write');
  });

  it('treats an unknown access value as none', () => {
    const [cell] = add(code('c1'));
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'None' });
    expect(isCellVisible(cell)).toBe(false);
  });
});

describe('findCell', () => {
  it('finds a cell by id with its index', () => {
    add(code('c1'), code('c2'));
    const found = findCell(notebook, 'c2', 'write');
    expect(found.index).toBe(1);
    expect(found.cell.id).toBe('c2');
  });

  it('refuses a write to a read-only cell, allows reading it', () => {
    const [cell] = add(code('c1'));
    setAccess(cell, 'read');
    expect(findCell(notebook, 'c1', 'read').index).toBe(0);
    expect(() => findCell(notebook, 'c1', 'write')).toThrow(
      expect.objectContaining({ code: 'CELL_ACCESS_DENIED' })
    );
  });
});

describe('cellRange', () => {
  it('defaults to [0, 20) and to startIndex + 20', () => {
    expect(cellRange({}, 1000)).toEqual({ start: 0, end: 20 });
    expect(cellRange({ startIndex: 30 }, 1000)).toEqual({ start: 30, end: 50 });
  });

  it('clamps to the notebook', () => {
    expect(cellRange({ startIndex: 5, endIndex: 500 }, 10)).toEqual({
      start: 5,
      end: 10
    });
    expect(cellRange({ startIndex: 50 }, 10)).toEqual({ start: 10, end: 10 });
  });
});

describe('getCells', () => {
  const PATH = 'work/analysis.ipynb';
  let releases: number;

  /** A resolver that hands out the test notebook as an open one. */
  function resolver(): NotebookResolver {
    return {
      resolveNotebook: async () => ({
        path: PATH,
        panel: null,
        model: notebook,
        dirty: false,
        release() {
          releases++;
        }
      })
    } as unknown as NotebookResolver;
  }

  const read = (args: IGetCellsArgs = {}) => getCells(resolver(), args);

  /** `n` code cells c0…c(n-1). */
  function fill(n: number): ISharedCell[] {
    return add(...Array.from({ length: n }, (_, i) => code(`c${i}`)));
  }

  const ids = (result: { cells: { id: string }[] }) =>
    result.cells.map(cell => cell.id);

  beforeEach(() => {
    releases = 0;
  });

  it('reports the notebook, hidden cells counted in cellCount', async () => {
    const cells = fill(3);
    setAccess(cells[2], 'none');
    const result = await read();
    expect(result.notebook).toEqual({
      path: PATH,
      name: 'analysis.ipynb',
      dirty: false,
      revision: notebookRevision(notebook),
      cellCount: 3
    });
    expect(releases).toBe(1);
  });

  it('reads source by default, outputs only when asked', async () => {
    add({ ...code('c0', 'print(1)'), outputs: [stream('1\n')] });
    const plain = await read();
    expect(plain.cells[0].source).toBe('print(1)');
    expect(plain.cells[0]).not.toHaveProperty('outputs');
    const full = await read({ includeOutputs: true, includeSource: false });
    expect(full.cells[0]).not.toHaveProperty('source');
    expect(full.cells[0].outputs).toHaveLength(1);
    expect(full.cells[0].outputs?.[0]).toMatchObject({
      outputType: 'stream',
      name: 'stdout',
      text: '1\n'
    });
  });

  it('returns explicit ids in the order given, with their indexes', async () => {
    fill(5);
    const result = await read({ cellIds: ['c3', 'c0', 'c4'] });
    expect(ids(result)).toEqual(['c3', 'c0', 'c4']);
    expect(result.cells.map(cell => cell.index)).toEqual([3, 0, 4]);
    expect(result).toMatchObject({
      truncated: false,
      omittedCount: 0,
      hiddenCellCount: 0
    });
  });

  it('refuses an empty cellIds, in get_cells and get_cell_access alike', async () => {
    fill(3);
    // an empty list is a mistake, never a silent empty answer (as run_cells)
    const expected = {
      error: 'INVALID_ARGUMENT',
      message:
        'Invalid argument "cellIds": give at least one cell id, or leave cellIds out to select a range.',
      field: 'cellIds',
      rule: 'minItems'
    };
    expect(JSON.parse(await failure(read({ cellIds: [] })))).toEqual(expected);
    expect(
      JSON.parse(
        await failure(getCellAccess(resolver(), { cellIds: [], endIndex: 2 }))
      )
    ).toEqual(expected);
    expect(releases).toBe(2);
  });

  it('lets explicit ids take priority over the range', async () => {
    fill(5);
    const result = await read({ cellIds: ['c4'], startIndex: 0, endIndex: 2 });
    expect(ids(result)).toEqual(['c4']);
  });

  it('reads a read-only cell by id', async () => {
    const cells = fill(2);
    setAccess(cells[1], 'read');
    expect(ids(await read({ cellIds: ['c1'] }))).toEqual(['c1']);
  });

  it('gives byte-identical errors for an unknown id and a hidden id', async () => {
    fill(3);
    const unknown = await failure(read({ cellIds: ['c0', 'secret'] }));

    notebook.dispose();
    notebook = YNotebook.create();
    fill(3);
    const [hidden] = add(code('secret', 'password = "hunter2"'));
    setAccess(hidden, 'none');
    const hiddenError = await failure(read({ cellIds: ['c0', 'secret'] }));

    expect(hiddenError).toBe(unknown);
    expect(JSON.parse(unknown)).toEqual({
      error: 'CELL_NOT_FOUND',
      message: 'No cell with id "secret" in this notebook.',
      cellId: 'secret'
    });
    expect(hiddenError).not.toContain('hunter2');
    expect(releases).toBe(2);
  });

  it('omits hidden cells from a range and counts them', async () => {
    const cells = fill(6);
    setAccess(cells[1], 'none');
    setAccess(cells[4], 'none');
    const result = await read({ startIndex: 0, endIndex: 6 });
    expect(ids(result)).toEqual(['c0', 'c2', 'c3', 'c5']);
    // the visible cells keep their real index
    expect(result.cells.map(cell => cell.index)).toEqual([0, 2, 3, 5]);
    expect(result.hiddenCellCount).toBe(2);
    expect(result.truncated).toBe(false);
    expect(JSON.stringify(result)).not.toContain('"c1"');
  });

  it('always reports hiddenCellCount, zero included', async () => {
    fill(2);
    expect(await read()).toHaveProperty('hiddenCellCount', 0);
  });

  it('counts only the hidden cells inside the range', async () => {
    const cells = fill(6);
    setAccess(cells[0], 'none');
    setAccess(cells[5], 'none');
    const result = await read({ startIndex: 1, endIndex: 5 });
    expect(ids(result)).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(result.hiddenCellCount).toBe(0);
  });

  it('returns at most 100 cells of a range, with omittedCount', async () => {
    fill(150);
    const result = await read({ startIndex: 0, endIndex: 150 });
    expect(result.cells).toHaveLength(LIMITS.MAX_CELLS_RETURNED);
    expect(result.cells[99].id).toBe('c99');
    expect(result.truncated).toBe(true);
    expect(result.omittedCount).toBe(50);
    expect(result.hiddenCellCount).toBe(0);
  });

  it('counts hidden cells past the 100th as hidden, not omitted', async () => {
    const cells = fill(110);
    setAccess(cells[105], 'none');
    const result = await read({ startIndex: 0, endIndex: 110 });
    expect(result.cells).toHaveLength(100);
    expect(result.omittedCount).toBe(9);
    expect(result.hiddenCellCount).toBe(1);
  });

  it('returns at most 100 cells by id, with omittedCount', async () => {
    fill(120);
    const wanted = Array.from({ length: 120 }, (_, i) => `c${119 - i}`);
    const result = await read({ cellIds: wanted });
    expect(ids(result)).toEqual(wanted.slice(0, 100));
    expect(result.truncated).toBe(true);
    expect(result.omittedCount).toBe(20);
  });

  it('checks every id, also past the 100th', async () => {
    fill(120);
    const wanted = [...Array.from({ length: 110 }, (_, i) => `c${i}`), 'nope'];
    expect(JSON.parse(await failure(read({ cellIds: wanted })))).toMatchObject({
      error: 'CELL_NOT_FOUND',
      cellId: 'nope'
    });
  });

  it('reads [startIndex, startIndex + 20) by default', async () => {
    fill(50);
    expect(ids(await read())).toEqual(
      Array.from({ length: 20 }, (_, i) => `c${i}`)
    );
    const result = await read({ startIndex: 10 });
    expect(result.cells.map(cell => cell.index)).toEqual(
      Array.from({ length: 20 }, (_, i) => 10 + i)
    );
    expect(result.truncated).toBe(false);
  });

  it('refuses endIndex before startIndex', async () => {
    fill(10);
    expect(
      JSON.parse(await failure(read({ startIndex: 5, endIndex: 4 })))
    ).toMatchObject({
      error: 'INVALID_ARGUMENT',
      field: 'endIndex'
    });
    expect(releases).toBe(1);
  });

  it('gives an empty, untruncated result past the end', async () => {
    fill(3);
    for (const args of [
      { startIndex: 3 },
      { startIndex: 100, endIndex: 200 },
      { startIndex: 2, endIndex: 2 }
    ]) {
      const result = await read(args);
      expect(result.cells).toEqual([]);
      expect(result).toMatchObject({
        truncated: false,
        omittedCount: 0,
        hiddenCellCount: 0
      });
    }
  });

  it('reads an empty notebook', async () => {
    const result = await read();
    expect(result.cells).toEqual([]);
    expect(result.notebook.cellCount).toBe(0);
  });

  it('gives the hash an update must send back', async () => {
    fill(1);
    const [snapshot] = (await read()).cells;
    expect(snapshot.sourceHash).toBe(hash.sourceHash('code', 'x = "c0"'));
    notebook.cells[0].setSource('changed by the human');
    const [again] = (await read()).cells;
    expect(again.sourceHash).not.toBe(snapshot.sourceHash);
  });
});
