/**
 * The docs name files where they are: every `src/...` path mentioned in
 * docs/architecture.md and docs/tools.md exists, and every folder of src/
 * has its place in docs/architecture.md.
 *
 * Not checked: that every file of src/ is mentioned. Files are added often,
 * by several people at once; a new file an architecture section does not
 * name yet is a gap to fill, while a named file that is gone misleads.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

function read(relative: string): string {
  return fs.readFileSync(path.join(ROOT, relative), 'utf-8');
}

/** Every `src/...` path in a text: a file with an extension, or a folder ending in `/`. */
function srcPaths(text: string): string[] {
  const found = text.match(/\bsrc\/[A-Za-z0-9_./-]*[A-Za-z0-9_/]/g) ?? [];
  return [...new Set(found)];
}

describe.each(['docs/architecture.md', 'docs/tools.md'])('%s', doc => {
  const text = read(doc);

  it('names only src/ paths that exist', () => {
    const missing = srcPaths(text).filter(
      mentioned => !fs.existsSync(path.join(ROOT, mentioned))
    );
    expect(missing).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  const text = read('docs/architecture.md');

  it('names src/ paths at all (the check above is not vacuous)', () => {
    expect(srcPaths(text).length).toBeGreaterThan(20);
  });

  it('has a section for every folder of src/', () => {
    const folders = fs
      .readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter(entry => entry.isDirectory())
      .map(entry => `src/${entry.name}/`);
    const headings = text
      .split('\n')
      .filter(line => /^##\s/.test(line))
      .join('\n');
    expect(
      folders.filter(folder => !headings.includes(`\`${folder}\``))
    ).toEqual([]);
  });

  it('names every top-level file of src/', () => {
    const files = fs
      .readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter(entry => entry.isFile() && entry.name.endsWith('.ts'))
      .map(entry => `src/${entry.name}`);
    expect(files.filter(file => !srcPaths(text).includes(file))).toEqual([]);
  });
});
