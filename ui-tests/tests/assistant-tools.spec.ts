/**
 * The in-app assistant offers the notebook tools to its model: the first
 * request of a new chat lists every tool the owner has not turned off, with
 * our names, descriptions and input schemas, selected by default; a tool
 * turned off in our settings is not there. In jupyter-ai-lite 0.21
 * (JupyterLab and JupyterLite) and jupyterlite-ai 0.20 (JupyterLab).
 */
import {
  expect,
  type IModelRequest,
  lastToolResult,
  test,
  text,
  toolCall
} from '../assistant';
import { TOOL_NAMES, TOOL_SPECS } from '../../src/webmcp/specs';
import { pythonKernelspec } from '../kernel-runs';
import { codeCell, notebookOf } from '../notebook-content';

const WEBMCP = 'jupyterlite-webmcp:webmcp';

/** Our tools among a request's function tools, by name. */
function ourTools(request: IModelRequest) {
  const names = new Set<string>(TOOL_NAMES);
  return new Map(
    (request.tools ?? [])
      .filter(tool => names.has(tool.function.name))
      .map(tool => [tool.function.name, tool.function])
  );
}

test.describe('the assistant is offered the notebook tools', () => {
  test('a new chat sends every notebook tool with our description and schema @lite @ai0 @nb', async ({
    jupyter,
    human,
    agent,
    chat,
    model
  }) => {
    await jupyter.open();
    if (jupyter.ui === 'notebook') {
      // Notebook 7 shows the chat beside a notebook
      const nb = await jupyter.createNotebook(
        'chat-here.ipynb',
        notebookOf([codeCell('a', 'x = 1')], {
          kernelspec: pythonKernelspec(jupyter)
        })
      );
      await human.openNotebook(nb, { kernel: false });
    }
    await agent.waitForTools(TOOL_NAMES.length);
    await model.add(text('Nothing to do.'));
    await chat.open();
    await chat.send('which tools do you have?');
    const [first] = await model.requests(1);
    const offered = ourTools(first);
    expect([...offered.keys()].sort()).toEqual([...TOOL_NAMES].sort());
    for (const name of TOOL_NAMES) {
      const tool = offered.get(name)!;
      expect(tool.description, name).toBe(TOOL_SPECS[name].description);
      const schema = TOOL_SPECS[name].inputSchema as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      const parameters = tool.parameters as typeof schema;
      expect(Object.keys(parameters.properties ?? {}).sort(), name).toEqual(
        Object.keys(schema.properties ?? {}).sort()
      );
      expect(parameters.required ?? [], name).toEqual(schema.required ?? []);
    }
    // the answer streamed back reaches the chat
    await expect(jupyter.page.getByText('Nothing to do.')).toBeVisible();
  });

  test('a tool the owner turned off is not offered @ai0', async ({
    jupyter,
    human,
    agent,
    chat,
    model
  }) => {
    const off = ['jupyter_run_cells', 'jupyter_kernel_action'];
    await jupyter.open();
    await agent.waitForTools(TOOL_NAMES.length);
    await human.setSetting(WEBMCP, 'disabledTools', off);
    // the owner's setting is kept: the app opened again starts without them
    // (jupyterlite-ai 0.20 opens its chat with the page, and a chat keeps
    // the tool list it was created with)
    await jupyter.open();
    await expect
      .poll(async () => (await agent.toolNames()).length)
      .toBe(TOOL_NAMES.length - off.length);
    await model.add(text('Nothing to do.'));
    await chat.open();
    await chat.send('which tools do you have?');
    const [first] = await model.requests(1);
    expect([...ourTools(first).keys()].sort()).toEqual(
      TOOL_NAMES.filter(name => !off.includes(name)).sort()
    );
  });

  test('a chat opened before the owner turns a tool off still lists it, but its call is refused, not run @ai0', async ({
    jupyter,
    human,
    agent,
    chat,
    model
  }) => {
    const INSERT = 'jupyter_insert_cell';
    await jupyter.open();
    const nb = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(nb, { kernel: false });
    await agent.waitForTools(TOOL_NAMES.length);
    const before = await human.cellSources({ path: nb });
    await chat.open();
    await model.add(text('Hello.'));
    await chat.send('hello');
    await model.requests(1);
    // the owner turns inserts off while the chat is open
    await human.setSetting(WEBMCP, 'disabledTools', [INSERT]);
    await expect
      .poll(async () => (await agent.toolNames()).includes(INSERT))
      .toBe(false);
    await model.add(
      toolCall(INSERT, { notebookPath: nb, source: 'z = 3' }),
      text('Done.')
    );
    await chat.send('add a cell');
    const requests = await model.requests(3);
    // both assistants keep the tool list a chat started with
    expect(ourTools(requests[1]).has(INSERT)).toBe(true);
    expect(lastToolResult(requests[2]).json).toMatchObject({
      error: 'WEBMCP_UNAVAILABLE',
      tool: INSERT
    });
    expect(await human.cellSources({ path: nb })).toEqual(before);
  });
});
