import type { YCodeCell } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';

import { outputFingerprint } from '../../src/common/fingerprint';
import { LIMITS } from '../../src/limits';
import { OutputSelectionTracker } from '../../src/selection/capture';
import {
  collapse,
  firstText,
  outputChild,
  renderNotebook,
  select,
  selectIn,
  TrackerStub,
  type ITestNotebook
} from './notebook-dom';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

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

describe('OutputSelectionTracker', () => {
  let tracker: TrackerStub;
  let notebook: ITestNotebook;
  let selection: OutputSelectionTracker;
  let changes: number;

  const codeCell = (index: number) => notebook.model.cells[index] as YCodeCell;

  beforeEach(() => {
    tracker = new TrackerStub();
    notebook = renderNotebook(tracker, [
      {
        cell_type: 'code',
        source: "print('alpha beta gamma')\n6 * 7",
        outputs: [stream('alpha beta gamma\n'), result('42', 1)]
      },
      {
        cell_type: 'code',
        source: "print('delta epsilon')",
        outputs: [stream('delta epsilon\n')]
      },
      { cell_type: 'markdown', source: '# Notes' }
    ]);
    selection = new OutputSelectionTracker({ tracker: tracker.asTracker });
    changes = 0;
    selection.changed.connect(() => {
      changes++;
    });
  });

  afterEach(() => {
    selection.dispose();
    notebook.dispose();
    document.getSelection()!.removeAllRanges();
    document.body.innerHTML = '';
  });

  describe('records a selection inside one output', () => {
    it('with its cell, output index, text, range and fingerprint', () => {
      const before = Date.now();
      selectIn(notebook.outputs(0)[0], 6, 16);
      const record = selection.current!;
      expect(record).toEqual({
        cellId: codeCell(0).id,
        outputIndex: 0,
        text: 'beta gamma',
        range: { start: 6, end: 16 },
        outputFingerprint: outputFingerprint(codeCell(0).getOutputs()[0]),
        capturedAt: expect.any(String),
        notebookPath: notebook.path
      });
      expect(new Date(record.capturedAt).toISOString()).toBe(record.capturedAt);
      expect(Date.parse(record.capturedAt)).toBeGreaterThanOrEqual(
        before - 1000
      );
      expect(changes).toBe(1);
    });

    it('maps the second output of a cell to index 1', () => {
      selectIn(notebook.outputs(0)[1], 0, 2);
      expect(selection.current).toMatchObject({
        cellId: codeCell(0).id,
        outputIndex: 1,
        text: '42',
        range: { start: 0, end: 2 },
        outputFingerprint: outputFingerprint(codeCell(0).getOutputs()[1])
      });
    });

    it('in the cell the selection is in, not the active one', () => {
      selectIn(notebook.outputs(1)[0], 0, 5);
      expect(selection.current).toMatchObject({
        cellId: codeCell(1).id,
        outputIndex: 0,
        text: 'delta'
      });
    });

    it('with offsets in the output text across several text nodes', () => {
      // Rendered text is split by links, ANSI spans and the like.
      const pre = notebook.outputs(0)[0].querySelector('pre')!;
      pre.textContent = '';
      pre.append('see ');
      const link = document.createElement('a');
      link.textContent = 'https://example.org';
      pre.append(link, ' for more\n');
      select(firstText(link), 8, pre.lastChild!, 4);
      const record = selection.current!;
      expect(record.text).toBe('example.org for');
      expect(record.range).toEqual({ start: 12, end: 27 });
      const output = notebook.outputs(0)[0];
      expect(output.textContent!.slice(12, 27)).toBe(record.text);
    });

    it('backwards as well as forwards', () => {
      const text = firstText(notebook.outputs(0)[0]);
      select(text, 10, text, 6);
      expect(selection.current).toMatchObject({
        text: 'beta',
        range: { start: 6, end: 10 }
      });
    });

    it('in the outer output when the output renders an output area', () => {
      // An output that renders outputs itself (an Output widget, say).
      const outer = notebook.outputs(1)[0];
      const nested = document.createElement('div');
      nested.className = 'lm-Widget jp-OutputArea';
      nested.appendChild(outputChild(stream('inner words\n')));
      outer.appendChild(nested);
      selectIn(nested.querySelector('.jp-OutputArea-output')!, 0, 5);
      expect(selection.current).toMatchObject({
        cellId: codeCell(1).id,
        outputIndex: 0,
        text: 'inner'
      });
    });

    it('ignoring stdin boxes, which are not outputs', () => {
      const area = notebook.cell(0).outputArea!.node;
      const stdin = document.createElement('div');
      stdin.className =
        'lm-Widget lm-Panel jp-OutputArea-child jp-OutputArea-stdin-item';
      stdin.innerHTML =
        '<div class="jp-OutputArea-prompt"></div>' +
        '<div class="jp-Stdin jp-OutputArea-output">' +
        '<pre class="jp-Stdin-prompt">Your name: </pre></div>';
      // JupyterLab appends the box; outputs arriving later go before it.
      area.insertBefore(stdin, area.children[1]);
      selectIn(stdin.querySelector('pre')!, 0, 4);
      expect(selection.current).toBeNull();
      selectIn(notebook.outputs(0)[2], 0, 2);
      expect(selection.current).toMatchObject({ outputIndex: 1, text: '42' });
    });
  });

  describe('clips an end that selects no text outside the output', () => {
    it('as a triple click leaves it, at the start of the next cell', () => {
      const output = notebook.outputs(1)[0];
      select(firstText(output), 0, notebook.cell(2).node, 0);
      expect(selection.current).toMatchObject({
        cellId: codeCell(1).id,
        outputIndex: 0,
        text: 'delta epsilon\n',
        range: { start: 0, end: 14 }
      });
    });

    it('before the empty prompt of the next output', () => {
      const stderr: nbformat.IStream = {
        output_type: 'stream',
        name: 'stderr',
        text: 'oops\n'
      };
      codeCell(1).setOutputs([stream('delta epsilon\n'), stderr]);
      const area = notebook.cell(1).outputArea!.node;
      area.insertBefore(outputChild(stderr), area.lastChild);
      const second = area.children[1];
      select(firstText(notebook.outputs(1)[0]), 6, second, 0);
      expect(selection.current).toMatchObject({
        cellId: codeCell(1).id,
        outputIndex: 0,
        text: 'epsilon\n',
        range: { start: 6, end: 14 }
      });
      // From the very end of the first output into the second one.
      const first = firstText(notebook.outputs(1)[0]);
      select(first, first.length, firstText(second), 4);
      expect(selection.current).toMatchObject({
        outputIndex: 1,
        text: 'oops',
        range: { start: 0, end: 4 }
      });
    });

    it('from before the output, when nothing in between is text', () => {
      const child = notebook.outputs(1)[0].parentElement!;
      select(child, 0, firstText(notebook.outputs(1)[0]), 5);
      expect(selection.current).toMatchObject({
        outputIndex: 0,
        text: 'delta',
        range: { start: 0, end: 5 }
      });
    });
  });

  describe('is null', () => {
    beforeEach(() => {
      selectIn(notebook.outputs(0)[0], 0, 5);
      expect(selection.current?.text).toBe('alpha');
      changes = 0;
    });

    it('for a selection spanning two outputs of a cell', () => {
      select(
        firstText(notebook.outputs(0)[0]),
        6,
        firstText(notebook.outputs(0)[1]),
        1
      );
      expect(selection.current).toBeNull();
      expect(changes).toBe(1);
    });

    it('for a selection that includes the output prompt', () => {
      select(
        firstText(notebook.prompts(0)[1]),
        0,
        firstText(notebook.outputs(0)[1]),
        2
      );
      expect(selection.current).toBeNull();
    });

    it('for a selection spanning two cells', () => {
      select(
        firstText(notebook.outputs(0)[0]),
        6,
        firstText(notebook.outputs(1)[0]),
        5
      );
      expect(selection.current).toBeNull();
    });

    it("in a cell's editor", () => {
      selectIn(notebook.cell(0).node.querySelector('.cm-content')!, 0, 5);
      expect(selection.current).toBeNull();
    });

    it('in an editable element inside an output', () => {
      const box = document.createElement('textarea');
      box.textContent = 'typed text';
      notebook.outputs(1)[0].appendChild(box);
      selectIn(box, 0, 5);
      expect(selection.current).toBeNull();
    });

    it('in a rendered markdown cell', () => {
      selectIn(notebook.cell(2).node, 0, 3);
      expect(selection.current).toBeNull();
    });

    it('outside every notebook', () => {
      const aside = document.createElement('p');
      aside.textContent = 'some page text';
      document.body.appendChild(aside);
      selectIn(aside, 0, 4);
      expect(selection.current).toBeNull();
    });

    it('in an output of a notebook the tracker does not know', () => {
      const other = renderNotebook(new TrackerStub(), [
        { cell_type: 'code', source: '', outputs: [stream('elsewhere\n')] }
      ]);
      selectIn(other.outputs(0)[0], 0, 4);
      expect(selection.current).toBeNull();
      other.dispose();
    });

    it('in the notice that stands for trimmed outputs', () => {
      const area = notebook.cell(0).outputArea!;
      area.maxNumberOutputs = 1;
      const notice = notebook.outputs(0)[1];
      notice.innerHTML = '<a>Show more outputs</a>';
      selectIn(notice, 0, 4);
      expect(selection.current).toBeNull();
    });

    it('after a click elsewhere collapses the selection', () => {
      collapse(firstText(notebook.outputs(0)[0]), 3);
      expect(selection.current).toBeNull();
      expect(changes).toBe(1);
    });

    it('when nothing is selected any more', () => {
      document.getSelection()!.removeAllRanges();
      document.dispatchEvent(new Event('selectionchange'));
      expect(selection.current).toBeNull();
    });

    it('for a selection of whitespace only', () => {
      selectIn(notebook.outputs(0)[0], 5, 6);
      expect(selection.current).toBeNull();
    });
  });

  describe(`bounds the text to ${LIMITS.MAX_SELECTED_TEXT_BYTES} bytes of UTF-8`, () => {
    function selectAllOf(text: string): void {
      const pre = notebook.outputs(1)[0].querySelector('pre')!;
      pre.textContent = text;
      selectIn(pre, 0, text.length);
    }

    it('keeps a selection of exactly the bound', () => {
      selectAllOf('a'.repeat(LIMITS.MAX_SELECTED_TEXT_BYTES));
      expect(selection.current?.text).toHaveLength(
        LIMITS.MAX_SELECTED_TEXT_BYTES
      );
    });

    it('drops a selection one byte over', () => {
      selectAllOf('a'.repeat(LIMITS.MAX_SELECTED_TEXT_BYTES + 1));
      expect(selection.current).toBeNull();
    });

    it('measures bytes, not characters', () => {
      // 1365 three-byte characters are 4095 bytes; 1366 are 4098.
      selectAllOf('€'.repeat(1365));
      expect(selection.current?.text).toHaveLength(1365);
      selectAllOf('€'.repeat(1366));
      expect(selection.current).toBeNull();
    });
  });

  describe('the record', () => {
    it('is replaced by each new qualifying selection', () => {
      selectIn(notebook.outputs(0)[0], 0, 5);
      selectIn(notebook.outputs(1)[0], 0, 5);
      expect(selection.current).toMatchObject({
        cellId: codeCell(1).id,
        text: 'delta'
      });
      expect(changes).toBe(2);
    });

    it('keeps its capture time when the same selection is reported again', async () => {
      selectIn(notebook.outputs(0)[0], 0, 5);
      const first = selection.current!.capturedAt;
      await new Promise(resolve => setTimeout(resolve, 5));
      document.dispatchEvent(new Event('selectionchange'));
      expect(selection.current!.capturedAt).toBe(first);
      expect(changes).toBe(1);
    });

    it('fingerprints the output as it was when the selection was made', () => {
      selectIn(notebook.outputs(0)[0], 0, 5);
      const captured = outputFingerprint(codeCell(0).getOutputs()[0]);
      // The model changes before anyone reads the record.
      codeCell(0).setOutputs([stream('something else\n')]);
      expect(selection.current!.outputFingerprint).toBe(captured);
    });

    it('is a copy the caller cannot change', () => {
      selectIn(notebook.outputs(0)[0], 0, 5);
      const record = selection.current!;
      record.text = 'changed';
      record.range!.start = 99;
      expect(selection.current).toMatchObject({
        text: 'alpha',
        range: { start: 0, end: 5 }
      });
    });
  });

  it('reads a selection it cannot make sense of as none, without throwing', () => {
    selectIn(notebook.outputs(0)[0], 0, 5);
    tracker.find = () => {
      throw new Error('broken tracker');
    };
    expect(() =>
      document.dispatchEvent(new Event('selectionchange'))
    ).not.toThrow();
    expect(selection.current).toBeNull();
  });

  it('stops listening when disposed', () => {
    const remove = jest.spyOn(document, 'removeEventListener');
    selectIn(notebook.outputs(0)[0], 0, 5);
    selection.dispose();
    expect(selection.isDisposed).toBe(true);
    expect(remove).toHaveBeenCalledWith('selectionchange', selection);
    remove.mockRestore();
    expect(selection.current).toBeNull();
    selectIn(notebook.outputs(1)[0], 0, 5);
    expect(selection.current).toBeNull();
    expect(changes).toBe(1);
    selection.dispose();
  });
});
