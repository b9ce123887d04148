/**
 * Reverting what the agent did, as a person does it: the agent edits through
 * native WebMCP; the person reverts from the Activity tab of the Agent panel
 * with clicks, takes a revert back with the notebook's own undo (command
 * mode, `z`), sees a revert refused after typing in the cell, and reverts
 * after a reload with no agent call at all.
 */
import type { Locator, Page } from '@playwright/test';
import { createHash } from 'node:crypto';

import { expect, test } from '../fixtures';
import type { Human } from '../human';
import type { JupyterApp } from '../jupyter';
import { codeCell, notebookOf } from '../notebook-content';

test.use({ failOnConsoleErrors: true });

interface ICells {
  cells: {
    id: string;
    sourceHash: string;
    lastEditedBy?: string;
  }[];
}

/** The Agent panel, opened by its command, Activity in view. */
async function openActivity(
  jupyter: JupyterApp,
  human: Human
): Promise<Locator> {
  await human.command('jupyterlite-webmcp:open-agent-panel');
  const panel = jupyter.page.locator('#jp-agent-panel');
  await expect(panel).toBeVisible();
  const edits = panel.locator('.jp-AgentPanel-edits');
  await edits.scrollIntoViewIfNeeded();
  await expect(edits).toBeVisible();
  return panel;
}

/** The edit rows of the Activity tab, newest first. */
function editRows(panel: Locator, name: string): Locator {
  return panel
    .getByRole('list', { name: `Agent edits of ${name}, newest first` })
    .getByRole('listitem');
}

/** The current notebook's cells as the person has them. */
async function cells(
  page: Page
): Promise<{ id: string; source: string; outputs: number }[]> {
  return page.evaluate(() =>
    window.uiTests
      .findNotebook(null)!
      .content.model!.sharedModel.cells.map(cell => ({
        id: cell.id,
        source: cell.getSource(),
        outputs: ((cell.toJSON() as { outputs?: unknown[] }).outputs ?? [])
          .length
      }))
  );
}

/** The notebook's undo, as a person does it: command mode, then `z`. */
async function undo(human: Human): Promise<void> {
  await human.pressInCommandMode(0, 'z');
}

const ORIGINAL = [
  {
    id: 'intro',
    source: '# Simple\n\nA fixture notebook for the browser tests.',
    outputs: 0
  },
  { id: 'set-x', source: 'x = 6 * 7\nx', outputs: 1 },
  { id: 'greet', source: "print('hello from the fixture')", outputs: 0 }
];

