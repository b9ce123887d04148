/**
 * Propose mode under real-time collaboration (the rtc project: JupyterLab
 * with jupyter-collaboration). A notebook's mode is stored in the notebook,
 * one Yjs document for every browser: when person A turns Propose mode on,
 * person B's switch shows it and B's agent's edit waits for B's review in
 * B's page; when B turns it off, A's agent writes at once. Each person's
 * agent talks only to that person's page.
 */
import { expect, test } from '../fixtures';
import { codeCell, notebookOf } from '../notebook-content';
import { secondPerson } from '../second-person';

const UPDATE = 'jupyter_update_cell';
const BLOCK_NAME = 'Agent proposes a change to this cell';

interface ICells {
  cells: { id: string; source: string; sourceHash: string }[];
}

test("one person's switch sets the notebook's mode for every browser and every agent", async ({
  jupyter,
  human,
  agent,
  browser,
  baseURL
}) => {
  test.setTimeout(180_000);
  await jupyter.open();
  const path = await jupyter.createNotebook(
    'shared-mode.ipynb',
    notebookOf([codeCell('a', 'x = 1'), codeCell('b', 'y = 2')])
  );
  const b = await secondPerson(browser, jupyter, baseURL!);
  try {
    await b.jupyter.open();
    await human.openNotebook(path, { kernel: false });
    await b.human.openNotebook(path, { kernel: false });
    await agent.waitForTools([UPDATE]);
    await b.agent.waitForTools([UPDATE]);
    const switchA = await human.proposeSwitch();
    const switchB = await b.human.proposeSwitch();
    await expect(switchA).toHaveAttribute('aria-checked', 'false');
    await expect(switchB).toHaveAttribute('aria-checked', 'false');

    // A turns Propose mode on with a click: B's switch follows
    await switchA.click();
    await expect(switchA).toHaveAttribute('aria-checked', 'true');
    await expect(switchB).toHaveAttribute('aria-checked', 'true');

    // B's agent edits: the proposal waits in B's page, not in A's
    const readB = await b.agent.call<ICells>('jupyter_get_cells');
    const waiting = await b.agent.start(UPDATE, {
      cellId: 'b',
      source: 'y = 20',
      expectedSourceHash: readB.structured!.cells[1].sourceHash
    });
    const blockB = (await b.jupyter.cell(1)).getByRole('region', {
      name: BLOCK_NAME
    });
    await expect(blockB).toBeVisible();
    await expect(
      jupyter.page.getByRole('region', { name: BLOCK_NAME })
    ).toHaveCount(0);
    await blockB.getByRole('button', { name: 'Accept' }).click();
    expect((await waiting.settled()).result!.structured).toMatchObject({
      status: 'accepted',
      cell: { id: 'b', source: 'y = 20' }
    });
    await expect
      .poll(async () => (await human.cellSources())[1])
      .toBe('y = 20');

    // B turns it off from the keyboard: A's agent writes at once
    await switchB.focus();
    await b.page.keyboard.press('Space');
    await expect(switchB).toHaveAttribute('aria-checked', 'false');
    await expect(switchA).toHaveAttribute('aria-checked', 'false');
    const readA = await agent.call<ICells>('jupyter_get_cells');
    const direct = await agent.call<ICells['cells'][number]>(UPDATE, {
      cellId: 'a',
      source: 'x = 10',
      expectedSourceHash: readA.structured!.cells[0].sourceHash
    });
    expect(direct.isError, direct.text).toBe(false);
    expect(direct.structured).not.toHaveProperty('status');
    await expect
      .poll(async () => (await b.human.cellSources())[0])
      .toBe('x = 10');

    // the mode is in the saved file, as the last switch left it
    await human.save();
    expect(
      (await jupyter.readNotebook(path)).metadata.jupyterlite_webmcp
    ).toMatchObject({ proposeMode: 'direct' });
  } finally {
    await b.jupyter.context.close();
  }
});
