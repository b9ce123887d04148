import { YNotebook, type ISharedCodeCell } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { setWithholdSecrets, withholdsSecrets } from '../../src/access/secrets';
import { normalizeError } from '../../src/common/errors';
import { sourceHash } from '../../src/common/hash';
import { getCells } from '../../src/jupyter/cells';
import { exportNotebook } from '../../src/jupyter/document';
import { updateCell } from '../../src/jupyter/edit';
import { type IJupyterEnvironment } from '../../src/jupyter/environment';
import { NotebookResolver } from '../../src/jupyter/notebook';
import { LIMITS } from '../../src/limits';
import { NEAR_MISSES, SECRET_SAMPLES } from '../fixtures/secrets';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

const GITHUB = SECRET_SAMPLES.find(s => s.label === 'GitHub token')!.secret;
const GITHUB_SEEN = '[secret withheld: GitHub token]';

function code(
  id: string,
  source: string,
  outputs: nbformat.IOutput[] = []
): nbformat.ICodeCell {
  return {
    id,
    cell_type: 'code',
    source,
    metadata: {},
    outputs,
    execution_count: null
  };
}

describe('secrets in what the tools return', () => {
  let notebook: YNotebook;
  let settingOn: boolean;
  let withheld: number;

  /** The test notebook, open, with the setting of `settingOn`. */
  const resolver = () => {
    const resolved = {
      path: 'work/keys.ipynb',
      panel: null,
      model: notebook,
      dirty: false,
      release: () => undefined
    };
    return {
      resolveNotebook: async () => resolved,
      resolveLive: async () => resolved,
      withholdsSecrets: NotebookResolver.prototype.withholdsSecrets.bind({
        _env: { withholdSecrets: () => settingOn }
      })
    } as unknown as NotebookResolver;
  };

  const call = () => ({
    signal: new AbortController().signal,
    reportCell: () => undefined,
    reportWithheld: (count: number) => {
      withheld += count;
    }
  });

  const allSecrets = SECRET_SAMPLES.map(s => s.line).join('\n');
  const allMisses = NEAR_MISSES.map(m => m.line).join('\n');

  beforeEach(() => {
    settingOn = true;
    withheld = 0;
    notebook = YNotebook.create();
    notebook.insertCells(0, [
      code('keys', allSecrets, [
        { output_type: 'stream', name: 'stdout', text: `token: ${GITHUB}\n` },
        {
          output_type: 'error',
          ename: 'AuthError',
          evalue: `bad key ${GITHUB}`,
          traceback: [`login(${GITHUB})`]
        },
        {
          output_type: 'execute_result',
          execution_count: 1,
          metadata: {},
          data: {
            'text/plain': GITHUB,
            'text/html': `<b>${GITHUB}</b>`,
            'application/json': { token: GITHUB }
          }
        }
      ]),
      code('misses', allMisses)
    ]);
  });

  afterEach(() => notebook.dispose());

  const read = async () =>
    getCells(resolver(), { includeOutputs: true }, call());

  it('withholds every kind from a cell, and says how many', async () => {
    const { cells } = await read();
    const text = JSON.stringify(cells);
    for (const sample of SECRET_SAMPLES) {
      expect(text).not.toContain(sample.secret);
    }
    expect(cells[0].source).toContain(GITHUB_SEEN);
    // every sample in the source, and one in each of the 6 output texts
    // (stream, evalue, traceback, text/plain, text/html, application/json)
    expect(withheld).toBe(SECRET_SAMPLES.length + 6);
  });

  it('keeps the hash of the real text', async () => {
    const { cells } = await read();
    expect(cells[0].sourceHash).toBe(sourceHash('code', allSecrets));
  });

  it('leaves every near miss as it is', async () => {
    const { cells } = await read();
    expect(cells[1].source).toBe(allMisses);
  });

  it('shows the values when the notebook or the setting turns it off', async () => {
    setWithholdSecrets(notebook, false);
    expect((await read()).cells[0].source).toBe(allSecrets);
    setWithholdSecrets(notebook, null);
    settingOn = false;
    expect((await read()).cells[0].source).toBe(allSecrets);
    // the notebook's own switch wins over the setting
    setWithholdSecrets(notebook, true);
    expect((await read()).cells[0].source).not.toContain(GITHUB);
    expect(withholdsSecrets(notebook, false)).toBe(true);
  });

  it('keeps other access fields when the switch is written', () => {
    notebook.setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      notebookAccess: 'read'
    });
    expect(setWithholdSecrets(notebook, false)).toBe(true);
    expect(setWithholdSecrets(notebook, false)).toBe(false);
    expect(notebook.getMetadata(ACCESS_METADATA_KEY)).toEqual({
      version: 1,
      notebookAccess: 'read',
      withholdSecrets: false
    });
  });

  it('does not let a secret that the output bound cuts through', async () => {
    const max = LIMITS.MAX_TEXT_OUTPUT_BYTES;
    const text = 'x'.repeat(max - 20) + ` ${GITHUB} ` + 'y'.repeat(100);
    (notebook.cells[1] as ISharedCodeCell).setOutputs([
      { output_type: 'stream', name: 'stdout', text }
    ]);
    const { cells } = await read();
    const output = cells[1].outputs![0];
    expect(output.truncated).toBe(true);
    expect(output.text).not.toContain(GITHUB.slice(0, 12));
  });

  it('withholds from an export, outputs included', async () => {
    const { document } = await exportNotebook(
      resolver(),
      { includeOutputs: true },
      call()
    );
    for (const sample of SECRET_SAMPLES) {
      expect(document).not.toContain(sample.secret);
    }
    expect(document).toContain(GITHUB_SEEN);
  });

  describe('an update', () => {
    const seen = async () => (await read()).cells[0];

    it('keeps the value where the agent kept its placeholder', async () => {
      const { source, sourceHash: hash } = await seen();
      const result = await updateCell(
        resolver(),
        {
          cellId: 'keys',
          source: `${source}\nprint("done")`,
          expectedSourceHash: hash
        },
        call()
      );
      const stored = notebook.cells[0].getSource();
      expect(stored).toBe(`${allSecrets}\nprint("done")`);
      // what comes back is withheld again, its hash the real text's
      expect(result.cell.source).not.toContain(GITHUB);
      expect(result.cell.sourceHash).toBe(sourceHash('code', stored));
    });

    it('is an ordinary edit when the placeholder is dropped', async () => {
      const { sourceHash: hash } = await seen();
      await updateCell(
        resolver(),
        { cellId: 'keys', source: 'token = load()', expectedSourceHash: hash },
        call()
      );
      expect(notebook.cells[0].getSource()).toBe('token = load()');
    });

    it('refuses a stale hash with a preview that withholds', async () => {
      notebook.cells[0].setSource(`# edited\n${allSecrets}`);
      let error: Record<string, unknown> = {};
      try {
        await updateCell(resolver(), {
          cellId: 'keys',
          source: 'x',
          expectedSourceHash: sourceHash('code', allSecrets)
        });
      } catch (caught) {
        error = normalizeError(caught);
      }
      expect(error.error).toBe('STALE_CELL');
      const preview = String(error.currentSourcePreview);
      expect(preview).toContain('[secret withheld: AWS access key ID]');
      expect(preview).not.toContain('AKIAQ7XK2MPL4RZT6WNE');
    });
  });

  it('reads the setting through the resolver (absent: on)', () => {
    const env = {} as IJupyterEnvironment;
    expect(new NotebookResolver(env).withholdsSecrets(notebook)).toBe(true);
    const off = { withholdSecrets: () => false } as IJupyterEnvironment;
    expect(new NotebookResolver(off).withholdsSecrets(notebook)).toBe(false);
  });
});
