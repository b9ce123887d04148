/**
 * The owner's settings (schema/*.json, as the Settings Editor and
 * overrides.json set them): a tool turned off is unregistered at once from
 * document.modelContext and registered again when turned back on; the
 * Activity tab keeps as many calls as its history size says.
 */
import { expect, test } from '../fixtures';

test.use({ failOnConsoleErrors: true });

const WEBMCP = 'jupyterlite-webmcp:webmcp';
const PANEL = 'jupyterlite-webmcp:agent-panel';

test.describe('settings', () => {
  test('a tool turned off is unregistered at once, and back when turned on', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    const all = await agent.waitForTools(22);
    expect(all).toContain('jupyter_run_cells');

    await human.setSetting(WEBMCP, 'disabledTools', [
      'jupyter_run_cells',
      'jupyter_kernel_action'
    ]);
    await expect
      .poll(async () => (await agent.tools()).map(tool => tool.name).sort())
      .toEqual(
        all
          .filter(
            name =>
              name !== 'jupyter_run_cells' && name !== 'jupyter_kernel_action'
          )
          .sort()
      );
    // the status bar says so (Notebook 7 has no status bar)
    const status = jupyter.page.locator('.jp-WebMcpStatus');
    const hasStatusBar = jupyter.ui === 'lab';
    if (hasStatusBar) {
      await expect(status).toHaveText('WebMCP: 20 tools');
      await expect(status).toHaveAttribute(
        'title',
        /2 tools turned off in the settings: jupyter_run_cells, jupyter_kernel_action/
      );
    }
    // the other tools still answer
    const read = await agent.call('jupyter_get_cells', { cellIds: ['set-x'] });
    expect(read.isError).toBe(false);

    await human.setSetting(WEBMCP, 'disabledTools', []);
    await expect
      .poll(async () => (await agent.tools()).map(tool => tool.name).sort())
      .toEqual([...all].sort());
    if (hasStatusBar) {
      await expect(status).toHaveText('WebMCP: 22 tools');
    }
  });

  test('the Activity tab keeps as many calls as its history size @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    await agent.waitForTools(['jupyter_get_cells', 'jupyter_get_context']);
    await human.setSetting(PANEL, 'activityHistorySize', 2);
    await human.command('jupyterlite-webmcp:open-agent-panel');
    const rows = jupyter.page
      .locator('#jp-agent-panel')
      .getByRole('list', { name: 'Agent tool calls, newest first' })
      .getByRole('listitem');
    for (const tool of [
      'jupyter_get_context',
      'jupyter_get_cells',
      'jupyter_list_workspace'
    ]) {
      expect((await agent.call(tool, {})).isError).toBe(false);
    }
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('jupyter_list_workspace');
    await expect(rows.last()).toContainText('jupyter_get_cells');
  });
});