test.describe('reverting agent edits', () => {
  test('one edit, then all since one, each one undo step; undone with the notebook’s undo @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    const path = await human.openFixture('simple.ipynb', { kernel: false });
    const name = path.split('/').pop()!;
    const page = jupyter.page;
    const panel = await openActivity(jupyter, human);
    await expect(panel).toContainText(
      'No agent edit of this notebook is kept.'
    );

    // the agent: changes greet, inserts a cell at the end, deletes set-x
    await agent.waitForTools(['jupyter_update_cell', 'jupyter_delete_cell']);
    const read = await agent.call<ICells>('jupyter_get_cells', {});
    const hash = (id: string) =>
      read.structured!.cells.find(cell => cell.id === id)!.sourceHash;
    expect(
      (
        await agent.call('jupyter_update_cell', {
          cellId: 'greet',
          source: "print('changed by the agent')",
          expectedSourceHash: hash('greet')
        })
      ).isError
    ).toBe(false);
    const inserted = await agent.call<{ cell: { id: string } }>(
      'jupyter_insert_cell',
      { referenceCellId: 'greet', position: 'below', source: 'added = 1' }
    );
    const newId = inserted.structured!.cell.id;
    expect(
      (
        await agent.call('jupyter_delete_cell', {
          cellId: 'set-x',
          expectedSourceHash: hash('set-x')
        })
      ).isError
    ).toBe(false);
    const rows = editRows(panel, name);
    await expect(rows).toHaveCount(3);
    // each says what it did, with the cell's first line
    await expect(rows.nth(0)).toContainText('Deleted: x = 6 * 7');
    await expect(rows.nth(1)).toContainText('Inserted: added = 1');
    await expect(rows.nth(2)).toContainText(
      "Changed: print('changed by the agent')"
    );
    await expect(rows).toContainText([
      'can be reverted',
      'can be reverted',
      'can be reverted'
    ]);

    // one edit: the update goes back to the source before it
    const greet = rows.nth(2);
    await greet
      .getByRole('button', {
        name: "Revert: Changed: print('changed by the agent')"
      })
      .click();
    await expect(panel.locator('.jp-AgentPanel-editsStatus')).toHaveText(
      'Reverted 1 agent edit (undo with the notebook’s undo).'
    );
    await expect(greet).toContainText('reverted');
    expect((await cells(page)).map(cell => cell.source)).toEqual([
      ORIGINAL[0].source,
      ORIGINAL[2].source,
      'added = 1'
    ]);
    // the revert is the human's
    const after = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['greet']
    });
    expect(after.structured!.cells[0].lastEditedBy).toBe('human');

    // the notebook's undo takes the revert back: the agent's text again
    await undo(human);
    await expect
      .poll(async () => (await cells(page)).map(cell => cell.source)[1])
      .toBe("print('changed by the agent')");
    await expect(greet).toContainText('can be reverted');

    // all since the first edit: the three in one step, set-x back at its
    // place with its output, the inserted cell gone
    await greet
      .getByRole('button', {
        name: "Revert this and later: Changed: print('changed by the agent')"
      })
      .click();
    await expect(panel.locator('.jp-AgentPanel-editsStatus')).toHaveText(
      'Reverted 3 agent edits in one step (undo with the notebook’s undo).'
    );
    await expect.poll(() => cells(page)).toEqual(ORIGINAL);
    await expect(
      (await jupyter.cell(1)).locator('.jp-OutputArea-output')
    ).toHaveText('42');
    await expect(rows).toContainText(['reverted', 'reverted', 'reverted']);
    for (const button of await rows
      .getByRole('button', { name: /^Revert/ })
      .all()) {
      await expect(button).toBeDisabled();
    }

    // one undo brings all three agent edits back
    await undo(human);
    await expect
      .poll(async () => (await cells(page)).map(cell => cell.id))
      .toEqual(['intro', 'greet', newId]);
    expect((await cells(page))[1].source).toBe("print('changed by the agent')");
    await expect(rows).toContainText([
      'can be reverted',
      'can be reverted',
      'can be reverted'
    ]);

    // the delete alone: set-x comes back after the cell that was above it
    await rows
      .nth(0)
      .getByRole('button', { name: 'Revert: Deleted: x = 6 * 7' })
      .click();
    await expect
      .poll(async () => (await cells(page)).map(cell => cell.id))
      .toEqual(['intro', 'set-x', 'greet', newId]);
    await expect(
      (await jupyter.cell(1)).locator('.jp-OutputArea-output')
    ).toHaveText('42');

    // from the insert's own row in the tool calls: the inserted cell goes
    const call = panel
      .getByRole('list', { name: 'Agent tool calls, newest first' })
      .getByRole('listitem')
      .filter({ hasText: 'jupyter_insert_cell' });
    await expect(call).toContainText('can be reverted');
    await call
      .getByRole('button', {
        name: 'Revert the edit of this call: Inserted: added = 1'
      })
      .click();
    await expect
      .poll(async () => (await cells(page)).map(cell => cell.id))
      .toEqual(['intro', 'set-x', 'greet']);
    await expect(call).toContainText('reverted');
  });

  test('a cell the person changed since is not overwritten; the entry says why @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    const path = await human.openFixture('simple.ipynb', { kernel: false });
    const name = path.split('/').pop()!;
    const panel = await openActivity(jupyter, human);
    await agent.waitForTools(['jupyter_update_cell']);
    const read = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['greet']
    });
    await agent.call('jupyter_update_cell', {
      cellId: 'greet',
      source: "print('agent')",
      expectedSourceHash: read.structured!.cells[0].sourceHash
    });
    const row = editRows(panel, name).first();
    await expect(row).toContainText("Changed: print('agent')");
    await expect(row).toContainText('can be reverted');

    // the person types at the end of the cell
    const editor = (await jupyter.cell(2)).locator('.cm-content');
    await editor.click();
    await jupyter.page.keyboard.press('End');
    await jupyter.page.keyboard.type('  # mine');
    await expect(row).toContainText(
      'cannot be reverted: the cell was changed after this edit'
    );
    const revert = row.getByRole('button', {
      name: /^Revert: Changed:/
    });
    await expect(revert).toBeDisabled();
    await expect(
      row.getByRole('button', {
        name: /^Revert this and later: Changed:/
      })
    ).toBeDisabled();
    expect((await human.cellSources())[2]).toBe("print('agent')  # mine");
  });

  test('after a save and a reload, with no agent call, an agent insert is reverted @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    const path = await human.openFixture('simple.ipynb', { kernel: false });
    const name = path.split('/').pop()!;
    await agent.waitForTools(['jupyter_insert_cell']);
    const inserted = await agent.call<{ cell: { id: string } }>(
      'jupyter_insert_cell',
      { referenceCellId: 'intro', position: 'below', source: 'kept = 1' }
    );
    const newId = inserted.structured!.cell.id;
    expect(await human.cellIds()).toEqual(['intro', newId, 'set-x', 'greet']);
    await human.save();

    // a new page: the Activity tab has no call, the notebook has the edit
    await jupyter.open(path, { kernel: false });
    const panel = await openActivity(jupyter, human);
    await expect(panel).toContainText('No agent tool call has been seen yet.');
    const row = editRows(panel, name).first();
    await expect(row).toContainText('Inserted: kept = 1');
    await expect(row).toContainText('can be reverted');
    await row
      .getByRole('button', { name: 'Revert: Inserted: kept = 1' })
      .click();
    await expect
      .poll(() => human.cellIds())
      .toEqual(['intro', 'set-x', 'greet']);
    await expect(row).toContainText('reverted');
  });

  test('Forget Agent Edits from the palette: asks, then the list is empty and the saved file holds none of the replaced text @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    const path = await human.openFixture('simple.ipynb', { kernel: false });
    const name = path.split('/').pop()!;
    await agent.waitForTools(['jupyter_get_cells', 'jupyter_update_cell']);
    const read = await agent.call<ICells>('jupyter_get_cells', {
      cellIds: ['set-x']
    });
    const updated = await agent.call('jupyter_update_cell', {
      cellId: 'set-x',
      source: 'x = 1',
      expectedSourceHash: read.structured!.cells[0].sourceHash
    });
    expect(updated.isError, updated.text).toBe(false);
    const panel = await openActivity(jupyter, human);
    await expect(editRows(panel, name)).toHaveCount(1);

    // the person asks from the palette, and first cancels
    const page = jupyter.page;
    await (await jupyter.cell(0)).click();
    await human.runFromPalette('Forget Agent', /^Forget Agent Edits/);
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(
      `Forget the 1 agent edit recorded in ${name}?`
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(editRows(panel, name)).toHaveCount(1);

    await human.runFromPalette('Forget Agent', /^Forget Agent Edits/);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: 'Forget' })
      .click();
    await expect(
      page.getByText(`Forgot 1 agent edit in ${name}.`)
    ).toBeVisible();
    await expect(editRows(panel, name)).toHaveCount(0);
    // the agent's edit itself stays
    expect((await cells(page))[1].source).toBe('x = 1');

    await human.save();
    const saved = JSON.stringify(
      (await jupyter.readNotebook(path)).metadata.jupyterlite_webmcp_edits
    );
    expect(saved).toContain('"edits":[]');
    expect(saved).not.toContain('6 * 7');
  });

  test('without WebMCP, an agent edit saved in the file is reverted @no-webmcp', async ({
    jupyter,
    human
  }) => {
    // a notebook an agent changed in an earlier session, as it was saved:
    // the journal entry of the change, in the documented format
    const hash = (type: string, source: string) =>
      `sha256:${createHash('sha256')
        .update(`${type}\n${source}`, 'utf8')
        .digest('hex')
        .slice(0, 16)}`;
    await jupyter.open();
    const path = await jupyter.createNotebook(
      'earlier.ipynb',
      notebookOf([codeCell('a', "total = sum(values)  # the agent's")], {
        jupyterlite_webmcp_edits: {
          version: 1,
          edits: [
            {
              id: 'e1',
              at: '2026-11-30T10:00:00.000Z',
              tool: 'jupyter_update_cell',
              kind: 'update',
              cellId: 'a',
              before: 'total = 0\nfor v in values:\n    total += v',
              afterHash: hash('code', "total = sum(values)  # the agent's")
            }
          ]
        }
      })
    );
    await human.openNotebook(path, { kernel: false });
    const panel = await openActivity(jupyter, human);
    const row = editRows(panel, 'earlier.ipynb').first();
    await expect(row).toContainText(
      "Changed: total = sum(values)  # the agent's"
    );
    await expect(row).toContainText('can be reverted');
    await row.getByRole('button', { name: /^Revert: Changed:/ }).click();
    await expect
      .poll(() => human.cellSources())
      .toEqual(['total = 0\nfor v in values:\n    total += v']);
    await expect(row).toContainText('reverted');
  });
});
