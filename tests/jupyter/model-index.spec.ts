import { YNotebook, type ISharedCell, type SharedCell } from '@jupyter/ydoc';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { recordAgentAction } from '../../src/access/provenance';
import { isCellVisible } from '../../src/access/read';
import { cellHash } from '../../src/jupyter/cell-cache';
import * as hash from '../../src/common/hash';
import { cellIndexOf, notebookRevision } from '../../src/jupyter/model-index';
import { silenceKnownWarnings } from '../quiet';
import { code, markdown, setAccess } from './ymodel';

let notebook: YNotebook;

silenceKnownWarnings();

beforeEach(() => {
  notebook = YNotebook.create();
});

afterEach(() => {
  notebook.dispose();
  jest.restoreAllMocks();
});

function add(...cells: SharedCell.Cell[]): ISharedCell[] {
  return notebook.insertCells(notebook.cells.length, cells);
}

function many(count: number, prefix = 'c'): SharedCell.Cell[] {
  return Array.from({ length: count }, (_, i) => code(`${prefix}${i}`));
}

/** The revision recomputed from scratch: the definition it must equal. */
function fromScratch(): string {
  return hash.revisionOf(
    notebook.cells
      .filter(cell => isCellVisible(cell))
      .map(cell => ({
        id: cell.id,
        sourceHash: hash.sourceHash(cell.cell_type, cell.getSource())
      }))
  );
}

describe('notebookRevision', () => {
  it('is the same for repeated calls on an unchanged notebook', () => {
    add(code('c1'), markdown('m1'));
    const first = notebookRevision(notebook);
    expect(notebookRevision(notebook)).toBe(first);
    expect(first).toMatch(/^rev:[0-9a-f]{16}$/);
  });

  it('is revisionOf the visible cells, in order', () => {
    add(code('c1', 'p'), markdown('m1', 'q'));
    expect(notebookRevision(notebook)).toBe(
      hash.revisionOf([
        { id: 'c1', sourceHash: hash.sourceHash('code', 'p') },
        { id: 'm1', sourceHash: hash.sourceHash('markdown', 'q') }
      ])
    );
  });

  it('equals a full recomputation after every kind of change', () => {
    // more than two chunks, so edits land in the first, a middle and the last
    add(...many(2 * hash.REVISION_CHUNK + 10));
    const steps: [string, () => void][] = [
      ['edit in the first chunk', () => notebook.cells[3].setSource('a = 1')],
      ['edit in the last chunk', () => notebook.cells.at(-1)!.setSource('z')],
      ['insert at the start', () => notebook.insertCell(0, code('new0'))],
      ['insert in the middle', () => notebook.insertCell(70, code('new70'))],
      ['delete', () => notebook.deleteCell(5)],
      ['move down', () => notebook.moveCell(1, 100)],
      ['move up', () => notebook.moveCell(120, 2)],
      ['hide a cell', () => setAccess(notebook.cells[64], 'none')],
      ['make one read-only', () => setAccess(notebook.cells[65], 'read')],
      ['edit the hidden cell', () => notebook.cells[64].setSource('a secret')],
      ['edit after the hidden cell', () => notebook.cells[66].setSource('y')],
      ['show it again', () => setAccess(notebook.cells[64], 'write')],
      [
        'an invalid access value hides it',
        () =>
          notebook.cells[10].setMetadata(ACCESS_METADATA_KEY, {
            version: 1,
            access: 'nope'
          })
      ],
      [
        'provenance of an agent edit',
        () => recordAgentAction(notebook.cells[20], 'edited', 'test')
      ],
      ['other metadata', () => notebook.cells[30].setMetadata('tags', ['t'])],
      [
        'delete a range',
        () => notebook.deleteCellRange(40, 40 + hash.REVISION_CHUNK)
      ],
      [
        'edit in one transaction',
        () => {
          notebook.transact(() => {
            notebook.cells[0].setSource('first');
            notebook.cells[1].setSource('second');
            notebook.insertCell(2, markdown('m-new'));
          });
        }
      ]
    ];
    // what the agent cannot see, or that is not a cell's id or source
    const unchanged = new Set([
      'make one read-only',
      'edit the hidden cell',
      'provenance of an agent edit',
      'other metadata'
    ]);
    expect(notebookRevision(notebook)).toBe(fromScratch());
    for (const [name, step] of steps) {
      const before = notebookRevision(notebook);
      step();
      const after = notebookRevision(notebook);
      expect([name, after]).toEqual([name, fromScratch()]);
      expect([name, after === before]).toEqual([name, unchanged.has(name)]);
    }
  });

  it('re-hashes one chunk and no other cell when one visible cell changes', () => {
    add(...many(5 * hash.REVISION_CHUNK));
    notebookRevision(notebook);
    const chunk = jest.spyOn(hash, 'chunkDigest');
    const source = jest.spyOn(hash, 'sourceHash');
    expect(notebookRevision(notebook)).toBe(notebookRevision(notebook));
    expect(chunk).not.toHaveBeenCalled();
    expect(source).not.toHaveBeenCalled();

    notebook.cells[200].setSource('changed');
    notebookRevision(notebook);
    expect(chunk).toHaveBeenCalledTimes(1);
    // only the changed cell is hashed again
    expect(source).toHaveBeenCalledTimes(1);
    expect(source).toHaveBeenCalledWith('code', 'changed');
  });

  it('ignores a change to a hidden cell', () => {
    const [, hidden] = add(code('c1'), code('c2'), code('c3'));
    setAccess(hidden, 'none');
    const before = notebookRevision(notebook);
    const chunk = jest.spyOn(hash, 'chunkDigest');
    hidden.setSource('a secret the agent must not notice');
    expect(notebookRevision(notebook)).toBe(before);
    expect(chunk).not.toHaveBeenCalled();
  });

  it('is the same whether or not a hidden cell sits between visible ones', () => {
    add(...many(3 * hash.REVISION_CHUNK));
    const before = notebookRevision(notebook);
    notebook.insertCell(70, code('hidden', 'secret'));
    setAccess(notebook.cells[70], 'none');
    expect(notebookRevision(notebook)).toBe(before);
    expect(cellHash(notebook.cells[70])).toBe(
      hash.sourceHash('code', 'secret')
    );
  });

  it('changes with a visible cell, also a read-only one', () => {
    const [visible, readOnly] = add(code('c1'), code('c2'));
    setAccess(readOnly, 'read');
    const before = notebookRevision(notebook);
    visible.setSource('edited');
    const afterEdit = notebookRevision(notebook);
    expect(afterEdit).not.toBe(before);
    readOnly.setSource('edited too');
    expect(notebookRevision(notebook)).not.toBe(afterEdit);
  });

  it('ignores metadata that does not change visibility', () => {
    add(code('c1'));
    const before = notebookRevision(notebook);
    notebook.cells[0].setMetadata('tags', ['x']);
    notebook.setMetadata('kernelspec', { name: 'python3', display_name: 'P' });
    expect(notebookRevision(notebook)).toBe(before);
  });

  it('is the empty revision for a notebook with no visible cell', () => {
    expect(notebookRevision(notebook)).toBe(hash.revisionOf([]));
    const [only] = add(code('c1'));
    setAccess(only, 'none');
    expect(notebookRevision(notebook)).toBe(hash.revisionOf([]));
  });
});

