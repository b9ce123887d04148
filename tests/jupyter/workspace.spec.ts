import { type Contents } from '@jupyterlab/services';

import { ToolError, normalizeError } from '../../src/common/errors';
import { type NotebookResolver } from '../../src/jupyter/notebook';
import {
  PROGRESS_AFTER_MS,
  listWorkspace,
  type IListingProgress
} from '../../src/jupyter/workspace';

/** An in-memory tree answering what listWorkspace asks the resolver. */
function tree(paths: string[]): NotebookResolver {
  const models = new Map<string, Contents.IModel>();
  const make = (path: string, type: Contents.ContentType): Contents.IModel => ({
    path,
    name: path.split('/').pop() ?? '',
    type,
    writable: true,
    created: '2026-01-01T00:00:00Z',
    last_modified: '2026-01-02T00:00:00Z',
    mimetype: '',
    format: null,
    content: null,
    size: type === 'directory' ? undefined : path.length
  });
  models.set('', make('', 'directory'));
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!models.has(dir)) {
        models.set(dir, make(dir, 'directory'));
      }
    }
    models.set(path, make(path, path.endsWith('.ipynb') ? 'notebook' : 'file'));
  }
  const children = (dir: string) =>
    [...models.values()].filter(
      model =>
        model.path !== '' &&
        (dir === ''
          ? !model.path.includes('/')
          : model.path.startsWith(`${dir}/`) &&
            !model.path.slice(dir.length + 1).includes('/'))
    );
  return {
    getContentsModel: async (path: string) => {
      const model = models.get(path);
      if (!model) {
        return null;
      }
      return model.type === 'directory'
        ? { ...model, content: children(path) }
        : model;
    }
  } as unknown as NotebookResolver;
}

const files = [
  'b.ipynb',
  'a.txt',
  'zeta/inner.ipynb',
  'alpha/one.ipynb',
  'alpha/deep/two.ipynb',
  'secret.ipynb'
];

describe('listWorkspace', () => {
  it('lists directories first, then files, each alphabetically', async () => {
    const listing = await listWorkspace(tree(files), {});
    expect(listing.entries.map(entry => entry.path)).toEqual([
      'alpha',
      'zeta',
      'a.txt',
      'b.ipynb',
      'secret.ipynb'
    ]);
    expect(listing.entries[0]).toEqual({
      path: 'alpha',
      name: 'alpha',
      type: 'directory',
      modified: '2026-01-02T00:00:00Z'
    });
    expect(listing.entries[3]).toMatchObject({ type: 'notebook', size: 7 });
    expect(listing).toMatchObject({
      path: '',
      truncated: false,
      omittedCount: 0
    });
  });

  it('walks breadth-first with one limit across the whole walk', async () => {
    const all = await listWorkspace(tree(files), { recursive: true });
    expect(all.entries.map(entry => entry.path)).toEqual([
      'alpha',
      'zeta',
      'a.txt',
      'b.ipynb',
      'secret.ipynb',
      'alpha/deep',
      'alpha/one.ipynb',
      'zeta/inner.ipynb',
      'alpha/deep/two.ipynb'
    ]);
    const capped = await listWorkspace(tree(files), {
      recursive: true,
      limit: 6
    });
    expect(capped.entries).toHaveLength(6);
    expect(capped.truncated).toBe(true);
    expect(capped.omittedCount).toBe(3);
  });

  it('omits notebooks the visibility check hides, without counting them', async () => {
    const listing = await listWorkspace(
      tree(files),
      { limit: 3 },
      async entry => entry.path !== 'secret.ipynb'
    );
    expect(listing.entries.map(entry => entry.path)).toEqual([
      'alpha',
      'zeta',
      'a.txt'
    ]);
    expect(listing.omittedCount).toBe(1);
  });

  it('lists a subdirectory', async () => {
    const listing = await listWorkspace(tree(files), { path: 'alpha/' });
    expect(listing.path).toBe('alpha');
    expect(listing.entries.map(entry => entry.name)).toEqual([
      'deep',
      'one.ipynb'
    ]);
  });

  it('reports a missing root as NOTEBOOK_NOT_FOUND and a file as INVALID_PATH', async () => {
    await expect(
      listWorkspace(tree(files), { path: 'nowhere' }).catch(normalizeError)
    ).resolves.toMatchObject({ error: 'NOTEBOOK_NOT_FOUND', path: 'nowhere' });
    await expect(
      listWorkspace(tree(files), { path: 'a.txt' }).catch(normalizeError)
    ).resolves.toMatchObject({ error: 'INVALID_PATH', path: 'a.txt' });
    await expect(
      listWorkspace(tree(files), { path: '../up' }).catch(normalizeError)
    ).resolves.toMatchObject({ error: 'INVALID_PATH' });
  });
});

