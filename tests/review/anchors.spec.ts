/**
 * Review anchors on real notebook models: capturing a range, the live state
 * of every kind of anchor as the notebook changes (moved, ambiguous, deleted
 * and multi-byte text, deleted cells, changed outputs), 0.1.1's hashes, and
 * the threads of the notebook 0.1.1 annotated.
 */
import {
  type ISharedCodeCell,
  type SharedCell,
  type YCodeCell,
  YNotebook
} from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';

import { outputFingerprint } from '../../src/common/fingerprint';
import { utf8Length } from '../../src/common/text';
import { LIMITS } from '../../src/limits';
import {
  type ISourceRange,
  anchorStatus,
  captureSourceRange,
  outputAt,
  outputCount,
  rangeOfText
} from '../../src/review/anchors';
import { legacyHash, legacyOutputFingerprint } from '../../src/review/legacy';
import {
  type IReviewThread,
  type IThreadAnchor,
  REVIEW_METADATA_KEY,
  readThreads,
  storedThreads
} from '../../src/review/storage';
import { silenceKnownWarnings } from '../quiet';
import { FIXTURE_THREADS, fixtureContent, fromFile } from './fixture';

silenceKnownWarnings();

let model: YNotebook;

afterEach(() => {
  model?.dispose();
});

function notebook(...cells: SharedCell.Cell[]): YNotebook {
  model = YNotebook.create();
  model.insertCells(0, cells);
  return model;
}

function code(
  id: string,
  source: string,
  outputs: nbformat.IOutput[] = []
): SharedCell.Cell {
  return {
    id,
    cell_type: 'code',
    source,
    metadata: {},
    outputs,
    execution_count: 1
  } as SharedCell.Cell;
}

function cell(id: string) {
  const found = model.cells.find(candidate => candidate.id === id);
  if (!found) {
    throw new Error(`no cell ${id}`);
  }
  return found;
}

function threadOn(anchor: IThreadAnchor): IReviewThread {
  return {
    id: 't1',
    status: 'open',
    createdAt: '2026-12-01T19:11:43.795Z',
    updatedAt: '2026-12-01T19:11:43.795Z',
    anchor,
    messages: []
  };
}

/** A source-range anchor on the first occurrence of `text` in `source`. */
function rangeAnchor(cellId: string, source: string, text: string) {
  const range = rangeOfText(source, text);
  expect(range).not.toBeNull();
  const captured = captureSourceRange(source, range!);
  expect(captured).not.toBeNull();
  return threadOn({ kind: 'source-range', cellId, ...captured! });
}

const at = (
  line: number,
  column: number,
  endLine: number,
  endColumn: number
): ISourceRange => ({
  start: { line, column },
  end: { line: endLine, column: endColumn }
});

describe("0.1.1's hashes", () => {
  it('are two FNV-1a 32-bit hashes, with the two offset bases', () => {
    // the published FNV-1a test vectors for the standard basis
    expect(legacyHash('').slice(0, 8)).toBe('811c9dc5');
    expect(legacyHash('a').slice(0, 8)).toBe('e40c292c');
    expect(legacyHash('foobar').slice(0, 8)).toBe('bf9cf968');
    expect(legacyHash('')).toMatch(/^811c9dc501000193$/);
  });

  it("give the fixture's selectedTextHash and outputFingerprint", () => {
    expect(legacyHash('sum(values) / 2')).toBe('7ab1f1ee50b875f4');
    const stream = {
      name: 'stdout',
      output_type: 'stream',
      text: '3\n'
    } as nbformat.IOutput;
    expect(legacyOutputFingerprint(stream)).toBe('3d5033430ae195a9');
    // the file's list of lines hashes as the one string it is
    expect(legacyOutputFingerprint({ ...stream, text: ['3\n'] })).toBe(
      '3d5033430ae195a9'
    );
    // key order does not matter
    expect(
      legacyOutputFingerprint({
        text: '3\n',
        output_type: 'stream',
        name: 'stdout'
      } as nbformat.IOutput)
    ).toBe('3d5033430ae195a9');
  });

  it('hash UTF-8 bytes', () => {
    expect(legacyHash('é')).not.toBe(legacyHash('\u00e9'.normalize('NFD')));
    expect(legacyHash('東京🙂')).toMatch(/^[0-9a-f]{16}$/);
  });

  it('leave execution_count out of an output, and see its content', () => {
    const result = (count: number, text: string) =>
      ({
        output_type: 'execute_result',
        execution_count: count,
        data: { 'text/plain': text },
        metadata: {}
      }) as nbformat.IOutput;
    expect(legacyOutputFingerprint(result(1, '3'))).toBe(
      legacyOutputFingerprint(result(7, '3'))
    );
    expect(legacyOutputFingerprint(result(1, '3'))).not.toBe(
      legacyOutputFingerprint(result(1, '4'))
    );
  });
});

