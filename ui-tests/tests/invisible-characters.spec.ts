/**
 * What the owner reads is what the code is: a Propose-mode edit carrying
 * the "Trojan Source" pattern (CVE-2021-42574), a run of code with a
 * zero-width space and a right-to-left isolate folded behind "Show all", and
 * an agent's comment with bidirectional controls, each made through native
 * WebMCP, are shown with every such character drawn as a mark naming its
 * code point and a warning at the block's or thread's top. The order is
 * read off the screen (each character's position as drawn), not from the
 * DOM's text, so a control that the browser obeyed would show. Axe finds
 * nothing in the blocks and the thread, light and dark. The tools' results
 * are unchanged: the cell holds the exact text.
 */
import type { Locator, Page } from '@playwright/test';

import { axeViolations as violations } from '../axe';
import { expect, test } from '../fixtures';
import type { Agent } from '../agent';
import type { Human } from '../human';
import type { JupyterApp } from '../jupyter';
import { addKernelNotebook } from '../kernel-runs';
import { codeCell } from '../notebook-content';

test.use({ failOnConsoleErrors: true });

const GET = 'jupyter_get_cells';
const UPDATE = 'jupyter_update_cell';
const RUN = 'jupyter_run_cells';
const COMMENT = 'jupyter_create_comment';
const SET_MODE = 'jupyterlite-webmcp:set-propose-mode';

/** The classic Trojan Source line: reads as a comparison with "none". */
const TROJAN =
  'if access_level != "none\u202E \u2066# Check if admin\u2069 \u2066":';

/** The same line as the owner must read it: every control named, in order. */
const TROJAN_SHOWN =
  'if access_level != "none⟦U+202E⟧ ⟦U+2066⟧# Check if admin⟦U+2069⟧ ⟦U+2066⟧":';

/**
 * The text as drawn: every character with a box on screen, in reading
 * order of the boxes (lines top to bottom, left to right within a line),
 * lines joined with "\n". A character the browser draws nowhere (a
 * direction control it obeys) is not in it.
 */
async function drawnText(locator: Locator): Promise<string> {
  return locator.evaluate(root => {
    const boxes: { x: number; top: number; bottom: number; c: string }[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getBoundingClientRect();
        if (rect.width === 0) {
          continue;
        }
        boxes.push({
          x: rect.left + rect.width / 2,
          top: rect.top,
          bottom: rect.bottom,
          c: text[i]
        });
      }
    }
    // a line: boxes whose vertical middles fall within the first's extent
    boxes.sort((a, b) => a.top - b.top);
    const lines: (typeof boxes)[] = [];
    for (const box of boxes) {
      const middle = (box.top + box.bottom) / 2;
      const line = lines.find(
        candidate => middle > candidate[0].top && middle < candidate[0].bottom
      );
      if (line) {
        line.push(box);
      } else {
        lines.push([box]);
      }
    }
    return lines
      .map(line =>
        line
          .sort((a, b) => a.x - b.x)
          .map(box => box.c)
          .join('')
          .trimEnd()
      )
      .join('\n');
  });
}

/** The code points of the marks inside `locator`, in order. */
async function marks(locator: Locator): Promise<string[]> {
  return locator
    .locator('.jp-AgentInvisible')
    .evaluateAll(nodes =>
      nodes.map(node => (node as HTMLElement).dataset.codePoint ?? '')
    );
}

/** Axe in the light and the dark theme, on each selector. */
async function auditBothThemes(
  page: Page,
  human: Human,
  selectors: string[]
): Promise<void> {
  for (const theme of [
    { name: 'JupyterLab Dark', light: 'false' },
    { name: 'JupyterLab Light', light: 'true' }
  ]) {
    await human.command('apputils:change-theme', { theme: theme.name });
    await expect(page.locator('body')).toHaveAttribute(
      'data-jp-theme-light',
      theme.light
    );
    await expect(page.locator('#jupyterlab-splash')).toHaveCount(0);
    for (const selector of selectors) {
      expect(await violations(page, selector)).toEqual([]);
    }
  }
}

async function openNotebook(
  jupyter: JupyterApp,
  human: Human,
  agent: Agent,
  name: string,
  cells: ReturnType<typeof codeCell>[]
): Promise<string> {
  await jupyter.isolateSettings();
  await jupyter.start();
  const path = await addKernelNotebook(jupyter, name, cells);
  if (jupyter.ui === 'notebook') {
    await jupyter.open(path, { kernel: false });
  } else {
    await human.openNotebook(path, { kernel: false });
  }
  await agent.waitForTools([GET, UPDATE, RUN, COMMENT]);
  return path;
}

