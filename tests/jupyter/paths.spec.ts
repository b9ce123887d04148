import { ToolError } from '../../src/common/errors';
import { LIMITS } from '../../src/limits';
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

describe('normalizePath length bounds', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text).length;

  it('accepts a path of exactly MAX_PATH_BYTES and a segment of exactly MAX_PATH_SEGMENT_BYTES', () => {
    const segment = 'a'.repeat(LIMITS.MAX_PATH_SEGMENT_BYTES);
    expect(normalizePath(segment)).toBe(segment);
    const parts: string[] = [];
    while (utf8(parts.join('/')) < LIMITS.MAX_PATH_BYTES - 101) {
      parts.push('d'.repeat(100));
    }
    let path = parts.join('/');
    path += '/' + 'f'.repeat(LIMITS.MAX_PATH_BYTES - utf8(path) - 1);
    expect(utf8(path)).toBe(LIMITS.MAX_PATH_BYTES);
    expect(normalizePath(path)).toBe(path);
  });

  it.each([
    ['a path one byte over', 'p'.repeat(1025), 1025],
    ['a 5,000-character path', 'p'.repeat(5000), 5000],
    // 400 characters, each 3 bytes: the bound is in bytes
    ['a path of 3-byte characters', 'ノ'.repeat(400), 1200],
    ['a path with control characters too', `${'p'.repeat(1100)}\u0000`, 1101]
  ])('refuses %s with its bytes', (_what, input, bytes) => {
    const error = refusal(input);
    expect(error.code).toBe('INVALID_PATH');
    expect(error.details).toEqual({ path: input, bytes });
    expect(error.message).toBe(
      `Invalid path: the path is ${bytes} bytes of UTF-8, more than the 1024 allowed.`
    );
  });

  it.each([
    ['a segment one byte over', `dir/${'s'.repeat(256)}.ipynb`, 262],
    ['a 2-byte-character segment', `dir/${'é'.repeat(128)}/x.ipynb`, 256],
    ['a directory segment', `${'s'.repeat(300)}/x.ipynb`, 300],
    ['a segment a later ".." would drop', `${'s'.repeat(300)}/../x.ipynb`, 300]
  ])('refuses %s with its bytes', (_what, input, bytes) => {
    const error = refusal(input);
    expect(error.code).toBe('INVALID_PATH');
    expect(error.details).toEqual({ path: input, bytes });
    expect(error.message).toContain('a file or directory name is');
    expect(error.message).not.toContain(input);
  });

  it('names the argument', () => {
    expect(() =>
      normalizePath('x'.repeat(2000), { key: 'notebookPath' })
    ).toThrow(/^Invalid notebookPath: the path is 2000 bytes/);
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
