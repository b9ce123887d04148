import { YNotebook } from '@jupyter/ydoc';
import { nullTranslator } from '@jupyterlab/translation';

import { anchorStatus } from '../../src/review/anchors';
import { openThreadsByCell } from '../../src/review/badges';
import {
  anchorPlace,
  anchorStateLabel,
  anchorStateName,
  anchorStateSentence,
  messageProblem
} from '../../src/review/describe';
import type { IReviewThread, IThreadAnchor } from '../../src/review/storage';
import { REVIEW_METADATA_KEY } from '../../src/review/storage';
import { LIMITS } from '../../src/limits';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

const trans = nullTranslator.load('jupyterlite-webmcp');

function notebook(): YNotebook {
  const model = YNotebook.create();
  model.fromJSON({
    cells: [
      { id: 'md', cell_type: 'markdown', source: '# T', metadata: {} },
      {
        id: 'c',
        cell_type: 'code',
        source: 'a = 1\nb = 2\nc = 3',
        metadata: {},
        outputs: [{ output_type: 'stream', name: 'stdout', text: 'x\n' }],
        execution_count: 1
      }
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5
  });
  return model;
}

function words(model: YNotebook, anchor: IThreadAnchor) {
  const status = anchorStatus(model, { anchor } as IReviewThread);
  const name = anchorStateName(status);
  return {
    place: anchorPlace(anchor, status, trans),
    label: anchorStateLabel(name, trans),
    sentence: anchorStateSentence(anchor, status, trans)
  };
}

describe('anchors in words', () => {
  it('names the cell (1-based), its lines and its output', () => {
    const model = notebook();
    expect(words(model, { kind: 'cell', cellId: 'md' })).toEqual({
      place: 'Cell 1',
      label: 'in place',
      sentence: 'About the whole cell.'
    });
    const range = {
      kind: 'source-range' as const,
      cellId: 'c',
      sourceRange: {
        start: { line: 0, column: 0 },
        end: { line: 1, column: 5 }
      },
      selectedText: 'a = 1\nb = 2',
      prefix: '',
      suffix: '\nc = 3'
    };
    expect(words(model, range)).toEqual({
      place: 'Cell 2, lines 1–2',
      label: 'in place',
      sentence: 'The commented text is where it was.'
    });
    // a range ending at the start of a line ends with the line before it
    expect(
      words(model, {
        ...range,
        sourceRange: {
          start: { line: 0, column: 0 },
          end: { line: 1, column: 0 }
        },
        selectedText: 'a = 1\n'
      }).place
    ).toBe('Cell 2, line 1');
    expect(
      words(model, { kind: 'output', cellId: 'c', outputIndex: 0 })
    ).toEqual({
      place: 'Cell 2, output 1',
      label: 'in place',
      sentence: 'The output is as it was when commented on.'
    });
  });

  it('says when text moved, is gone, the output changed or the cell was deleted', () => {
    const model = notebook();
    const anchor: IThreadAnchor = {
      kind: 'source-range',
      cellId: 'c',
      sourceRange: {
        start: { line: 2, column: 0 },
        end: { line: 2, column: 5 }
      },
      selectedText: 'c = 3',
      prefix: 'b = 2\n',
      suffix: ''
    };
    model.cells[1].setSource('c = 3\na = 1');
    expect(words(model, anchor)).toMatchObject({
      place: 'Cell 2, line 1',
      label: 'moved'
    });
    model.cells[1].setSource('nothing here');
    expect(words(model, anchor)).toMatchObject({ label: 'text gone' });
    expect(
      words(model, {
        kind: 'output',
        cellId: 'c',
        outputIndex: 3,
        outputFingerprint: 'sha256:00'
      })
    ).toMatchObject({ label: 'output changed' });
    expect(words(model, { kind: 'cell', cellId: 'gone' })).toEqual({
      place: 'A deleted cell',
      label: 'cell deleted',
      sentence: 'The cell this thread is about was deleted.'
    });
  });
});

describe('messageProblem', () => {
  it('refuses blank text and text over the byte bound in UTF-8', () => {
    expect(messageProblem(' \n ', trans)).toBe('Write a message first.');
    expect(messageProblem('ok', trans)).toBeNull();
    const max = LIMITS.MAX_COMMENT_BODY_BYTES;
    // three bytes a character: fits by length, not by bytes
    const wide = '€'.repeat(Math.floor(max / 3) + 1);
    expect(wide.length).toBeLessThan(max);
    expect(messageProblem(wide, trans)).toMatch(/bytes of UTF-8/);
    expect(messageProblem('a'.repeat(max), trans)).toBeNull();
  });
});

describe('openThreadsByCell', () => {
  it('counts open threads per cell, hidden cells included', () => {
    const model = notebook();
    const thread = (id: string, cellId: string, status: string) => ({
      id,
      status,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      anchor: { kind: 'cell', cellId },
      messages: []
    });
    model.setMetadata(REVIEW_METADATA_KEY, {
      version: 1,
      threads: [
        thread('1', 'c', 'open'),
        thread('2', 'c', 'open'),
        thread('3', 'c', 'resolved'),
        thread('4', 'md', 'resolved'),
        thread('5', 'gone', 'open')
      ]
    });
    model.cells[1].setMetadata('jupyterlite_webmcp', {
      version: 1,
      access: 'none'
    });
    expect(Object.fromEntries(openThreadsByCell(model))).toEqual({
      c: 2,
      gone: 1
    });
  });
});
