/**
 * Accessibility audits with axe-core (@axe-core/playwright) of what the
 * person uses: the Agent panel's three tabs (a thread and the new-comment
 * composer in Comments, the Access rows, a call in Activity) with the
 * Direct/Propose switch, the status-bar item and its tool list, the agent
 * presence label and the Propose review block, in the light and the dark
 * theme. The WCAG 2.1 A and AA rules: 0 violations.
 */

import { axeViolations as violations } from '../axe';
import { expect, test } from '../fixtures';
import { codeCell, notebookOf } from '../notebook-content';

test.use({ failOnConsoleErrors: true });

const THEMES = [
  { name: 'JupyterLab Light', light: 'true' },
  { name: 'JupyterLab Dark', light: 'false' }
];

test.describe('accessibility', () => {
  for (const theme of THEMES) {
    test(`panel, status item and review block: no WCAG A/AA violations (${theme.name}) @shell`, async ({
      jupyter,
      human,
      agent
    }) => {
      if (jupyter.kind !== 'lite') {
        // the theme and the mode are settings: keep them in this browser
        await jupyter.isolateSettings();
      }
      await jupyter.start();
      const path = await jupyter.createNotebook(
        'a11y.ipynb',
        notebookOf([codeCell('a', 'x = 1'), codeCell('b', 'y = 2')])
      );
      await human.openNotebook(path, { kernel: false });
      const page = jupyter.page;
      await human.command('apputils:change-theme', { theme: theme.name });
      await expect(page.locator('body')).toHaveAttribute(
        'data-jp-theme-light',
        theme.light
      );
      await agent.waitForTools([
        'jupyter_create_comment',
        'jupyter_update_cell'
      ]);

      // something in every tab: a thread, a draft, restricted cells, calls
      const created = await agent.call('jupyter_create_comment', {
        anchor: { kind: 'cell', cellId: 'b' },
        message: 'Is y used anywhere?'
      });
      expect(created.isError).toBe(false);
      await human.command('jupyterlite-webmcp:set-cell-access', {
        cellIds: ['a'],
        access: 'read'
      });
      await human.selectCells(1);
      await human.command('jupyterlite-webmcp:add-cell-comment');
      const panel = page.locator('#jp-agent-panel');
      await expect(
        panel.getByRole('form', { name: 'New comment' })
      ).toBeVisible();
      const read = await agent.call<{
        cells: { id: string; sourceHash: string }[];
      }>('jupyter_get_cells', {});
      const hash = read.structured!.cells[1].sourceHash;
      // an agent edit the Activity tab offers to revert
      const inserted = await agent.call('jupyter_insert_cell', {
        referenceCellId: 'b',
        position: 'below',
        source: 'z = 3'
      });
      expect(inserted.isError).toBe(false);
      await expect(
        panel.getByRole('button', { name: 'Revert: Inserted: z = 3' })
      ).toBeVisible();

      // a proposal waiting under cell b
      await human.command('jupyterlite-webmcp:set-propose-mode', {
        mode: 'propose'
      });
      const call = await agent.start('jupyter_update_cell', {
        cellId: 'b',
        source: 'y = 3',
        expectedSourceHash: hash
      });
      const block = (await jupyter.cell(1)).getByRole('region', {
        name: 'Agent proposes a change to this cell'
      });
      await expect(block).toBeVisible();
      await expect(
        (await jupyter.cell(1)).locator('.jp-AgentPresence')
      ).toHaveText('Agent editing');
      await expect(
        panel.getByRole('list', { name: 'Agent tool calls, newest first' })
      ).toContainText('jupyter_get_cells');

      // ours: the panel, and what the extension draws in the notebook
      const selectors = [
        '#jp-agent-panel',
        '.jp-ProposalBlock',
        '.jp-AgentPresence',
        '.jp-AgentReviewBadge',
        '.jp-AgentAccessMarker'
      ];
      if (jupyter.ui === 'lab') {
        // the status bar (Notebook 7 has none) and the list it opens
        await page.locator('.jp-WebMcpStatus button').click();
        await expect(
          page.getByRole('dialog', { name: 'Agent tools (WebMCP)' })
        ).toBeVisible();
        selectors.push('.jp-WebMcpStatus', '.jp-WebMcpToolList');
      }
      expect(await violations(page, selectors)).toEqual([]);

      // let the agent's call end: deny it
      await block.getByRole('button', { name: 'Deny' }).click();
      const settled = await call.settled();
      expect(settled.result?.isError).toBe(false);
      await human.command('jupyterlite-webmcp:set-propose-mode', {
        mode: 'direct'
      });
    });
  }
});
