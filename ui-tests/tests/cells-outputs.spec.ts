/**
 * The output serializer through jupyter_get_cells with includeOutputs: text
 * stays text (JSON included), binary data is only a media placeholder, ANSI
 * escapes are stripped, and every field is bounded in UTF-8 bytes, whether
 * the notebook is read from its file or from the live model.
 */
import { expect, test } from '../fixtures';
import type { Agent } from '../agent';
import type { Human } from '../human';
import { type JupyterApp, readFixture } from '../jupyter';
import { codeCell, notebookOf } from '../notebook-content';

interface IOutput {
  outputType: string;
  executionCount?: number;
  name?: string;
  text?: string;
  html?: string;
  ename?: string;
  evalue?: string;
  traceback?: string;
  textData?: { mimeType: string; text: string; truncated?: boolean }[];
  media?: { mimeType: string; bytes: number; included: false }[];
  truncated: boolean;
}

interface ICell {
  id: string;
  index: number;
  source?: string;
  sourceTruncated?: boolean;
  sourceHash: string;
  outputs?: IOutput[];
  outputsTruncated?: boolean;
}

interface ICells {
  notebook: { path: string; dirty: boolean; cellCount: number };
  cells: ICell[];
  truncated: boolean;
  omittedCount: number;
}

const TOOLS = ['jupyter_get_cells', 'jupyter_update_cell'];
const MARKER = '…[truncated]';
const KIB = 1024;
const ESC = '\u001b';

