import { YNotebook, type ISharedCell } from '@jupyter/ydoc';
import * as Y from 'yjs';
import type * as nbformat from '@jupyterlab/nbformat';

import { ACCESS_METADATA_KEY, readHistory } from '../../src/access/model';
import { sourceHash } from '../../src/common/hash';
import {
  EDITS_METADATA_KEY,
  MAX_AGENT_EDITS,
  MAX_AGENT_EDITS_BYTES,
  agentEdits,
  forgetAgentEdits,
  readJournal,
  recordAgentEdit,
  withEdit,
  type IAgentEdit
} from '../../src/revert/journal';
import { editStatuses, editsSince, revertEdits } from '../../src/revert/revert';
import { code } from '../jupyter/ymodel';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

/** A notebook as JupyterLab makes it: one undo manager per cell for typing. */
function notebook(...ids: string[]): YNotebook {
  const model = YNotebook.create({ disableDocumentWideUndoRedo: true });
  model.insertCells(
    0,
    ids.map(id => code(id))
  );
  model.undoManager.clear();
  return model;
}

function cell(model: YNotebook, id: string): ISharedCell {
  const found = model.cells.find(c => c.id === id);
  if (!found) {
    throw new Error(`no cell ${id}`);
  }
  return found;
}

function ids(model: YNotebook): string[] {
  return model.cells.map(c => c.id);
}

/** What the tool paths do: write as the agent, then journal it. */
const agent = {
  update(model: YNotebook, id: string, source: string): void {
    const target = cell(model, id);
    const before = target.getSource();
    model.undoManager.stopCapturing();
    model.transact(() => target.setSource(source));
    model.undoManager.stopCapturing();
    recordAgentEdit(model, {
      tool: 'jupyter_update_cell',
      kind: 'update',
      cellId: id,
      before,
      afterHash: sourceHash('code', source)
    });
  },
  insert(model: YNotebook, index: number, id: string, source: string): void {
    model.undoManager.stopCapturing();
    model.insertCell(index, { ...code(id, source) });
    model.undoManager.stopCapturing();
    recordAgentEdit(model, {
      tool: 'jupyter_insert_cell',
      kind: 'insert',
      cellId: id,
      afterHash: sourceHash('code', source)
    });
  },
  delete(model: YNotebook, id: string): void {
    const index = ids(model).indexOf(id);
    const cells = model.cells;
    const entry = {
      tool: 'jupyter_delete_cell',
      kind: 'delete' as const,
      cellId: id,
      cell: cells[index].toJSON(),
      index,
      previousCellId: index > 0 ? cells[index - 1].id : null,
      nextCellId: index + 1 < cells.length ? cells[index + 1].id : null
    };
    model.undoManager.stopCapturing();
    model.deleteCell(index);
    model.undoManager.stopCapturing();
    recordAgentEdit(model, entry);
  }
};

function entry(model: YNotebook, i: number): IAgentEdit {
  return agentEdits(model)[i];
}

function status(model: YNotebook, i: number): unknown {
  return editStatuses(model).get(entry(model, i).id);
}