describe('captureSourceRange', () => {
  const source = 'values = [3, 4, 5]\nmean = sum(values) / 2\nprint(mean)';

  it('captures what 0.1.1 stored for the same selection', () => {
    const stored = readThreads(
      fixtureContent().metadata[REVIEW_METADATA_KEY]
    ).find(thread => thread.id === FIXTURE_THREADS.range)!.anchor;
    const { kind: _kind, cellId: _cellId, ...fields } = stored;
    expect(captureSourceRange(source, at(1, 7, 1, 22))).toEqual(fields);
    expect(rangeOfText(source, 'sum(values) / 2')).toEqual(at(1, 7, 1, 22));
  });

  it('is null for an empty, reversed or outside range, never throws', () => {
    for (const range of [
      at(1, 7, 1, 7),
      at(1, 22, 1, 7),
      at(3, 0, 3, 1),
      at(0, 0, 0, 19),
      at(0, 0, 1, 23),
      at(-1, 0, 0, 1),
      at(0, 0.5, 0, 2)
    ]) {
      expect(captureSourceRange(source, range)).toBeNull();
    }
    // a range may span lines and end at the end of a line or the source
    expect(captureSourceRange(source, at(0, 0, 0, 18))?.selectedText).toBe(
      'values = [3, 4, 5]'
    );
    expect(captureSourceRange(source, at(1, 0, 2, 11))?.selectedText).toBe(
      'mean = sum(values) / 2\nprint(mean)'
    );
  });

  it('never splits a surrogate pair', () => {
    const emoji = 'a = "🙂"';
    // column 6 is between the two halves of the emoji
    expect(captureSourceRange(emoji, at(0, 5, 0, 6))).toBeNull();
    expect(captureSourceRange(emoji, at(0, 6, 0, 7))).toBeNull();
    expect(captureSourceRange(emoji, at(0, 5, 0, 7))?.selectedText).toBe('🙂');
  });

  it('bounds the context to MAX_ANCHOR_CONTEXT code points each side', () => {
    const side = '🙂'.repeat(LIMITS.MAX_ANCHOR_CONTEXT + 50);
    const text = `${side}\nmark\n${side}`;
    const captured = captureSourceRange(text, rangeOfText(text, 'mark')!)!;
    expect(Array.from(captured.prefix!)).toHaveLength(
      LIMITS.MAX_ANCHOR_CONTEXT
    );
    expect(Array.from(captured.suffix!)).toHaveLength(
      LIMITS.MAX_ANCHOR_CONTEXT
    );
    // just before and just after the range, whole code points
    expect(captured.prefix!.endsWith('🙂\n')).toBe(true);
    expect(captured.suffix!.startsWith('\n🙂')).toBe(true);
    expect(captured.prefix!.startsWith('🙂')).toBe(true);
    expect(captured.suffix!.endsWith('🙂')).toBe(true);
  });

  it('bounds the selected text in UTF-8, hashing the whole of it', () => {
    const long = '東'.repeat(2000); // 6,000 bytes
    const captured = captureSourceRange(long, at(0, 0, 0, 2000))!;
    expect(utf8Length(captured.selectedText!)).toBeLessThanOrEqual(
      LIMITS.MAX_SELECTED_TEXT_BYTES
    );
    expect(captured.selectedText).toBe(
      '東'.repeat(Math.floor(LIMITS.MAX_SELECTED_TEXT_BYTES / 3))
    );
    expect(captured.selectedTextHash).toBe(legacyHash(long));
  });

  it('rangeOfText finds the first occurrence, or nothing', () => {
    expect(rangeOfText('a\nb a', 'a')).toEqual(at(0, 0, 0, 1));
    expect(rangeOfText('a\nb a', 'b a')).toEqual(at(1, 0, 1, 3));
    expect(rangeOfText('a\nb a', 'c')).toBeNull();
    expect(rangeOfText('a', '')).toBeNull();
  });
});

