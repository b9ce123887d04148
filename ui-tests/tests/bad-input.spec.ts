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

test('every malformed argument gets its structured error and leaves no file', async ({
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

test('the validation message names the field and the rule', async ({
  jupyter,
  agent
}) => {
  await jupyter.open();
  await agent.waitForTools(['jupyter_list_workspace']);
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
});