describe('the journal of agent edits', () => {
  it('is stored in the notebook metadata, outside the undo history', () => {
    const model = notebook('a');
    agent.update(model, 'a', 'y = 1');
    expect(model.getMetadata(EDITS_METADATA_KEY)).toMatchObject({
      version: 1,
      edits: [{ kind: 'update', cellId: 'a', before: 'x = "a"' }]
    });
    // one undo step: the agent's edit; the journal stays and reads reverted
    expect(model.undoManager.undoStack).toHaveLength(1);
    model.undo();
    expect(cell(model, 'a').getSource()).toBe('x = "a"');
    expect(agentEdits(model)).toHaveLength(1);
    expect(status(model, 0)).toEqual({ state: 'reverted' });
  });

  it('reads only entries it understands, first of a repeated id', () => {
    const good = {
      id: 'e1',
      at: '2026-01-01T00:00:00.000Z',
      tool: 'jupyter_insert_cell',
      kind: 'insert',
      cellId: 'a',
      afterHash: 'sha256:00'
    };
    expect(
      readJournal({
        version: 1,
        edits: [
          good,
          { ...good, cellId: 'b' },
          { ...good, id: 'e2', kind: 'rename' },
          { ...good, id: 'e3', kind: 'update' },
          { ...good, id: 'e4', kind: 'delete', cell: { cell_type: 'code' } },
          'junk',
          null
        ]
      })
    ).toEqual([good]);
    expect(readJournal('junk')).toEqual([]);
    expect(readJournal({ edits: 'junk' })).toEqual([]);
  });

  it(`keeps the newest ${MAX_AGENT_EDITS} entries`, () => {
    let edits: IAgentEdit[] = [];
    for (let i = 0; i < MAX_AGENT_EDITS + 7; i++) {
      edits = withEdit(edits, {
        id: `e${i}`,
        at: '2026-01-01T00:00:00.000Z',
        tool: 'jupyter_insert_cell',
        kind: 'insert',
        cellId: `c${i}`,
        afterHash: 'sha256:00'
      });
    }
    expect(edits).toHaveLength(MAX_AGENT_EDITS);
    expect(edits[0].id).toBe('e7');
    expect(edits[edits.length - 1].id).toBe(`e${MAX_AGENT_EDITS + 6}`);
  });

  it('stays within its byte budget, oldest out; a huge output is not kept', () => {
    const edits = sixUpdates('x'.repeat(MAX_AGENT_EDITS_BYTES / 4));
    expect(JSON.stringify(edits).length).toBeLessThanOrEqual(
      MAX_AGENT_EDITS_BYTES
    );
    expect(edits.map(e => e.id)).toEqual(['e3', 'e4', 'e5']);

    const output: nbformat.IStream = {
      output_type: 'stream',
      name: 'stdout',
      text: 'y'.repeat(MAX_AGENT_EDITS_BYTES)
    };
    const kept = deletedWithOutput('print(1)', output);
    expect(kept.outputsDropped).toBe(true);
    expect((kept.cell as nbformat.ICodeCell).outputs).toEqual([]);
    expect(kept.cell!.source).toBe('print(1)');
  });
});

/** The journal after six updates of cell a, each recording `before`. */
function sixUpdates(before: string): IAgentEdit[] {
  let edits: IAgentEdit[] = [];
  for (let i = 0; i < 6; i++) {
    edits = withEdit(edits, {
      id: `e${i}`,
      at: '2026-01-01T00:00:00.000Z',
      tool: 'jupyter_update_cell',
      kind: 'update',
      cellId: 'a',
      before,
      afterHash: 'sha256:00'
    });
  }
  return edits;
}

/** The journal entry of deleting code cell a with one output. */
function deletedWithOutput(
  source: string,
  output: nbformat.IOutput
): IAgentEdit {
  const [kept] = withEdit([], {
    id: 'd',
    at: '2026-01-01T00:00:00.000Z',
    tool: 'jupyter_delete_cell',
    kind: 'delete',
    cellId: 'a',
    cell: {
      id: 'a',
      cell_type: 'code',
      source,
      metadata: {},
      outputs: [output],
      execution_count: 1
    },
    index: 0
  });
  return kept;
}

describe('the journal in a burst of agent edits', () => {
  it(`keeps the newest ${MAX_AGENT_EDITS} of a burst longer than that, and puts none of the older back`, () => {
    const model = notebook('x');
    // one edit a millisecond, as calls come (each takes longer than that)
    const start = Date.now();
    jest.useFakeTimers();
    try {
      for (let i = 0; i < MAX_AGENT_EDITS + 15; i++) {
        jest.setSystemTime(start + i);
        agent.update(model, 'x', `x = ${i}`);
      }
    } finally {
      jest.useRealTimers();
    }
    const edits = agentEdits(model);
    expect(edits).toHaveLength(MAX_AGENT_EDITS);
    expect(edits[0].before).toBe('x = 14');
    expect(edits[edits.length - 1].before).toBe(`x = ${MAX_AGENT_EDITS + 13}`);
  });

  it('reads a journal changed by something else (a hand edit) before adding to it', () => {
    const model = notebook('x');
    agent.update(model, 'x', 'x = 1');
    const [first] = agentEdits(model);
    // another browser's entry replaces this page's, as a concurrent write can
    const other = { ...first, id: 'from-another-page', before: 'x = 0' };
    model.setMetadata(EDITS_METADATA_KEY, { version: 1, edits: [other] });
    agent.update(model, 'x', 'x = 2');
    // kept, and this page's first entry put back beside it
    const edits = agentEdits(model);
    expect(edits.map(edit => edit.id).sort()).toEqual(
      [first.id, other.id, edits[2].id].sort()
    );
    expect(edits).toHaveLength(3);
  });
});

