/**
 * Review threads as a person uses them: "Add Comment" on selected text from
 * the command palette with the keyboard, "Comment on Cell" and "Comment on
 * Output" from the context menus with the mouse, the cell badge, and the
 * Comments tab of the Agent panel (filter, messages with who wrote them,
 * reply, resolve, reopen, go to), with the agent on the other side through
 * native WebMCP. Threads survive save and reload; the notebook 0.1.1
 * annotated reads in words, hidden threads said to be hidden.
 */
import type { Locator, Page } from '@playwright/test';

import { expect, shareInLab, test } from '../fixtures';
import type { JupyterApp } from '../jupyter';

test.use({ failOnConsoleErrors: true });

const REVIEW_KEY = 'jupyterlite_webmcp_review';

interface IThread {
  id: string;
  status: string;
  anchor: Record<string, unknown> & { kind: string; cellId: string };
  messages: { author: { kind: string; name: string }; body: string }[];
}

interface IListed {
  threads: { threadId: string; status: string; messageCount: number }[];
  counts: { openThreads: number; totalThreads: number };
}

/** The Agent panel's Comments section. */
function commentsTab(page: Page): Locator {
  return page.locator('#jp-agent-panel-comments');
}

/** The thread articles listed in the Comments tab. */
function threads(page: Page): Locator {
  return commentsTab(page).getByRole('article');
}

/** The review badge of a cell. */
async function badge(jupyter: JupyterApp, index: number): Promise<Locator> {
  return (await jupyter.cell(index)).locator('.jp-AgentReviewBadge');
}

/** The composer of a new comment, in the Comments tab. */
function composer(page: Page): Locator {
  return commentsTab(page).getByRole('form', { name: 'New comment' });
}

/** The threads stored in the notebook's metadata right now. */
async function stored(page: Page): Promise<IThread[]> {
  return page.evaluate(
    key =>
      (
        window.uiTests
          .findNotebook(null)
          ?.content.model?.sharedModel.getMetadata(key) as {
          threads?: IThread[];
        }
      )?.threads ?? [],
    REVIEW_KEY
  );
}

/** Clicks into a cell's first line in its editor, at the start. */
async function clickLineStart(
  jupyter: JupyterApp,
  index: number
): Promise<void> {
  const line = (await jupyter.cell(index)).locator('.cm-line').first();
  await line.click();
  await jupyter.page.keyboard.press('Home');
}

