import type * as nbformat from '@jupyterlab/nbformat';
import {
  exportMarkdown,
  fenceFor,
  type IExportCell,
  openFenceCloser
} from '../../../src/jupyter/outputs/export';
import { TRUNCATION_MARKER } from '../../../src/common/text';
import { LIMITS } from '../../../src/limits';

/** The size the document takes inside the tool's JSON result. */
const escapedBytes = (text: string): number =>
  new TextEncoder().encode(JSON.stringify(text)).length;

const ESC = '\u001b';

const code = (
  source: string,
  outputs: nbformat.IOutput[] = []
): IExportCell => ({ type: 'code', source, outputs });
const markdown = (source: string): IExportCell => ({
  type: 'markdown',
  source
});

const withOutputs = { includeOutputs: true };

/**
 * Every fenced block of a CommonMark document, as the fence that opens it;
 * throws if the document ends inside one.
 */
function fences(document: string): string[] {
  const opened: string[] = [];
  let open: string | null = null;
  for (const line of document.split('\n')) {
    const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!match) {
      continue;
    }
    if (open === null) {
      open = match[1];
      opened.push(match[1] + match[2]);
    } else if (
      match[1][0] === open[0] &&
      match[1].length >= open.length &&
      match[2].trim() === ''
    ) {
      open = null;
    }
  }
  if (open !== null) {
    throw new Error(`document ends inside a ${open} fence`);
  }
  return opened;
}

