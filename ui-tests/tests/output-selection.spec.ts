/**
 * jupyter_get_output_selection through native WebMCP: the human selects text
 * in a rendered output with the mouse, and the agent reads exactly that, and
 * nothing once it no longer matches (another selection, a re-run, a hidden
 * cell).
 */
import type { Locator, Page } from '@playwright/test';

import type { Agent } from '../agent';
import { expect, shareInLab, test } from '../fixtures';
import type { JupyterApp } from '../jupyter';
import { codeCell as code, notebookOf } from '../notebook-content';

interface IOutputSelection {
  cellId: string;
  outputIndex: number;
  text: string;
  range?: { start: number; end: number };
  outputFingerprint: string;
  capturedAt: string;
}

const TOOL = 'jupyter_get_output_selection';

/** The rendered outputs (`.jp-OutputArea-output`) of a cell. */
async function outputs(jupyter: JupyterApp, cell: number): Promise<Locator> {
  return (await jupyter.cell(cell)).locator('.jp-OutputArea-output');
}

interface IPoint {
  x: number;
  y: number;
}

/**
 * Where to press and release the mouse to select characters start–end of
 * an element's text: just inside the left edge of the first character and
 * the right edge of the last. Reads the layout only; the selection itself
 * is made by the mouse.
 */
async function textPoints(
  target: Locator,
  start: number,
  end: number
): Promise<{ from: IPoint; to: IPoint }> {
  await target.scrollIntoViewIfNeeded();
  return target.evaluate(
    (element, [first, last]) => {
      const boxOf = (offset: number): DOMRect => {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        let rest = offset;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const length = (node as Text).length;
          if (rest < length) {
            const range = document.createRange();
            range.setStart(node, rest);
            range.setEnd(node, rest + 1);
            return range.getBoundingClientRect();
          }
          rest -= length;
        }
        throw new Error(`no character ${offset} in the element`);
      };
      const a = boxOf(first);
      const b = boxOf(last - 1);
      return {
        from: { x: a.left + 1, y: a.top + a.height / 2 },
        to: { x: b.right - 1, y: b.top + b.height / 2 }
      };
    },
    [start, end] as const
  );
}

/** A left-button drag, as a person selects text. */
async function drag(page: Page, from: IPoint, to: IPoint): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

/** The text the page shows selected. */
async function pageSelection(page: Page): Promise<string> {
  return page.evaluate(() => document.getSelection()?.toString() ?? '');
}

/** What the agent reads, checked to be a successful call. */
async function readSelection(agent: Agent): Promise<IOutputSelection | null> {
  const result = await agent.call<IOutputSelection | null>(TOOL);
  expect(result.isError).toBe(false);
  expect(JSON.parse(result.text!)).toEqual(result.structured ?? null);
  return result.structured ?? null;
}

/** Sets a cell's agent access through the shared model, as the Access tab does. */
async function setCellAccess(
  page: Page,
  path: string,
  index: number,
  access: 'none' | null
): Promise<void> {
  await page.evaluate(
    ([p, i, a]) => {
      const model = window.uiTests.findNotebook(p)!.content.model!;
      const cell = model.sharedModel.cells[i];
      if (a === null) {
        cell.deleteMetadata('jupyterlite_webmcp');
      } else {
        cell.setMetadata('jupyterlite_webmcp', { version: 1, access: a });
      }
    },
    [path, index, access] as const
  );
}

