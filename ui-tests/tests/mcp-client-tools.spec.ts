/**
 * The four tools through a real MCP client: `@modelcontextprotocol/sdk`'s
 * Client in Node, over `@mcp-b/global`'s tab transport in the page.
 */
import {
  TOOL_INPUT_SCHEMAS,
  type ToolName,
  TOOL_SPECS
} from '../../src/webmcp/specs';
import { McpConnector, expect, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';

test('an MCP client lists exactly the implemented tools with their schemas', async ({
  jupyter,
  agent,
  mcp
}) => {
  await jupyter.open();
  await agent.waitForTools(IMPLEMENTED);
  const client = await mcp.connect(jupyter.page);
  const tools = (await client.listTools()).tools.filter(tool =>
    tool.name.startsWith('jupyter_')
  );
  expect(tools.map(tool => tool.name).sort()).toEqual([...IMPLEMENTED].sort());
  for (const tool of tools) {
    const name = tool.name as ToolName;
    expect(tool.description).toBe(TOOL_SPECS[name].description);
    expect(tool.inputSchema).toMatchObject(
      TOOL_INPUT_SCHEMAS[name] as Record<string, unknown>
    );
    expect(tool.annotations?.readOnlyHint).toBe(
      TOOL_SPECS[name].annotations.readOnlyHint
    );
  }
});

test('an MCP client creates, lists, opens and reads a notebook', async ({
  jupyter,
  agent,
  mcp
}) => {
  await jupyter.open();
  const dir = await jupyter.ensureDir();
  await agent.waitForTools(IMPLEMENTED);
  const client = await mcp.connect(jupyter.page);

  const created = await McpConnector.call<{ path: string }>(
    client,
    'jupyter_create_notebook',
    { name: 'over-mcp', directory: dir }
  );
  expect(created.isError).toBe(false);
  expect(created.structured!.path).toBe(jupyter.path('over-mcp.ipynb'));

  const listed = await McpConnector.call<{ entries: Array<{ name: string }> }>(
    client,
    'jupyter_list_workspace',
    { path: dir }
  );
  expect(listed.structured!.entries.map(entry => entry.name)).toEqual([
    'over-mcp.ipynb'
  ]);

  const opened = await McpConnector.call<{ notebook: { path: string } }>(
    client,
    'jupyter_open_notebook',
    { path: created.structured!.path }
  );
  expect(opened.isError).toBe(false);
  expect(opened.structured!.notebook.path).toBe(created.structured!.path);

  const context = await McpConnector.call<{ notebook: { path: string } }>(
    client,
    'jupyter_get_context'
  );
  expect(context.structured!.notebook.path).toBe(created.structured!.path);
});

test('an MCP client gets the structured error envelope', async ({
  jupyter,
  agent,
  mcp
}) => {
  await jupyter.open();
  await agent.waitForTools(IMPLEMENTED);
  const client = await mcp.connect(jupyter.page);
  const absolute = await McpConnector.call(client, 'jupyter_list_workspace', {
    path: '/etc'
  });
  expect(absolute).toMatchObject({
    isError: true,
    structured: {
      error: 'INVALID_PATH',
      message:
        'Invalid path "/etc": paths are relative to the workspace root, not absolute.',
      path: '/etc'
    }
  });
  const missing = await McpConnector.call(client, 'jupyter_open_notebook', {
    path: 'no/such/notebook.ipynb'
  });
  expect(missing).toMatchObject({
    isError: true,
    structured: { error: 'NOTEBOOK_NOT_FOUND', path: 'no/such/notebook.ipynb' }
  });
  // The MCP layer checks arguments against the advertised schema itself, so
  // a schema violation is refused before it reaches the page's tool.
  const invalid = await McpConnector.call(client, 'jupyter_list_workspace', {
    limit: -1
  });
  expect(invalid.isError).toBe(true);
  expect(invalid.text).toContain('limit');
});
