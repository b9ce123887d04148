/**
 * Malformed arguments, the way a confused agent sends them: every one gets the
 * specification's structured error (never INTERNAL_ERROR, never a thrown
 * exception) and leaves no file behind.
 */
import { expect, test } from '../fixtures';

interface ICase {
  tool: string;
  input: Record<string, unknown>;
  error: string;
}

const LONG_NAME = 'n'.repeat(4000);

/** `dir` is the test's own (empty) directory. */
function cases(dir: string): ICase[] {
  return [
    // wrong types and shapes
    {
      tool: 'jupyter_get_context',
      input: { extra: true },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_list_workspace',
      input: { path: 42 },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_list_workspace',
      input: { recursive: 'yes' },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_list_workspace',
      input: { limit: -1 },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_list_workspace',
      input: { limit: 0 },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_list_workspace',
      input: { limit: 101 },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_list_workspace',
      input: { limit: 2.5 },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_list_workspace',
      input: { path: dir, foo: 1 },
      error: 'INVALID_ARGUMENT'
    },
    { tool: 'jupyter_open_notebook', input: {}, error: 'INVALID_ARGUMENT' },
    {
      tool: 'jupyter_open_notebook',
      input: { path: ['a.ipynb'] },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_open_notebook',
      input: { path: 'a.ipynb', activate: 'no' },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_open_notebook',
      input: { path: 'a.ipynb', cellId: 7 },
      error: 'INVALID_ARGUMENT'
    },
    { tool: 'jupyter_create_notebook', input: {}, error: 'INVALID_ARGUMENT' },
    {
      tool: 'jupyter_create_notebook',
      input: { name: 12 },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_create_notebook',
      input: { name: '' },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_create_notebook',
      input: { name: '   ', directory: dir },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_create_notebook',
      input: { name: LONG_NAME, directory: dir },
      error: 'INVALID_ARGUMENT'
    },
    {
      tool: 'jupyter_create_notebook',
      input: { name: 'x', directory: dir, kernel: 3 },
      error: 'INVALID_ARGUMENT'
    },
    // paths that are not allowed
    {
      tool: 'jupyter_list_workspace',
      input: { path: '/etc' },
      error: 'INVALID_PATH'
    },
    {
      tool: 'jupyter_list_workspace',
      input: { path: '..' },
      error: 'INVALID_PATH'
    },
    {
      tool: 'jupyter_open_notebook',
      input: { path: `${dir}/../../escape.ipynb` },
      error: 'INVALID_PATH'
    },
    {
      tool: 'jupyter_open_notebook',
      input: { path: 'C:/Users/x.ipynb' },
      error: 'INVALID_PATH'
    },
    {
      tool: 'jupyter_open_notebook',
      input: { path: `${dir}\\x.ipynb` },
      error: 'INVALID_PATH'
    },
    {
      tool: 'jupyter_open_notebook',
      input: { path: `${dir}/x\u0000.ipynb` },
      error: 'INVALID_PATH'
    },
    {
      tool: 'jupyter_create_notebook',
      input: { name: 'x', directory: '/tmp' },
      error: 'INVALID_PATH'
    },
    {
      tool: 'jupyter_create_notebook',
      input: { name: 'x', directory: `${dir}/../..` },
      error: 'INVALID_PATH'
    },
    {
      tool: 'jupyter_create_notebook',
      input: { name: '../x', directory: dir },
      error: 'INVALID_PATH'
    },
    {
      tool: 'jupyter_create_notebook',
      input: { name: 'a\\b', directory: dir },
      error: 'INVALID_PATH'
    },
    {
      tool: 'jupyter_create_notebook',
      input: { name: 'tab\there', directory: dir },
      error: 'INVALID_PATH'
    }
  ];
}

// the tests but the last work in their own directories and leave the app as
// they found it: they share the worker's app start-up
test.use({ shareApp: true });

