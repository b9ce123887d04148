/**
 * The in-app assistant's model edits a cell in Propose mode: the person
 * types in the chat, the model reads the cells (jupyter_get_cells) and asks
 * for an update with the hash it read (jupyter_update_cell); the change waits
 * in our block in the notebook, never in an approval prompt of the
 * assistant; the owner's Accept or Deny (with a typed reason) reaches the
 * model in its next request. The chat's stop button during the wait ends the
 * call as ABORTED and withdraws the block.
 *
 * docs/images/assistant-proposal.png is the Accept test's picture of the
 * chat waiting on the block (JupyterLab), written again with
 * `UI_TESTS_DOCS_SCREENSHOTS=1`; otherwise it is only attached to the report.
 */
import path from 'node:path';

import type { Locator } from '@playwright/test';

import {
  type Chat,
  expect,
  lastToolResult,
  type ScriptedModel,
  test,
  text,
  toolCall
} from '../assistant';
import type { Agent } from '../agent';
import type { Human } from '../human';
import type { JupyterApp } from '../jupyter';
import { addKernelNotebook } from '../kernel-runs';
import { codeCell } from '../notebook-content';

const BLOCK_NAME = 'Agent proposes a change to this cell';
const GET = 'jupyter_get_cells';
const UPDATE = 'jupyter_update_cell';
const SCREENSHOT = path.resolve(
  __dirname,
  '..',
  '..',
  'docs',
  'images',
  'assistant-proposal.png'
);

interface ICell {
  id: string;
  source: string;
  sourceHash: string;
}

/**
 * A notebook of two cells, open, in Propose mode (the owner's switch in the
 * Agent panel), and the chat with the assistant open beside it.
 */
async function setUp(
  jupyter: JupyterApp,
  human: Human,
  agent: Agent,
  chat: Chat,
  options: { second?: string; kernel?: boolean } = {}
): Promise<string> {
  await jupyter.open();
  const nb = await addKernelNotebook(jupyter, 'assist.ipynb', [
    codeCell('a', 'x = 1'),
    codeCell('b', options.second ?? 'y = 2')
  ]);
  await human.openNotebook(nb, { kernel: options.kernel ?? false });
  await agent.waitForTools([GET, UPDATE]);
  const propose = await human.proposeSwitch({ path: nb });
  await propose.click();
  await expect(propose).toHaveAttribute('aria-checked', 'true');
  await chat.open();
  return nb;
}

/**
 * The person asks; the model reads the cells, then asks to change cell "a"
 * with the hash the read returned. Resolves once the block waits.
 */
async function proposeEdit(
  jupyter: JupyterApp,
  chat: Chat,
  model: ScriptedModel,
  nb: string,
  source: string
): Promise<Locator> {
  await model.add(toolCall(GET, { notebookPath: nb }));
  await chat.send('please make x bigger');
  const requests = await model.requests(2);
  // the model's second request carries the read: it builds the update from it
  const read = lastToolResult<{ cells: ICell[] }>(requests[1]).json;
  const cell = read.cells.find(entry => entry.id === 'a')!;
  expect(cell.source).toBe('x = 1');
  await model.add(
    toolCall(UPDATE, {
      notebookPath: nb,
      cellId: 'a',
      source,
      expectedSourceHash: cell.sourceHash
    })
  );
  const block = (await jupyter.cell(0, nb)).getByRole('region', {
    name: BLOCK_NAME
  });
  await expect(block).toBeVisible();
  return block;
}