describe('the journal bound, in UTF-8 bytes', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text).length;
  const bytes = (value: unknown) => utf8(JSON.stringify(value));

  it('counts a multi-byte source by its bytes, not its length', () => {
    // each entry holds a quarter of the bound in bytes, an eighth in length
    // ('é' is 2 bytes of UTF-8); '€' and '😀' are 3 and 4
    const sources = ['é', '€', '😀'].map(char =>
      char.repeat(MAX_AGENT_EDITS_BYTES / 4 / utf8(char) + 1)
    );
    for (const big of sources) {
      const edits = sixUpdates(big);
      expect(bytes(edits)).toBeLessThanOrEqual(MAX_AGENT_EDITS_BYTES);
      expect(edits.map(e => e.id)).toEqual(['e3', 'e4', 'e5']);
    }
  });

  it('drops the outputs of a deleted cell over half the bound in bytes', () => {
    // a third of the bound in length, two thirds in bytes
    const text = 'é'.repeat(MAX_AGENT_EDITS_BYTES / 3);
    const kept = deletedWithOutput('print("é")', {
      output_type: 'stream',
      name: 'stdout',
      text
    });
    expect(kept.outputsDropped).toBe(true);
    expect((kept.cell as nbformat.ICodeCell).outputs).toEqual([]);
    expect(kept.cell!.source).toBe('print("é")');
  });
});

describe('forgetting agent edits', () => {
  it('empties the journal and the text it held, outside the undo history; later edits are kept', () => {
    const model = notebook('x', 'y');
    model.transact(() => cell(model, 'x').setSource('secret = 1'));
    model.undoManager.clear();
    agent.update(model, 'x', 'x = 2');
    agent.delete(model, 'y');
    expect(forgetAgentEdits(model)).toBe(2);
    expect(agentEdits(model)).toEqual([]);
    expect(JSON.stringify(model.getMetadata(EDITS_METADATA_KEY))).not.toContain(
      'secret'
    );
    // the cells are as the agent left them, and nothing entered the undo
    // history beyond the agent's own edits
    expect(ids(model)).toEqual(['x']);
    expect(cell(model, 'x').getSource()).toBe('x = 2');
    agent.insert(model, 1, 'z', 'z = 3');
    expect(agentEdits(model).map(edit => edit.cellId)).toEqual(['z']);
    expect(forgetAgentEdits(model)).toBe(1);
    expect(forgetAgentEdits(model)).toBe(0);
  });
});