describe('anchorStatus, source ranges', () => {
  const source = 'values = [3, 4, 5]\nmean = sum(values) / 2\nprint(mean)';

  it('is exact while the text is where it was', () => {
    notebook(code('c1', source));
    const thread = rangeAnchor('c1', source, 'sum(values) / 2');
    expect(anchorStatus(model, thread)).toEqual({
      kind: 'source-range',
      cellId: 'c1',
      cellExists: true,
      cellIndex: 0,
      state: 'exact',
      range: at(1, 7, 1, 22),
      text: 'sum(values) / 2'
    });
  });

  it('re-anchors text that moved', () => {
    notebook(code('c1', source));
    const thread = rangeAnchor('c1', source, 'sum(values) / 2');
    cell('c1').setSource(
      `import math\n\n${source.replace('mean = ', 'mu = ')}`
    );
    expect(anchorStatus(model, thread)).toMatchObject({
      state: 'reanchored',
      range: at(3, 5, 3, 20),
      text: 'sum(values) / 2'
    });
    // an edit elsewhere in the same line moves the columns
    cell('c1').setSource(source.replace('mean', 'the_mean'));
    expect(anchorStatus(model, thread)).toMatchObject({
      state: 'reanchored',
      range: at(1, 11, 1, 26)
    });
  });

  it('counts columns in UTF-16 units: an emoji before the text is two', () => {
    notebook(code('c1', 'x = f(a)'));
    const thread = rangeAnchor('c1', 'x = f(a)', 'f(a)');
    cell('c1').setSource('x = "🙂🙂"; y = f(a)');
    expect(anchorStatus(model, thread)).toMatchObject({
      state: 'reanchored',
      range: at(0, 16, 0, 20),
      text: 'f(a)'
    });
  });

  it('anchors CJK and emoji text, and finds it again when it moves', () => {
    const cjk = "名前 = '東京🙂駅'\nprint(名前)";
    notebook(code('c1', cjk));
    const thread = rangeAnchor('c1', cjk, '東京🙂駅');
    expect(thread.anchor.sourceRange).toEqual(at(0, 6, 0, 11));
    expect(thread.anchor.selectedTextHash).toBe(legacyHash('東京🙂駅'));
    expect(anchorStatus(model, thread).state).toBe('exact');
    cell('c1').setSource(`# 注意: 🙂\n${cjk}`);
    expect(anchorStatus(model, thread)).toMatchObject({
      state: 'reanchored',
      range: at(1, 6, 1, 11),
      text: '東京🙂駅'
    });
  });

  it('resolves several occurrences by the stored context', () => {
    const twice = 'a = f(1)\nb = f(1)\n';
    notebook(code('c1', twice));
    // the second f(1), after "b = "
    const captured = captureSourceRange(twice, at(1, 4, 1, 8))!;
    const thread = threadOn({
      kind: 'source-range',
      cellId: 'c1',
      ...captured
    });
    expect(anchorStatus(model, thread).state).toBe('exact');
    // the stored range (line 1) no longer holds it; three copies do
    cell('c1').setSource(`# setup\n# more\n${twice}c = f(1)\n`);
    expect(anchorStatus(model, thread)).toMatchObject({
      state: 'reanchored',
      range: at(3, 4, 3, 8)
    });
    // the first f(1), after "a = " at the very start
    const first = threadOn({
      kind: 'source-range',
      cellId: 'c1',
      ...captureSourceRange(twice, at(0, 4, 0, 8))!
    });
    expect(anchorStatus(model, first)).toMatchObject({
      state: 'reanchored',
      range: at(2, 4, 2, 8)
    });
  });

  it('is orphaned when the context cannot tell the occurrences apart', () => {
    const once = 'a = f(1)\nprint(a)';
    notebook(code('c1', once));
    const thread = rangeAnchor('c1', once, 'f(1)');
    // both copies have the same text around them
    cell('c1').setSource('a = f(1)\nprint(a)\na = f(1)\nprint(a)');
    // the stored range still holds the text: exact, however many copies
    expect(anchorStatus(model, thread).state).toBe('exact');
    cell('c1').setSource('# moved\na = f(1)\nprint(a)\na = f(1)\nprint(a)');
    expect(anchorStatus(model, thread)).toEqual({
      kind: 'source-range',
      cellId: 'c1',
      cellExists: true,
      cellIndex: 0,
      state: 'orphaned'
    });
  });

  it('is orphaned when the text is gone', () => {
    notebook(code('c1', source));
    const thread = rangeAnchor('c1', source, 'sum(values) / 2');
    cell('c1').setSource(source.replace('/ 2', '/ len(values)'));
    expect(anchorStatus(model, thread)).toMatchObject({ state: 'orphaned' });
    expect(anchorStatus(model, thread).range).toBeUndefined();
    cell('c1').setSource('');
    expect(anchorStatus(model, thread).state).toBe('orphaned');
  });

  it('matches a cut selected text by its hash, and re-anchors on the kept part', () => {
    const long = `x = """${'東'.repeat(2000)}"""`;
    notebook(code('c1', long));
    const thread = threadOn({
      kind: 'source-range',
      cellId: 'c1',
      ...captureSourceRange(long, at(0, 7, 0, 2007))!
    });
    expect(anchorStatus(model, thread)).toMatchObject({
      state: 'exact',
      range: at(0, 7, 0, 2007)
    });
    cell('c1').setSource(`\n${long}`);
    expect(anchorStatus(model, thread).state).toBe('reanchored');
  });

  it('is orphaned for an anchor without a selected text that no longer matches', () => {
    notebook(code('c1', source));
    const thread = threadOn({
      kind: 'source-range',
      cellId: 'c1',
      sourceRange: at(1, 7, 1, 22)
    });
    expect(anchorStatus(model, thread).state).toBe('orphaned');
    // with 0.1.1's hash alone it is recognized
    thread.anchor.selectedTextHash = '7ab1f1ee50b875f4';
    expect(anchorStatus(model, thread)).toMatchObject({
      state: 'exact',
      text: 'sum(values) / 2'
    });
  });
});

