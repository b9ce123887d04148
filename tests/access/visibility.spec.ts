import { type Contents } from '@jupyterlab/services';

import { NotebookVisibilityCache } from '../../src/access/visibility';

function notebookFile(access?: unknown) {
  return {
    cells: [],
    metadata:
      access === undefined
        ? {}
        : { jupyterlite_webmcp: { version: 1, notebookAccess: access } },
    nbformat: 4,
    nbformat_minor: 5
  };
}

/** A contents manager that serves files and counts the reads. */
function contents(
  files: Record<string, { content: object; modified: string }>
) {
  const reads: string[] = [];
  const manager = {
    get: async (path: string) => {
      reads.push(path);
      const file = files[path];
      if (!file) {
        throw new Error('not found');
      }
      return { path, content: file.content, last_modified: file.modified };
    }
  } as unknown as Contents.IManager;
  return { manager, reads };
}

describe('NotebookVisibilityCache', () => {
  it('hides notebooks whose file says none, and only those', async () => {
    const { manager } = contents({
      'open.ipynb': { content: notebookFile(), modified: 't1' },
      'read.ipynb': { content: notebookFile('read'), modified: 't1' },
      'hidden.ipynb': { content: notebookFile('none'), modified: 't1' },
      'typo.ipynb': { content: notebookFile('NONE'), modified: 't1' }
    });
    const cache = new NotebookVisibilityCache({
      contents: manager,
      liveMetadata: () => null
    });
    const visible = async (path: string) =>
      cache.isVisible({ path, modified: 't1' });
    expect(await visible('open.ipynb')).toBe(true);
    expect(await visible('read.ipynb')).toBe(true);
    expect(await visible('hidden.ipynb')).toBe(false);
    // An unrecognised value is the most restrictive.
    expect(await visible('typo.ipynb')).toBe(false);
  });

  it('reads a closed notebook again only when it was modified', async () => {
    const files = {
      'a.ipynb': { content: notebookFile(), modified: 't1' }
    };
    const { manager, reads } = contents(files);
    const cache = new NotebookVisibilityCache({
      contents: manager,
      liveMetadata: () => null
    });
    for (let i = 0; i < 5; i++) {
      expect(await cache.isVisible({ path: 'a.ipynb', modified: 't1' })).toBe(
        true
      );
    }
    expect(reads).toEqual(['a.ipynb']);
    files['a.ipynb'] = { content: notebookFile('none'), modified: 't2' };
    expect(await cache.isVisible({ path: 'a.ipynb', modified: 't2' })).toBe(
      false
    );
    expect(reads).toEqual(['a.ipynb', 'a.ipynb']);
  });

  it('judges an open notebook from its live model, without reading the file', async () => {
    const { manager, reads } = contents({});
    const live: Record<string, unknown> = {
      'open.ipynb': { version: 1, notebookAccess: 'none' },
      'plain.ipynb': undefined
    };
    const cache = new NotebookVisibilityCache({
      contents: manager,
      liveMetadata: path => (path in live ? live[path] : null)
    });
    expect(await cache.isVisible({ path: 'open.ipynb' })).toBe(false);
    expect(await cache.isVisible({ path: 'plain.ipynb' })).toBe(true);
    expect(reads).toEqual([]);
  });
});