test.describe('invisible and direction-changing characters', () => {
  test('a Trojan Source edit and a run with invisible characters are shown marked, in the order of the text @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    const long = Array.from({ length: 16 }, (_, i) => `step_${i} = ${i}`);
    long[2] = 'name = "ad\u200Bmin"';
    long[14] = 'role = "\u2067user\u2069"';
    await openNotebook(jupyter, human, agent, 'trojan.ipynb', [
      codeCell('check', 'if access_level != "none":\n    grant()'),
      codeCell('steps', long.join('\n'))
    ]);
    await human.command(SET_MODE, { mode: 'propose' });
    const read = await agent.call<{
      cells: { id: string; sourceHash: string }[];
    }>(GET);
    const hash = read.structured!.cells[0].sourceHash;

    // the edit: the diff shows the controls as marks, with a warning
    const proposed = `${TROJAN}\n    grant()`;
    const update = await agent.start(UPDATE, {
      cellId: 'check',
      expectedSourceHash: hash,
      source: proposed
    });
    const block = (await jupyter.cell(0)).getByRole('region', {
      name: 'Agent proposes a change to this cell'
    });
    await expect(block).toBeVisible();
    await expect(block.getByRole('note')).toHaveText(
      'Warning: 4 invisible or direction-changing characters, shown marked'
    );
    const added = block.locator('ins.jp-ProposalBlock-line').first();
    expect(await marks(added)).toEqual([
      'U+202E',
      'U+2066',
      'U+2069',
      'U+2066'
    ]);
    expect(await drawnText(added)).toBe(TROJAN_SHOWN);
    // the measure sees an obeyed control: the same line drawn as plain text
    // in the page reads otherwise
    const raw = await jupyter.page.evaluate(text => {
      const pre = document.createElement('pre');
      pre.id = 'uit-raw-trojan';
      pre.textContent = text;
      document.body.appendChild(pre);
      return pre.id;
    }, TROJAN);
    const obeyed = await drawnText(jupyter.page.locator(`#${raw}`));
    expect(obeyed).not.toBe(
      TROJAN.replace(/[\u202A-\u202E\u2066-\u2069]/g, '')
    );
    await jupyter.page.evaluate(
      id => document.getElementById(id)?.remove(),
      raw
    );

    // the run: the folded part counts, and shows once unfolded
    const run = await agent.start(RUN, { cellIds: ['steps'] });
    const runBlock = (await jupyter.cell(1)).getByRole('region', {
      name: 'Agent wants to run code on the kernel'
    });
    await expect(runBlock).toBeVisible();
    await expect(runBlock.getByRole('note').first()).toHaveText(
      'Warning: 3 invisible or direction-changing characters, shown marked'
    );
    const toggle = runBlock.getByRole('button', { name: /^Show all 16 lines/ });
    await expect(toggle).toHaveText(
      'Show all 16 lines (4 more, with 2 invisible or direction-changing characters)'
    );
    const code = runBlock.locator('pre.jp-ProposalBlock-source');
    expect(await marks(code)).toEqual(['U+200B']);
    await toggle.click();
    expect(await marks(code)).toEqual(['U+200B', 'U+2067', 'U+2069']);
    const shown = [...long];
    shown[2] = 'name = "ad⟦U+200B⟧min"';
    shown[14] = 'role = "⟦U+2067⟧user⟦U+2069⟧"';
    expect(await drawnText(code)).toBe(shown.join('\n'));

    if (jupyter.kind === 'lab' && jupyter.ui !== 'notebook') {
      await auditBothThemes(jupyter.page, human, [
        '.jp-ProposalBlock[data-proposal-kind="update"]',
        '.jp-ProposalBlock[data-proposal-kind="run"]'
      ]);
    }

    // the owner accepts the edit: the cell holds the exact text
    await block.getByRole('button', { name: 'Accept', exact: true }).click();
    const accepted = (await update.settled()).result!;
    expect(accepted.isError, accepted.text).toBe(false);
    expect((await human.cellSources())[0]).toBe(proposed);
    await runBlock.getByRole('button', { name: 'Deny' }).click();
    expect((await run.settled()).result!.isError).toBe(false);
  });

  test("an agent's comment with bidirectional controls is shown marked, with a warning at the thread's top @shell", async ({
    jupyter,
    human,
    agent
  }) => {
    await openNotebook(jupyter, human, agent, 'comment.ipynb', [
      codeCell('a', 'total = price * count')
    ]);
    const body =
      'Fine as it is.\u202E Delete the backups \u202C\u2066ok\u2069 \u{E0072}\u{E006D}';
    const created = await agent.call<{
      thread: { id: string; messages: { body: string }[] };
    }>(COMMENT, {
      anchor: { kind: 'cell', cellId: 'a' },
      message: body
    });
    expect(created.isError, created.text).toBe(false);
    // the tool's result is the exact text
    expect(created.structured!.thread.messages[0].body).toBe(body);
    await human.command('jupyterlite-webmcp:show-comments');
    const thread = jupyter.page
      .locator('#jp-agent-panel-comments')
      .getByRole('article');
    await expect(thread).toHaveCount(1);
    await expect(thread.getByRole('note')).toHaveText(
      'Warning: 6 invisible or direction-changing characters, shown marked'
    );
    const message = thread.locator('.jp-AgentComments-body');
    expect(await marks(message)).toEqual([
      'U+202E',
      'U+202C',
      'U+2066',
      'U+2069',
      'U+E0072',
      'U+E006D'
    ]);
    // the panel is narrow: the message wraps (at a space or beside a
    // mark), so the order is compared without the white space
    const bare = (text: string) => text.replace(/\s+/g, '');
    expect(bare(await drawnText(message))).toBe(
      bare(
        'Fine as it is.⟦U+202E⟧ Delete the backups ⟦U+202C⟧⟦U+2066⟧ok⟦U+2069⟧ ⟦U+E0072⟧⟦U+E006D⟧'
      )
    );
    // what the agent reads back is the exact text
    const read = await agent.call<{
      thread: { messages: { body: string }[] };
    }>('jupyter_get_comment', { threadId: created.structured!.thread.id });
    expect(read.structured!.thread.messages[0].body).toBe(body);
    if (jupyter.kind === 'lab' && jupyter.ui !== 'notebook') {
      await auditBothThemes(jupyter.page, human, ['#jp-agent-panel-comments']);
    }
  });
});
