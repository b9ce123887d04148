/**
 * What the agent sees registered: exactly the implemented tools, with the
 * specification's titles, descriptions, schemas and annotations; and the
 * registration's life cycle (status bar, unregistering on deactivation).
 */
import {
  TOOL_INPUT_SCHEMAS,
  type ToolName,
  TOOL_SPECS
} from '../../src/webmcp/specs';
import { expect, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';

test.describe('registration', () => {
  test('registers exactly the implemented tools with their schemas and annotations', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    await agent.waitForTools(IMPLEMENTED);
    const tools = await agent.tools();
    expect(tools.map(tool => tool.name).sort()).toEqual(
      [...IMPLEMENTED].sort()
    );
    for (const tool of tools) {
      const name = tool.name as ToolName;
      const { title, description, annotations } = TOOL_SPECS[name];
      expect(tool.title).toBe(title);
      expect(tool.description).toBe(description);
      expect(tool.inputSchema).toEqual(TOOL_INPUT_SCHEMAS[name]);
      expect(tool.annotations).toMatchObject({
        readOnlyHint: annotations.readOnlyHint,
        untrustedContentHint: annotations.untrustedContentHint,
        consequentialHint: annotations.consequentialHint ?? false
      });
    }
    expect(jupyter.consoleErrors()).toEqual([]);
  });

  test('the status bar says how many tools are registered', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    await agent.waitForTools(IMPLEMENTED);
    const item = jupyter.page.locator('.jp-WebMcpStatus');
    if (jupyter.ui === 'notebook') {
      // Notebook 7's pages have no status bar: the item is simply not shown.
      await expect(item).toHaveCount(0);
      return;
    }
    await expect(item).toHaveText(`WebMCP: ${IMPLEMENTED.length} tools`);
    await expect(item).toHaveAttribute(
      'title',
      new RegExp(`${IMPLEMENTED.length} notebook tools registered`)
    );
    // on the status bar's line: its text centred as its neighbours' text is
    const centre = (box: { y: number; height: number } | null) =>
      box ? box.y + box.height / 2 : NaN;
    const neighbour = jupyter.page
      .locator('#jp-main-statusbar .jp-StatusBar-TextItem')
      .filter({ hasNotText: /WebMCP/ })
      .first();
    const button = item.getByRole('button');
    const [ours, theirs] = [
      centre(await button.boundingBox()),
      centre(await neighbour.boundingBox())
    ];
    expect(Math.abs(ours - theirs)).toBeLessThanOrEqual(1);

    // pressing it (here by keyboard) lists the tools with their annotations
    await button.focus();
    await jupyter.page.keyboard.press('Enter');
    const list = jupyter.page.getByRole('dialog', {
      name: 'Agent tools (WebMCP)'
    });
    await expect(list).toBeVisible();
    await expect(list).toBeFocused();
    await expect(list.getByRole('listitem')).toHaveCount(IMPLEMENTED.length);
    await expect(
      list.getByRole('listitem').filter({ hasText: 'jupyter_get_context' })
    ).toContainText('reads only');
    await expect(
      list.getByRole('listitem').filter({ hasText: 'jupyter_delete_cell' })
    ).toContainText(
      'can change things, returns notebook content (untrusted), consequential'
    );
    await jupyter.page.keyboard.press('Escape');
    await expect(list).toHaveCount(0);
    await expect(button).toBeFocused();
  });

  test('deactivating the extension unregisters every tool', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    await agent.waitForTools(IMPLEMENTED);
    const titles = jupyter.page.locator(
      '#jp-agent-panel .lm-AccordionPanel-title'
    );
    await expect(titles).toHaveText([
      'Comments',
      'Proposals',
      'Access',
      'Activity'
    ]);
    const state = await jupyter.page.evaluate(async () => {
      const app = window.jupyterapp!;
      const dependents = await app.deactivatePlugin(
        'jupyterlite-webmcp:webmcp'
      );
      return {
        dependents,
        active: app.isPluginActivated('jupyterlite-webmcp:webmcp')
      };
    });
    // The status-bar item, the Agent panel's sections that follow the
    // registry (Activity: its calls; Access: the tools turned off) and the
    // features that add their tools through it (review, output selection)
    // and the in-app assistants' mirror use it and go with it; the panel
    // keeps the sections that do not.
    expect({ ...state, dependents: [...state.dependents].sort() }).toEqual({
      dependents: [
        'jupyterlite-webmcp:access-panel',
        'jupyterlite-webmcp:activity-panel',
        'jupyterlite-webmcp:assistants',
        'jupyterlite-webmcp:output-selection-tool',
        'jupyterlite-webmcp:review-tools',
        'jupyterlite-webmcp:status'
      ],
      active: false
    });
    await expect(jupyter.page.locator('.jp-WebMcpStatus')).toHaveCount(0);
    await expect(titles).toHaveText(['Comments', 'Proposals']);
    await expect
      .poll(async () =>
        (await agent.toolNames()).filter(name => name.startsWith('jupyter_'))
      )
      .toEqual([]);
  });
});
