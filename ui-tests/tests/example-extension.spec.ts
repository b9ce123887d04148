/**
 * Another extension built on our tokens (examples/notebook-stats, loaded
 * beside ours by the example-lab and example-lite projects): its tool,
 * added through IWebMcpRegistry.addTool, is called through native WebMCP
 * and goes through what ours go through (validation, our access rules
 * through registry.notebooks, the Activity log, the owner's turned-off
 * tools); its section, added through IAgentPanel, shows in the Agent panel.
 */
import { type Locator } from '@playwright/test';

import { expect, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';
import { type JupyterApp } from '../jupyter';
import {
  codeCell,
  markdownCell,
  notebookOf,
  rawCell
} from '../notebook-content';

const TOOL = 'example_notebook_stats';
const WEBMCP = 'jupyterlite-webmcp:webmcp';

/** A notebook with a cell the owner hid from agents. */
async function notebook(jupyter: JupyterApp): Promise<string> {
  return jupyter.createNotebook(
    'stats.ipynb',
    notebookOf([
      markdownCell('intro', '# Stats'),
      codeCell('load', 'import math\n\nx = math.pi'),
      codeCell('secret', 'token = "s3cr3t"\nprint(token)', {
        metadata: { jupyterlite_webmcp: { version: 1, access: 'none' } }
      }),
      rawCell('notes', 'raw text'),
      codeCell('show', 'x')
    ])
  );
}

/** The Agent panel, opened by its command as the palette item does. */
async function agentPanel(jupyter: JupyterApp): Promise<Locator> {
  await jupyter.page.evaluate(() =>
    window.uiTests.execute('jupyterlite-webmcp:open-agent-panel')
  );
  const panel = jupyter.page.locator('#jp-agent-panel');
  await expect(panel).toBeVisible();
  return panel;
}

test.describe('an extension built on jupyterlite-webmcp', () => {
  test('its tool is called through native WebMCP, under our access rules, and listed in Activity; its section shows the answer', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const path = await notebook(jupyter);
    await human.openNotebook(path, { kernel: false });
    const names = await agent.waitForTools([...IMPLEMENTED, TOOL]);
    expect(names.sort()).toEqual([...IMPLEMENTED, TOOL].sort());
    const listed = (await agent.tools()).find(tool => tool.name === TOOL);
    expect(listed).toMatchObject({
      title: 'Count notebook cells',
      annotations: { readOnlyHint: true }
    });

    const answer = await agent.call(TOOL, { notebookPath: path });
    expect(answer.isError).toBe(false);
    // the hidden cell is neither counted nor read
    expect(answer.structured).toEqual({
      path,
      cells: 4,
      code: 2,
      markdown: 1,
      raw: 1,
      codeLines: 3
    });
    expect(answer.text).not.toContain('s3cr3t');

    // the current notebook when no path is given
    const current = await agent.call(TOOL);
    expect(current.structured).toMatchObject({ path, cells: 4 });

    // validated against its schema before its handler runs
    const wrong = await agent.call(TOOL, { notebookPath: 3 });
    expect(wrong.isError).toBe(true);
    expect(wrong.structured).toMatchObject({
      error: 'INVALID_ARGUMENT',
      field: 'notebookPath'
    });
    const extra = await agent.call(TOOL, { path });
    expect(extra.structured).toMatchObject({
      error: 'INVALID_ARGUMENT',
      field: 'path'
    });
    // a missing notebook answers as our tools answer it
    const missing = await agent.call(TOOL, {
      notebookPath: jupyter.path('nowhere.ipynb')
    });
    expect(missing.structured).toMatchObject({ error: 'NOTEBOOK_NOT_FOUND' });

    // the owner hides the whole notebook: it reads as missing, as for ours
    await human.setNotebookMetadata('jupyterlite_webmcp', {
      version: 1,
      notebookAccess: 'none'
    });
    const hidden = await agent.call(TOOL, { notebookPath: path });
    expect(hidden.structured).toMatchObject({ error: 'NOTEBOOK_NOT_FOUND' });
    const ours = await agent.call('jupyter_get_cells', { notebookPath: path });
    expect(ours.structured).toMatchObject({ error: 'NOTEBOOK_NOT_FOUND' });

    // Activity lists its calls beside ours, outcomes included
    const panel = await agentPanel(jupyter);
    const rows = panel
      .getByRole('list', { name: 'Agent tool calls, newest first' })
      .getByRole('listitem');
    await expect(rows.filter({ hasText: TOOL })).toHaveCount(6);
    await expect(rows.nth(0)).toContainText('jupyter_get_cells');
    await expect(rows.nth(1)).toContainText(TOOL);
    await expect(rows.nth(1)).toContainText('NOTEBOOK_NOT_FOUND');

    // its section, added through IAgentPanel, says what it last answered
    const section = panel.locator('#example-notebook-stats');
    await expect(section).toHaveCount(1);
    // after ours (rank 400 against Activity's 300), opened as a person does
    const titles = panel.locator('.lm-AccordionPanel-title');
    await expect(titles.last()).toHaveText('Notebook stats');
    const title = titles.last();
    if ((await title.getAttribute('aria-expanded')) !== 'true') {
      await title.click();
    }
    await expect(title).toHaveAttribute('aria-expanded', 'true');
    await expect(section).toBeVisible();
    await expect(section).toHaveText(
      `${path}: 4 cells the agent may see (2 code, 1 markdown, 1 raw), 3 lines of code.`
    );
  });

  test('the owner turns its tool off in the settings: unregistered, refused, and back when turned on', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const path = await notebook(jupyter);
    await human.openNotebook(path, { kernel: false });
    await agent.waitForTools([...IMPLEMENTED, TOOL]);

    await human.setSetting(WEBMCP, 'disabledTools', [TOOL]);
    const sorted = async () => (await agent.toolNames()).sort();
    await expect.poll(sorted).toEqual([...IMPLEMENTED].sort());
    // a call by name is refused by the runtime: the tool is not there
    await expect(agent.call(TOOL, { notebookPath: path })).rejects.toThrow();
    const status = jupyter.page.locator('.jp-WebMcpStatus');
    await expect(status).toHaveText('WebMCP: 22 tools');
    await expect(status).toHaveAttribute(
      'title',
      new RegExp(`1 tool turned off in the settings: ${TOOL}`)
    );

    await human.setSetting(WEBMCP, 'disabledTools', []);
    await expect.poll(sorted).toEqual([...IMPLEMENTED, TOOL].sort());
    await expect(status).toHaveText('WebMCP: 23 tools');
    const back = await agent.call(TOOL, { notebookPath: path });
    expect(back.structured).toMatchObject({ path, cells: 4 });
  });
});
