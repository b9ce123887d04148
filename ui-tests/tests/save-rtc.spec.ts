/**
 * `jupyter_save_notebook` under real-time collaboration (the rtc project:
 * JupyterLab with jupyter-collaboration). The server writes the shared
 * document to the file itself, a moment after each change, and the page
 * hears of each write a moment later still (the document's `hash` state,
 * then a read of the file's stamp). An agent's save that comes between the
 * two found the file newer than the page's stamp and answered that it had
 * changed on disk (a fresh-clone CI run, `reliability-collab-rtc`). Here the
 * page's read of the new stamp is held back, so the save always comes
 * between: it waits for the page to hear of the write, then saves, and no
 * "File Changed" dialog asks the person anything.
 */
import { expect, test } from '../fixtures';
import { codeCell, notebookOf } from '../notebook-content';

/** How long the page's read of the server's new stamp is held back. */
const HELD_MS = 2000;

interface ICells {
  cells: { id: string; source: string; sourceHash: string }[];
}

test("an agent's save right after the server wrote the shared document waits for the page to hear of it, then saves", async ({
  jupyter,
  human,
  agent
}) => {
  await jupyter.open();
  const path = await jupyter.createNotebook(
    'server-writes.ipynb',
    notebookOf([codeCell('a', 'x = 1')])
  );
  await human.openNotebook(path, { kernel: false });
  await agent.waitForTools(['jupyter_update_cell', 'jupyter_save_notebook']);
  const page = jupyter.page;
  const diskHash = () =>
    page.evaluate(
      async p =>
        (
          await window.uiTests
            .app()
            .serviceManager.contents.get(p, { content: false, hash: true })
        ).hash ?? null,
      path
    );
  const before = await diskHash();
  expect(before, 'the server gives files a hash').toBeTruthy();

  // the collaborative provider reads the new stamp without a hash
  // (`hash=0`); the agent's save and JupyterLab's read with one
  let held = 0;
  await page.route(
    url =>
      url.pathname.endsWith(`/api/contents/${path}`) &&
      url.searchParams.get('content') === '0' &&
      url.searchParams.get('hash') === '0',
    async route => {
      held++;
      await new Promise(resolve => setTimeout(resolve, HELD_MS));
      await route.continue();
    }
  );

  const read = await agent.call<ICells>('jupyter_get_cells');
  const updated = await agent.call('jupyter_update_cell', {
    cellId: 'a',
    source: 'x = 10',
    expectedSourceHash: read.structured!.cells[0].sourceHash
  });
  expect(updated.isError, updated.text).toBe(false);
  // the server writes the shared document
  await expect.poll(diskHash, { timeout: 30_000 }).not.toBe(before);

  const saved = await agent.call('jupyter_save_notebook', {});
  expect(saved.isError, saved.text).toBe(false);
  expect(saved.structured).toMatchObject({ saved: true, path });
  expect(held, "the page's read of the new stamp was held").toBeGreaterThan(0);
  await expect(page.locator('.jp-Dialog')).toHaveCount(0);
  const file = await jupyter.readNotebook(path);
  const source = file.cells[0].source;
  expect(Array.isArray(source) ? source.join('') : source).toBe('x = 10');
});
