/**
 * Provenance as the agent reads it: the human's typing is recorded once per
 * burst, the agent's changes by the tool that made them (never again as a
 * human edit), `lastEditedBy` follows source changes only, and recording
 * stays out of the undo history.
 */
import { expect, shareInLab, test } from '../fixtures';
import { codeCell, notebookOf } from '../notebook-content';

interface IHistoryEntry {
  at: string;
  actor: 'human' | 'agent';
  action: string;
  tool?: string;
}

interface ISnapshot {
  id: string;
  source?: string;
  sourceHash: string;
  lastEditedBy?: 'human' | 'agent';
  lastEditedAt?: string;
}

const NOTEBOOK = notebookOf([
  codeCell('by-human', 'x = 1'),
  codeCell('by-agent', 'y = 2')
]);

// every test works in its own notebooks and leaves the app as it found it:
// in JupyterLab they share the worker's app start-up (ui-tests/shared-app.ts)
test.use(shareInLab);

test('who changed what: human typing, agent tools, runs, and undo @rule', async ({
  jupyter,
  human,
  agent
}) => {
  await jupyter.start();
  const path = await jupyter.createNotebook('provenance.ipynb', NOTEBOOK);
  await human.openNotebook(path);

  const snapshot = async (id: string): Promise<ISnapshot> => {
    const read = await agent.call<{ cells: ISnapshot[] }>('jupyter_get_cells', {
      cellIds: [id]
    });
    return read.structured!.cells[0];
  };
  const history = async (id: string): Promise<IHistoryEntry[]> => {
    const read = await agent.call<{
      cells: { cellId: string; history: IHistoryEntry[] }[];
    }>('jupyter_get_cell_access', { cellIds: [id] });
    return read.structured!.cells[0].history;
  };

  // nothing recorded yet: the fields are omitted
  expect(await snapshot('by-human')).not.toHaveProperty('lastEditedBy');
  expect(await history('by-human')).toEqual([]);

  // the human types a few characters at the keyboard: one entry, once the
  // burst settles
  await human.pressInEditor(0, 'End');
  await jupyter.page.keyboard.type(' + 41', { delay: 40 });
  await expect
    .poll(async () => (await snapshot('by-human')).lastEditedBy, {
      timeout: 15_000
    })
    .toBe('human');
  expect(await history('by-human')).toEqual([
    { at: expect.any(String), actor: 'human', action: 'edited' }
  ]);
  expect((await snapshot('by-human')).source).toBe('x = 1 + 41');

  // the agent edits twice in a row: one coalesced entry, by the tool, and
  // no human entry for its change however long one waits
  let cell = await snapshot('by-agent');
  for (const source of ['y = 3', 'y = 4']) {
    const updated = await agent.call<{ cell: ISnapshot }>(
      'jupyter_update_cell',
      { cellId: 'by-agent', source, expectedSourceHash: cell.sourceHash }
    );
    expect(updated.isError).toBe(false);
    cell = await snapshot('by-agent');
  }
  await jupyter.page.waitForTimeout(2_000); // past the human listener's debounce
  expect(cell.lastEditedBy).toBe('agent');
  expect(await history('by-agent')).toEqual([
    {
      at: expect.any(String),
      actor: 'agent',
      action: 'edited',
      tool: 'jupyter_update_cell'
    }
  ]);

  // a run by the agent is recorded, but is not an edit: the human's cell is
  // still last edited by the human
  const run = await agent.call('jupyter_run_cells', { cellIds: ['by-human'] });
  expect(run.isError).toBe(false);
  expect(await history('by-human')).toEqual([
    { at: expect.any(String), actor: 'human', action: 'edited' },
    {
      at: expect.any(String),
      actor: 'agent',
      action: 'ran',
      tool: 'jupyter_run_cells'
    }
  ]);
  expect((await snapshot('by-human')).lastEditedBy).toBe('human');

  // a cell the agent inserts starts its history with that
  const inserted = await agent.call<{ cell: { id: string } }>(
    'jupyter_insert_cell',
    { referenceCellId: 'by-agent', source: 'z = 0', activate: false }
  );
  expect(inserted.isError).toBe(false);
  const newId = inserted.structured!.cell.id;
  expect(await history(newId)).toEqual([
    {
      at: expect.any(String),
      actor: 'agent',
      action: 'inserted',
      tool: 'jupyter_insert_cell'
    }
  ]);

  // recording is not an undo step: one undo in the editor takes back the
  // agent's last source change, not a metadata write
  await human.pressInEditor(1, 'Control+z');
  await expect
    .poll(async () => (await snapshot('by-agent')).source)
    .toBe('y = 3');
  expect(jupyter.consoleErrors()).toEqual([]);
});