describe('exportMarkdown', () => {
  it('renders markdown verbatim and code as fenced python, a blank line apart', () => {
    const md = '# Title\n\nSome *text* with `code` and a [link](x).';
    const result = exportMarkdown([markdown(md), code('x = 1\nprint(x)')], {
      includeOutputs: false
    });
    expect(result).toEqual({
      document: `${md}\n\n\`\`\`python\nx = 1\nprint(x)\n\`\`\``,
      truncated: false,
      cellCount: 2
    });
  });

  it('uses the given language, and a plain fence for raw cells', () => {
    const { document } = exportMarkdown(
      [code('1 + 1'), { type: 'raw', source: 'raw text' }],
      { includeOutputs: false, language: 'r' }
    );
    expect(document).toBe('```r\n1 + 1\n```\n\n```\nraw text\n```');
  });

  it('makes every fence longer than any backtick run inside it', () => {
    const source = 'doc = """\n```\nnot a fence\n````\n"""';
    const result = exportMarkdown(
      [
        code(source, [
          { output_type: 'stream', name: 'stdout', text: '`````\n' }
        ])
      ],
      withOutputs
    );
    expect(result.document).toBe(
      '`````python\n' + source + '\n`````\n\n' + '``````\n`````\n``````'
    );
    expect(fences(result.document)).toEqual(['`````python', '``````']);
    expect(fenceFor('no ticks')).toBe('```');
    expect(fenceFor('a ` b `` c')).toBe('```');
  });

  it('renders an image as exactly one placeholder line', () => {
    const png = Buffer.from(new Uint8Array(12345)).toString('base64');
    const output: nbformat.IDisplayData = {
      output_type: 'display_data',
      data: { 'image/png': png },
      metadata: {}
    };
    const { document } = exportMarkdown(
      [code('plot()', [output])],
      withOutputs
    );
    expect(document).toBe(
      '```python\nplot()\n```\n\n' +
        '![output](image/png, 12345 bytes — not included)'
    );
    expect(document).not.toContain(png.slice(0, 20));
  });

  it('includes stream text, an ANSI-free traceback and the first text-like entry', () => {
    const outputs: nbformat.IOutput[] = [
      { output_type: 'stream', name: 'stdout', text: ['hello\n', 'world\n'] },
      {
        output_type: 'display_data',
        data: { 'application/json': { a: 1 }, 'text/markdown': '**md**' },
        metadata: {}
      },
      {
        output_type: 'error',
        ename: 'ValueError',
        evalue: 'bad',
        traceback: [`${ESC}[31mValueError${ESC}[0m: bad`]
      }
    ];
    const { document } = exportMarkdown([code('run()', outputs)], withOutputs);
    expect(document).toBe(
      '```python\nrun()\n```\n\n' +
        '```\nhello\nworld\n```\n\n' +
        '```\n{"a":1}\n```\n\n' +
        '```\nValueError: bad\n```'
    );
  });

  it('leaves outputs out when includeOutputs is false', () => {
    const { document } = exportMarkdown(
      [
        code('print(1)', [
          { output_type: 'stream', name: 'stdout', text: '1\n' }
        ])
      ],
      { includeOutputs: false }
    );
    expect(document).toBe('```python\nprint(1)\n```');
  });

  it('walks at most 500 cells and says so', () => {
    const cells = Array.from({ length: 600 }, (_, i) => code(`x = ${i}`));
    const result = exportMarkdown(cells, { includeOutputs: false });
    expect(result.truncated).toBe(true);
    expect(result.cellCount).toBe(LIMITS.MAX_EXPORT_CELLS);
    expect(result.document).toContain('x = 499\n');
    expect(result.document).not.toContain('x = 500\n');
    expect(result.document.endsWith(`\n\n${TRUNCATION_MARKER}`)).toBe(true);
  });

  it('walks exactly 500 cells without truncation', () => {
    const cells = Array.from({ length: 500 }, (_, i) => code(`x = ${i}`));
    const result = exportMarkdown(cells, { includeOutputs: false });
    expect(result.truncated).toBe(false);
    expect(result.cellCount).toBe(500);
  });

  it('takes the 500 cells from a lazy iterable, reading no more than one past', () => {
    let read = 0;
    function* cells(): Generator<IExportCell> {
      for (;;) {
        read++;
        yield code('pass');
      }
    }
    const result = exportMarkdown(cells(), { includeOutputs: false });
    expect(result.cellCount).toBe(500);
    expect(read).toBe(501);
  });

  it('keeps a quote- and newline-heavy document within 40 KiB once JSON-escaped', () => {
    const heavy = '"\\\n'.repeat(400); // 1200 characters, 2400 escaped bytes
    const cells = Array.from({ length: 60 }, () => code(heavy));
    const result = exportMarkdown(cells, withOutputs);
    expect(result.truncated).toBe(true);
    expect(escapedBytes(result.document)).toBeLessThanOrEqual(
      LIMITS.MAX_EXPORT_BYTES
    );
    // Whole cells were kept, and the raw length alone would have allowed more.
    expect(result.cellCount).toBeGreaterThan(10);
    expect(result.cellCount).toBeLessThan(LIMITS.MAX_EXPORT_BYTES / 1200);
    expect(fences(result.document)).toHaveLength(result.cellCount);
    expect(result.document.endsWith(`\n\n${TRUNCATION_MARKER}`)).toBe(true);
  });

  it('fits a document that exactly fills the budget without marking it', () => {
    // Quotes, "x", and the blank line between cells (two escaped newlines).
    const fill = 'a'.repeat(LIMITS.MAX_EXPORT_BYTES - 2 - 1 - 4);
    const result = exportMarkdown([markdown('x'), markdown(fill)], withOutputs);
    expect(result.truncated).toBe(false);
    expect(escapedBytes(result.document)).toBe(LIMITS.MAX_EXPORT_BYTES);
  });

  it('cuts a first cell too large to fit, closing its fence', () => {
    const source = '"quoted"\n'.repeat(10_000);
    const result = exportMarkdown([code(source), code('after')], withOutputs);
    expect(result.truncated).toBe(true);
    expect(result.cellCount).toBe(1);
    expect(escapedBytes(result.document)).toBeLessThanOrEqual(
      LIMITS.MAX_EXPORT_BYTES
    );
    expect(escapedBytes(result.document)).toBeGreaterThan(
      LIMITS.MAX_EXPORT_BYTES - 64
    );
    expect(result.document.startsWith('```python\n"quoted"\n')).toBe(true);
    expect(result.document.endsWith(`${TRUNCATION_MARKER}\n\`\`\``)).toBe(true);
    expect(fences(result.document)).toEqual(['```python']);
    expect(result.document).not.toContain('after');
  });

  it('cuts a huge markdown cell and closes a fence it leaves open', () => {
    const md = '# Big\n\n````js\n' + 'let a = "`";\n'.repeat(10_000) + '````\n';
    const result = exportMarkdown([markdown(md)], withOutputs);
    expect(result.truncated).toBe(true);
    expect(escapedBytes(result.document)).toBeLessThanOrEqual(
      LIMITS.MAX_EXPORT_BYTES
    );
    expect(result.document.endsWith(`${TRUNCATION_MARKER}\n\`\`\`\``)).toBe(
      true
    );
    expect(fences(result.document)).toEqual(['````js']);
  });

  it('stops before a later cell too large when little room is left', () => {
    // 35 cells of about 1 KiB leave less than a quarter of the budget.
    const small = Array.from({ length: 35 }, (_, i) =>
      markdown(`para ${i} `.repeat(120))
    );
    const result = exportMarkdown(
      [...small, code('x'.repeat(100_000))],
      withOutputs
    );
    expect(result.truncated).toBe(true);
    expect(result.cellCount).toBe(35);
    expect(escapedBytes(result.document)).toBeLessThanOrEqual(
      LIMITS.MAX_EXPORT_BYTES
    );
    expect(result.document).not.toContain('```python');
    expect(result.document.endsWith(`para 34 \n\n${TRUNCATION_MARKER}`)).toBe(
      true
    );
  });

  it('cuts a later cell too large when a quarter of the budget is left', () => {
    const result = exportMarkdown(
      [markdown('# Intro'), code('x'.repeat(100_000)), markdown('after')],
      withOutputs
    );
    expect(result.truncated).toBe(true);
    expect(result.cellCount).toBe(2);
    expect(escapedBytes(result.document)).toBeLessThanOrEqual(
      LIMITS.MAX_EXPORT_BYTES
    );
    expect(result.document.startsWith('# Intro\n\n```python\nxxx')).toBe(true);
    expect(result.document.endsWith(`x${TRUNCATION_MARKER}\n\`\`\``)).toBe(
      true
    );
    expect(fences(result.document)).toEqual(['```python']);
  });

  it('keeps a code cell whole and cuts its outputs first', () => {
    const outputs: nbformat.IOutput[] = Array.from({ length: 8 }, (_, i) => ({
      output_type: 'stream',
      name: 'stdout',
      text: `${i}`.repeat(9000)
    }));
    const result = exportMarkdown([code('loop()', outputs)], withOutputs);
    expect(result.truncated).toBe(true);
    expect(result.cellCount).toBe(1);
    expect(escapedBytes(result.document)).toBeLessThanOrEqual(
      LIMITS.MAX_EXPORT_BYTES
    );
    expect(
      result.document.startsWith('```python\nloop()\n```\n\n```\n000')
    ).toBe(true);
    expect(result.document).not.toContain('7777');
    expect(fences(result.document).length).toBeGreaterThan(2);
  });

  it('closes a fence a markdown cell leaves open, so it cannot swallow the next cell', () => {
    const { document } = exportMarkdown(
      [markdown('text\n```\nunclosed'), code('x')],
      withOutputs
    );
    expect(document).toBe('text\n```\nunclosed\n```\n\n```python\nx\n```');
    expect(fences(document)).toEqual(['```', '```python']);
  });

  it('bounds outputs like jupyter_get_cells', () => {
    const big = 'y'.repeat(100_000);
    const { document } = exportMarkdown(
      [code('p()', [{ output_type: 'stream', name: 'stdout', text: big }])],
      withOutputs
    );
    const block = document.split('\n')[5];
    expect(document.split('\n').slice(0, 5)).toEqual([
      '```python',
      'p()',
      '```',
      '',
      '```'
    ]);
    expect(block.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(new TextEncoder().encode(block).length).toBeLessThanOrEqual(
      LIMITS.MAX_TEXT_OUTPUT_BYTES
    );
  });
});

describe('openFenceCloser', () => {
  it.each([
    ['no fence', null],
    ['```\ncode\n```', null],
    ['```py\ncode', '```'],
    ['~~~~\n```\n~~~', '~~~~'],
    ['``` not `a` fence', null],
    ['    ```indented code', null]
  ])('%j needs %j', (text, closer) => {
    expect(openFenceCloser(text)).toBe(closer);
  });
});