const bytes = (value: string) => Buffer.byteLength(value, 'utf-8');
const withoutAnsi = (value: string) => value.replace(/\u001b\[[0-9;]*m/g, '');

async function openForAgent(
  jupyter: JupyterApp,
  human: Human,
  agent: Agent,
  path: string
): Promise<void> {
  if (jupyter.ui === 'notebook') {
    await jupyter.open(path, { kernel: false });
  } else {
    await human.openNotebook(path, { kernel: false });
  }
  await agent.waitForTools(TOOLS);
}

/** The decoded size of the fixture's PNG (16×16, 779 bytes). */
function pngBytes(): number {
  const cell = readFixture('cells-outputs.ipynb').cells[1] as unknown as {
    outputs: { data: Record<string, string> }[];
  };
  return Buffer.from(cell.outputs[0].data['image/png'], 'base64').length;
}

test.describe('jupyter_get_cells outputs', () => {
  // each test works in its own notebooks: they share one app start-up
  test.use({ shareApp: true });

  test('JSON as text, images as media only, ANSI stripped, HTML as text, at most 10 outputs @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const path = await jupyter.addFixture('cells-outputs.ipynb');
    const fixture = readFixture('cells-outputs.ipynb');
    await agent.waitForTools(TOOLS);

    const check = (result: { structured?: ICells; text?: string }) => {
      const cells = Object.fromEntries(
        result.structured!.cells.map(cell => [cell.id, cell])
      );
      // application/json data (an object) comes back as its JSON text
      expect(cells.json.outputs).toEqual([
        {
          outputType: 'execute_result',
          executionCount: 1,
          text: '<IPython.core.display.JSON object>',
          textData: [
            { mimeType: 'application/json', text: expect.any(String) }
          ],
          truncated: false
        }
      ]);
      expect(JSON.parse(cells.json.outputs![0].textData![0].text)).toEqual({
        name: 'webmcp',
        values: [1, 2, 3],
        nested: { ok: true }
      });
      // an image is only its size: never its content
      expect(cells.image.outputs).toEqual([
        {
          outputType: 'display_data',
          text: '<Figure size 640x480 with 1 Axes>',
          media: [
            { mimeType: 'image/png', bytes: pngBytes(), included: false }
          ],
          truncated: false
        }
      ]);
      expect(result.text).not.toContain('iVBORw0KGgo');
      // colours are stripped from streams and tracebacks
      expect(cells.ansi.outputs).toEqual([
        {
          outputType: 'stream',
          name: 'stdout',
          text: 'red green plain\n',
          truncated: false
        }
      ]);
      const traceback = (
        fixture.cells[3] as unknown as { outputs: { traceback: string[] }[] }
      ).outputs[0].traceback;
      expect(cells.error.outputs).toEqual([
        {
          outputType: 'error',
          ename: 'ValueError',
          evalue: 'bad value',
          traceback: traceback.map(withoutAnsi).join('\n'),
          truncated: false
        }
      ]);
      expect(cells.error.outputs![0].traceback).toContain(
        '----> 1 raise ValueError("bad value")'
      );
      expect(result.text).not.toContain('\\u001b');
      // HTML becomes readable text: no markup, no script
      const html = cells.html.outputs![0];
      expect(html).toMatchObject({
        outputType: 'display_data',
        truncated: false
      });
      expect(html.html).toMatch(/a\s+b\s+1\s+2 & 3/);
      expect(html.html).not.toMatch(/[<>]|alert|hidden/);
      // markdown and LaTeX are text too (in the bundle's key order, which
      // a Jupyter server sorts when it saves)
      const rich = cells.rich.outputs![0];
      expect(rich).toMatchObject({
        outputType: 'display_data',
        truncated: false
      });
      expect(
        [...rich.textData!].sort((a, b) => a.mimeType.localeCompare(b.mimeType))
      ).toEqual([
        { mimeType: 'text/latex', text: '$x^2$' },
        { mimeType: 'text/markdown', text: '**bold** text' }
      ]);
      // 11 outputs: the first 10, and the flag
      expect(cells.many.outputs!.map(output => output.text)).toEqual(
        Array.from({ length: 10 }, (_, i) => `out ${i}`)
      );
      expect(cells.many.outputsTruncated).toBe(true);
      expect(cells.json.outputsTruncated).toBeUndefined();
    };

    // From the file (not open) ...
    const fromFile = await agent.call<ICells>('jupyter_get_cells', {
      notebookPath: path,
      includeOutputs: true
    });
    expect(fromFile.isError).toBe(false);
    check(fromFile);

    // ... and from the live model, the same.
    await openForAgent(jupyter, human, agent, path);
    const live = await agent.call<ICells>('jupyter_get_cells', {
      includeOutputs: true
    });
    check(live);
    expect(live.structured!.cells).toEqual(fromFile.structured!.cells);

    // Outputs are included only when asked for.
    const plain = await agent.call<ICells>('jupyter_get_cells', {});
    expect(plain.structured!.cells.filter(cell => 'outputs' in cell)).toEqual(
      []
    );

    // An output that lands in the live model is read at once.
    await human.setCellOutputs(2, [
      {
        output_type: 'stream',
        name: 'stderr',
        text: `${ESC}[1;31mWarning:${ESC}[0m live ${ESC}]8;;http://x${ESC}\\link${ESC}]8;;${ESC}\\\n`
      }
    ]);
    const landed = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['ansi'],
      includeOutputs: true
    });
    expect(landed.structured!.cells[0].outputs).toEqual([
      {
        outputType: 'stream',
        name: 'stderr',
        text: 'Warning: live link\n',
        truncated: false
      }
    ]);
  });

  test('a stream saved as a list of lines: live, as the screen shows it; from its file, as its text @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    // nbformat stores multi-line strings as lists of lines on disk; a Jupyter
    // server hands them over joined, JupyterLite as stored.
    const lines = ['first line\n', 'second line\n', 'third line\n'];
    await jupyter.open();
    const path = await jupyter.createNotebook(
      'lines.ipynb',
      notebookOf([
        codeCell('s', 'print(text)', {
          outputs: [{ output_type: 'stream', name: 'stdout', text: lines }]
        })
      ])
    );
    await agent.waitForTools(TOOLS);
    const read = async (args: Record<string, unknown> = {}) =>
      (
        await agent.call<ICells>('jupyter_get_cells', {
          ...args,
          includeOutputs: true
        })
      ).structured!.cells[0].outputs![0];
    const fromFile = await read({ notebookPath: path });
    const exported = (
      await agent.call<{ document: string }>('jupyter_export_notebook', {
        notebookPath: path
      })
    ).structured!.document;

    // Live: exactly what the human's output area shows.
    await openForAgent(jupyter, human, agent, path);
    const screen = await (
      await jupyter.cell(0)
    )
      .locator('.jp-OutputArea-output')
      .innerText();
    expect((await read()).text!.trim()).toBe(screen.trim());

    // Not open: the file's text, its lines joined as they are.
    expect(fromFile).toEqual({
      outputType: 'stream',
      name: 'stdout',
      text: lines.join(''),
      truncated: false
    });
    expect(exported).toContain(`\`\`\`\n${lines.join('')}\`\`\``);
  });

  test('a 5 MB stream is cut to 10 KiB of UTF-8, a 25 KiB+ source is cut, every field is bounded @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    // Built here through the contents API, never committed.
    let stream = '';
    for (let i = 0; bytes(stream) < 5_000_000; i += 1000) {
      stream += Array.from(
        { length: 1000 },
        (_, j) =>
          `${ESC}[32m${String(i + j).padStart(7, '0')}${ESC}[0m ünïcödé 😀 output\n`
      ).join('');
    }
    expect(bytes(stream)).toBeGreaterThan(5_000_000);
    const longSource = Array.from(
      { length: 400 },
      (_, i) => `# ${i} ${'é'.repeat(40)}`
    ).join('\n');
    expect(bytes(longSource)).toBeGreaterThan(25 * KIB);
    const longName = `Error${'E'.repeat(600)}`;
    const big = (mime: string, size: number) => 'x'.repeat(size) + mime;

    await jupyter.open();
    const path = await jupyter.createNotebook(
      'big-outputs.ipynb',
      notebookOf([
        codeCell('stream', 'print(lines)', {
          outputs: [{ output_type: 'stream', name: 'stdout', text: stream }]
        }),
        codeCell('long', longSource),
        codeCell('error', 'fail()', {
          outputs: [
            {
              output_type: 'error',
              ename: longName,
              evalue: 'v'.repeat(20 * KIB),
              traceback: Array.from(
                { length: 400 },
                (_, i) => `frame ${i} ${'t'.repeat(60)}`
              )
            }
          ]
        }),
        codeCell('html', 'HTML(page)', {
          outputs: [
            {
              output_type: 'display_data',
              metadata: {},
              data: { 'text/html': `<p>${'h'.repeat(20 * KIB)}</p>` }
            }
          ]
        }),
        codeCell('rich', 'both()', {
          outputs: [
            {
              output_type: 'display_data',
              metadata: {},
              data: {
                'text/markdown': big('md', 8 * KIB),
                'text/csv': big('csv', 8 * KIB)
              }
            }
          ]
        })
      ])
    );
    await openForAgent(jupyter, human, agent, path);
    const one = async (cellId: string) => {
      const result = await agent.call<ICells>('jupyter_get_cells', {
        cellIds: [cellId],
        includeOutputs: true
      });
      expect(result.isError).toBe(false);
      expect(bytes(result.text!)).toBeLessThanOrEqual(50 * KIB);
      return result.structured!.cells[0];
    };
    const cut = (value: string | undefined, maxBytes: number) => {
      expect(value!.endsWith(MARKER)).toBe(true);
      expect(bytes(value!)).toBeLessThanOrEqual(maxBytes);
      // filled up to the bound (a code point is at most 4 bytes)
      expect(bytes(value!)).toBeGreaterThan(maxBytes - 4);
    };

    // Everything at once still fits the 50 KiB result: trailing cells are
    // dropped and counted rather than the bounds being broken.
    const all = await agent.call<ICells>('jupyter_get_cells', {
      includeOutputs: true
    });
    expect(bytes(all.text!)).toBeLessThanOrEqual(50 * KIB);
    const { cells, omittedCount, truncated } = all.structured!;
    expect(cells.length + omittedCount).toBe(5);
    expect(truncated).toBe(true);
    expect(omittedCount).toBeGreaterThan(0);
    expect(cells.map(cell => cell.id)).toEqual(
      ['stream', 'long', 'error', 'html', 'rich'].slice(0, cells.length)
    );

    // 5 MB of stream: at most 10 KiB, colours gone, whole code points, marked.
    const streamed = (await one('stream')).outputs![0];
    expect(streamed).toMatchObject({ outputType: 'stream', truncated: true });
    cut(streamed.text, 10 * KIB);
    expect(streamed.text).not.toContain(ESC);
    expect(streamed.text!.startsWith('0000000 ünïcödé 😀 output\n')).toBe(true);
    const kept = streamed.text!.slice(0, -MARKER.length);
    expect(withoutAnsi(stream).startsWith(kept)).toBe(true);

    // A source over 25 KiB: cut and flagged, its hash still the whole source's.
    const long = await one('long');
    expect(long.sourceTruncated).toBe(true);
    cut(long.source, 25 * KIB);
    expect(longSource.startsWith(long.source!.slice(0, -MARKER.length))).toBe(
      true
    );
    const rewrite = await agent.call('jupyter_update_cell', {
      cellId: 'long',
      source: 'short = True',
      expectedSourceHash: long.sourceHash
    });
    expect(rewrite.isError).toBe(false);
    expect((await human.cellSources())[1]).toBe('short = True');

    // Error fields: ename to 400 bytes, evalue and traceback to 10 KiB each.
    const error = (await one('error')).outputs![0];
    expect(error.truncated).toBe(true);
    cut(error.ename, 400);
    cut(error.evalue, 10 * KIB);
    cut(error.traceback, 10 * KIB);
    expect(error.traceback!.startsWith('frame 0 ')).toBe(true);

    // HTML as text gets half the text budget.
    const html = (await one('html')).outputs![0];
    expect(html.truncated).toBe(true);
    cut(html.html, 5 * KIB);

    // textData entries share one 10 KiB budget: the first (in the bundle's
    // order) is whole, the second no longer fits and is left out.
    const rich = (await one('rich')).outputs![0];
    expect(rich.truncated).toBe(true);
    expect(rich.textData).toHaveLength(1);
    const [entry] = rich.textData!;
    const whole = entry.mimeType === 'text/csv' ? 'csv' : 'md';
    expect(['text/csv', 'text/markdown']).toContain(entry.mimeType);
    expect(entry.truncated).toBeUndefined();
    expect(entry.text === big(whole, 8 * KIB)).toBe(true);
  });
});
