/**
 * A small start (docs/architecture.md): the tools are registered from their
 * definitions, and the rest comes in a chunk fetched once the start is over.
 * When that chunk cannot be fetched (offline, or a cached page of an earlier
 * version asking for files the server no longer has), the page says what is
 * missing in the status bar's words, an agent's call says so too, and the
 * next call once the chunk can be fetched works, the parts that failed with
 * it coming back without a reload: no uncaught error.
 *
 * The extension's rule, the same in every app: JupyterLab only (@rule).
 */
import { type BrowserContext } from '@playwright/test';

import { expect, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';

/** The later chunk's file, as the federation runtime names it. */
const LATER_CHUNK = /\/later\.[0-9a-f]+\.js/;
/** Our plugins' chunk, fetched once the layout is restored. */
const PLUGINS_CHUNK = /\/plugins\.[0-9a-f]+\.js/;

/**
 * Refuses every request for `chunk`, as an offline page would see it,
 * counting them, until `stop`.
 */
async function refuse(
  context: BrowserContext,
  chunk: RegExp
): Promise<{ readonly count: number; stop(): Promise<void> }> {
  let count = 0;
  const handler = async (route: { abort(code: string): Promise<void> }) => {
    count++;
    await route.abort('internetdisconnected');
  };
  await context.route(chunk, handler);
  return {
    get count() {
      return count;
    },
    stop: () => context.unroute(chunk, handler)
  };
}

test.describe('a part that fails to load', () => {
  test('the tools stay registered, the status bar names what is missing, and the next call fetches it again, the rest following @rule', async ({
    jupyter,
    agent
  }) => {
    const refused = await refuse(jupyter.page.context(), LATER_CHUNK);
    // the browser reports each refused file, and JupyterLab the deferred
    // plugins (the review store, the output-selection tracker) it could not
    // start: expected here, and checked below to be nothing else
    jupyter.expectConsoleErrorsFor(LATER_CHUNK);

    await jupyter.open();
    await agent.waitForTools(IMPLEMENTED);
    const item = jupyter.page.locator('.jp-WebMcpStatus');
    await expect(item).toHaveText(
      new RegExp(`^WebMCP: ${IMPLEMENTED.length} tools · \\d+ parts? missing$`)
    );
    await expect(item).toHaveAttribute(
      'title',
      /Could not load the notebook tools: the page may be offline, or hold files of an earlier version\. Reload the page\./
    );
    expect(refused.count).toBeGreaterThan(0);
    // the Access section is a part of that chunk: not there
    const accessSection = jupyter.page.locator('#jp-agent-panel-access');
    await expect(accessSection).toHaveCount(0);

    const failed = await agent.call('jupyter_list_workspace');
    expect(failed.isError).toBe(true);
    expect(failed.structured).toEqual({
      error: 'WEBMCP_UNAVAILABLE',
      message:
        'The notebook tools could not be loaded: the page may be offline, or hold files of an earlier version. Reload the page.',
      part: 'the notebook tools'
    });

    // back online: the next call fetches the chunk and answers
    await refused.stop();
    const listed = await agent.call<{ entries: unknown[] }>(
      'jupyter_list_workspace'
    );
    expect(listed.isError).toBe(false);
    expect(Array.isArray(listed.structured?.entries)).toBe(true);
    await expect(item).not.toHaveAttribute(
      'title',
      /Could not load the notebook tools/
    );
    // and the parts that failed with it come back without a reload: the
    // sections, the markers, the review store, the output selection
    await expect(item).toHaveText(`WebMCP: ${IMPLEMENTED.length} tools`);
    await expect(accessSection).toHaveCount(1);

    const unexpected = jupyter
      .consoleErrors()
      .filter(
        line =>
          !/Error when activating deferred plugins/.test(line) &&
          !/could not be loaded/.test(line)
      );
    expect(unexpected).toEqual([]);
    expect(jupyter.console.filter(entry => entry.type === 'pageerror')).toEqual(
      []
    );
  });

  test('our plugins that cannot be fetched are named in a notification, and "Try again" starts them @rule', async ({
    jupyter,
    agent
  }) => {
    const refused = await refuse(jupyter.page.context(), PLUGINS_CHUNK);
    jupyter.expectConsoleErrorsFor(PLUGINS_CHUNK);

    await jupyter.open();
    const notice = jupyter.page
      .locator('.Toastify__toast')
      .filter({ hasText: 'The WebMCP notebook tools could not be loaded' });
    await expect(notice).toBeVisible();
    expect(refused.count).toBeGreaterThan(0);
    // nothing of ours but the start: no tools, no status item
    expect(await agent.toolNames()).toEqual([]);
    await expect(jupyter.page.locator('.jp-WebMcpStatus')).toHaveCount(0);

    // back online: the person presses "Try again"
    await refused.stop();
    await notice.getByRole('button', { name: 'Try again' }).click();
    await agent.waitForTools(IMPLEMENTED);
    await expect(jupyter.page.locator('.jp-WebMcpStatus')).toHaveText(
      `WebMCP: ${IMPLEMENTED.length} tools`
    );
    const listed = await agent.call('jupyter_list_workspace');
    expect(listed.isError).toBe(false);

    const unexpected = jupyter
      .consoleErrors()
      .filter(line => !/could not be loaded/.test(line));
    expect(unexpected).toEqual([]);
    expect(jupyter.console.filter(entry => entry.type === 'pageerror')).toEqual(
      []
    );
  });
});