describe('anchorStatus, cells', () => {
  it('follows the cell by id, and says when it is gone', () => {
    notebook(code('c1', 'a'), code('c2', 'b'));
    const thread = threadOn({ kind: 'cell', cellId: 'c2' });
    expect(anchorStatus(model, thread)).toEqual({
      kind: 'cell',
      cellId: 'c2',
      cellExists: true,
      cellIndex: 1,
      state: 'exact'
    });
    model.moveCell(1, 0);
    expect(anchorStatus(model, thread).cellIndex).toBe(0);
    model.deleteCell(0);
    expect(anchorStatus(model, thread)).toEqual({
      kind: 'cell',
      cellId: 'c2',
      cellExists: false,
      cellIndex: null,
      state: 'cell-missing'
    });
  });

  it('a source-range anchor on a deleted cell is cell-missing', () => {
    notebook(code('c1', 'x = 1'), code('c2', 'y = 2'));
    const thread = rangeAnchor('c1', 'x = 1', '1');
    model.deleteCell(0);
    expect(anchorStatus(model, thread)).toEqual({
      kind: 'source-range',
      cellId: 'c1',
      cellExists: false,
      cellIndex: null,
      state: 'cell-missing'
    });
  });
});

describe('anchorStatus, outputs', () => {
  const stream = (text: string) =>
    ({ output_type: 'stream', name: 'stdout', text }) as nbformat.IOutput;
  const result = (count: number, text: string) =>
    ({
      output_type: 'execute_result',
      execution_count: count,
      data: { 'text/plain': text },
      metadata: {}
    }) as nbformat.IOutput;

  function outputThread(
    outputIndex: number,
    outputFingerprint: string
  ): IReviewThread {
    return threadOn({
      kind: 'output',
      cellId: 'c1',
      outputIndex,
      outputFingerprint,
      mimeType: 'text/plain'
    });
  }

  function codeCell(): ISharedCodeCell {
    return cell('c1') as ISharedCodeCell;
  }

  it('is unchanged while the output is the same, whatever its execution count', () => {
    notebook(code('c1', '1 + 2', [stream('hi\n'), result(1, '3')]));
    const thread = outputThread(1, outputFingerprint(result(1, '3')));
    expect(anchorStatus(model, thread)).toEqual({
      kind: 'output',
      cellId: 'c1',
      cellExists: true,
      cellIndex: 0,
      state: 'exact',
      outputIndex: 1,
      outputChanged: false
    });
    // a re-run with the same result
    codeCell().execution_count = 2;
    codeCell().setOutputs([stream('hi\n'), result(2, '3')]);
    expect(anchorStatus(model, thread).outputChanged).toBe(false);
  });

  it('says outputChanged when the output differs or is gone', () => {
    notebook(code('c1', '1 + 2', [stream('hi\n'), result(1, '3')]));
    const thread = outputThread(1, outputFingerprint(result(1, '3')));
    codeCell().setOutputs([stream('hi\n'), result(2, '4')]);
    expect(anchorStatus(model, thread)).toMatchObject({
      state: 'exact',
      outputChanged: true
    });
    // same content, other index: the anchor is about index 1
    codeCell().setOutputs([result(2, '3')]);
    expect(anchorStatus(model, thread).outputChanged).toBe(true);
    codeCell().setOutputs([]);
    expect(anchorStatus(model, thread)).toMatchObject({
      state: 'exact',
      outputIndex: 1,
      outputChanged: true
    });
    model.deleteCell(0);
    expect(anchorStatus(model, thread)).toEqual({
      kind: 'output',
      cellId: 'c1',
      cellExists: false,
      cellIndex: null,
      state: 'cell-missing',
      outputIndex: 1,
      outputChanged: true
    });
  });

  it("compares a 0.1.1 fingerprint by 0.1.1's scheme", () => {
    notebook(code('c1', 'print(c)', [stream('3\n')]));
    const thread = outputThread(0, '3d5033430ae195a9');
    expect(anchorStatus(model, thread).outputChanged).toBe(false);
    // a stream appended to, as a running kernel does
    codeCell().setOutputs([stream('3\n4\n')]);
    expect(anchorStatus(model, thread).outputChanged).toBe(true);
    codeCell().setOutputs([stream('3\n')]);
    expect(anchorStatus(model, thread).outputChanged).toBe(false);
    // a fingerprint in neither form cannot be confirmed
    expect(anchorStatus(model, outputThread(0, 'md5:abc')).outputChanged).toBe(
      true
    );
  });
});