test.describe('review threads, the human side', () => {
  // each test works in its own notebooks: in JupyterLab they share the
  // worker's app start-up, but the one that reloads the page
  test.use(shareInLab);

  test('a person comments on selected text by keyboard; the agent replies; the person replies and resolves @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    const page = jupyter.page;

    // select "x = 6 * 7" (the first line of cell 2) with the keyboard
    await clickLineStart(jupyter, 1);
    await page.keyboard.press('Shift+End');
    await human.runFromPalette('Add Comment', /^Add Comment$/);
    const box = composer(page).getByRole('textbox', { name: 'Comment' });
    await expect(box).toBeFocused();
    await expect(composer(page)).toContainText('On Cell 2, line 1');
    await expect(composer(page).locator('blockquote')).toHaveText('x = 6 * 7');
    await page.keyboard.type('Why 6 * 7?\nSay where it comes from.');
    await page.keyboard.press('Control+Enter');
    await expect(composer(page)).toHaveCount(0);

    // stored as a source-range thread by a person
    await expect.poll(async () => (await stored(page)).length).toBe(1);
    const [thread] = await stored(page);
    expect(thread.anchor).toMatchObject({
      kind: 'source-range',
      cellId: 'set-x',
      selectedText: 'x = 6 * 7',
      sourceRange: {
        start: { line: 0, column: 0 },
        end: { line: 0, column: 9 }
      }
    });
    expect(thread.messages).toEqual([
      expect.objectContaining({
        author: { kind: 'human', name: expect.any(String) },
        body: 'Why 6 * 7?\nSay where it comes from.'
      })
    ]);
    // the person signs with the app's identity (the collaboration name)
    const personName = thread.messages[0].author.name;
    const identity = await page.evaluate(() => {
      const user = window.uiTests.app().serviceManager.user?.identity;
      return user?.display_name || user?.name || null;
    });
    expect(personName).toBe(identity ?? 'Notebook user');

    // the Comments tab shows it, focused; the cell has a badge
    const article = threads(page).first();
    await expect(article).toBeFocused();
    await expect(article.getByRole('heading')).toContainText('Cell 2, line 1');
    await expect(article.getByRole('heading')).toContainText('in place');
    await expect(article).toContainText('Person');
    await expect(await badge(jupyter, 1)).toHaveAccessibleName(
      '1 open review thread on this cell'
    );

    // the agent sees it and replies
    const listed = await agent.call<IListed>('jupyter_list_comments', {});
    expect(listed.structured!.threads.map(t => t.threadId)).toEqual([
      thread.id
    ]);
    const reply = await agent.call('jupyter_reply_comment', {
      threadId: thread.id,
      message: 'It is the answer; I will add a comment in the code.'
    });
    expect(reply.isError).toBe(false);
    const agentMessage = article
      .getByRole('listitem')
      .filter({ hasText: 'It is the answer' });
    await expect(agentMessage).toContainText('Browser agent');
    await expect(agentMessage).toContainText('Agent');

    // the person replies by keyboard, then resolves with a click
    const replyBox = article.getByRole('textbox', { name: 'Reply' });
    await replyBox.click();
    // a blank reply is refused out loud
    await page.keyboard.press('Control+Enter');
    await expect(article.getByRole('alert')).toHaveText(
      'Write a message first.'
    );
    await page.keyboard.type('Thanks.');
    await page.keyboard.press('Control+Enter');
    await expect(replyBox).toHaveValue('');
    await expect(
      article.getByRole('list', { name: '3 messages' })
    ).toBeVisible();
    await article.getByRole('button', { name: 'Resolve' }).click();

    // resolved: gone from "open", the badge gone, the agent sees it
    await expect(threads(page)).toHaveCount(0);
    await expect(commentsTab(page)).toContainText('No open threads');
    await expect(await badge(jupyter, 1)).toHaveCount(0);
    const got = await agent.call<{ thread: IThread }>('jupyter_get_comment', {
      threadId: thread.id
    });
    expect(got.structured!.thread.status).toBe('resolved');
    expect(
      got.structured!.thread.messages.map(m => [m.author.kind, m.body])
    ).toEqual([
      ['human', 'Why 6 * 7?\nSay where it comes from.'],
      ['agent', 'It is the answer; I will add a comment in the code.'],
      ['human', 'Thanks.']
    ]);
    expect(got.structured!.thread.messages[2].author.name).toBe(personName);

    // the filter shows it under "resolved", and it can be reopened
    const filter = commentsTab(page).getByRole('combobox', { name: 'Show' });
    await filter.selectOption({ label: 'Resolved threads (1)' });
    await expect(threads(page)).toHaveCount(1);
    await threads(page).getByRole('button', { name: 'Reopen' }).click();
    await expect(threads(page)).toHaveCount(0);
    await filter.selectOption({ label: 'Open threads (1)' });
    await expect(threads(page)).toHaveCount(1);
    await expect(await badge(jupyter, 1)).toBeVisible();
  });

  test.describe('saved and reloaded', () => {
    // the reload: a shared page's reload failed on 404s for the notebooks
    // of the test before (their files gone), most likely reopened from the
    // shared workspace; this file counts console errors. A page of its own
    test.use({ shareApp: false });

    test('comments on a cell and an output from their context menus; saved, reloaded, and gone to @shell', async ({
      jupyter,
      human,
      agent
    }) => {
      await jupyter.start();
      const path = await jupyter.addFixture('simple.ipynb');
      await human.openNotebook(path, { kernel: false });
      const page = jupyter.page;
      await human.setCellOutputs(2, [
        {
          output_type: 'stream',
          name: 'stdout',
          text: 'hello from the fixture\n'
        }
      ]);

      // "Comment on Cell" from the first cell's context menu
      await (await jupyter.cell(0)).click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Comment on Cell' }).click();
      await expect(composer(page)).toContainText('On Cell 1');
      // "Add Comment" with nothing written: nothing is added, and it says why
      await composer(page).getByRole('button', { name: 'Add Comment' }).click();
      await expect(composer(page).getByRole('alert')).toHaveText(
        'Write a message first.'
      );
      await composer(page)
        .getByRole('textbox', { name: 'Comment' })
        .fill('The title could say what the notebook shows.');
      await composer(page).getByRole('button', { name: 'Add Comment' }).click();
      await expect(composer(page)).toHaveCount(0);

      // "Comment on Output" from the output's context menu
      const output = (await jupyter.cell(2)).locator('.jp-OutputArea-child');
      await output.click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Comment on Output' }).click();
      await expect(composer(page)).toContainText('On Cell 3, output 1');
      await composer(page)
        .getByRole('textbox', { name: 'Comment' })
        .fill('Print the value of x too.');
      // Escape drops a draft; nothing is stored
      await page.keyboard.press('Escape');
      await expect(composer(page)).toHaveCount(0);
      expect(await stored(page)).toHaveLength(1);
      await output.click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Comment on Output' }).click();
      await composer(page)
        .getByRole('textbox', { name: 'Comment' })
        .fill('Print the value of x too.');
      await composer(page).getByRole('button', { name: 'Add Comment' }).click();
      await expect(composer(page)).toHaveCount(0);
      await expect.poll(async () => (await stored(page)).length).toBe(2);
      const anchors = (await stored(page)).map(thread => thread.anchor);
      expect(anchors).toEqual(
        expect.arrayContaining([
          { kind: 'cell', cellId: 'intro' },
          expect.objectContaining({
            kind: 'output',
            cellId: 'greet',
            outputIndex: 0,
            mimeType: 'text/plain',
            outputFingerprint: expect.stringMatching(/^sha256:/)
          })
        ])
      );
      await expect(await badge(jupyter, 0)).toBeVisible();
      await expect(await badge(jupyter, 2)).toBeVisible();

      // saved with the notebook's own save, then the page reloaded
      await human.save();
      await page.reload();
      await jupyter.waitForApp();
      await human.openNotebook(path, { kernel: false });
      // the tools register one by one as the app starts
      await agent.waitForTools(['jupyter_list_comments']);
      const listed = await agent.call<IListed>('jupyter_list_comments', {});
      expect(listed.structured!.counts).toEqual({
        openThreads: 2,
        totalThreads: 2
      });

      // the badge opens the Comments tab on its cell's thread
      await (await badge(jupyter, 2)).click();
      const outputThread = threads(page).filter({
        hasText: 'Print the value of x too.'
      });
      await expect(outputThread).toBeFocused();
      await expect(outputThread.getByRole('heading')).toContainText(
        'Cell 3, output 1'
      );
      await expect(outputThread).toContainText(
        'The output is as it was when commented on.'
      );

      // "Go to" selects the cell the thread is about
      await threads(page)
        .filter({ hasText: 'The title could say' })
        .getByRole('button', { name: 'Go to Cell 1' })
        .click();
      await expect
        .poll(async () => (await jupyter.notebookView()).activeCellIndex)
        .toBe(0);

      // a changed output and a deleted cell are said in words
      await human.setCellOutputs(2, [
        { output_type: 'stream', name: 'stdout', text: 'something else\n' }
      ]);
      await expect(outputThread.getByRole('heading')).toContainText(
        'output changed'
      );
      await human.deleteCell(0);
      const cellThread = threads(page).filter({
        hasText: 'The title could say'
      });
      await expect(cellThread.getByRole('heading')).toContainText(
        'A deleted cell'
      );
      await expect(cellThread).toContainText(
        'The cell this thread is about was deleted.'
      );
      await expect(
        cellThread.getByRole('button', { name: /^Go to/ })
      ).toBeDisabled();
    });
  });

  test('the notebook 0.1.1 annotated, in words: every thread, the hidden one said to be hidden @shell', async ({
    jupyter,
    human
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('annotated-by-0.1.1.ipynb');
    await human.openNotebook(path, { kernel: false });
    const page = jupyter.page;
    await human.command('jupyterlite-webmcp:show-comments');
    const filter = commentsTab(page).getByRole('combobox', { name: 'Show' });
    await expect(filter.locator('option')).toHaveText([
      'Open threads (4)',
      'Resolved threads (1)',
      'All threads (5)'
    ]);
    await filter.selectOption('all');
    await expect(threads(page)).toHaveCount(5);
    const hidden = threads(page).filter({
      hasText: 'The agent cannot see this thread: its cell is hidden.'
    });
    await expect(hidden).toHaveCount(1);
    await expect(hidden).toContainText('CANARY-THREAD-e1c0');
    await expect(
      threads(page).filter({ hasText: 'resolved' }).first()
    ).toBeVisible();
  });
});