test('every malformed argument gets its structured error and leaves no file @rule', async ({
  jupyter,
  agent
}) => {
  await jupyter.open();
  const dir = await jupyter.ensureDir();
  await agent.waitForTools(['jupyter_create_notebook']);
  // the root, without the directories other tests create and delete
  // meanwhile (every test works in its own uit-… directory)
  const root = async () =>
    (await jupyter.list(''))
      .map(entry => entry.name)
      .filter(name => !name.startsWith('uit-') || name === dir)
      .sort();
  const rootBefore = await root();
  const table = cases(dir);
  for (const { tool, input, error } of table) {
    const result = await agent.call(tool, input);
    const where = `${tool} ${JSON.stringify(input).slice(0, 80)}`;
    expect(result.isError, where).toBe(true);
    expect(result.structured, where).toMatchObject({
      error,
      message: expect.any(String)
    });
    expect(JSON.parse(result.text!), where).toEqual(result.structured);
    expect(new TextEncoder().encode(result.text).length).toBeLessThan(3 * 2048);
  }
  expect(await jupyter.list(dir)).toEqual([]);
  expect(await root()).toEqual(rootBefore);
  expect(jupyter.context.pages()).toHaveLength(1);
  test.info().annotations.push({
    type: 'calls',
    description: `${table.length} malformed calls checked`
  });
});

test('the validation message names the field and the rule @rule', async ({
  jupyter,
  agent
}, testInfo) => {
  await jupyter.open();
  await agent.waitForTools([
    'jupyter_list_workspace',
    'jupyter_run_cells',
    'jupyter_get_cells',
    'jupyter_get_cell_access'
  ]);
  const negative = await agent.call('jupyter_list_workspace', { limit: -1 });
  expect(negative.structured).toMatchObject({
    error: 'INVALID_ARGUMENT',
    message: 'Invalid argument "limit": must be >= 1.',
    field: 'limit',
    rule: 'minimum'
  });
  const unknown = await agent.call('jupyter_list_workspace', { foo: 1 });
  expect(unknown.structured).toMatchObject({
    error: 'INVALID_ARGUMENT',
    field: 'foo',
    rule: 'additionalProperties'
  });
  const missing = await agent.call('jupyter_open_notebook', {});
  expect(missing.structured).toMatchObject({
    error: 'INVALID_ARGUMENT',
    message: 'Missing required argument "path".'
  });
  const long = await agent.call('jupyter_create_notebook', {
    name: LONG_NAME
  });
  expect(long.structured).toMatchObject({
    error: 'INVALID_ARGUMENT',
    bytes: 4000
  });
  expect(long.text).not.toContain(LONG_NAME.slice(0, 300));

  // an empty cellIds is the same mistake in every tool that takes one, and
  // the rule is the input schema's, the same in every app: checked in one
  if (testInfo.project.name === 'lab') {
    const run = await agent.call('jupyter_run_cells', { cellIds: [] });
    expect(run.structured).toEqual({
      error: 'INVALID_ARGUMENT',
      message: 'Invalid argument "cellIds": must not be empty.',
      field: 'cellIds',
      rule: 'minItems'
    });
    for (const tool of ['jupyter_get_cells', 'jupyter_get_cell_access']) {
      const empty = await agent.call(tool, { cellIds: [] });
      expect(empty.isError, tool).toBe(true);
      expect(empty.structured, tool).toEqual(run.structured);
    }
  }
});

