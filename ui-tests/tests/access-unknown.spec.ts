/**
 * Notebooks the agent must not see where their access is not read from an
 * open notebook's settled model: one still loading, one shown by another
 * widget (the text editor), and one another tab of the browser restricted
 * without saving. An agent calls the tools through native WebMCP; the person
 * opens, clicks and presses keys.
 */
import type { Locator, Page } from '@playwright/test';

import { expect, test } from '../fixtures';
import type { Agent } from '../agent';
import type { JupyterApp } from '../jupyter';
import { holdLoad } from '../hold-load';
import { IMPLEMENTED } from '../implemented';
import { codeCell, notebookOf } from '../notebook-content';

const KEY = 'jupyterlite_webmcp';
const HIDDEN_NOTEBOOK = { [KEY]: { version: 1, notebookAccess: 'none' } };
const HIDDEN_CELL = { [KEY]: { version: 1, access: 'none' } };

/** A notebook its file hides, and one it shows, in the test's directory. */
async function hiddenAndShown(
  jupyter: JupyterApp
): Promise<{ hidden: string; shown: string }> {
  return {
    hidden: await jupyter.createNotebook(
      'hidden.ipynb',
      notebookOf([codeCell('h1', 'secret = 1')], HIDDEN_NOTEBOOK)
    ),
    shown: await jupyter.createNotebook(
      'shown.ipynb',
      notebookOf([codeCell('s1', 'x = 1')])
    )
  };
}

/** The answers the agent gets from the three tools that name notebooks. */
async function whatTheAgentSees(
  jupyter: JupyterApp,
  agent: Agent
): Promise<{ context: string; listing: string }> {
  const context = await agent.call('jupyter_get_context');
  const listing = await agent.call('jupyter_list_workspace', {
    path: jupyter.dir
  });
  return { context: context.text ?? '', listing: listing.text ?? '' };
}

test.describe('a notebook whose access is not yet known', () => {
  test('loading with the page: hidden until loaded, then as its file says @server', async ({
    jupyter,
    agent
  }) => {
    // the files first, through the server (no app loaded for them)
    const { hidden, shown } = await hiddenAndShown(jupyter);

    // the page opens the hidden notebook (a restore, a link); its load waits
    let load = await holdLoad(jupyter.page, hidden);
    const opening = jupyter.page.goto(jupyter.url(hidden));
    await load.held;
    await agent.waitForTools(IMPLEMENTED);
    let seen = await whatTheAgentSees(jupyter, agent);
    expect(seen.context).not.toContain('hidden.ipynb');
    expect(seen.listing).not.toContain('hidden.ipynb');
    expect(seen.listing).toContain('shown.ipynb');
    await load.release();
    await opening;
    await jupyter.waitForNotebook(hidden, { kernel: false });
    seen = await whatTheAgentSees(jupyter, agent);
    expect(seen.context).not.toContain('hidden.ipynb');
    expect(seen.listing).not.toContain('hidden.ipynb');

    // a visible notebook loading the same way: named once its model holds
    // the owner's word (the listing judges it by its file meanwhile)
    load = await holdLoad(jupyter.page, shown);
    const reopening = jupyter.page.goto(jupyter.url(shown));
    await load.held;
    await agent.waitForTools(IMPLEMENTED);
    seen = await whatTheAgentSees(jupyter, agent);
    expect(JSON.parse(seen.context)).toMatchObject({ notebook: null });
    expect(seen.context).not.toContain('shown.ipynb');
    expect(seen.listing).toContain('shown.ipynb');
    await load.release();
    await reopening;
    await jupyter.waitForNotebook(shown, { kernel: false });
    const context = await agent.call<{
      notebook: { path: string } | null;
      workspace: { openDocuments: string[] };
    }>('jupyter_get_context');
    expect(context.structured!.workspace.openDocuments).toContain(shown);
    expect(context.structured!.notebook?.path).toBe(shown);
    expect(context.text ?? '').not.toContain('hidden.ipynb');
  });
});

/**
 * Opens a file with the text editor, as Open With › Editor does, and makes
 * its tab the test's page (Notebook 7 opens it in a new browser tab).
 */
async function openInEditor(jupyter: JupyterApp, path: string): Promise<void> {
  const open = (page: Page) =>
    page.evaluate(
      p =>
        window.uiTests.execute('docmanager:open', {
          path: p,
          factory: 'Editor'
        }),
      path
    );
  if (jupyter.ui === 'notebook') {
    const [tab] = await Promise.all([
      jupyter.context.waitForEvent('page'),
      open(jupyter.page)
    ]);
    jupyter.usePage(tab);
    await jupyter.waitForApp(tab);
  } else {
    await open(jupyter.page);
  }
  await expect(
    jupyter.page.locator('.jp-FileEditor .cm-content').last()
  ).toContainText('metadata');
}

