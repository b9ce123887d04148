/**
 * The harness itself, in every app: the app starts with `window.jupyterapp`
 * exposed, WebMCP is (or is not) there, a fixture notebook opens, and a
 * human's shared-model edits and runs show on screen.
 */
import { expect, test } from '../fixtures';

test.describe('harness', () => {
  test('the app starts with jupyterapp and document.modelContext', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    const app = await jupyter.page.evaluate(() => ({
      name: window.jupyterapp?.name,
      version: window.jupyterapp?.version
    }));
    expect(app.name).toBeTruthy();
    expect(await agent.hasModelContext()).toBe(true);
    // native WebMCP answers (with or without our tools registered yet)
    expect(Array.isArray(await agent.tools())).toBe(true);
    expect(jupyter.consoleErrors()).toEqual([]);
  });

  test('a fixture notebook opens; a collaborator edit and a run show on screen', async ({
    jupyter,
    human
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    const state = await human.openNotebook(path);
    expect(state).toMatchObject({ path, cellCount: 3, kernelStatus: 'idle' });

    const source = await jupyter.cell(1);
    await expect(source).toContainText('x = 6 * 7');
    await human.setCellSource(1, 'y = 40 + 2\ny');
    await expect(source).toContainText('y = 40 + 2');
    await human.typeInCell(1, ' * 10');
    await expect(source).toContainText('y * 10');
    expect((await human.cellSources())[1]).toBe('y = 40 + 2\ny * 10');

    const run = await human.runCell(1);
    expect(run.ok).toBe(true);
    await expect(source.locator('.jp-OutputArea-output')).toHaveText('420');

    await human.selectCells(0, 2);
    await human.save();
    const saved = await jupyter.readNotebook(path);
    expect(saved.cells[1].source).toBe('y = 40 + 2\ny * 10');
    expect(jupyter.consoleErrors()).toEqual([]);
  });

  test('files: create, open by URL, list, read back, delete', async ({
    jupyter
  }) => {
    await jupyter.open();
    const path = await jupyter.addFixture('empty.ipynb', 'by-url.ipynb');
    await jupyter.createFile('notes.txt', 'hello');
    expect(await jupyter.list()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path, type: 'notebook' }),
        expect.objectContaining({ name: 'notes.txt', type: 'file' })
      ])
    );
    expect((await jupyter.read(jupyter.path('notes.txt'))).content).toBe(
      'hello'
    );

    const state = await jupyter.open(path, { kernel: false });
    expect(state).toMatchObject({ path, cellCount: 1 });
    await expect(await jupyter.notebook(path)).toBeVisible();

    await jupyter.remove(jupyter.path('notes.txt'));
    expect(await jupyter.exists(jupyter.path('notes.txt'))).toBe(false);
  });

  test('the agent reaches the extension through native WebMCP and CDP', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    await agent.waitForTools(['jupyter_get_context']);
    const tool = (await agent.tools()).find(
      t => t.name === 'jupyter_get_context'
    );
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true });

    const viaPlaywright = await agent.call('jupyter_get_context');
    expect(viaPlaywright.isError).toBe(false);
    expect(viaPlaywright.structured).toHaveProperty('workspace');
    const viaCdp = await agent.invokeViaCdp('jupyter_get_context');
    expect(viaCdp.status).toBe('Completed');
    expect(viaCdp.structured).toEqual(viaPlaywright.structured);
  });
});

test.describe('without WebMCP', () => {
  test('no modelContext, no WebMCP errors, a notebook still runs @no-webmcp', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    expect(await agent.hasModelContext()).toBe(false);

    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path);
    const run = await human.runCell(1);
    expect(run).toMatchObject({ ok: true, executionCount: 1 });
    await expect(
      (await jupyter.cell(1)).locator('.jp-OutputArea-output')
    ).toHaveText('42');

    const mentions = jupyter.console.filter(entry =>
      /webmcp|modelContext/i.test(`${entry.text} ${entry.url}`)
    );
    expect(
      mentions.filter(
        entry => entry.type === 'error' || entry.type === 'pageerror'
      )
    ).toEqual([]);
    expect(jupyter.consoleErrors()).toEqual([]);
  });
});