/** UTF-8 length, the unit every size bound is measured in. */
function bytesOf(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Every tool that takes a path, and the argument it takes it in. */
function pathCalls(path: string): { tool: string; input: object }[] {
  return [
    { tool: 'jupyter_list_workspace', input: { path } },
    { tool: 'jupyter_open_notebook', input: { path } },
    { tool: 'jupyter_get_cells', input: { notebookPath: path } },
    { tool: 'jupyter_get_cell_access', input: { notebookPath: path } },
    { tool: 'jupyter_insert_cell', input: { notebookPath: path, source: 'x' } },
    {
      tool: 'jupyter_update_cell',
      input: {
        notebookPath: path,
        cellId: 'c',
        source: 'x',
        expectedSourceHash: 'sha256:0000000000000000'
      }
    },
    {
      tool: 'jupyter_delete_cell',
      input: {
        notebookPath: path,
        cellId: 'c',
        expectedSourceHash: 'sha256:0000000000000000'
      }
    },
    {
      tool: 'jupyter_run_cells',
      input: { notebookPath: path, cellIds: ['c'] }
    },
    { tool: 'jupyter_focus_cell', input: { notebookPath: path, cellId: 'c' } },
    { tool: 'jupyter_save_notebook', input: { notebookPath: path } },
    {
      tool: 'jupyter_kernel_action',
      input: { notebookPath: path, action: 'interrupt' }
    },
    { tool: 'jupyter_export_notebook', input: { notebookPath: path } },
    { tool: 'jupyter_create_notebook', input: { name: 'x', directory: path } }
  ];
}

test('over-long paths and names answer INVALID_PATH with their bytes, in every tool @backend', async ({
  jupyter,
  agent
}) => {
  await jupyter.open();
  const dir = await jupyter.ensureDir();
  await agent.waitForTools(['jupyter_create_notebook', 'jupyter_get_cells']);
  // what is too long, and how many UTF-8 bytes the error must report
  const tooLong: { path: string; bytes: number }[] = [
    // the whole path: 5,000 characters
    { path: 'p'.repeat(4994) + '.ipynb', bytes: 5000 },
    // many short segments adding up to more than the bound
    {
      path: `${dir}/${Array.from({ length: 40 }, () => 'd'.repeat(40)).join('/')}/x.ipynb`,
      bytes: bytesOf(dir) + 40 * 41 + 8
    },
    // one segment over a file name's 255 bytes
    { path: `${dir}/${'s'.repeat(300)}.ipynb`, bytes: 306 },
    // 200 characters, 400 bytes: bytes count, not characters
    { path: `${dir}/${'é'.repeat(200)}/x.ipynb`, bytes: 400 }
  ];
  let checked = 0;
  for (const { path, bytes } of tooLong) {
    for (const { tool, input } of pathCalls(path)) {
      const result = await agent.call(tool, input as Record<string, unknown>);
      const where = `${tool} ${path.length} chars`;
      expect(result.isError, where).toBe(true);
      expect(result.structured, where).toMatchObject({
        error: 'INVALID_PATH',
        bytes
      });
      expect(bytesOf(result.text!), where).toBeLessThan(3 * 2048);
      checked++;
    }
  }
  // a name the name rule allows (256 bytes) whose file name (with .ipynb)
  // no common file system accepts
  const names = ['n'.repeat(256), 'é'.repeat(128), 'n'.repeat(250)];
  for (const name of names) {
    const result = await agent.call('jupyter_create_notebook', {
      name,
      directory: dir
    });
    expect(result.structured, name.slice(0, 8)).toMatchObject({
      error: 'INVALID_PATH',
      bytes: bytesOf(name) + 6
    });
    checked++;
  }
  test.info().annotations.push({
    type: 'calls',
    description: `${checked} over-long paths checked`
  });
});

test.describe('contents-service failures', () => {
  // it routes the page's requests: a page of its own
  test.use({ shareApp: false });

  // @server: JupyterLite reads its files in the browser, with no HTTP answer
  // to fail (its own contents failures are covered by the path tests above)
  test('contents-service failures answer a closed-set code, never INTERNAL_ERROR @server @backend', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    const dir = await jupyter.ensureDir();
    await agent.waitForTools(['jupyter_create_notebook', 'jupyter_get_cells']);
    // the contents service answers these names with a failure, as a server
    // that refuses a name, forbids a file or breaks down would
    const failures: {
      name: string;
      answer: number | 'network';
      error: string;
    }[] = [
      { name: 'bad-request', answer: 400, error: 'INVALID_PATH' },
      { name: 'forbidden', answer: 403, error: 'INVALID_PATH' },
      { name: 'too-long', answer: 414, error: 'INVALID_PATH' },
      { name: 'broken', answer: 500, error: 'NOTEBOOK_NOT_FOUND' },
      { name: 'unavailable', answer: 503, error: 'NOTEBOOK_NOT_FOUND' },
      { name: 'unreachable', answer: 'network', error: 'NOTEBOOK_NOT_FOUND' }
    ];
    for (const { name, answer } of failures) {
      await jupyter.page.route(
        url => url.pathname.includes(`/api/contents/${dir}/${name}`),
        route =>
          answer === 'network'
            ? route.abort('connectionrefused')
            : route.fulfill({
                status: answer,
                contentType: 'application/json',
                body: JSON.stringify({ message: `answered ${answer}` })
              })
      );
    }
    for (const { name, answer, error } of failures) {
      for (const { tool, input } of pathCalls(`${dir}/${name}.ipynb`)) {
        const result = await agent.call(tool, input as Record<string, unknown>);
        const where = `${tool} ${answer}`;
        expect(result.isError, where).toBe(true);
        // jupyter_create_notebook reports every failure to look or create as
        // the spec's "Could not create a notebook at ..." (INVALID_PATH)
        const expected =
          tool === 'jupyter_create_notebook' ? 'INVALID_PATH' : error;
        expect(result.structured, where).toMatchObject({ error: expected });
      }
    }
    expect(jupyter.context.pages()).toHaveLength(1);
  });
});
