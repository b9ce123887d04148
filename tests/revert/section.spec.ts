import { YNotebook } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';
import type {
  NotebookPanel,
  NotebookTracker as NotebookTrackerType
} from '@jupyterlab/notebook';
import type { NBTestUtils as NBTestUtilsType } from '@jupyterlab/notebook/lib/testutils';
import { nullTranslator } from '@jupyterlab/translation';
import { Widget } from '@lumino/widgets';
import * as Y from 'yjs';

import { sourceHash } from '../../src/common/hash';
import type * as EditsModelModule from '../../src/revert/section-model';
import { editText, reportText, statusText } from '../../src/revert/section';
import { agentEdits, recordAgentEdit } from '../../src/revert/journal';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

// Loaded once the console is quieted: @jupyterlab/apputils warns on import.
const { AgentEditsModel } = jest.requireActual<typeof EditsModelModule>(
  '../../src/revert/section-model'
);
const { NBTestUtils } = jest.requireActual<{
  NBTestUtils: typeof NBTestUtilsType;
}>('@jupyterlab/notebook/lib/testutils');
const { NotebookTracker } = jest.requireActual<{
  NotebookTracker: typeof NotebookTrackerType;
}>('@jupyterlab/notebook');

const trans = nullTranslator.load('jupyterlite-webmcp');

function code(id: string, source: string) {
  return {
    id,
    cell_type: 'code' as const,
    source,
    metadata: {} as nbformat.ICodeCell['metadata'],
    outputs: [],
    execution_count: null
  };
}

describe('AgentEditsModel', () => {
  let panel: NotebookPanel;
  let tracker: NotebookTrackerType;
  let model: EditsModelModule.AgentEditsModel;

  /** Waits for the model's next (timer-scheduled) change. */
  const nextChange = () =>
    new Promise<void>(resolve => {
      const once = () => {
        model.changed.disconnect(once);
        resolve();
      };
      model.changed.connect(once);
    });

  const shared = () => panel.content.model!.sharedModel;

  /** What jupyter_update_cell leaves: the write, then its journal entry. */
  const agentUpdate = (index: number, source: string) => {
    const cell = shared().cells[index];
    const before = cell.getSource();
    cell.setSource(source);
    recordAgentEdit(shared(), {
      tool: 'jupyter_update_cell',
      kind: 'update',
      cellId: cell.id,
      before,
      afterHash: sourceHash('code', source)
    });
  };

  beforeEach(async () => {
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({
      cells: [code('a', 'x = 1'), code('b', 'y = 2')],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    });
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    tracker = new NotebookTracker({ namespace: 'edits-spec' });
    await tracker.add(panel);
    model = new AgentEditsModel({ tracker });
    await nextChange();
  });

  afterEach(() => {
    model.dispose();
    const context = panel.context;
    panel.dispose();
    context.dispose();
    tracker.dispose();
  });

  it('follows the current notebook; no edit, no row', () => {
    expect(model.panel).toBe(panel);
    expect(model.path).toBe(panel.context.localPath);
    expect(model.rows).toEqual([]);
  });

  it('lists agent edits newest first, with their cell’s first line, live', async () => {
    agentUpdate(0, 'x = 10');
    agentUpdate(1, 'y = 20\nmore');
    await nextChange();
    expect(
      model.rows.map(row => [
        row.edit.cellId,
        row.preview,
        row.status.state,
        row.groupRevertable
      ])
    ).toEqual([
      ['b', 'y = 20', 'revertable', true],
      ['a', 'x = 10', 'revertable', true]
    ]);
    // a person types in cell b: its entry can no longer be reverted
    shared().cells[1].updateSource(0, 0, '# mine\n');
    await nextChange();
    expect(model.rows[0].status).toEqual({
      state: 'blocked',
      reason: 'changed'
    });
    expect(model.rows[0].preview).toBe('# mine');
    expect(model.rows[0].groupRevertable).toBe(false);
    expect(model.rows[1].groupRevertable).toBe(true);
  });

  it('follows a change that comes from a collaborator', async () => {
    agentUpdate(0, 'x = 10');
    await nextChange();
    expect(model.rows[0].status.state).toBe('revertable');
    // a second browser, synced with this one, types in cell a
    const ydoc = (shared() as unknown as { ydoc: Y.Doc }).ydoc;
    const other = new YNotebook({ disableDocumentWideUndoRedo: true });
    Y.applyUpdate(other.ydoc, Y.encodeStateAsUpdate(ydoc));
    other.cells[0].updateSource(0, 0, '# theirs\n');
    Y.applyUpdate(
      ydoc,
      Y.encodeStateAsUpdate(other.ydoc, Y.encodeStateVector(ydoc))
    );
    await nextChange();
    expect(model.rows[0].status).toEqual({
      state: 'blocked',
      reason: 'changed'
    });
    expect(model.rows[0].preview).toBe('# theirs');
    other.dispose();
  });

  it('reverts one edit or all since one, and reports what it did', async () => {
    agentUpdate(0, 'x = 10');
    agentUpdate(1, 'y = 20');
    shared().cells[1].updateSource(0, 0, '# mine\n');
    await nextChange();
    const [newest, oldest] = model.rows;

    const report = model.revertSince(oldest.edit.id)!;
    expect(report.outcome.reverted.map(edit => edit.cellId)).toEqual(['a']);
    expect(report.outcome.blocked.map(b => [b.edit.cellId, b.reason])).toEqual([
      ['b', 'changed']
    ]);
    expect(shared().cells.map(cell => cell.getSource())).toEqual([
      'x = 1',
      '# mine\ny = 20'
    ]);
    await nextChange();
    expect(model.lastReport).toBe(report);
    expect(
      reportText(
        report,
        new Map(model.rows.map(row => [row.edit.id, row.preview])),
        trans
      )
    ).toBe(
      'Reverted 1 agent edit (undo with the notebook’s undo). ' +
        'Changed: # mine — cannot be reverted: the cell was changed after this edit'
    );
    expect(model.revert(newest.edit.id)!.outcome.reverted).toEqual([]);
    expect(agentEdits(shared())).toHaveLength(2);
  });

  it('says each state and kind in words', () => {
    const edit = {
      id: 'e',
      at: '2026-01-01T00:00:00.000Z',
      tool: 'jupyter_insert_cell',
      kind: 'insert' as const,
      cellId: 'n',
      afterHash: 'sha256:00'
    };
    expect(editText(edit, 'z = 3', trans)).toBe('Inserted: z = 3');
    expect(editText(edit, '', trans)).toBe('Inserted: (empty cell)');
    expect(editText(edit, null, trans)).toBe(
      'Inserted: (a cell no longer here)'
    );
    expect(statusText({ state: 'revertable' }, trans)).toBe('can be reverted');
    expect(statusText({ state: 'reverted' }, trans)).toBe('reverted');
    expect(
      statusText({ state: 'blocked', reason: 'later-edit' }, trans)
    ).toMatch(/^cannot be reverted alone/);
    expect(
      statusText({ state: 'blocked', reason: 'cell-missing' }, trans)
    ).toBe('cannot be reverted: the cell no longer exists');
  });
});