describe('outputAt: one output read from the shared model', () => {
  const outputs: nbformat.IOutput[] = [
    { output_type: 'stream', name: 'stdout', text: 'hi\n' },
    {
      output_type: 'display_data',
      data: { 'text/html': '<b>x</b>', 'text/plain': 'x' },
      metadata: { isolated: true }
    },
    {
      output_type: 'execute_result',
      execution_count: 3,
      data: { 'text/plain': '3' },
      metadata: {}
    },
    { output_type: 'error', ename: 'E', evalue: 'v', traceback: ['t1', 't2'] }
  ];

  it('equals getOutputs() at every index, and is a copy', () => {
    notebook(code('c1', 'x', outputs));
    const cell = model.cells[0] as ISharedCodeCell;
    const all = cell.getOutputs();
    expect(outputCount(cell)).toBe(4);
    all.forEach((output, index) =>
      expect(outputAt(cell, index)).toEqual(output)
    );
    expect(outputAt(cell, 4)).toBeUndefined();
    expect(outputAt(cell, -1)).toBeUndefined();
    const copy = outputAt(cell, 1) as nbformat.IDisplayData;
    (copy.data as Record<string, unknown>)['text/plain'] = 'changed';
    expect(outputAt(cell, 1)).toEqual(all[1]);
  });

  it('sees a stream appended, as the output area writes a kernel stream', () => {
    notebook(code('c1', 'x', [outputs[0]]));
    const cell = model.cells[0] as ISharedCodeCell;
    (cell as unknown as YCodeCell).appendStreamOutput(
      0,
      'more\n',
      'silent-change'
    );
    expect(outputAt(cell, 0)).toEqual(cell.getOutputs()[0]);
    expect((outputAt(cell, 0) as nbformat.IStream).text).toBe('hi\nmore\n');
  });

  it('has no outputs for a markdown cell', () => {
    model = YNotebook.create({ disableDocumentWideUndoRedo: true });
    model.insertCell(0, { cell_type: 'markdown', source: '# t', id: 'm' });
    expect(outputCount(model.cells[0])).toBe(0);
    expect(outputAt(model.cells[0], 0)).toBeUndefined();
  });
});

