/**
 * What the owner hid from the agent never reaches the assistant's model
 * provider: a notebook hidden from the agent and a hidden cell of a visible
 * notebook each hold a canary; after a conversation in which the model
 * calls jupyter_get_context, jupyter_list_workspace, jupyter_get_cells and
 * jupyter_export_notebook, no request the model received holds either
 * canary (nor the hidden cell's id), while the visible content did reach it.
 * The hidden cell is the active one when the person sends the message, so
 * an assistant that attached the active cell by itself would show here.
 * jupyter-ai-lite 0.21 (JupyterLab and JupyterLite, whose contents differ)
 * and jupyterlite-ai 0.20, whose context awareness is on by default.
 *
 * What our access rules cannot cover: the assistant's own tools. A second
 * test records that jupyter-ai-lite's `execute_command` runs
 * `jupyterlab-ai-commands:get-notebook-content`, which reads the notebook
 * model whole, the hidden cell included; it asserts that the canary does
 * reach the model, so that the day it does not shows.
 */
import {
  expect,
  lastToolResult,
  test,
  text,
  toolCall,
  type Turn
} from '../assistant';
import { codeCell, notebookOf } from '../notebook-content';

const CANARY_CELL = 'CANARY-hidden-cell-7f3a';
const CANARY_NOTEBOOK = 'CANARY-hidden-notebook-c91e';
const HIDDEN_CELL_ID = 'hid-cell-5b2d';

const hiddenCell = {
  jupyterlite_webmcp: { version: 1, access: 'none' }
};
const hiddenNotebook = {
  jupyterlite_webmcp: { version: 1, notebookAccess: 'none' }
};

test('no request to the model holds what the owner hid @ai0 @lite', async ({
  jupyter,
  human,
  agent,
  chat,
  model
}) => {
  await jupyter.open();
  const secret = await jupyter.createNotebook(
    'secret.ipynb',
    notebookOf([codeCell('s', `token = '${CANARY_NOTEBOOK}'`)], hiddenNotebook)
  );
  const visible = await jupyter.createNotebook(
    'visible.ipynb',
    notebookOf([
      codeCell('pub-a', 'x = 1'),
      codeCell(HIDDEN_CELL_ID, `secret = '${CANARY_CELL}'`, {
        metadata: hiddenCell
      }),
      codeCell('pub-b', 'print(x)')
    ])
  );
  // both open, the visible one in front
  await human.openNotebook(secret, { kernel: false });
  await human.openNotebook(visible, { kernel: false });
  await agent.waitForTools([
    'jupyter_get_context',
    'jupyter_list_workspace',
    'jupyter_get_cells',
    'jupyter_export_notebook'
  ]);

  const calls: Turn[] = [
    toolCall('jupyter_get_context'),
    toolCall('jupyter_list_workspace', { path: jupyter.dir }),
    toolCall('jupyter_get_cells', { notebookPath: visible }),
    toolCall('jupyter_export_notebook', { notebookPath: visible }),
    toolCall('jupyter_get_cells', { notebookPath: secret })
  ];
  // the person has the hidden cell active (they see it; the agent does not)
  await human.selectCells(1);
  await model.add(...calls, text('All read.'));
  await chat.open();
  await chat.send('tell me everything in this workspace');
  const requests = await model.requests(calls.length + 1);
  await expect(jupyter.page.getByText('All read.')).toBeVisible();

  // each call answered (the hidden notebook as one that does not exist)
  const results = requests.slice(1).map(request => lastToolResult(request));
  expect(results[0].raw).toContain(visible);
  expect(results[1].raw).toContain('visible.ipynb');
  expect(results[2].raw).toContain('print(x)');
  expect(results[3].raw).toContain('print(x)');
  expect(results[4].json).toMatchObject({ error: 'NOTEBOOK_NOT_FOUND' });

  const everything = JSON.stringify(requests);
  expect(everything).not.toContain(CANARY_CELL);
  expect(everything).not.toContain(CANARY_NOTEBOOK);
  expect(everything).not.toContain(HIDDEN_CELL_ID);
});

test("known gap: jupyter-ai-lite's own execute_command reads a hidden cell", async ({
  jupyter,
  human,
  agent,
  chat,
  model
}) => {
  await jupyter.open();
  const visible = await jupyter.createNotebook(
    'visible.ipynb',
    notebookOf([
      codeCell('pub-a', 'x = 1'),
      codeCell(HIDDEN_CELL_ID, `secret = '${CANARY_CELL}'`, {
        metadata: hiddenCell
      })
    ])
  );
  await human.openNotebook(visible, { kernel: false });
  await agent.waitForTools(['jupyter_get_cells']);
  await model.add(
    toolCall('execute_command', {
      commandId: 'jupyterlab-ai-commands:get-notebook-content',
      args: { notebookPath: visible }
    }),
    text('Read.')
  );
  await chat.open();
  await chat.send('read the notebook with a command');
  const requests = await model.requests(2);
  // the command ran: its result, the hidden cell included, is in the
  // model's second request (jupyter-ai-lite 0.21 offers execute_command, and
  // jupyterlab-ai-commands 0.4's get-notebook-content returns every cell:
  // outside our tools and access rules). When this fails, the gap closed.
  const result = lastToolResult(requests[1]).raw;
  expect(result).toContain('x = 1');
  expect(result).toContain(CANARY_CELL);
});
