import { YNotebook, type YCodeCell } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { outputFingerprint } from '../../src/common/fingerprint';
import {
  visibleSelection,
  type IOutputSelectionRecord,
  type NotebookModelLookup
} from '../../src/selection/visible';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

const PATH = 'work/analysis.ipynb';

function stream(text: string): nbformat.IStream {
  return { output_type: 'stream', name: 'stdout', text };
}

function result(text: string, count: number): nbformat.IExecuteResult {
  return {
    output_type: 'execute_result',
    execution_count: count,
    data: { 'text/plain': text },
    metadata: {}
  };
}

describe('visibleSelection', () => {
  let notebook: YNotebook;
  let cell: YCodeCell;
  let lookup: NotebookModelLookup;

  /** A record of `text` selected in output `index` of `cell`, as captured. */
  function recordOf(index: number, text: string): IOutputSelectionRecord {
    const output = cell.getOutputs()[index];
    return {
      cellId: cell.id,
      outputIndex: index,
      text,
      range: { start: 6, end: 6 + text.length },
      outputFingerprint: outputFingerprint(output),
      capturedAt: '2025-01-02T03:04:05.000Z',
      notebookPath: PATH
    };
  }

  beforeEach(() => {
    notebook = YNotebook.create();
    notebook.insertCell(0, {
      cell_type: 'markdown',
      source: '# Title'
    });
    cell = notebook.insertCell(1, {
      cell_type: 'code',
      source: "print('alpha beta gamma')\n6 * 7",
      outputs: [stream('alpha beta gamma\n'), result('42', 1)]
    }) as YCodeCell;
    lookup = path => (path === PATH ? notebook : null);
  });

  afterEach(() => {
    notebook.dispose();
  });

  it('returns the record without its notebook path', () => {
    const record = recordOf(0, 'beta');
    const visible = visibleSelection(record, lookup);
    expect(visible).toEqual({
      cellId: cell.id,
      outputIndex: 0,
      text: 'beta',
      range: { start: 6, end: 10 },
      outputFingerprint: record.outputFingerprint,
      capturedAt: '2025-01-02T03:04:05.000Z'
    });
    expect(visible).not.toHaveProperty('notebookPath');
    expect(Object.keys(visible!)).toEqual([
      'cellId',
      'outputIndex',
      'text',
      'range',
      'outputFingerprint',
      'capturedAt'
    ]);
  });

  it('leaves out a range the record does not have', () => {
    const { range: _range, ...record } = recordOf(1, '42');
    const visible = visibleSelection(record, lookup);
    expect(visible).not.toBeNull();
    expect(visible).not.toHaveProperty('range');
  });

  it('is null without a record', () => {
    expect(visibleSelection(null, lookup)).toBeNull();
  });

  it('is null when the notebook is no longer open', () => {
    const record = recordOf(0, 'beta');
    expect(visibleSelection(record, () => null)).toBeNull();
    expect(
      visibleSelection({ ...record, notebookPath: 'other.ipynb' }, lookup)
    ).toBeNull();
  });

  it('is null in a hidden cell, visible again once shown', () => {
    const record = recordOf(0, 'beta');
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'none' });
    expect(visibleSelection(record, lookup)).toBeNull();
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'write' });
    expect(visibleSelection(record, lookup)).not.toBeNull();
  });

  it('is null in a cell whose access value is not understood', () => {
    const record = recordOf(0, 'beta');
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'NONE' });
    expect(visibleSelection(record, lookup)).toBeNull();
  });

  it('stays visible in a read-only cell', () => {
    const record = recordOf(0, 'beta');
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'read' });
    expect(visibleSelection(record, lookup)?.text).toBe('beta');
  });

  it('is null in a hidden notebook, and visible in a read-only one', () => {
    const record = recordOf(0, 'beta');
    notebook.setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      notebookAccess: 'none'
    });
    expect(visibleSelection(record, lookup)).toBeNull();
    notebook.setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      notebookAccess: 'read'
    });
    expect(visibleSelection(record, lookup)?.text).toBe('beta');
  });

  it('is null once the output is replaced by different content of the same length', () => {
    const record = recordOf(0, 'beta');
    cell.setOutputs([stream('alpha beta GAMMA\n'), result('42', 1)]);
    expect(visibleSelection(record, lookup)).toBeNull();
  });

  it('stays visible when a re-run gives the same content a new execution count', () => {
    const record = recordOf(1, '42');
    cell.setOutputs([stream('alpha beta gamma\n'), result('42', 2)]);
    cell.execution_count = 2;
    expect(visibleSelection(record, lookup)).toMatchObject({
      outputIndex: 1,
      text: '42',
      outputFingerprint: record.outputFingerprint
    });
  });

  it('is null when the output index is gone', () => {
    const record = recordOf(1, '42');
    cell.setOutputs([stream('alpha beta gamma\n')]);
    expect(visibleSelection(record, lookup)).toBeNull();
    const first = recordOf(0, 'beta');
    cell.setOutputs([]);
    expect(visibleSelection(first, lookup)).toBeNull();
  });

  it('is null when another output moved into the recorded index', () => {
    const record = recordOf(1, '42');
    cell.setOutputs([result('42', 1), stream('alpha beta gamma\n')]);
    expect(visibleSelection(record, lookup)).toBeNull();
  });

  it('is null when the cell was deleted', () => {
    const record = recordOf(0, 'beta');
    notebook.deleteCell(1);
    expect(visibleSelection(record, lookup)).toBeNull();
  });

  it('is null for an index that is not a valid position', () => {
    const record = recordOf(0, 'beta');
    expect(visibleSelection({ ...record, outputIndex: -1 }, lookup)).toBeNull();
    expect(
      visibleSelection({ ...record, outputIndex: 0.5 }, lookup)
    ).toBeNull();
  });

  it('is null when the cell is no longer a code cell', () => {
    const record = recordOf(0, 'beta');
    const markdownId = notebook.cells[0].id;
    expect(
      visibleSelection({ ...record, cellId: markdownId }, lookup)
    ).toBeNull();
  });
});
