import { type Contents, ServerConnection } from '@jupyterlab/services';

import { AnnouncedRestrictions } from '../../src/access/announced';
import {
  NOT_YET_KNOWN,
  NotebookVisibilityCache
} from '../../src/access/visibility';

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

/** A contents manager whose reads the test answers by hand. */
function manualContents() {
  const pending: {
    path: string;
    resolve(model: object): void;
    reject(error: unknown): void;
  }[] = [];
  const manager = {
    get: (path: string) =>
      new Promise((resolve, reject) => pending.push({ path, resolve, reject }))
  } as unknown as Contents.IManager;
  return { manager, pending };
}

/** Let every settled promise's continuations run. */
const flush = () => new Promise(resolve => setTimeout(resolve, 0));

function answered(status: number): ServerConnection.ResponseError {
  return new ServerConnection.ResponseError({ status } as Response);
}

describe('NotebookVisibilityCache, first listing', () => {
  it('never reads one version of a file twice, even when asked at once', async () => {
    const { manager, pending } = manualContents();
    const cache = new NotebookVisibilityCache({
      contents: manager,
      liveMetadata: () => null
    });
    const entry = { path: 'a.ipynb', modified: 't1', size: 10 };
    const asked = [cache.isVisible(entry), cache.isVisible({ ...entry })];
    await flush();
    expect(pending.map(read => read.path)).toEqual(['a.ipynb']);
    pending[0].resolve({
      content: notebookFile('none'),
      last_modified: 't1',
      size: 10
    });
    expect(await Promise.all(asked)).toEqual([false, false]);
    expect(await cache.isVisible(entry)).toBe(false);
    expect(pending).toHaveLength(1);
  });

  it('reads at most maxConcurrentReads files at once', async () => {
    const { manager, pending } = manualContents();
    const cache = new NotebookVisibilityCache(
      { contents: manager, liveMetadata: () => null },
      { maxConcurrentReads: 2 }
    );
    const asked = ['a', 'b', 'c', 'd', 'e'].map(name =>
      cache.isVisible({ path: `${name}.ipynb`, modified: 't1' })
    );
    await flush();
    expect(pending.map(read => read.path)).toEqual(['a.ipynb', 'b.ipynb']);
    pending[1].resolve({ content: notebookFile(), last_modified: 't1' });
    await flush();
    expect(pending.map(read => read.path)).toEqual([
      'a.ipynb',
      'b.ipynb',
      'c.ipynb'
    ]);
    // a failed read frees its place too
    pending[0].reject(answered(500));
    await flush();
    expect(pending).toHaveLength(4);
    pending[2].resolve({ content: notebookFile(), last_modified: 't1' });
    pending[3].resolve({ content: notebookFile(), last_modified: 't1' });
    await flush();
    pending[4].resolve({ content: notebookFile('none'), last_modified: 't1' });
    expect(await Promise.all(asked)).toEqual([false, true, true, true, false]);
  });

  it('fails closed: a notebook it cannot read now is hidden; a refused file is listed', async () => {
    const failures: Record<string, unknown> = {
      'gone.ipynb': answered(404),
      'broken.ipynb': answered(400),
      'forbidden.ipynb': answered(403),
      'server.ipynb': answered(500),
      'network.ipynb': new ServerConnection.NetworkError(new TypeError('x')),
      'odd.ipynb': new Error('drive broke')
    };
    const reads: string[] = [];
    const cache = new NotebookVisibilityCache({
      contents: {
        get: async (path: string) => {
          reads.push(path);
          throw failures[path];
        }
      } as unknown as Contents.IManager,
      liveMetadata: () => null
    });
    const refused = ['broken.ipynb', 'forbidden.ipynb'];
    for (const path of Object.keys(failures)) {
      expect(await cache.isVisible({ path, modified: 't1' })).toBe(
        refused.includes(path)
      );
    }
    // a refusal is remembered for that version of the file; a failure to
    // answer (or a vanished file) is asked again next time
    reads.length = 0;
    for (const path of Object.keys(failures)) {
      expect(await cache.isVisible({ path, modified: 't1' })).toBe(
        refused.includes(path)
      );
    }
    expect(reads).toEqual([
      'gone.ipynb',
      'server.ipynb',
      'network.ipynb',
      'odd.ipynb'
    ]);
    // a new version of a refused file is read again
    expect(
      await cache.isVisible({ path: 'broken.ipynb', modified: 't2' })
    ).toBe(true);
    expect(reads).toContain('broken.ipynb');
  });

  it('a failed read forgets what an earlier version said', async () => {
    let fail = false;
    let reads = 0;
    const cache = new NotebookVisibilityCache({
      contents: {
        get: async () => {
          reads++;
          if (fail) {
            throw answered(503);
          }
          return { content: notebookFile(), last_modified: 't1' };
        }
      } as unknown as Contents.IManager,
      liveMetadata: () => null
    });
    const at = (modified: string) =>
      cache.isVisible({ path: 'a.ipynb', modified });
    expect(await at('t1')).toBe(true);
    fail = true;
    expect(await at('t2')).toBe(false);
    // nothing read at t1 is trusted any more: it is read again
    fail = false;
    expect(await at('t1')).toBe(true);
    expect(reads).toBe(3);
  });

  it('reads a file again when its size changed at the same time stamp', async () => {
    const files = {
      'a.ipynb': { content: notebookFile(), modified: 't1' }
    };
    const { manager, reads } = contents(files);
    const cache = new NotebookVisibilityCache({
      contents: manager,
      liveMetadata: () => null
    });
    expect(
      await cache.isVisible({ path: 'a.ipynb', modified: 't1', size: 10 })
    ).toBe(true);
    files['a.ipynb'] = { content: notebookFile('none'), modified: 't1' };
    expect(
      await cache.isVisible({ path: 'a.ipynb', modified: 't1', size: 10 })
    ).toBe(true);
    expect(
      await cache.isVisible({ path: 'a.ipynb', modified: 't1', size: 99 })
    ).toBe(false);
    expect(reads).toEqual(['a.ipynb', 'a.ipynb']);
  });
});

