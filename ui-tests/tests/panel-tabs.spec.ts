/**
 * The Agent panel's three tabs as a person finds them after an agent has
 * worked: a review thread, restricted cells, calls and a revertable edit. In
 * JupyterLab each tab is compared with its screenshot in the light and the
 * dark theme; the README shows the same images.
 */
import type { Locator } from '@playwright/test';

import { expect, test } from '../fixtures';

test.use({ failOnConsoleErrors: true });

const TABS = [
  { title: 'Comments', id: 'jp-agent-panel-comments', file: 'comments' },
  { title: 'Access', id: 'jp-agent-panel-access', file: 'access' },
  { title: 'Activity', id: 'jp-agent-panel-activity', file: 'activity' }
] as const;

/** The panel's other sections, kept collapsed in the screenshots. */
const COLLAPSED = ['Proposals'] as const;

test('the panel’s tabs after an agent worked, in the light and the dark theme @shell', async ({
  jupyter,
  human,
  agent
}, testInfo) => {
  if (jupyter.kind !== 'lite') {
    // the theme is a setting: keep it in this browser
    await jupyter.isolateSettings();
  }
  await jupyter.start();
  const path = await jupyter.addFixture('simple.ipynb');
  await human.openNotebook(path, { kernel: false });
  const page = jupyter.page;
  await agent.waitForTools(['jupyter_create_comment', 'jupyter_update_cell']);

  // the agent reads, comments and edits; the owner restricts two cells
  const read = await agent.call<{
    cells: { id: string; sourceHash: string }[];
  }>('jupyter_get_cells', { cellIds: ['set-x'] });
  const comment = await agent.call('jupyter_create_comment', {
    anchor: { kind: 'cell', cellId: 'set-x' },
    message: 'Should 42 be a named constant?'
  });
  expect(comment.isError).toBe(false);
  const update = await agent.call('jupyter_update_cell', {
    cellId: 'set-x',
    source: 'ANSWER = 6 * 7\nx = ANSWER\nx',
    expectedSourceHash: read.structured!.cells[0].sourceHash
  });
  expect(update.isError).toBe(false);
  await human.command('jupyterlite-webmcp:set-cell-access', {
    cellIds: ['greet'],
    access: 'read'
  });
  await human.command('jupyterlite-webmcp:set-cell-access', {
    cellIds: ['intro'],
    access: 'none'
  });
  await human.command('jupyterlite-webmcp:open-agent-panel');
  const panel = page.locator('#jp-agent-panel');
  await expect(panel).toBeVisible();

  // what each tab holds
  const section = (id: string): Locator => panel.locator(`#${id}`);
  await expect(section('jp-agent-panel-comments')).toContainText(
    'Should 42 be a named constant?'
  );
  await expect(
    panel.getByRole('combobox', { name: 'Agent access of cell 1', exact: true })
  ).toHaveValue('none');
  await expect(
    panel.getByRole('combobox', { name: 'Agent access of cell 3', exact: true })
  ).toHaveValue('read');
  await expect(
    panel.getByRole('list', { name: 'Agent tool calls, newest first' })
  ).toContainText('jupyter_update_cell');
  const edits = panel
    .getByRole('list', { name: /^Agent edits of .*, newest first$/ })
    .getByRole('listitem');
  await expect(edits).toHaveCount(1);
  await expect(edits).toContainText('Changed: ANSWER = 6 * 7');
  await expect(edits).toContainText('can be reverted');

  if (testInfo.project.name !== 'lab') {
    return;
  }
  // one tab open at a time, as a person reads them; times, durations and
  // the test's own folder change from run to run and are covered in grey
  const titles = panel.locator('.lm-AccordionPanel-title');
  const mask = [
    panel.locator('time'),
    // a call's time, duration (its width moves the rest) and notebook
    panel.locator('.jp-AgentPanel-activityMeta'),
    panel.locator('.jp-AgentPanel-notebookAccess label')
  ];
  const show = async (title: string) => {
    for (const other of COLLAPSED) {
      const header = titles.filter({ hasText: other });
      if ((await header.getAttribute('aria-expanded')) === 'true') {
        await header.click();
      }
      await expect(header).toHaveAttribute('aria-expanded', 'false');
    }
    for (const tab of TABS) {
      const header = titles.filter({ hasText: tab.title });
      const expanded = (await header.getAttribute('aria-expanded')) === 'true';
      if (expanded !== (tab.title === title)) {
        await header.click();
      }
      await expect(header).toHaveAttribute(
        'aria-expanded',
        String(tab.title === title)
      );
    }
  };
  for (const theme of [
    { name: 'JupyterLab Light', light: 'true', file: 'light', grey: '#c8c8c8' },
    { name: 'JupyterLab Dark', light: 'false', file: 'dark', grey: '#505050' }
  ]) {
    await human.command('apputils:change-theme', { theme: theme.name });
    await expect(page.locator('body')).toHaveAttribute(
      'data-jp-theme-light',
      theme.light
    );
    for (const tab of TABS) {
      await show(tab.title);
      await expect(section(tab.id)).toBeVisible();
      await expect(panel).toHaveScreenshot(`${tab.file}-${theme.file}.png`, {
        mask,
        maskColor: theme.grey
      });
    }
  }
  await human.command('apputils:change-theme', { theme: 'JupyterLab Light' });
});
