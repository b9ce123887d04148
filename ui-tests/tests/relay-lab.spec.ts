/**
 * A desktop agent through the local WebMCP relay, in a browser WITHOUT
 * WebMCP (the person's everyday browser; with UI_TESTS_RELAY_NATIVE=1, one
 * with Chromium's native WebMCP, beside which it works the same): an MCP
 * client starts the relay over stdio, the owner turns "Connect to a local
 * WebMCP relay" on in the settings, and the agent lists and calls the
 * notebook tools through the relay, with the owner's controls (input
 * validation, tools turned off, the Activity tab). Off by default: nothing
 * of the relay is fetched before.
 *
 * One relay for the file (its tests run one after the other in one worker,
 * so in one browser); each test has its own page, which the relay sees as a
 * source of its own.
 */
import { type Page } from '@playwright/test';

import { IMPLEMENTED } from '../implemented';
import { expect, test } from '../fixtures';
import { LocalRelay } from '../relay';

const RELAY = 'jupyterlite-webmcp:relay';
const WEBMCP = 'jupyterlite-webmcp:webmcp';

/** What the extension fetches only for the relay: its chunk and static/relay/. */
const RELAY_FILES = /\/jupyterlite-webmcp\/static\/relay[./]/;

const OURS = [...IMPLEMENTED].sort();

const sorted = (names: string[]) => [...names].sort();

test.describe.configure({ mode: 'serial' });

let relay: LocalRelay;

test.beforeAll(async ({ baseURL }) => {
  relay = await LocalRelay.start(new URL(baseURL!).origin);
});

test.afterAll(async () => {
  await relay?.close();
});

/** The relay's hidden frame in the page (added by its embed.js). */
const relayFrames = (page: Page) =>
  page.locator('iframe[data-webmcp-relay]').count();

test.describe('the local WebMCP relay, in a browser without WebMCP', () => {
  test('off by default; turned on, the agent lists and calls the tools through the relay, with the owner’s controls', async ({
    jupyter,
    human,
    webmcp
  }) => {
    const fetched: string[] = [];
    jupyter.page.on('request', request => {
      if (RELAY_FILES.test(request.url())) {
        fetched.push(request.url());
      }
    });
    await jupyter.open();
    // the project's browser has no WebMCP (UI_TESTS_RELAY_NATIVE=1: it has)
    expect(await jupyter.page.evaluate(() => 'modelContext' in document)).toBe(
      webmcp
    );
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path, { kernel: false });
    // off: nothing of the relay fetched or run, nothing listed
    expect(fetched).toEqual([]);
    expect(await relayFrames(jupyter.page)).toBe(0);
    expect(await relay.pageTools()).toEqual([]);

    await human.setSetting(RELAY, 'port', relay.port);
    await human.setSetting(RELAY, 'enabled', true);
    const listed = await relay.waitForPageTools(
      names => names.length === OURS.length
    );
    expect(sorted(listed)).toEqual(OURS);
    // served by the extension itself: its chunk, embed.js and widget.html
    expect(fetched.map(url => new URL(url).pathname)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/static\/relay\.[0-9a-f]+\.js$/),
        expect.stringMatching(/\/static\/relay\/embed\.js$/),
        expect.stringMatching(/\/static\/relay\/widget\.html$/)
      ])
    );

    // our envelope, through the registry's own path
    const read = await relay.call<{ cells: { id: string; source: string }[] }>(
      'jupyter_get_cells',
      { cellIds: ['set-x'] }
    );
    expect(read.isError).toBe(false);
    expect(read.structured?.cells).toEqual([
      expect.objectContaining({ id: 'set-x', source: 'x = 6 * 7\nx' })
    ]);
    expect(JSON.parse(read.text!)).toEqual(read.structured);
    // input validation answers our structured error
    const bad = await relay.call('jupyter_get_cells', { cellIds: 'set-x' });
    expect(bad).toMatchObject({
      isError: true,
      mcpIsError: true,
      structured: { error: 'INVALID_ARGUMENT' }
    });
    // the calls are in the Activity tab, as a WebMCP call's are
    await human.command('jupyterlite-webmcp:open-agent-panel');
    const rows = jupyter.page
      .locator('#jp-agent-panel')
      .getByRole('list', { name: 'Agent tool calls, newest first' })
      .getByRole('listitem');
    await expect(rows).toHaveCount(2);
    await expect(rows.last()).toContainText('jupyter_get_cells');

    // a tool the owner turns off leaves the agent's list, and comes back
    await human.setSetting(WEBMCP, 'disabledTools', ['jupyter_run_cells']);
    const fewer = await relay.waitForPageTools(
      names => !names.includes('jupyter_run_cells')
    );
    expect(sorted(fewer)).toEqual(
      OURS.filter(name => name !== 'jupyter_run_cells')
    );
    const refused = await relay.call('jupyter_run_cells', {
      cellIds: ['set-x']
    });
    expect(refused.mcpIsError).toBe(true);
    await human.setSetting(WEBMCP, 'disabledTools', []);
    expect(
      sorted(
        await relay.waitForPageTools(names =>
          names.includes('jupyter_run_cells')
        )
      )
    ).toEqual(OURS);
  });

  test('turning the setting off disconnects the page; on again, it reconnects', async ({
    jupyter,
    human
  }) => {
    await jupyter.open();
    await human.setSetting(RELAY, 'port', relay.port);
    await human.setSetting(RELAY, 'enabled', true);
    await relay.waitForPageTools(names => names.length === OURS.length);
    expect(await relayFrames(jupyter.page)).toBe(1);

    await human.setSetting(RELAY, 'enabled', false);
    expect(await relay.waitForPageTools(names => names.length === 0)).toEqual(
      []
    );
    expect(await relayFrames(jupyter.page)).toBe(0);
    expect(
      await jupyter.page.evaluate(() => 'modelContextTesting' in navigator)
    ).toBe(false);

    await human.setSetting(RELAY, 'enabled', true);
    const again = await relay.waitForPageTools(
      names => names.length === OURS.length
    );
    expect(sorted(again)).toEqual(OURS);
    const context = await relay.call<{ notebookPath: string | null }>(
      'jupyter_get_context'
    );
    expect(context.isError).toBe(false);
  });
});