describe('NotebookVisibilityCache, how a file is read', () => {
  it('reads the file as text (no server-side validation), and as a notebook only when that is not JSON', async () => {
    const asked: { path: string; type?: string; format?: string }[] = [];
    const text: Record<string, string> = {
      'hidden.ipynb': JSON.stringify(notebookFile('none')),
      'shown.ipynb': JSON.stringify(notebookFile()),
      'odd.ipynb': 'not json'
    };
    const cache = new NotebookVisibilityCache({
      contents: {
        get: async (
          path: string,
          options: { type?: string; format?: string }
        ) => {
          asked.push({ path, type: options.type, format: options.format });
          return options.type === 'file'
            ? { content: text[path], last_modified: 't1' }
            : { content: notebookFile('none'), last_modified: 't1' };
        }
      } as unknown as Contents.IManager,
      liveMetadata: () => null
    });
    const visible = (path: string) => cache.isVisible({ path, modified: 't1' });
    expect(await visible('hidden.ipynb')).toBe(false);
    expect(await visible('shown.ipynb')).toBe(true);
    expect(await visible('odd.ipynb')).toBe(false);
    expect(asked).toEqual([
      { path: 'hidden.ipynb', type: 'file', format: 'text' },
      { path: 'shown.ipynb', type: 'file', format: 'text' },
      { path: 'odd.ipynb', type: 'file', format: 'text' },
      { path: 'odd.ipynb', type: 'notebook', format: undefined }
    ]);
  });
});

describe('NotebookVisibilityCache, what is not read from a settled model', () => {
  const files = {
    'hidden.ipynb': { content: notebookFile('none'), modified: 't1' },
    'shown.ipynb': { content: notebookFile(), modified: 't1' }
  };

  it('judges a notebook whose panel is still loading by its file', async () => {
    const { manager, reads } = contents(files);
    const cache = new NotebookVisibilityCache({
      contents: manager,
      // an empty model while loading: it would read as write
      liveMetadata: () => NOT_YET_KNOWN
    });
    expect(
      await cache.isVisible({ path: 'hidden.ipynb', modified: 't1' })
    ).toBe(false);
    expect(await cache.isVisible({ path: 'shown.ipynb', modified: 't1' })).toBe(
      true
    );
    expect(reads).toEqual(['hidden.ipynb', 'shown.ipynb']);
  });

  it('hides a closed notebook another tab hid unsaved, and only that', async () => {
    const { manager } = contents(files);
    const announced = new AnnouncedRestrictions();
    const cache = new NotebookVisibilityCache({
      contents: manager,
      liveMetadata: () => null,
      announced
    });
    const entry = { path: 'shown.ipynb', modified: 't1' };
    expect(await cache.isVisible(entry)).toBe(true);
    announced.receive({
      type: 'restrictions',
      tab: 't',
      path: 'shown.ipynb',
      notebook: 'none',
      cells: {}
    });
    expect(await cache.isVisible(entry)).toBe(false);
    announced.receive({ type: 'drop', tab: 't', path: null });
    expect(await cache.isVisible(entry)).toBe(true);
    // read-only restricts what may change, not what is listed
    announced.receive({
      type: 'restrictions',
      tab: 't',
      path: 'shown.ipynb',
      notebook: 'read',
      cells: {}
    });
    expect(await cache.isVisible(entry)).toBe(true);
  });
});
