/**
 * The Agent panel's Proposals section and what goes with it, through native
 * WebMCP and the person's real clicks and keys: a batch of three proposals
 * (two edits made at once and a delete) listed oldest first, counted in the
 * section's title and the status bar, and accepted with Accept all; a deny
 * with a reason typed in the row; a run accepted with "allow again", listed
 * under Allowed to run again and taken back; the Access tab's warning about
 * the shared kernel; axe on the section with rows, light and dark.
 */
import type { Locator, Page } from '@playwright/test';

import { axeViolations as violations } from '../axe';
import { expect, test } from '../fixtures';
import type { Agent } from '../agent';
import type { Human } from '../human';
import type { JupyterApp } from '../jupyter';
import { addKernelNotebook } from '../kernel-runs';
import { codeCell, notebookOf } from '../notebook-content';

// any console error (beyond the apps' own known noise) fails a test
test.use({ failOnConsoleErrors: true });

const UPDATE = 'jupyter_update_cell';
const DELETE = 'jupyter_delete_cell';
const INSERT = 'jupyter_insert_cell';
const RUN = 'jupyter_run_cells';
const SET_MODE = 'jupyterlite-webmcp:set-propose-mode';

interface ICell {
  id: string;
  source?: string;
  sourceHash: string;
}

/** Opens `path`, from a fresh app, the way each app shows one notebook. */
async function openPath(
  jupyter: JupyterApp,
  human: Human,
  path: string,
  kernel: boolean
): Promise<void> {
  if (jupyter.ui === 'notebook') {
    await jupyter.open(path, { kernel });
  } else {
    await human.openNotebook(path, { kernel });
  }
}

/** A notebook of three small code cells (no kernel), open for the agent. */
async function openNotebook(
  jupyter: JupyterApp,
  human: Human,
  agent: Agent,
  name: string
): Promise<string> {
  // the mode and the theme are settings: keep them in this browser
  await jupyter.isolateSettings();
  await jupyter.open();
  const path = await jupyter.createNotebook(
    name,
    notebookOf([
      codeCell('a', 'x = 1'),
      codeCell('b', 'y = 2'),
      codeCell('c', 'z = 3')
    ])
  );
  await openPath(jupyter, human, path, false);
  await agent.waitForTools(['jupyter_get_cells', UPDATE, DELETE]);
  return path;
}

async function hashes(agent: Agent): Promise<Record<string, string>> {
  const read = await agent.call<{ cells: ICell[] }>('jupyter_get_cells');
  expect(read.isError, read.text).toBe(false);
  return Object.fromEntries(
    read.structured!.cells.map(cell => [cell.id, cell.sourceHash])
  );
}

/**
 * Opens the Agent panel and makes sure the section titled `title` is
 * expanded; returns the panel.
 */
async function openSection(
  jupyter: JupyterApp,
  human: Human,
  title: RegExp
): Promise<Locator> {
  await human.command('jupyterlite-webmcp:open-agent-panel');
  const panel = jupyter.page.locator('#jp-agent-panel');
  await expect(panel).toBeVisible();
  const header = panel
    .locator('.lm-AccordionPanel-title')
    .filter({ hasText: title });
  if ((await header.getAttribute('aria-expanded')) !== 'true') {
    await header.click();
  }
  await expect(header).toHaveAttribute('aria-expanded', 'true');
  return panel;
}

/** The Proposals section's title in the panel (it carries the count). */
function sectionTitle(panel: Locator): Locator {
  return panel
    .locator('.lm-AccordionPanel-title')
    .filter({ hasText: /^Proposals/ });
}

/** The status-bar item (none in Notebook 7, which has no status bar). */
function statusItem(page: Page): Locator {
  return page.locator('.jp-WebMcpStatus');
}