test.describe('jupyter_get_output_selection', () => {
  // each test works in its own notebooks and leaves the app as it found
  // it: in JupyterLab they share the worker's app start-up
  test.use(shareInLab);

  test('reads the text the human selected in one output, until it no longer matches @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.createNotebook(
      'output-selection.ipynb',
      notebookOf([
        code('greek', "print('alpha beta gamma')"),
        code('more', "print('delta epsilon zeta')")
      ])
    );
    await human.openNotebook(path);
    await agent.waitForTools([TOOL]);
    const page = jupyter.page;

    expect(await readSelection(agent)).toBeNull();

    await human.runCell(0);
    await human.runCell(1);
    const first = (await outputs(jupyter, 0)).first();
    await expect(first).toHaveText('alpha beta gamma');

    // The human drags over "beta gamma".
    const points = await textPoints(first, 6, 16);
    await drag(page, points.from, points.to);
    expect(await pageSelection(page)).toBe('beta gamma');

    const selected = await readSelection(agent);
    expect(selected).toEqual({
      cellId: 'greek',
      outputIndex: 0,
      text: 'beta gamma',
      range: { start: 6, end: 16 },
      outputFingerprint: expect.stringMatching(/^sha256:[0-9a-f]{16}$/),
      capturedAt: expect.any(String)
    });
    expect(new Date(selected!.capturedAt).toISOString()).toBe(
      selected!.capturedAt
    );
    // Reading is not selecting: the same record, read again.
    expect(await readSelection(agent)).toEqual(selected);

    // Hidden from the agent, the selection reads as none; shown, it is back.
    await setCellAccess(page, path, 0, 'none');
    expect(await readSelection(agent)).toBeNull();
    await setCellAccess(page, path, 0, null);
    expect(await readSelection(agent)).toEqual(selected);

    // A triple click selects the whole line of the output.
    await first.click({ clickCount: 3 });
    expect((await pageSelection(page)).trim()).toBe('alpha beta gamma');
    const line = await readSelection(agent);
    expect(line).toMatchObject({ cellId: 'greek', outputIndex: 0 });
    expect(line!.text.trim()).toBe('alpha beta gamma');
    expect(line!.range!.start).toBe(0);
    expect(line!.outputFingerprint).toBe(selected!.outputFingerprint);

    // The human changes the cell and runs it: the output the text came
    // from is gone, so is the selection.
    await human.setCellSource(0, "print('alpha beta delta')");
    await human.runCell(0);
    await expect(first).toHaveText('alpha beta delta');
    expect(await readSelection(agent)).toBeNull();
  });

  test('is null for a selection across outputs or cells @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.createNotebook(
      'output-selection-across.ipynb',
      notebookOf([
        code('greek', "print('alpha beta gamma')"),
        code('more', "print('delta epsilon zeta')"),
        code('answer', "print('forty two')\n6 * 7")
      ])
    );
    await human.openNotebook(path);
    await agent.waitForTools([TOOL]);
    const page = jupyter.page;
    for (const index of [0, 1, 2]) {
      await human.runCell(index);
    }
    const greek = (await outputs(jupyter, 0)).first();
    const more = (await outputs(jupyter, 1)).first();
    const answer = await outputs(jupyter, 2);
    await expect(more).toHaveText('delta epsilon zeta');
    await expect(answer).toHaveText(['forty two', '42']);

    // First a selection inside one output, so that null below means cleared.
    const inside = await textPoints(more, 0, 5);
    await drag(page, inside.from, inside.to);
    expect((await readSelection(agent))?.text).toBe('delta');

    // From "beta" in the first cell's output to "epsilon" in the second's.
    const start = await textPoints(greek, 6, 10);
    const end = await textPoints(more, 6, 13);
    await drag(page, start.from, end.to);
    expect(await pageSelection(page)).toContain('beta gamma');
    expect(await pageSelection(page)).toContain('delta epsilon');
    expect(await readSelection(agent)).toBeNull();

    // Within one cell, from its stream output into its result, over the
    // result's "[n]:" prompt (prompts cannot be selected on their own: the
    // mouse can only take one in by crossing outputs).
    const inStream = await textPoints(answer.first(), 0, 5);
    expect(await readSelection(agent)).toBeNull();
    await drag(page, inStream.from, inStream.to);
    expect((await readSelection(agent))?.text).toBe('forty');
    // (Pressing on the selected text would drag it: start after it.)
    const two = await textPoints(answer.first(), 6, 9);
    const inResult = await textPoints(answer.nth(1), 0, 2);
    await drag(page, two.from, inResult.to);
    expect(await pageSelection(page)).toMatch(/two[\s\S]*42/);
    expect(await readSelection(agent)).toBeNull();
  });
});