test.describe('the assistant in Propose mode', () => {
  test('an update waits in our block; Accept applies it and the model gets the accepted result @lite @nb', async ({
    jupyter,
    human,
    agent,
    chat,
    model
  }, testInfo) => {
    const nb = await setUp(jupyter, human, agent, chat);
    const block = await proposeEdit(jupyter, chat, model, nb, 'x = 100');
    // the assistant shows no approval prompt of its own for our tool
    await expect(chat.approvalPrompt).toHaveCount(0);
    // the chat is still waiting on the tool: no third request yet
    expect(await model.requests()).toHaveLength(2);
    await expect(chat.stopButton).toBeVisible();
    if (testInfo.project.name === 'assistant-lab') {
      // the pointer and the focus off the Send button: its tooltip would
      // cover the chat
      await jupyter.page.mouse.move(640, 500);
      await block.getByRole('textbox').focus();
      await expect(jupyter.page.getByRole('tooltip')).toHaveCount(0);
      // the docs' picture, written there only when asked for
      const shot = await jupyter.page.screenshot(
        process.env.UI_TESTS_DOCS_SCREENSHOTS ? { path: SCREENSHOT } : {}
      );
      await testInfo.attach('assistant-proposal.png', {
        body: shot,
        contentType: 'image/png'
      });
    }
    await model.add(text('Done: x is now 100.'));
    await block.getByRole('button', { name: 'Accept' }).click();
    const requests = await model.requests(3);
    const result = lastToolResult(requests[2]).json;
    expect(result).toMatchObject({
      status: 'accepted',
      proposalId: expect.any(String)
    });
    await expect(block).toHaveCount(0);
    expect((await human.cellSources({ path: nb }))[0]).toBe('x = 100');
    await expect(jupyter.page.getByText('Done: x is now 100.')).toBeVisible();
  });

  test('Deny with a typed reason: the model gets PROPOSAL_DENIED and the reason, the cell is unchanged', async ({
    jupyter,
    human,
    agent,
    chat,
    model
  }) => {
    const nb = await setUp(jupyter, human, agent, chat);
    const block = await proposeEdit(jupyter, chat, model, nb, 'x = 100');
    await expect(chat.approvalPrompt).toHaveCount(0);
    await model.add(text('Understood.'));
    await block.getByRole('textbox').click();
    await jupyter.page.keyboard.type('keep x small');
    await block.getByRole('button', { name: 'Deny' }).click();
    const requests = await model.requests(3);
    const result = lastToolResult(requests[2]).json;
    expect(result).toMatchObject({
      status: 'denied',
      code: 'PROPOSAL_DENIED',
      cellId: 'a',
      reason: 'keep x small'
    });
    await expect(block).toHaveCount(0);
    expect((await human.cellSources({ path: nb }))[0]).toBe('x = 1');
  });

  test("the chat's stop button ends the waiting call as ABORTED, withdraws the block, and leaves the human's running cell alone", async ({
    jupyter,
    human,
    agent,
    chat,
    model
  }) => {
    const nb = await setUp(jupyter, human, agent, chat, {
      second: 'import time\ntime.sleep(3)\nprint("human done")',
      kernel: true
    });
    const block = await proposeEdit(jupyter, chat, model, nb, 'x = 100');
    // the human runs their own cell meanwhile
    await human.startRunCell(1, { path: nb });
    await chat.stopButton.click();
    await expect(block).toHaveCount(0);
    expect((await human.cellSources({ path: nb }))[0]).toBe('x = 1');
    // the Agent panel's Activity (opened by the Propose switch) says so
    const activity = jupyter.page
      .locator('#jp-agent-panel')
      .getByRole('list', { name: 'Agent tool calls, newest first' })
      .getByRole('listitem')
      .filter({ hasText: UPDATE })
      .first();
    await activity.scrollIntoViewIfNeeded();
    await expect(activity).toContainText('ABORTED');
    // the human's cell ran to its end: not interrupted by the stop
    await expect
      .poll(async () => (await jupyter.cellRuns(nb))[1], { timeout: 30_000 })
      .toMatchObject({
        running: false,
        executionCount: expect.any(Number),
        outputs: [
          expect.objectContaining({ name: 'stdout', text: 'human done\n' })
        ]
      });
    // no further request: the stopped turn sent nothing more to the model
    expect(await model.requests()).toHaveLength(2);
  });
});
