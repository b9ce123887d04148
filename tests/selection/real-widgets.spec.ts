import type { ISharedCodeCell } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';
import { NotebookTracker, type NotebookPanel } from '@jupyterlab/notebook';
import {
  initNotebookContext,
  NBTestUtils
} from '@jupyterlab/notebook/lib/testutils';
import { ServiceManagerMock } from '@jupyterlab/services/lib/testutils';
import { Widget } from '@lumino/widgets';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { outputFingerprint } from '../../src/common/fingerprint';
import { OutputSelectionTracker } from '../../src/selection/capture';
import { getOutputSelection } from '../../src/selection/tools';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

function stream(text: string): nbformat.IStream {
  return { output_type: 'stream', name: 'stdout', text };
}

describe('capture with real JupyterLab widgets', () => {
  let panel: NotebookPanel;
  let tracker: NotebookTracker;
  let selection: OutputSelectionTracker;

  beforeEach(async () => {
    const context = await initNotebookContext({
      manager: new ServiceManagerMock()
    });
    panel = NBTestUtils.createNotebookPanel(context);
    const shared = context.model.sharedModel;
    shared.deleteCellRange(0, shared.cells.length);
    shared.insertCells(0, [
      {
        cell_type: 'code',
        source: 'a',
        outputs: [
          stream('alpha beta gamma\n'),
          {
            output_type: 'execute_result',
            execution_count: 1,
            data: { 'text/plain': '42' },
            metadata: {}
          }
        ]
      },
      { cell_type: 'code', source: 'b', outputs: [stream('delta epsilon\n')] },
      { cell_type: 'markdown', source: '# hi' }
    ]);
    Widget.attach(panel, document.body);
    await new Promise(r => setTimeout(r, 50));
    tracker = new NotebookTracker({ namespace: 'x' });
    await tracker.add(panel);
    selection = new OutputSelectionTracker({ tracker });
  });

  afterEach(() => {
    selection.dispose();
    tracker.dispose();
    panel.dispose();
    document.getSelection()!.removeAllRanges();
  });

  const outputs = (cell: number) =>
    panel.content.widgets[cell].node.querySelectorAll<HTMLElement>(
      '.jp-OutputArea-output'
    );
  const textOf = (el: Element) => {
    const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    return w.nextNode() as Text;
  };
  const select = (a: Node, ao: number, f: Node, fo: number) => {
    document.getSelection()!.setBaseAndExtent(a, ao, f, fo);
    document.dispatchEvent(new Event('selectionchange'));
  };
  const lookup = (path: string) =>
    path === panel.context.localPath ? panel.content.model!.sharedModel : null;

  it('records a selection inside one output', () => {
    const out = outputs(0)[1];
    const t = textOf(out);
    select(t, 0, t, 2);
    const rec = selection.current!;
    const cell = panel.content.model!.sharedModel.cells[0] as ISharedCodeCell;
    expect(rec).toMatchObject({
      cellId: cell.id,
      outputIndex: 1,
      text: '42',
      range: { start: 0, end: 2 },
      notebookPath: panel.context.localPath
    });
    expect(rec.outputFingerprint).toBe(outputFingerprint(cell.getOutputs()[1]));
    const first = textOf(outputs(0)[0]);
    select(first, 6, first, 10);
    expect(selection.current).toMatchObject({
      outputIndex: 0,
      text: 'beta',
      range: { start: 6, end: 10 }
    });
    expect(getOutputSelection(selection, lookup)).toMatchObject({
      text: 'beta'
    });
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'none' });
    expect(getOutputSelection(selection, lookup)).toBeNull();
    cell.deleteMetadata(ACCESS_METADATA_KEY);
    expect(getOutputSelection(selection, lookup)).toMatchObject({
      text: 'beta'
    });
    cell.setOutputs([stream('alpha beta GAMMA\n')]);
    expect(getOutputSelection(selection, lookup)).toBeNull();
  });

  it('nulls spanning outputs, prompts, cells, editors', () => {
    const a = textOf(outputs(0)[0]);
    const b = textOf(outputs(0)[1]);
    select(a, 0, a, 5);
    expect(selection.current).not.toBeNull();
    select(a, 0, b, 1);
    expect(selection.current).toBeNull();
    const prompt = panel.content.widgets[0].node.querySelectorAll(
      '.jp-OutputArea-prompt'
    )[1];
    select(a, 0, a, 5);
    select(prompt.firstChild!, 0, b, 2);
    expect(selection.current).toBeNull();
    select(a, 0, a, 5);
    const c = textOf(outputs(1)[0]);
    select(a, 6, c, 3);
    expect(selection.current).toBeNull();
    select(c, 0, c, 5);
    expect(selection.current).toMatchObject({
      outputIndex: 0,
      text: 'delta',
      cellId: panel.content.model!.sharedModel.cells[1].id
    });
    // clipped end: from cell 1's output to the start of the markdown cell
    select(c, 0, panel.content.widgets[2].node, 0);
    expect(selection.current).toMatchObject({
      text: 'delta epsilon\n',
      range: { start: 0, end: 14 }
    });
    // in the editor of cell 0
    const cm = panel.content.widgets[0].node.querySelector('.cm-content')!;
    const cmText = textOf(cm);
    select(cmText, 0, cmText, 1);
    expect(selection.current).toBeNull();
    const md = panel.content.widgets[2].node;
    const mdText = textOf(md);
    select(mdText, 0, mdText, 1);
    expect(selection.current).toBeNull();
  });
});
