import type * as nbformat from '@jupyterlab/nbformat';
import { type NotebookPanel } from '@jupyterlab/notebook';
import { NBTestUtils } from '@jupyterlab/notebook/lib/testutils';
import { Widget } from '@lumino/widgets';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { focusContext } from '../../src/jupyter/focus';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

function code(
  id: string,
  source: string,
  access?: unknown
): nbformat.ICodeCell {
  return {
    id,
    cell_type: 'code',
    source,
    metadata:
      access === undefined
        ? {}
        : { [ACCESS_METADATA_KEY]: { version: 1, access } as never },
    outputs: [],
    execution_count: null
  };
}

describe('focusContext', () => {
  let panel: NotebookPanel;

  beforeEach(async () => {
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({
      cells: [
        code('open', 'a = 1'),
        code('hidden', 'secret = 2', 'none'),
        code('read-only', 'b = 3', 'read'),
        code('invalid', 'c = 4', 'NONE'),
        code('last', 'd = 5')
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    });
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
  });

  afterEach(() => {
    const context = panel.context;
    panel.dispose();
    context.dispose();
  });

  const select = (active: number, from = active, to = active) => {
    const notebook = panel.content;
    notebook.activeCellIndex = active;
    notebook.deselectAll();
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
      notebook.select(notebook.widgets[i]);
    }
  };

  it('reports a visible active cell and the selection', () => {
    select(2, 2, 4);
    const focus = focusContext(panel);
    expect(focus).toMatchObject({
      activeCellId: 'read-only',
      activeCellIndex: 2,
      activeCellType: 'code',
      selectedCellIds: ['read-only', 'last'],
      hiddenSelectedCellCount: 1,
      hiddenActiveCell: false
    });
    expect(focus.cursor).toEqual({ line: 0, column: 0 });
  });

  it('reads a hidden active cell as none, with hiddenActiveCell', () => {
    select(1);
    expect(focusContext(panel)).toEqual({
      activeCellId: null,
      activeCellIndex: null,
      activeCellType: null,
      selectedCellIds: [],
      hiddenSelectedCellCount: 1,
      hiddenActiveCell: true,
      cursor: null,
      textSelection: null
    });
  });

  it('treats a value it does not recognise as hidden', () => {
    select(3);
    const focus = focusContext(panel);
    expect(focus.hiddenActiveCell).toBe(true);
    expect(JSON.stringify(focus)).not.toContain('invalid');
  });

  it('counts hidden selected cells and never names them', () => {
    select(0, 0, 4);
    const focus = focusContext(panel);
    expect(focus.activeCellId).toBe('open');
    expect(focus.selectedCellIds).toEqual(['open', 'read-only', 'last']);
    expect(focus.hiddenSelectedCellCount).toBe(2);
    expect(JSON.stringify(focus)).not.toMatch(/"hidden"|secret/);
  });

  it('never reports the selected text of a hidden cell', () => {
    select(1);
    const editor = panel.content.widgets[1].editor!;
    editor.setSelection({
      start: { line: 0, column: 0 },
      end: { line: 0, column: 6 }
    });
    const focus = focusContext(panel);
    expect(focus.textSelection).toBeNull();
    expect(focus.cursor).toBeNull();
  });
});
