import { YNotebook } from '@jupyter/ydoc';
import * as Y from 'yjs';

import { withAgentAttribution } from '../../src/access/guard';
import { readHistory } from '../../src/access/model';
import {
  ProvenanceRecorder,
  recordAgentAction
} from '../../src/access/provenance';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

const KEY = 'jupyterlite_webmcp';

function notebook(sources: string[]): YNotebook {
  const model = YNotebook.create({ disableDocumentWideUndoRedo: true });
  model.insertCells(
    0,
    sources.map((source, i) => ({
      cell_type: 'code' as const,
      id: `c${i}`,
      source,
      metadata: {}
    }))
  );
  return model;
}

function history(model: YNotebook, index: number) {
  return readHistory(model.cells[index].getMetadata(KEY));
}

describe('ProvenanceRecorder', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('records a burst of human typing once, after it settles', () => {
    const model = notebook(['a', 'b']);
    const recorder = new ProvenanceRecorder({ model, debounceMs: 500 });
    const cell = model.cells[0];
    cell.updateSource(1, 1, 'x');
    jest.advanceTimersByTime(300);
    cell.updateSource(2, 2, 'y');
    expect(history(model, 0)).toEqual([]);
    jest.advanceTimersByTime(500);
    expect(history(model, 0)).toEqual([
      { at: expect.any(String), actor: 'human', action: 'edited' }
    ]);
    expect(history(model, 1)).toEqual([]);
    recorder.dispose();
  });

  it('leaves changes made by a tool call to the tool path', () => {
    const model = notebook(['a']);
    const recorder = new ProvenanceRecorder({ model, debounceMs: 100 });
    const cell = model.cells[0];
    withAgentAttribution(() => cell.setSource('agent text'));
    recordAgentAction(cell, 'edited', 'jupyter_update_cell');
    jest.advanceTimersByTime(1000);
    expect(history(model, 0)).toEqual([
      {
        at: expect.any(String),
        actor: 'agent',
        action: 'edited',
        tool: 'jupyter_update_cell'
      }
    ]);
    recorder.dispose();
  });

  it("ignores a collaborator's edit arriving from another browser", () => {
    const model = notebook(['shared']);
    const recorder = new ProvenanceRecorder({ model, debounceMs: 100 });
    // Another browser's copy of the same document.
    const remote = new Y.Doc();
    Y.applyUpdate(remote, Y.encodeStateAsUpdate(model.ydoc));
    const remoteCells = remote.getArray<Y.Map<unknown>>('cells');
    const text = remoteCells.get(0).get('source') as Y.Text;
    text.insert(0, 'remote ');
    Y.applyUpdate(
      model.ydoc,
      Y.encodeStateAsUpdate(remote, Y.encodeStateVector(model.ydoc))
    );
    expect(model.cells[0].getSource()).toBe('remote shared');
    jest.advanceTimersByTime(1000);
    expect(history(model, 0)).toEqual([]);

    // This browser's own edit is recorded.
    model.cells[0].updateSource(0, 0, '!');
    jest.advanceTimersByTime(1000);
    expect(history(model, 0)).toHaveLength(1);
    recorder.dispose();
  });

  it('follows a cell moved before the edit is written', () => {
    const model = notebook(['first', 'second', 'third']);
    const recorder = new ProvenanceRecorder({ model, debounceMs: 100 });
    model.cells[0].updateSource(0, 0, '>');
    model.moveCell(0, 2);
    expect(model.cells[2].id).toBe('c0');
    jest.advanceTimersByTime(200);
    expect(history(model, 2)).toEqual([
      { at: expect.any(String), actor: 'human', action: 'edited' }
    ]);
    // And an edit after the move is still heard.
    model.cells[2].updateSource(0, 0, '>');
    jest.advanceTimersByTime(200);
    expect(history(model, 2)).toHaveLength(1);
    recorder.dispose();
  });

  it('keeps history writes out of the undo history', () => {
    const model = notebook(['abc']);
    const recorder = new ProvenanceRecorder({ model, debounceMs: 100 });
    const cell = model.cells[0];
    cell.updateSource(3, 3, 'd');
    jest.advanceTimersByTime(200);
    expect(history(model, 0)).toHaveLength(1);
    cell.undo();
    expect(cell.getSource()).toBe('abc');
    // Undoing the edit did not undo the record of it.
    expect(history(model, 0)).toHaveLength(1);
    recorder.dispose();
  });

  it('writes pending edits when flushed or disposed, and not for deleted cells', () => {
    const model = notebook(['keep', 'drop']);
    const recorder = new ProvenanceRecorder({ model, debounceMs: 10_000 });
    model.cells[0].updateSource(0, 0, '1');
    model.cells[1].updateSource(0, 0, '2');
    model.deleteCell(1);
    recorder.flush();
    expect(history(model, 0)).toHaveLength(1);
    model.cells[0].updateSource(0, 0, '3');
    recorder.dispose();
    expect(history(model, 0)).toHaveLength(1); // coalesced: same actor and action
    expect(model.cells).toHaveLength(1);
  });
});