describe('listWorkspace, a first listing of many notebooks', () => {
  const many = Array.from(
    { length: 12 },
    (_, i) => `nb-${String(i).padStart(2, '0')}.ipynb`
  );

  it('asks about every notebook of a directory at once, not one after another', async () => {
    const asked: string[] = [];
    const answers: ((visible: boolean) => void)[] = [];
    const listing = listWorkspace(tree(many), {}, entry => {
      asked.push(entry.path);
      return new Promise(resolve => answers.push(resolve));
    });
    await new Promise(resolve => setTimeout(resolve, 0));
    expect(asked).toEqual(many);
    answers.forEach((answer, i) => answer(i % 3 !== 0));
    const { entries } = await listing;
    expect(entries.map(entry => entry.path)).toEqual(
      many.filter((_, i) => i % 3 !== 0)
    );
  });

  it('reports progress only once the listing takes long', async () => {
    let clock = 0;
    const reports: IListingProgress[] = [];
    // the checks run at once; each answers 100 ms of the clock after the last
    const slow = async () => {
      await new Promise(resolve => setTimeout(resolve, 0));
      clock += 100;
      return true;
    };
    await listWorkspace(tree(many), {}, slow, {
      onProgress: progress => reports.push(progress),
      now: () => clock
    });
    expect(reports.length).toBeGreaterThan(0);
    expect(reports[0].done).toBeGreaterThanOrEqual(PROGRESS_AFTER_MS / 100);
    expect(reports[reports.length - 1]).toEqual({
      message: 'Checking which notebooks the agent may see: 12 of 12',
      done: 12,
      total: 12
    });
    // at most one report per PROGRESS_EVERY_MS (200 ms here: every other check)
    expect(reports.length).toBeLessThanOrEqual(5);

    const quick: IListingProgress[] = [];
    await listWorkspace(tree(many), {}, async () => true, {
      onProgress: progress => quick.push(progress),
      now: () => 0
    });
    expect(quick).toEqual([]);
  });

  it('skips a subdirectory the service refuses, and fails closed-set when it cannot answer', async () => {
    const base = tree(['ok/a.ipynb', 'refused/b.ipynb', 'c.txt']);
    const failing = (code: 'INVALID_PATH' | 'NOTEBOOK_NOT_FOUND') =>
      ({
        getContentsModel: async (path: string, content: boolean) => {
          if (path === 'refused') {
            throw new ToolError(code, `${code} for ${path}`, { path });
          }
          return base.getContentsModel(path, content);
        }
      }) as unknown as NotebookResolver;
    const listing = await listWorkspace(failing('INVALID_PATH'), {
      recursive: true
    });
    expect(listing.entries.map(entry => entry.path)).toEqual([
      'ok',
      'refused',
      'c.txt',
      'ok/a.ipynb'
    ]);
    await expect(
      listWorkspace(failing('NOTEBOOK_NOT_FOUND'), { recursive: true }).catch(
        normalizeError
      )
    ).resolves.toMatchObject({ error: 'NOTEBOOK_NOT_FOUND', path: 'refused' });
  });
});
