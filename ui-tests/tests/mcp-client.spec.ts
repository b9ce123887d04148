/**
 * The MCP path: an `@modelcontextprotocol/sdk` Client in Node, connected to
 * `@mcp-b/global`'s tab server in the page through PageRelayTransport.
 */
import { McpConnector, expect, test } from '../fixtures';

test('an MCP client connects, lists tools and calls one through the page', async ({
  jupyter,
  mcp
}) => {
  await jupyter.open();
  const client = await mcp.connect(jupyter.page);
  expect(client.getServerVersion()?.name).toBeTruthy();

  const before = (await client.listTools()).tools.map(tool => tool.name);

  // a throwaway tool, registered the way the extension registers its own, to
  // prove the pipe end to end before (and independently of) the real tools
  await jupyter.page.evaluate(async () => {
    await document.modelContext!.registerTool({
      name: 'ui_tests_echo',
      description: 'Echo the input back (harness test only).',
      inputSchema: {
        type: 'object',
        properties: { word: { type: 'string' } },
        required: ['word']
      },
      annotations: { readOnlyHint: true },
      execute: input => ({
        content: [
          { type: 'text', text: JSON.stringify({ echoed: input.word }) }
        ],
        structuredContent: { echoed: input.word }
      })
    });
  });

  const listed = await client.listTools();
  const echo = listed.tools.find(tool => tool.name === 'ui_tests_echo');
  expect(echo?.annotations?.readOnlyHint).toBe(true);
  expect(listed.tools.map(tool => tool.name)).toEqual(
    expect.arrayContaining([...before, 'ui_tests_echo'])
  );

  const result = await McpConnector.call(client, 'ui_tests_echo', {
    word: 'hello'
  });
  expect(result).toMatchObject({
    isError: false,
    structured: { echoed: 'hello' }
  });
  expect(jupyter.consoleErrors()).toEqual([]);
});

test('the extension tools are listed and called over MCP', async ({
  jupyter,
  agent,
  mcp
}) => {
  await jupyter.open();
  await agent.waitForTools(['jupyter_get_context']);
  const client = await mcp.connect(jupyter.page);
  const names = (await client.listTools()).tools.map(tool => tool.name);
  expect(names).toContain('jupyter_get_context');
  const result = await McpConnector.call(client, 'jupyter_get_context');
  expect(result.isError).toBe(false);
  expect(result.structured).toHaveProperty('workspace');
});
