import { type YCodeCell, YNotebook } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';
import { LIMITS } from '../../../src/limits';
import {
  mediaBytes,
  outputSummary,
  serializeOutput,
  serializeOutputs,
  withJoinedStreams
} from '../../../src/jupyter/outputs/outputs';
import { outputFingerprint } from '../../../src/common/fingerprint';
import { TRUNCATION_MARKER } from '../../../src/common/text';
import { silenceKnownWarnings } from '../../quiet';

silenceKnownWarnings();

/** UTF-8 bytes, measured independently of the module under test. */
const bytes = (text: string): number => new TextEncoder().encode(text).length;

const ESC = '\u001b';
const TEXT_MAX = LIMITS.MAX_TEXT_OUTPUT_BYTES;

function stream(text: string | string[], name = 'stdout'): nbformat.IStream {
  return { output_type: 'stream', name: name as nbformat.StreamType, text };
}

function display(
  data: nbformat.IMimeBundle,
  metadata: nbformat.OutputMetadata = {}
): nbformat.IDisplayData {
  return { output_type: 'display_data', data, metadata };
}

function result(
  data: nbformat.IMimeBundle,
  count: number | null = 1
): nbformat.IExecuteResult {
  return {
    output_type: 'execute_result',
    execution_count: count,
    data,
    metadata: {}
  };
}

function error(ename: string, evalue: string, traceback: string[]) {
  const output: nbformat.IError = {
    output_type: 'error',
    ename,
    evalue,
    traceback
  };
  return output;
}

