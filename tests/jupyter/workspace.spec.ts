import { type Contents } from '@jupyterlab/services';

import { normalizeError } from '../../src/common/errors';
import { type NotebookResolver } from '../../src/jupyter/notebook';
import { listWorkspace } from '../../src/jupyter/workspace';

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
