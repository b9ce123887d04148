/**
 * The review thread counts (`review`) of jupyter_open_notebook and
 * jupyter_get_context, through native WebMCP, on the notebook
 * jupyterlite-webmcp 0.1.1 annotated (ui-tests/fixtures, a copy of
 * tests/fixtures): five threads, four of them open, one of those on the
 * hidden ("none") cell rv-code-2. Only agent-visible threads count, whether
 * the notebook is read from its live model or from its file.
 */
import type { Agent } from '../agent';
import { expect, shareInLab, test } from '../fixtures';

const FIXTURE = 'annotated-by-0.1.1.ipynb';
/** Only the thread on the hidden cell holds it. */
const CANARY = 'CANARY-THREAD-e1c0';

interface IReviewCounts {
  openThreads: number;
  totalThreads: number;
}

interface IWithReview {
  review: IReviewCounts | null;
  openedIn?: string;
}

const hide = { version: 1, access: 'none' };
const show = { version: 1, access: 'write' };

/** `review` as jupyter_get_context and jupyter_open_notebook report it now. */
async function counts(
  agent: Agent,
  path: string
): Promise<{ context: IReviewCounts | null; open: IReviewCounts | null }> {
  const context = await agent.call<IWithReview>('jupyter_get_context');
  const open = await agent.call<IWithReview>('jupyter_open_notebook', {
    path
  });
  for (const result of [context, open]) {
    expect(result.isError, result.text).toBe(false);
    expect(result.text).not.toContain(CANARY);
  }
  // reopening the open notebook reuses it in this page
  expect(open.structured!.openedIn).toBeUndefined();
  return { context: context.structured!.review, open: open.structured!.review };
}

test.describe('review thread counts', () => {
  // each test works in its own notebooks and leaves the app as it found
  // it: in JupyterLab they share the worker's app start-up
  test.use(shareInLab);

  test('jupyter_open_notebook and jupyter_get_context count only the threads the agent may see', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.open();
    const path = await jupyter.addFixture(FIXTURE);
    await agent.waitForTools(['jupyter_open_notebook', 'jupyter_get_context']);

    if (jupyter.ui === 'notebook') {
      // Another tab's notebook: this tab counts it from its file
      const [tab, opened] = await Promise.all([
        jupyter.context.waitForEvent('page'),
        agent.call<IWithReview>('jupyter_open_notebook', { path })
      ]);
      expect(opened.isError, opened.text).toBe(false);
      expect(opened.structured).toMatchObject({
        openedIn: 'new-tab',
        review: { openThreads: 3, totalThreads: 4 }
      });
      expect(opened.text).not.toContain(CANARY);
      jupyter.usePage(tab);
      await jupyter.waitForApp(tab);
      await jupyter.waitForNotebook(path);
      await agent.waitForTools(['jupyter_open_notebook']);
    } else {
      const opened = await agent.call<IWithReview>('jupyter_open_notebook', {
        path
      });
      expect(opened.isError, opened.text).toBe(false);
      expect(opened.structured!.review).toEqual({
        openThreads: 3,
        totalThreads: 4
      });
    }

    // The live model: five stored threads, the hidden cell's one left out.
    const visible = { openThreads: 3, totalThreads: 4 };
    expect(await counts(agent, path)).toEqual({
      context: visible,
      open: visible
    });

    // The owner hides rv-code-3 (read): its open thread leaves the count.
    await human.setCellMetadata(3, 'jupyterlite_webmcp', hide);
    const lower = { openThreads: 2, totalThreads: 3 };
    expect(await counts(agent, path)).toEqual({ context: lower, open: lower });

    // ...and rv-code-4: its resolved thread goes, the open count stays.
    await human.setCellMetadata(4, 'jupyterlite_webmcp', hide);
    const lowest = { openThreads: 2, totalThreads: 2 };
    expect(await counts(agent, path)).toEqual({
      context: lowest,
      open: lowest
    });

    // Showing the cells again brings their threads back.
    await human.setCellMetadata(3, 'jupyterlite_webmcp', show);
    await human.setCellMetadata(4, 'jupyterlite_webmcp', show);
    expect(await counts(agent, path)).toEqual({
      context: visible,
      open: visible
    });
  });
});