describe('serializeOutput', () => {
  it('bounds a 5 MB stream to 10 KiB of UTF-8 ending in the marker', () => {
    const text = 'line of output\n'.repeat(350_000);
    expect(text.length).toBeGreaterThan(5_000_000);
    const out = serializeOutput(stream(text));
    expect(out.outputType).toBe('stream');
    expect(out.name).toBe('stdout');
    expect(out.truncated).toBe(true);
    expect(bytes(out.text!)).toBeLessThanOrEqual(TEXT_MAX);
    expect(bytes(out.text!)).toBeGreaterThan(TEXT_MAX - 20);
    expect(out.text!.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(text.startsWith(out.text!.slice(0, -TRUNCATION_MARKER.length))).toBe(
      true
    );
  });

  it('never splits a multi-byte character at the cut', () => {
    // 3-byte and 4-byte characters, offset so the bound falls inside one.
    const text = 'a' + '中😀'.repeat(5000);
    const out = serializeOutput(stream(text));
    expect(out.truncated).toBe(true);
    expect(bytes(out.text!)).toBeLessThanOrEqual(TEXT_MAX);
    const kept = out.text!.slice(0, -TRUNCATION_MARKER.length);
    expect(text.startsWith(kept)).toBe(true);
    expect(kept).not.toMatch(/[\ud800-\udbff]$/);
    expect(out.text).not.toContain('\ufffd');
  });

  it('joins multi-line string arrays and leaves short text uncut', () => {
    const out = serializeOutput(stream(['one\n', 'two\n'], 'stderr'));
    expect(out).toEqual({
      outputType: 'stream',
      name: 'stderr',
      text: 'one\ntwo\n',
      truncated: false
    });
  });

  it('strips ANSI colours from a stream before bounding', () => {
    const out = serializeOutput(stream(`${ESC}[32mok${ESC}[0m\n`));
    expect(out.text).toBe('ok\n');
  });

  it('measures the bound after stripping, so colour codes cost nothing', () => {
    const coloured = `${ESC}[31mx${ESC}[0m`.repeat(TEXT_MAX);
    const out = serializeOutput(stream(coloured));
    expect(out.truncated).toBe(false);
    expect(out.text).toBe('x'.repeat(TEXT_MAX));
  });

  it('serializes an error: ename, evalue and an ANSI-free joined traceback', () => {
    const out = serializeOutput(
      error('ZeroDivisionError', 'division by zero', [
        `${ESC}[0;31m---------------------------------------${ESC}[0m`,
        `${ESC}[0;31mZeroDivisionError${ESC}[0m: division by zero`
      ])
    );
    expect(out).toEqual({
      outputType: 'error',
      ename: 'ZeroDivisionError',
      evalue: 'division by zero',
      traceback:
        '---------------------------------------\nZeroDivisionError: division by zero',
      truncated: false
    });
  });

  it('bounds ename to 400 bytes and evalue and traceback to 10 KiB', () => {
    const out = serializeOutput(
      error('É'.repeat(300), 'v'.repeat(20_000), ['t'.repeat(20_000)])
    );
    expect(out.truncated).toBe(true);
    expect(bytes(out.ename!)).toBeLessThanOrEqual(LIMITS.MAX_PREVIEW_CHARS);
    expect(bytes(out.ename!)).toBeGreaterThan(LIMITS.MAX_PREVIEW_CHARS - 4);
    expect(out.ename!.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(bytes(out.evalue!)).toBeLessThanOrEqual(TEXT_MAX);
    expect(out.evalue!.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(bytes(out.traceback!)).toBeLessThanOrEqual(TEXT_MAX);
    expect(out.traceback!.endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it('returns text/plain as text, html reduced to text, and the count', () => {
    const out = serializeOutput(
      result(
        {
          'text/plain': ['   a\n', '0  1'],
          'text/html': '<table><tr><th>a</th></tr><tr><td>1</td></tr></table>'
        },
        7
      )
    );
    expect(out).toEqual({
      outputType: 'execute_result',
      executionCount: 7,
      text: '   a\n0  1',
      html: 'a\n1',
      truncated: false
    });
  });

  it('bounds reduced html to 5 KiB', () => {
    const out = serializeOutput(
      display({ 'text/html': `<p>${'word '.repeat(5000)}</p>` })
    );
    expect(out.truncated).toBe(true);
    expect(bytes(out.html!)).toBeLessThanOrEqual(LIMITS.MAX_HTML_OUTPUT_BYTES);
    expect(out.html!.endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it('returns an application/json object as JSON text in textData', () => {
    const value = { a: [1, 2], b: { c: 'd' } };
    const out = serializeOutput(display({ 'application/json': value }));
    expect(out.textData).toEqual([
      { mimeType: 'application/json', text: JSON.stringify(value) }
    ]);
    expect(JSON.parse(out.textData![0].text)).toEqual(value);
    expect(out.media).toBeUndefined();
    expect(out.truncated).toBe(false);
  });

  it('returns a widget view as text, next to its text/plain', () => {
    const view = { version_major: 2, version_minor: 0, model_id: 'abc123' };
    const out = serializeOutput(
      display({
        'text/plain': 'IntSlider(value=0)',
        'application/vnd.jupyter.widget-view+json': view
      })
    );
    expect(out.text).toBe('IntSlider(value=0)');
    expect(out.textData).toEqual([
      {
        mimeType: 'application/vnd.jupyter.widget-view+json',
        text: JSON.stringify(view)
      }
    ]);
  });

  it('classifies markdown, LaTeX, JavaScript and +xml types as text', () => {
    const out = serializeOutput(
      display({
        'text/markdown': ['# Title\n', 'body'],
        'text/latex': '$x^2$',
        'application/javascript': 'console.log(1)',
        'application/vnd.custom+xml': '<a/>',
        'application/x-latex': '\\alpha'
      })
    );
    expect(out.textData!.map(entry => [entry.mimeType, entry.text])).toEqual([
      ['text/markdown', '# Title\nbody'],
      ['text/latex', '$x^2$'],
      ['application/javascript', 'console.log(1)'],
      ['application/vnd.custom+xml', '<a/>'],
      ['application/x-latex', '\\alpha']
    ]);
    expect(out.media).toBeUndefined();
  });

  it('gives image/png and image/svg+xml only as placeholders with sizes', () => {
    const png = Buffer.from(new Uint8Array(12345).fill(7)).toString('base64');
    const wrapped = png.replace(/(.{76})/g, '$1\n');
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><text>é</text></svg>';
    const out = serializeOutput(
      display({
        'image/png': wrapped,
        'image/svg+xml': svg,
        'application/pdf': Buffer.from('%PDF-1.4').toString('base64'),
        'text/plain': '<Figure size 640x480 with 1 Axes>'
      })
    );
    expect(out.media).toEqual([
      { mimeType: 'image/png', bytes: 12345, included: false },
      { mimeType: 'image/svg+xml', bytes: bytes(svg), included: false },
      { mimeType: 'application/pdf', bytes: 8, included: false }
    ]);
    expect(JSON.stringify(out)).not.toContain(png.slice(0, 40));
    expect(JSON.stringify(out)).not.toContain('<svg');
    expect(out.textData).toBeUndefined();
    expect(out.truncated).toBe(false);
  });

  it('measures base64 without padding errors', () => {
    for (let n = 0; n < 10; n++) {
      const encoded = Buffer.from(new Uint8Array(n)).toString('base64');
      expect(mediaBytes(encoded)).toBe(n);
    }
  });

  it('shares one 10 KiB budget across all textData entries', () => {
    const entry = 'x'.repeat(3000);
    const data: nbformat.IMimeBundle = {};
    for (let i = 0; i < 6; i++) {
      data[`text/x-part${i}`] = entry;
    }
    data['text/x-small'] = 'fits';
    const out = serializeOutput(display(data));
    // Three 3000-byte entries fit in 10240; the fourth and later do not,
    // except the small one, which still fits in what remains.
    expect(out.textData!.map(e => e.mimeType)).toEqual([
      'text/x-part0',
      'text/x-part1',
      'text/x-part2',
      'text/x-small'
    ]);
    const total = out.textData!.reduce((sum, e) => sum + bytes(e.text), 0);
    expect(total).toBeLessThanOrEqual(TEXT_MAX);
    expect(out.textData!.every(e => e.truncated === undefined)).toBe(true);
    expect(out.truncated).toBe(true);
  });

  it('cuts a lone huge text-like entry to the budget rather than drop it', () => {
    const big = { rows: Array.from({ length: 5000 }, (_, i) => ({ i })) };
    const out = serializeOutput(result({ 'application/json': big }));
    expect(out.textData).toHaveLength(1);
    const [entry] = out.textData!;
    expect(entry.truncated).toBe(true);
    expect(bytes(entry.text)).toBeLessThanOrEqual(TEXT_MAX);
    expect(entry.text.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(out.truncated).toBe(true);
  });

  it('returns an unknown output type with its type and nothing cut', () => {
    const out = serializeOutput({ output_type: 'future_type', payload: 1 });
    expect(out).toEqual({ outputType: 'future_type', truncated: false });
  });

  it('never throws on malformed outputs', () => {
    const broken = [
      { output_type: 'stream' },
      { output_type: 'display_data', data: null },
      { output_type: 'error', ename: 1, traceback: 'not a list' },
      { output_type: 'execute_result', data: { 'image/png': { a: 1 } } }
    ] as unknown as nbformat.IOutput[];
    for (const output of broken) {
      expect(() => serializeOutput(output)).not.toThrow();
    }
  });
});

describe('serializeOutputs', () => {
  it('keeps at most 10 outputs and says more were left out', () => {
    const outputs = Array.from({ length: 11 }, (_, i) => stream(`${i}\n`));
    const { outputs: kept, outputsTruncated } = serializeOutputs(outputs);
    expect(kept).toHaveLength(LIMITS.MAX_OUTPUTS_PER_CELL);
    expect(kept[9].text).toBe('9\n');
    expect(outputsTruncated).toBe(true);
  });

  it('does not flag exactly 10 outputs', () => {
    const outputs = Array.from({ length: 10 }, (_, i) => stream(`${i}\n`));
    expect(serializeOutputs(outputs).outputsTruncated).toBe(false);
  });
});

describe('outputSummary', () => {
  it('says (no output) for none', () => {
    expect(outputSummary([])).toBe('(no output)');
  });

  it('summarizes streams, results, errors and media on one line', () => {
    const png = Buffer.from(new Uint8Array(300)).toString('base64');
    const summary = outputSummary([
      stream('first line\nsecond line\n'),
      result({ 'text/plain': '42' }),
      display({ 'image/png': png, 'text/plain': '<Figure>' }),
      error('ZeroDivisionError', 'division by zero', [`${ESC}[31mtb${ESC}[0m`])
    ]);
    expect(summary).toBe(
      'first line second line | 42 | <Figure> [image/png 300 bytes] | ' +
        'error: ZeroDivisionError: division by zero'
    );
    expect(summary).not.toContain('\n');
  });

  it('bounds the summary to 600 characters, ending in the marker', () => {
    const summary = outputSummary([stream('😀 '.repeat(10_000))]);
    expect(Array.from(summary)).toHaveLength(LIMITS.MAX_SUMMARY_CHARS);
    expect(summary.endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it('marks a summary cut across many outputs', () => {
    const outputs = Array.from({ length: 500 }, () => stream('x'.repeat(50)));
    const summary = outputSummary(outputs);
    expect(Array.from(summary).length).toBeLessThanOrEqual(
      LIMITS.MAX_SUMMARY_CHARS
    );
    expect(summary.endsWith(TRUNCATION_MARKER)).toBe(true);
  });
});

describe('outputFingerprint', () => {
  it('differs for outputs of the same length but different content', () => {
    const a = outputFingerprint(stream('abc'));
    const b = outputFingerprint(stream('abd'));
    expect(a).not.toBe(b);
    expect(outputFingerprint(result({ 'text/plain': '1' }))).not.toBe(
      outputFingerprint(result({ 'text/plain': '2' }))
    );
    expect(a).toMatch(/^sha256:[0-9a-f]{16}$/);
  });

  it('ignores execution_count, metadata and transient data', () => {
    const first = result(
      { 'text/plain': 'same', 'application/json': { b: 1, a: 2 } },
      1
    );
    const second = {
      ...result(
        { 'application/json': { a: 2, b: 1 }, 'text/plain': ['sa', 'me'] },
        99
      ),
      metadata: { isolated: true },
      transient: { display_id: 'x' }
    };
    expect(outputFingerprint(first)).toBe(outputFingerprint(second));
  });

  it('tells stdout from stderr and errors apart', () => {
    expect(outputFingerprint(stream('x', 'stdout'))).not.toBe(
      outputFingerprint(stream('x', 'stderr'))
    );
    expect(outputFingerprint(error('E', 'a', []))).not.toBe(
      outputFingerprint(error('E', 'b', []))
    );
  });
});

describe('withJoinedStreams', () => {
  const notebook = (cells: nbformat.ICell[]): nbformat.INotebookContent => ({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells
  });
  const codeCell = (outputs: nbformat.IOutput[]): nbformat.ICodeCell => ({
    cell_type: 'code',
    source: '',
    metadata: {},
    execution_count: null,
    outputs
  });

  it('joins a stream stored as a list of lines as nbformat means it: with nothing between', () => {
    const content = notebook([
      codeCell([
        stream(['first\n', 'second\n']),
        display({ 'text/plain': ['a\n', 'b'] })
      ]),
      { cell_type: 'markdown', source: ['# a\n', 'b'], metadata: {} }
    ]);
    const joined = withJoinedStreams(content);
    expect(joined.cells[0].outputs).toEqual([
      stream('first\nsecond\n'),
      display({ 'text/plain': ['a\n', 'b'] })
    ]);
    expect(joined.cells[1]).toBe(content.cells[1]);
    // the content read is left as it was
    expect((content.cells[0].outputs as nbformat.IStream[])[0].text).toEqual([
      'first\n',
      'second\n'
    ]);
  });

  it('returns content without split streams as it is', () => {
    const content = notebook([codeCell([stream('one\n')])]);
    expect(withJoinedStreams(content)).toBe(content);
  });

  it('becomes a model whose stream text is the file’s text', () => {
    const model = YNotebook.create();
    model.fromJSON(
      withJoinedStreams(notebook([codeCell([stream(['x\n', 'y\n'])])]))
    );
    const cell = model.cells[0] as YCodeCell;
    expect((cell.getOutputs()[0] as nbformat.IStream).text).toBe('x\ny\n');
    model.dispose();
  });
});
