import { type KernelSpec } from '@jupyterlab/services';

import { matchKernelSpec, notebookFileName } from '../../src/jupyter/create';
import { normalizeError } from '../../src/common/errors';

function failure(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    return normalizeError(error);
  }
  throw new Error('expected a failure');
}

describe('notebookFileName', () => {
  it('appends .ipynb when missing, case-insensitively', () => {
    expect(notebookFileName('analysis')).toBe('analysis.ipynb');
    expect(notebookFileName('Report.IPYNB')).toBe('Report.IPYNB');
    expect(notebookFileName('données été')).toBe('données été.ipynb');
  });

  it('refuses an empty or blank name', () => {
    for (const name of ['', '   ', '\t']) {
      expect(failure(() => notebookFileName(name))).toMatchObject({
        error: 'INVALID_ARGUMENT'
      });
    }
  });

  it('refuses a name over 256 bytes of UTF-8 with its length', () => {
    // the longest name a file system takes: 255 bytes with .ipynb
    expect(notebookFileName('a'.repeat(249))).toBe(`${'a'.repeat(249)}.ipynb`);
    // within the name bound, but its file name is not (the path rules)
    expect(failure(() => notebookFileName('a'.repeat(256)))).toMatchObject({
      error: 'INVALID_PATH',
      bytes: 262
    });
    expect(failure(() => notebookFileName('a'.repeat(257)))).toMatchObject({
      error: 'INVALID_ARGUMENT',
      bytes: 257
    });
    // 86 three-byte characters: 258 bytes though only 86 characters.
    expect(failure(() => notebookFileName('€'.repeat(86)))).toMatchObject({
      error: 'INVALID_ARGUMENT',
      bytes: 258
    });
    expect(failure(() => notebookFileName('x'.repeat(4000)))).toMatchObject({
      error: 'INVALID_ARGUMENT',
      bytes: 4000
    });
  });

  it('refuses paths, backslashes and control characters as INVALID_PATH', () => {
    for (const name of [
      'sub/x',
      '../x',
      'a\\b',
      'a\u0000b',
      'line\nbreak',
      // found by the reliability suite: ".." became the file "...ipynb"
      '..',
      '.'
    ]) {
      expect(failure(() => notebookFileName(name)).error).toBe('INVALID_PATH');
    }
  });
});

describe('matchKernelSpec', () => {
  const spec = (name: string, language: string): KernelSpec.ISpecModel => ({
    name,
    language,
    display_name: name,
    argv: [],
    resources: {}
  });
  const specs: KernelSpec.ISpecModels = {
    default: 'python3',
    kernelspecs: {
      python3: spec('python3', 'python'),
      ir: spec('ir', 'R'),
      xpython: spec('xpython', 'python')
    }
  };

  it('matches a name case-insensitively, then a language', () => {
    expect(matchKernelSpec(specs, 'IR')?.name).toBe('ir');
    expect(matchKernelSpec(specs, 'r')?.name).toBe('ir');
    expect(matchKernelSpec(specs, 'XPython')?.name).toBe('xpython');
  });

  it('falls back to the default for no or an unknown request', () => {
    expect(matchKernelSpec(specs, null)?.name).toBe('python3');
    expect(matchKernelSpec(specs, 'julia')?.name).toBe('python3');
  });

  it('has nothing to offer without kernelspecs', () => {
    expect(matchKernelSpec(null, 'python')).toBeNull();
  });
});
