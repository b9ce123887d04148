import type { ISharedNotebook, YCodeCell } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { OutputSelectionTracker } from '../../src/selection/capture';
import { getOutputSelection } from '../../src/selection/tools';
import {
  renderNotebook,
  selectIn,
  TrackerStub,
  type ITestNotebook
} from './notebook-dom';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

function stream(text: string): nbformat.IStream {
  return { output_type: 'stream', name: 'stdout', text };
}

describe('getOutputSelection', () => {
  let tracker: TrackerStub;
  let notebook: ITestNotebook;
  let selection: OutputSelectionTracker;
  let findModel: (path: string) => ISharedNotebook | null;

  const cell = () => notebook.model.cells[0] as YCodeCell;

  beforeEach(() => {
    tracker = new TrackerStub();
    notebook = renderNotebook(tracker, [
      {
        cell_type: 'code',
        source: "print('alpha beta gamma')",
        outputs: [stream('alpha beta gamma\n')]
      }
    ]);
    selection = new OutputSelectionTracker({ tracker: tracker.asTracker });
    findModel = path => {
      const panel = tracker.find(p => p.context.localPath === path);
      return panel ? notebook.model : null;
    };
  });

  afterEach(() => {
    selection.dispose();
    notebook.dispose();
    document.getSelection()!.removeAllRanges();
    document.body.innerHTML = '';
  });

  it('is null when nothing was selected', () => {
    expect(getOutputSelection(selection, findModel)).toBeNull();
  });

  it("returns the spec's shape, without the notebook path", () => {
    selectIn(notebook.outputs(0)[0], 6, 10);
    const result = getOutputSelection(selection, findModel);
    expect(result).toEqual({
      cellId: cell().id,
      outputIndex: 0,
      text: 'beta',
      range: { start: 6, end: 10 },
      outputFingerprint: expect.stringMatching(/^sha256:[0-9a-f]{16}$/),
      capturedAt: selection.current!.capturedAt
    });
    expect(result).not.toHaveProperty('notebookPath');
    // What the handler returns is serialized as is.
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('is null after a re-run replaced the output, though the page still shows the old one', () => {
    selectIn(notebook.outputs(0)[0], 6, 10);
    cell().setOutputs([stream('alpha beta delta\n')]);
    expect(getOutputSelection(selection, findModel)).toBeNull();
  });

  it('is null while the cell is hidden from the agent', () => {
    selectIn(notebook.outputs(0)[0], 6, 10);
    cell().setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'none' });
    expect(getOutputSelection(selection, findModel)).toBeNull();
    cell().deleteMetadata(ACCESS_METADATA_KEY);
    expect(getOutputSelection(selection, findModel)?.text).toBe('beta');
  });

  it('is null once the notebook is closed', () => {
    selectIn(notebook.outputs(0)[0], 6, 10);
    const path = notebook.path;
    tracker.panels = [];
    expect(findModel(path)).toBeNull();
    expect(getOutputSelection(selection, findModel)).toBeNull();
  });

  it('never throws', () => {
    selectIn(notebook.outputs(0)[0], 6, 10);
    const failing = () => {
      throw new Error('no model');
    };
    expect(getOutputSelection(selection, failing)).toBeNull();
  });
});