describe('reverting agent edits', () => {
  it('an update goes back to the source before it, as one undo step', () => {
    const model = notebook('a', 'b');
    agent.update(model, 'a', 'y = 1');
    expect(status(model, 0)).toEqual({ state: 'revertable' });
    const undoSteps = model.undoManager.undoStack.length;
    const outcome = revertEdits(model, new Set([entry(model, 0).id]));
    expect(outcome.reverted.map(e => e.cellId)).toEqual(['a']);
    expect(cell(model, 'a').getSource()).toBe('x = "a"');
    expect(model.undoManager.undoStack).toHaveLength(undoSteps + 1);
    expect(status(model, 0)).toEqual({ state: 'reverted' });
    // the notebook's own undo takes the revert back; the entry is revertable again
    model.undo();
    expect(cell(model, 'a').getSource()).toBe('y = 1');
    expect(status(model, 0)).toEqual({ state: 'revertable' });
  });

  it('provenance records the revert as the human’s', () => {
    const model = notebook('a');
    agent.update(model, 'a', 'y = 1');
    revertEdits(model, new Set([entry(model, 0).id]));
    const history = readHistory(
      cell(model, 'a').getMetadata(ACCESS_METADATA_KEY)
    );
    expect(history[history.length - 1]).toMatchObject({
      actor: 'human',
      action: 'edited'
    });
  });

  it('an insert is removed; a delete comes back at its place with its outputs', () => {
    const model = notebook('a', 'b', 'c');
    const output: nbformat.IStream = {
      output_type: 'stream',
      name: 'stdout',
      text: 'hello\n'
    };
    cell(model, 'b').transact(() => {
      (
        cell(model, 'b') as unknown as {
          setOutputs(o: nbformat.IOutput[]): void;
        }
      ).setOutputs([output]);
    });
    agent.insert(model, 1, 'n', 'new = 1');
    agent.delete(model, 'b');
    expect(ids(model)).toEqual(['a', 'n', 'c']);
    // the delete alone: back after the cell that was above it
    revertEdits(model, new Set([entry(model, 1).id]));
    expect(ids(model)).toEqual(['a', 'n', 'b', 'c']);
    expect(cell(model, 'b').toJSON()).toMatchObject({
      source: 'x = "b"',
      outputs: [output]
    });
    expect(
      readHistory(cell(model, 'b').getMetadata(ACCESS_METADATA_KEY)).pop()
    ).toMatchObject({ actor: 'human', action: 'inserted' });
    revertEdits(model, new Set([entry(model, 0).id]));
    expect(ids(model)).toEqual(['a', 'b', 'c']);
  });

  it('a delete whose neighbours are gone comes back at its old index', () => {
    const model = notebook('a', 'b', 'c', 'd');
    agent.delete(model, 'b');
    model.deleteCellRange(0, 1); // the human deletes 'a' ...
    model.deleteCell(0); // ... and 'c'
    revertEdits(model, new Set([entry(model, 0).id]));
    expect(ids(model)).toEqual(['d', 'b']);
  });

  it('never overwrites a cell the human changed since', () => {
    const model = notebook('a', 'b');
    agent.update(model, 'a', 'y = 1');
    agent.insert(model, 2, 'n', 'new = 1');
    cell(model, 'a').setSource('y = 2  # mine');
    cell(model, 'n').setSource('new = 2  # mine');
    expect(status(model, 0)).toEqual({ state: 'blocked', reason: 'changed' });
    expect(status(model, 1)).toEqual({ state: 'blocked', reason: 'changed' });
    const outcome = revertEdits(
      model,
      editsSince(agentEdits(model), entry(model, 0).id)
    );
    expect(outcome.reverted).toEqual([]);
    expect(outcome.blocked.map(b => [b.edit.cellId, b.reason])).toEqual([
      ['n', 'changed'],
      ['a', 'changed']
    ]);
    expect(cell(model, 'a').getSource()).toBe('y = 2  # mine');
    expect(ids(model)).toEqual(['a', 'b', 'n']);
  });

  it('an update of a deleted cell cannot be reverted alone; with the delete it can', () => {
    const model = notebook('a', 'b');
    agent.update(model, 'a', 'y = 1');
    agent.delete(model, 'a');
    // the agent's own delete is in the way: revert from there
    expect(status(model, 0)).toEqual({
      state: 'blocked',
      reason: 'later-edit'
    });
    const outcome = revertEdits(
      model,
      editsSince(agentEdits(model), entry(model, 0).id)
    );
    expect(outcome.reverted.map(e => e.kind)).toEqual(['delete', 'update']);
    expect(ids(model)).toEqual(['a', 'b']);
    expect(cell(model, 'a').getSource()).toBe('x = "a"');
  });

  it('an update of a cell the human deleted cannot be reverted', () => {
    const model = notebook('a', 'b');
    agent.update(model, 'a', 'y = 1');
    model.deleteCell(0);
    expect(status(model, 0)).toEqual({
      state: 'blocked',
      reason: 'cell-missing'
    });
    expect(
      revertEdits(model, new Set([entry(model, 0).id])).blocked
    ).toHaveLength(1);
    expect(ids(model)).toEqual(['b']);
  });

  it('two agent edits of one cell: the older one points at the newer; all since reverts both in one step', () => {
    const model = notebook('a', 'b');
    agent.update(model, 'a', 'one');
    agent.update(model, 'a', 'two');
    agent.insert(model, 0, 'n', 'top');
    expect(status(model, 0)).toEqual({
      state: 'blocked',
      reason: 'later-edit'
    });
    const steps = model.undoManager.undoStack.length;
    const outcome = revertEdits(
      model,
      editsSince(agentEdits(model), entry(model, 0).id)
    );
    expect(outcome.reverted).toHaveLength(3);
    expect(ids(model)).toEqual(['a', 'b']);
    expect(cell(model, 'a').getSource()).toBe('x = "a"');
    expect(model.undoManager.undoStack).toHaveLength(steps + 1);
    model.undo();
    expect(ids(model)).toEqual(['n', 'a', 'b']);
    expect(cell(model, 'a').getSource()).toBe('two');
  });

  it('an insert then a delete of the same cell: all since leaves nothing behind', () => {
    const model = notebook('a');
    agent.insert(model, 1, 'n', 'tmp');
    agent.delete(model, 'n');
    const outcome = revertEdits(
      model,
      editsSince(agentEdits(model), entry(model, 0).id)
    );
    expect(outcome.reverted.map(e => e.kind)).toEqual(['delete', 'insert']);
    expect(ids(model)).toEqual(['a']);
  });

  it('what is already reverted is skipped, and nothing is written', () => {
    const model = notebook('a');
    agent.update(model, 'a', 'y');
    model.undo();
    const steps = model.undoManager.undoStack.length;
    const outcome = revertEdits(model, new Set([entry(model, 0).id]));
    expect(outcome.skipped).toHaveLength(1);
    expect(model.undoManager.undoStack).toHaveLength(steps);
  });
});