test('a hidden notebook open in the text editor is no open document @shell', async ({
  jupyter,
  agent
}) => {
  await jupyter.open();
  const home = jupyter.page;
  const { hidden, shown } = await hiddenAndShown(jupyter);
  const documents = async () => {
    await agent.waitForTools(IMPLEMENTED);
    return agent.call<{ workspace: { openDocuments: string[] } }>(
      'jupyter_get_context'
    );
  };

  await openInEditor(jupyter, shown);
  expect((await documents()).structured!.workspace.openDocuments).toContain(
    shown
  );
  jupyter.usePage(home);
  await openInEditor(jupyter, hidden);
  const context = await documents();
  expect(context.text ?? '').not.toContain('hidden.ipynb');
  expect(context.structured!.workspace.openDocuments).not.toContain(hidden);
});

/** The toolbar access button of the notebook on show. */
function toolbarItem(page: Page, name: string): Locator {
  return page
    .locator('.jp-NotebookPanel:visible .jp-Toolbar')
    .getByRole('button', { name, exact: true });
}

test.describe('an unsaved restriction in another tab', () => {
  test.use({ liteUi: 'notebook' });

  test('holds in this tab at once; an unsaved widening does not', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const a = await jupyter.createNotebook(
      'a.ipynb',
      notebookOf([
        codeCell('a1', 'x = 1'),
        codeCell('a2', 'y = 2', { metadata: HIDDEN_CELL }),
        codeCell('a3', 'z = 3')
      ])
    );
    const b = await jupyter.createNotebook(
      'b.ipynb',
      notebookOf([codeCell('b1', 'w = 0')])
    );
    // tab A: the person's notebook a.ipynb
    await human.openNotebook(a, { kernel: false });
    const tabA = jupyter.page;
    // tab B: another notebook's tab of the same browser (in JupyterLab,
    // another window on a workspace of its own)
    const tabB = await jupyter.context.newPage();
    await tabB.goto(
      jupyter
        .url(b)
        .replace(
          `/workspaces/${encodeURIComponent(jupyter.dir)}/`,
          `/workspaces/${encodeURIComponent(`${jupyter.dir}-b`)}/`
        )
    );
    jupyter.usePage(tabB);
    await jupyter.waitForApp(tabB);
    await jupyter.waitForNotebook(b, { kernel: false });
    await agent.waitForTools(IMPLEMENTED);
    const cellsOfA = async () => {
      const result = await agent.call<{
        cells?: { id: string }[];
        hiddenCellCount?: number;
        error?: string;
      }>('jupyter_get_cells', { notebookPath: a });
      const value = result.structured!;
      return value.error ?? value.cells!.map(cell => cell.id).join(',');
    };
    expect(await cellsOfA()).toBe('a1,a3');

    // in tab A, unsaved: the person hides cell a1 (Shift+G: read, then none)
    jupyter.usePage(tabA);
    await human.pressInCommandMode(0, 'Shift+G');
    await human.pressInCommandMode(0, 'Shift+G');
    jupyter.usePage(tabB);
    await expect.poll(cellsOfA).toBe('a3');

    // and widens cell a2, which the file hides, back to write: tab B still
    // reads it as the file says
    jupyter.usePage(tabA);
    await human.pressInCommandMode(1, 'Shift+G');
    await expect(
      (await jupyter.cell(1)).locator('.jp-AgentAccessMarker')
    ).toHaveCount(0);
    // then hides the whole notebook from its toolbar (read-only, hidden)
    await toolbarItem(tabA, 'Agent: read and write').click();
    await toolbarItem(tabA, 'Agent: read-only').click();
    await expect(toolbarItem(tabA, 'Agent: hidden')).toBeVisible();
    expect(await jupyter.readNotebook(a)).toMatchObject({
      metadata: expect.not.objectContaining({ [KEY]: expect.anything() })
    });
    jupyter.usePage(tabB);
    await expect.poll(cellsOfA).toBe('NOTEBOOK_NOT_FOUND');
    const seen = await whatTheAgentSees(jupyter, agent);
    expect(seen.context).not.toContain('a.ipynb');
    expect(seen.listing).not.toContain('a.ipynb');
    expect(seen.listing).toContain('b.ipynb');

    // back to write in tab A, still unsaved: tab B sees the notebook again,
    // with what was restricted still restricted and nothing widened
    jupyter.usePage(tabA);
    await toolbarItem(tabA, 'Agent: hidden').click();
    await expect(toolbarItem(tabA, 'Agent: read and write')).toBeVisible();
    jupyter.usePage(tabB);
    await expect.poll(cellsOfA).toBe('a3');
  });
});