describe('cellIndexOf', () => {
  it('finds cells by id as they are inserted, deleted and moved', () => {
    add(...many(100));
    expect(cellIndexOf(notebook, 'c42')).toBe(42);
    expect(cellIndexOf(notebook, 'nope')).toBe(-1);
    notebook.insertCell(0, code('first'));
    expect(cellIndexOf(notebook, 'first')).toBe(0);
    expect(cellIndexOf(notebook, 'c42')).toBe(43);
    notebook.deleteCell(10);
    expect(cellIndexOf(notebook, 'c9')).toBe(-1);
    expect(cellIndexOf(notebook, 'c42')).toBe(42);
    notebook.moveCell(42, 0);
    expect(cellIndexOf(notebook, 'c42')).toBe(0);
    expect(cellIndexOf(notebook, 'first')).toBe(1);
    for (const [index, cell] of notebook.cells.entries()) {
      expect(cellIndexOf(notebook, cell.id)).toBe(index);
    }
  });

  it('gives the first of two cells with the same id, as a scan would', () => {
    add(code('a'), code('dup'), code('b'), code('dup'));
    expect(cellIndexOf(notebook, 'dup')).toBe(1);
    notebook.deleteCell(1);
    expect(cellIndexOf(notebook, 'dup')).toBe(2);
  });

  it('does not read every id again for each lookup', () => {
    add(...many(50));
    cellIndexOf(notebook, 'c1');
    const cells = notebook.cells;
    const reads = jest.spyOn(cells[30], 'id', 'get');
    for (let i = 0; i < 10; i++) {
      expect(cellIndexOf(notebook, 'c49')).toBe(49);
    }
    expect(reads).not.toHaveBeenCalled();
  });
});
