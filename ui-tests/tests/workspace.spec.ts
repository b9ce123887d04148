/**
 * jupyter_list_workspace through native WebMCP, against each app's real
 * contents manager.
 */
import { expect, test } from '../fixtures';

interface IEntry {
  path: string;
  name: string;
  type: string;
  size?: number;
  modified?: string;
}

interface IListing {
  path: string;
  entries: IEntry[];
  truncated: boolean;
  omittedCount: number;
}

test.describe('jupyter_list_workspace', () => {
  // each test works in its own notebooks: they share one app start-up
  test.use({ shareApp: true });

  test.beforeEach(async ({ jupyter }) => {
    await jupyter.open();
    await jupyter.ensureDir();
    for (const dir of ['alpha', 'alpha/deep', 'zeta']) {
      await jupyter.page.evaluate(
        path => window.uiTests.mkdir(path),
        jupyter.path(dir)
      );
    }
    await jupyter.addFixture('simple.ipynb', 'b-notebook.ipynb');
    await jupyter.createFile('a-notes.txt', 'a secret line of text');
    await jupyter.createFile('zeta/inner.txt', 'inner');
    await jupyter.addFixture('empty.ipynb', 'alpha/one.ipynb');
    await jupyter.addFixture('empty.ipynb', 'alpha/deep/two.ipynb');
  });

  test('lists names, types, sizes and times, directories first, never contents @backend', async ({
    jupyter,
    agent
  }) => {
    const result = await agent.call<IListing>('jupyter_list_workspace', {
      path: jupyter.dir
    });
    expect(result.isError).toBe(false);
    const listing = result.structured!;
    expect(listing.path).toBe(jupyter.dir);
    expect(listing.entries.map(entry => [entry.name, entry.type])).toEqual([
      ['alpha', 'directory'],
      ['zeta', 'directory'],
      ['a-notes.txt', 'file'],
      ['b-notebook.ipynb', 'notebook']
    ]);
    const notes = listing.entries[2];
    expect(notes.path).toBe(jupyter.path('a-notes.txt'));
    expect(notes.size).toBe(21);
    expect(Date.parse(notes.modified!)).not.toBeNaN();
    expect(listing).toMatchObject({ truncated: false, omittedCount: 0 });
    expect(result.text).not.toContain('a secret line');
  });

  test('walks breadth-first, with one limit across the whole walk @backend', async ({
    jupyter,
    agent
  }) => {
    const all = (
      await agent.call<IListing>('jupyter_list_workspace', {
        path: jupyter.dir,
        recursive: true
      })
    ).structured!;
    expect(all.entries.map(entry => entry.path)).toEqual(
      [
        'alpha',
        'zeta',
        'a-notes.txt',
        'b-notebook.ipynb',
        'alpha/deep',
        'alpha/one.ipynb',
        'zeta/inner.txt',
        'alpha/deep/two.ipynb'
      ].map(name => jupyter.path(name))
    );
    const capped = (
      await agent.call<IListing>('jupyter_list_workspace', {
        path: jupyter.dir,
        recursive: true,
        limit: 5
      })
    ).structured!;
    expect(capped.entries).toHaveLength(5);
    expect(capped.truncated).toBe(true);
    expect(capped.omittedCount).toBe(3);
  });

  test('the root of the workspace is the default path @backend', async ({
    jupyter,
    agent
  }) => {
    const listing = (await agent.call<IListing>('jupyter_list_workspace'))
      .structured!;
    expect(listing.path).toBe('');
    expect(listing.entries.map(entry => entry.path)).toContain(jupyter.dir);
  });

  test('a missing directory, a file and bad paths are structured errors @backend', async ({
    jupyter,
    agent
  }) => {
    const missing = await agent.call('jupyter_list_workspace', {
      path: jupyter.path('nowhere')
    });
    expect(missing.isError).toBe(true);
    expect(missing.structured).toMatchObject({
      error: 'NOTEBOOK_NOT_FOUND',
      path: jupyter.path('nowhere')
    });
    const file = await agent.call('jupyter_list_workspace', {
      path: jupyter.path('a-notes.txt')
    });
    expect(file.structured).toMatchObject({ error: 'INVALID_PATH' });
    for (const path of ['/etc', '../..', 'a\\b', `${jupyter.dir}/../../x`]) {
      const bad = await agent.call('jupyter_list_workspace', { path });
      expect(bad.structured).toMatchObject({ error: 'INVALID_PATH' });
    }
  });

  // @server: JupyterLite reads its files in the browser, with no request to
  // count or fail
  test('reads each notebook once, even for calls at once, and leaves out one it cannot read @server @backend', async ({
    jupyter,
    agent
  }) => {
    // every download of a notebook with its content, by file
    const downloads = new Map<string, number>();
    jupyter.page.on('request', request => {
      const url = new URL(request.url());
      const match = /\/api\/contents\/(.+\.ipynb)$/.exec(url.pathname);
      if (
        request.method() === 'GET' &&
        match &&
        url.searchParams.get('content') !== '0'
      ) {
        const file = decodeURIComponent(match[1]);
        downloads.set(file, (downloads.get(file) ?? 0) + 1);
      }
    });
    // the server breaks down on one notebook's file
    const broken = jupyter.path('alpha/one.ipynb');
    const route = (url: URL) =>
      url.pathname.endsWith(`/api/contents/${broken}`) &&
      url.searchParams.get('content') !== '0';
    await jupyter.page.route(route, request =>
      request.fulfill({ status: 500, body: '{"message": "broken"}' })
    );
    const list = () =>
      agent.call<IListing>('jupyter_list_workspace', {
        path: jupyter.dir,
        recursive: true
      });
    const [first, second] = await Promise.all([list(), list()]);
    const paths = (listing: IListing) =>
      listing.entries.map(entry => entry.path);
    const expected = [
      'alpha',
      'zeta',
      'a-notes.txt',
      'b-notebook.ipynb',
      'alpha/deep',
      'zeta/inner.txt',
      'alpha/deep/two.ipynb'
    ].map(name => jupyter.path(name));
    // a notebook it could not read is left out, like a hidden one
    expect(paths(first.structured!)).toEqual(expected);
    expect(paths(second.structured!)).toEqual(expected);
    expect(first.structured).toMatchObject({
      truncated: false,
      omittedCount: 0
    });
    // two calls at once: one download per notebook judged (a failed read is
    // not remembered, so the second call may try the broken one again)
    const judged = () => ({
      [jupyter.path('b-notebook.ipynb')]: downloads.get(
        jupyter.path('b-notebook.ipynb')
      ),
      [jupyter.path('alpha/deep/two.ipynb')]: downloads.get(
        jupyter.path('alpha/deep/two.ipynb')
      )
    });
    expect(judged()).toEqual({
      [jupyter.path('b-notebook.ipynb')]: 1,
      [jupyter.path('alpha/deep/two.ipynb')]: 1
    });
    expect([1, 2]).toContain(downloads.get(broken));
    const brokenReads = downloads.get(broken)!;
    // judged notebooks are not read again; the failed one is, and once the
    // server answers it is listed
    await jupyter.page.unroute(route);
    const third = await list();
    expect(paths(third.structured!)).toContain(broken);
    expect(judged()).toEqual({
      [jupyter.path('b-notebook.ipynb')]: 1,
      [jupyter.path('alpha/deep/two.ipynb')]: 1
    });
    expect(downloads.get(broken)).toBe(brokenReads + 1);
  });
});