describe('the threads of the notebook 0.1.1 annotated', () => {
  it('all read with their live state: exact, the output unchanged', () => {
    model = fromFile();
    const states = Object.fromEntries(
      storedThreads(model).map(thread => [
        thread.id,
        anchorStatus(model, thread)
      ])
    );
    expect(states[FIXTURE_THREADS.cell]).toEqual({
      kind: 'cell',
      cellId: 'rv-code-1',
      cellExists: true,
      cellIndex: 1,
      state: 'exact'
    });
    expect(states[FIXTURE_THREADS.range]).toEqual({
      kind: 'source-range',
      cellId: 'rv-code-1',
      cellExists: true,
      cellIndex: 1,
      state: 'exact',
      range: at(1, 7, 1, 22),
      text: 'sum(values) / 2'
    });
    expect(states[FIXTURE_THREADS.output]).toEqual({
      kind: 'output',
      cellId: 'rv-code-4',
      cellExists: true,
      cellIndex: 4,
      state: 'exact',
      outputIndex: 0,
      outputChanged: false
    });
    expect(states[FIXTURE_THREADS.hidden]).toMatchObject({
      cellIndex: 2,
      state: 'exact'
    });
    expect(states[FIXTURE_THREADS.readOnly]).toMatchObject({
      cellIndex: 3,
      state: 'exact'
    });
  });

  it('follow the notebook as it is edited', () => {
    model = fromFile();
    const [, range, output] = storedThreads(model);
    const code1 = cell('rv-code-1');
    code1.setSource(`# fixed below\n${code1.getSource()}`);
    expect(anchorStatus(model, range)).toMatchObject({
      state: 'reanchored',
      range: at(2, 7, 2, 22)
    });
    code1.setSource(code1.getSource().replace('/ 2', '/ len(values)'));
    expect(anchorStatus(model, range).state).toBe('orphaned');
    (cell('rv-code-4') as ISharedCodeCell).setOutputs([
      { output_type: 'stream', name: 'stdout', text: '4\n' }
    ]);
    expect(anchorStatus(model, output).outputChanged).toBe(true);
  });
});

describe('anchorStatus, with the cell index given', () => {
  it('finds the cell through the index it is given, as the scan would', () => {
    notebook(code('c1', 'a = 1'), code('c2', 'b = 2'), code('c2', 'dup'));
    const lookups: string[] = [];
    const indexOf = (_: unknown, cellId: string) => {
      lookups.push(cellId);
      return model.cells.findIndex(candidate => candidate.id === cellId);
    };
    for (const cellId of ['c1', 'c2', 'gone']) {
      const thread = threadOn({ kind: 'cell', cellId });
      expect(anchorStatus(model, thread, indexOf)).toEqual(
        anchorStatus(model, thread)
      );
    }
    expect(lookups).toEqual(['c1', 'c2', 'gone']);
    expect(
      anchorStatus(model, threadOn({ kind: 'cell', cellId: 'c2' }))
    ).toMatchObject({
      cellIndex: 1
    });
  });
});
