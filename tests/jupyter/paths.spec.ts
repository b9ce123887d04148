import { ToolError } from '../../src/common/errors';
import {
  basename,
  dirname,
  isNotebookPath,
  joinPath,
  normalizePath
} from '../../src/jupyter/paths';

function refusal(input: string, allowRoot = false): ToolError {
  try {
    normalizePath(input, { allowRoot });
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(ToolError);
    return thrown as ToolError;
  }
  throw new Error(`"${input}" was accepted`);
}

describe('normalizePath', () => {
  it.each([
    ['a.ipynb', 'a.ipynb'],
    ['dir/a.ipynb', 'dir/a.ipynb'],
    ['a/../b', 'b'],
    ['./a/./b/', 'a/b'],
    ['a//b', 'a/b'],
    ['a/b/../../c', 'c'],
    ['名前/ノート.ipynb', '名前/ノート.ipynb']
  ])('accepts the relative path %j as %j', (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });

  it.each([
    ['..', 'leave the workspace root'],
    ['a/../..', 'leave the workspace root'],
    ['../a', 'leave the workspace root'],
    ['/a.ipynb', 'relative to the workspace root'],
    ['C:/x', 'relative to the workspace root'],
    ['c:x', 'relative to the workspace root'],
    ['https://example.com/a.ipynb', 'relative to the workspace root'],
    ['a\\b.ipynb', 'backslash'],
    ['a\u0000b', 'control characters'],
    ['a\nb', 'control characters'],
    ['a\u007fb', 'control characters'],
    ['a\u0085b', 'control characters']
  ])('refuses %j as INVALID_PATH', (input, why) => {
    const error = refusal(input);
    expect(error.code).toBe('INVALID_PATH');
    expect(error.message).toContain(why);
    expect(error.details).toEqual({ path: input });
  });

  it('gives the root only with allowRoot', () => {
    for (const input of ['', '.', './', 'a/..']) {
      expect(normalizePath(input, { allowRoot: true })).toBe('');
      expect(refusal(input).message).toContain('not the root');
    }
  });

  it('still refuses escapes with allowRoot', () => {
    expect(refusal('..', true).code).toBe('INVALID_PATH');
    expect(refusal('/', true).code).toBe('INVALID_PATH');
  });

  it('names the argument in the message', () => {
    try {
      normalizePath('/x', { key: 'directory' });
      throw new Error('accepted');
    } catch (thrown) {
      expect((thrown as Error).message).toMatch(/^Invalid directory "\/x"/);
    }
  });
});

describe('path helpers', () => {
  it('splits and joins normal paths', () => {
    expect(basename('a/b/c.ipynb')).toBe('c.ipynb');
    expect(basename('c.ipynb')).toBe('c.ipynb');
    expect(dirname('a/b/c.ipynb')).toBe('a/b');
    expect(dirname('c.ipynb')).toBe('');
    expect(joinPath('', 'a', '', 'b.ipynb')).toBe('a/b.ipynb');
    expect(joinPath('', '')).toBe('');
  });

  it('recognizes notebooks by extension, in any case', () => {
    expect(isNotebookPath('a/B.IPYNB')).toBe(true);
    expect(isNotebookPath('a.ipynb.txt')).toBe(false);
    expect(isNotebookPath('ipynb')).toBe(false);
  });
});