describe('the journal under real-time collaboration', () => {
  /** Send `from`'s changes that `to` has not seen, as a provider does. */
  function send(from: YNotebook, to: YNotebook): void {
    Y.applyUpdate(
      to.ydoc,
      Y.encodeStateAsUpdate(from.ydoc, Y.encodeStateVector(to.ydoc))
    );
  }

  function settle(a: YNotebook, b: YNotebook): void {
    for (let round = 0; round < 10; round++) {
      send(a, b);
      send(b, a);
      const same = Buffer.from(Y.encodeStateVector(a.ydoc)).equals(
        Buffer.from(Y.encodeStateVector(b.ydoc))
      );
      if (same) {
        return;
      }
    }
    throw new Error('the two browsers keep writing');
  }

  /**
   * Two browsers on one notebook of cells x and y, each of whose agents
   * changed one cell at the same time, synced afterwards.
   */
  function bothAgentsWrote(): [YNotebook, YNotebook] {
    const a = notebook('x', 'y');
    // the second browser gets the document as the server has it
    const b = new YNotebook({ disableDocumentWideUndoRedo: true });
    Y.applyUpdate(b.ydoc, Y.encodeStateAsUpdate(a.ydoc));
    agent.update(a, 'x', 'from a');
    agent.update(b, 'y', 'from b');
    settle(a, b);
    return [a, b];
  }

  it('two agents writing at once: both browsers end with both entries', () => {
    const [a, b] = bothAgentsWrote();
    const cells = (model: YNotebook) =>
      agentEdits(model)
        .map(edit => edit.cellId)
        .sort();
    expect(cells(a)).toEqual(['x', 'y']);
    expect(cells(b)).toEqual(['x', 'y']);
    expect(agentEdits(a)).toEqual(agentEdits(b));
    // and each can be reverted from either browser
    revertEdits(b, new Set(agentEdits(b).map(edit => edit.id)));
    settle(a, b);
    expect(a.cells.map(cell => cell.getSource())).toEqual([
      'x = "x"',
      'x = "y"'
    ]);
  });

  it('a forget in one browser holds in both: the other does not put its own entries back', () => {
    const [a, b] = bothAgentsWrote();
    expect(agentEdits(a)).toHaveLength(2);
    // within the minute each browser defends its own entries
    expect(forgetAgentEdits(a)).toBe(2);
    settle(a, b);
    expect(agentEdits(a)).toEqual([]);
    expect(agentEdits(b)).toEqual([]);
    // an edit after the forget is journaled and defended as usual
    agent.update(b, 'y', 'later from b');
    settle(a, b);
    expect(agentEdits(a).map(edit => edit.cellId)).toEqual(['y']);
  });
});