test.describe('the Proposals section', () => {
  test('a batch of two concurrent edits and a delete: listed, counted, Accept all @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await openNotebook(jupyter, human, agent, 'batch.ipynb');
    const page = jupyter.page;
    await human.command(SET_MODE, { mode: 'propose' });
    const panel = await openSection(jupyter, human, /^Proposals/);
    const section = panel.locator('.jp-AgentProposals');
    await expect(section).toContainText('No proposal waits');
    await expect(section.locator('.jp-AgentProposals-acceptAll')).toHaveCount(
      0
    );
    const hash = await hashes(agent);

    // the agent's one turn: two edits at once, then a delete
    const [editA, editB] = await Promise.all([
      agent.start(UPDATE, {
        cellId: 'a',
        source: 'x = 10',
        expectedSourceHash: hash.a
      }),
      agent.start(UPDATE, {
        cellId: 'b',
        source: 'y = 20\nprint(y)',
        expectedSourceHash: hash.b
      })
    ]);
    const rows = section.locator('li.jp-AgentProposals-item');
    await expect(rows).toHaveCount(2);
    const removal = await agent.start(DELETE, {
      cellId: 'c',
      expectedSourceHash: hash.c
    });
    await expect(rows).toHaveCount(3);
    // oldest first: the two edits (in either order: made at once), the delete
    await expect(rows.nth(2)).toHaveAttribute('data-proposal-kind', 'delete');
    expect(
      await rows.evaluateAll(nodes =>
        nodes.map(node => (node as HTMLElement).dataset.proposalKind)
      )
    ).toEqual(['update', 'update', 'delete']);
    await expect(rows.nth(2)).toContainText('Delete');
    await expect(rows.nth(2)).toContainText('z = 3');
    await expect(rows.filter({ hasText: 'y = 20' })).toContainText('Edit');
    await expect(sectionTitle(panel)).toHaveText('Proposals (3)');
    if (jupyter.ui !== 'notebook') {
      await expect(statusItem(page)).toContainText('· 3 waiting');
      await expect(statusItem(page)).toHaveAttribute(
        'title',
        /3 agent proposals wait for your decision/
      );
    }
    // a row's cell button brings its cell up
    await rows
      .nth(2)
      .getByRole('button', { name: 'Go to cell 3', exact: true })
      .click();
    await expect
      .poll(() =>
        page.evaluate(
          () => window.uiTests.findNotebook(null)!.content.activeCellIndex
        )
      )
      .toBe(2);

    // Accept all: every call is answered as accepted, oldest first
    await section
      .getByRole('button', { name: 'Accept all 3 proposals, oldest first' })
      .click();
    const results = [];
    for (const call of [editA, editB, removal]) {
      results.push((await call.settled()).result);
    }
    for (const result of results) {
      expect(result?.isError, result?.text).toBe(false);
      expect(result!.structured, JSON.stringify(results)).toMatchObject({
        status: 'accepted'
      });
    }
    await expect(rows).toHaveCount(0);
    await expect(section).toContainText('No proposal waits');
    await expect(section.locator('.jp-AgentProposals-report')).toBeEmpty();
    await expect(sectionTitle(panel)).toHaveText('Proposals');
    if (jupyter.ui !== 'notebook') {
      await expect(statusItem(page)).not.toContainText('waiting');
    }
    expect(await human.cellSources()).toEqual(['x = 10', 'y = 20\nprint(y)']);
  });

  test('deny from the panel with a reason typed in the row, by keyboard @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await openNotebook(jupyter, human, agent, 'deny.ipynb');
    const page = jupyter.page;
    await human.command(SET_MODE, { mode: 'propose' });
    const panel = await openSection(jupyter, human, /^Proposals/);
    const section = panel.locator('.jp-AgentProposals');
    const hash = await hashes(agent);
    const call = await agent.start(UPDATE, {
      cellId: 'b',
      source: 'y = 200',
      expectedSourceHash: hash.b
    });
    const row = section.locator('li.jp-AgentProposals-item');
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('data-proposal-kind', 'update');
    const reason = row.getByRole('textbox', { name: 'Reason (optional):' });
    await reason.click();
    await page.keyboard.type('keep y as it is, é中');
    // from the reason: Tab to Accept, Tab to Deny, Enter
    await page.keyboard.press('Tab');
    await expect(row.locator('.jp-mod-accept')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(row.locator('.jp-mod-deny')).toBeFocused();
    await page.keyboard.press('Enter');
    const { result } = await call.settled();
    expect(result?.isError, result?.text).toBe(false);
    expect(result!.structured).toEqual({
      status: 'denied',
      code: 'PROPOSAL_DENIED',
      proposalId: expect.any(String),
      cellId: 'b',
      reason: 'keep y as it is, é中'
    });
    await expect(row).toHaveCount(0);
    expect((await human.cellSources())[1]).toBe('y = 2');
    // the focus did not fall to the page: it is on the section's note
    await expect(section.locator('.jp-AgentProposals-empty')).toBeFocused();
  });

  test('a run accepted with "allow again" is listed, runs unreviewed, and waits again once taken back @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    // a kernel to start
    test.setTimeout(180_000);
    await jupyter.isolateSettings();
    await jupyter.open();
    const path = await addKernelNotebook(jupyter, 'allow.ipynb', [
      codeCell('a', 'n = 41\nn + 1'),
      codeCell('b', 'm = 2')
    ]);
    await openPath(jupyter, human, path, true);
    await agent.waitForTools([RUN, 'jupyter_get_cells']);
    await human.command(SET_MODE, { mode: 'propose' });
    const panel = await openSection(jupyter, human, /^Proposals/);
    const section = panel.locator('.jp-AgentProposals');
    const rows = section.locator('li.jp-AgentProposals-item');
    const allowances = section.locator('li.jp-AgentProposals-allowance');
    await expect(section).toContainText(
      'Allowances last until the page is reloaded and are never saved in the file.'
    );
    await expect(allowances).toHaveCount(0);

    const first = await agent.start<{ status: string }>(RUN, {
      cellIds: ['a']
    });
    await expect(rows).toHaveCount(1);
    await expect(rows).toHaveAttribute('data-proposal-kind', 'run');
    await expect(rows).toContainText('Run 1 cell');
    await expect(rows).toContainText('n = 41');
    await rows
      .getByRole('button', { name: /and allow its cells to run again/ })
      .click();
    const accepted = (await first.settled()).result!;
    expect(accepted.isError, accepted.text).toBe(false);
    expect(accepted.structured).toMatchObject({ status: 'ok' });
    await expect(rows).toHaveCount(0);
    await expect(allowances).toHaveCount(1);
    await expect(allowances).toHaveAttribute('data-cell-id', 'a');
    await expect(allowances).toContainText('cell 1');
    await expect(allowances).toContainText('n = 41');

    // allowed: the same code runs again without a proposal
    const again = await agent.call<{
      status: string;
      results: { executionCount: number | null }[];
    }>(RUN, { cellIds: ['a'] });
    expect(again.isError, again.text).toBe(false);
    expect(again.structured!.status).toBe('ok');
    expect(again.structured!.results[0].executionCount).toBe(2);
    await expect(rows).toHaveCount(0);

    // taken back: the next run waits for the owner again
    await allowances
      .getByRole('button', { name: 'Take back: cell 1 waits for review again' })
      .click();
    await expect(allowances).toHaveCount(0);
    await expect(section).toContainText(
      'No cell of this notebook is allowed to run again.'
    );
    const waiting = await agent.start<{ status: string; code?: string }>(RUN, {
      cellIds: ['a']
    });
    await expect(rows).toHaveCount(1);
    await rows.getByRole('button', { name: /^Deny proposal 1/ }).click();
    const denied = (await waiting.settled()).result!;
    expect(denied.isError, denied.text).toBe(false);
    expect(denied.structured).toMatchObject({
      status: 'denied',
      code: 'PROPOSAL_DENIED'
    });
    // nothing ran on Deny
    expect((await jupyter.cellRuns())[0].executionCount).toBe(2);
  });

  test('the Access tab warns of the shared kernel with a hidden cell in Direct mode, not in Propose mode @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await openNotebook(jupyter, human, agent, 'warning.ipynb');
    const panel = await openSection(jupyter, human, /^Access/);
    const warning = panel.locator('.jp-AgentAccess-kernelWarning');
    await expect(panel.locator('#jp-agent-panel-access')).toContainText(
      '3 cells'
    );
    await expect(warning).toHaveCount(0);

    await human.command('jupyterlite-webmcp:set-cell-access', {
      cellIds: ['a'],
      access: 'none'
    });
    await expect(warning).toBeVisible();
    await expect(warning).toHaveAttribute('role', 'status');
    await expect(warning).toContainText(
      'Code the agent runs shares the kernel with every cell: once a hidden cell has run, the agent’s code can read its variables.'
    );
    await expect(warning).toContainText('Propose mode');
    await expect(warning).toContainText('jupyter_run_cells');
    expect(
      await violations(jupyter.page, '.jp-AgentAccess-kernelWarning')
    ).toEqual([]);

    await human.command(SET_MODE, { mode: 'propose' });
    await expect(warning).toHaveCount(0);
    await human.command(SET_MODE, { mode: 'direct' });
    await expect(warning).toBeVisible();
    // the cell visible again: nothing to warn of
    await human.command('jupyterlite-webmcp:set-cell-access', {
      cellIds: ['a'],
      access: 'write'
    });
    await expect(warning).toHaveCount(0);
  });

  for (const theme of [
    { name: 'JupyterLab Light', light: 'true' },
    { name: 'JupyterLab Dark', light: 'false' }
  ]) {
    test(`axe: the section with rows, and the kernel warning, have no WCAG A/AA violations (${theme.name}) @rule`, async ({
      jupyter,
      human,
      agent
    }) => {
      await openNotebook(jupyter, human, agent, 'a11y-proposals.ipynb');
      const page = jupyter.page;
      await human.command('apputils:change-theme', { theme: theme.name });
      await expect(page.locator('body')).toHaveAttribute(
        'data-jp-theme-light',
        theme.light
      );
      // the Access tab's warning, in this theme too
      await human.command('jupyterlite-webmcp:set-cell-access', {
        cellIds: ['c'],
        access: 'none'
      });
      const access = await openSection(jupyter, human, /^Access/);
      await expect(
        access.locator('.jp-AgentAccess-kernelWarning')
      ).toBeVisible();
      expect(await violations(page, '.jp-AgentAccess-kernelWarning')).toEqual(
        []
      );
      await human.command('jupyterlite-webmcp:set-cell-access', {
        cellIds: ['c'],
        access: 'write'
      });

      await human.command(SET_MODE, { mode: 'propose' });
      const panel = await openSection(jupyter, human, /^Proposals/);
      const section = panel.locator('.jp-AgentProposals');
      const hash = await hashes(agent);
      const calls = [
        await agent.start(UPDATE, {
          cellId: 'a',
          source: 'x = 10',
          expectedSourceHash: hash.a
        }),
        await agent.start(DELETE, { cellId: 'b', expectedSourceHash: hash.b }),
        await agent.start(INSERT, {
          referenceCellId: 'c',
          position: 'below',
          cellType: 'markdown',
          source: '# Notes'
        })
      ];
      const rows = section.locator('li.jp-AgentProposals-item');
      await expect(rows).toHaveCount(3);
      await expect(
        section.locator('.jp-AgentProposals-acceptAll')
      ).toBeVisible();
      expect(await violations(page, '.jp-AgentProposals')).toEqual([]);
      // leave nothing waiting
      for (let left = calls.length - 1; left >= 0; left--) {
        await rows.first().locator('.jp-mod-deny').click();
        await expect(rows).toHaveCount(left);
      }
      for (const call of calls) {
        expect((await call.settled()).result?.structured).toMatchObject({
          status: 'denied'
        });
      }
      if (theme.light === 'false') {
        await human.command('apputils:change-theme', {
          theme: 'JupyterLab Light'
        });
      }
    });
  }
});
