/**
 * A browser without WebMCP (Chromium without --enable-features=WebMCP): the
 * extension registers nothing and says so, and a WebMCP polyfill installed
 * after start-up is still found.
 */
import { expect, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';

test.describe('without WebMCP @no-webmcp', () => {
  test('the status bar says WebMCP is unavailable once it stops looking', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    expect(await agent.hasModelContext()).toBe(false);
    const item = jupyter.page.locator('.jp-WebMcpStatus');
    // The bounded re-checks for a late polyfill take about 16 s in all.
    await expect(item).toHaveText('WebMCP: unavailable', { timeout: 30_000 });
    await expect(item).toHaveAttribute('title', /--enable-features=WebMCP/);
    expect(jupyter.consoleErrors()).toEqual([]);
  });

  test('a polyfill installed after start-up gets every tool', async ({
    jupyter
  }) => {
    await jupyter.open();
    // A minimal model context, installed well after the app started.
    await jupyter.page.evaluate(() => {
      const tools = new Map<
        string,
        { execute: (input: unknown) => Promise<unknown> }
      >();
      Object.defineProperty(document, 'modelContext', {
        configurable: true,
        value: {
          registerTool(tool: {
            name: string;
            execute: (input: unknown) => Promise<unknown>;
          }) {
            tools.set(tool.name, tool);
            return Promise.resolve();
          }
        }
      });
      (window as unknown as { polyfillTools: typeof tools }).polyfillTools =
        tools;
    });
    await expect
      .poll(
        () =>
          jupyter.page.evaluate(() =>
            [
              ...(
                window as unknown as { polyfillTools: Map<string, unknown> }
              ).polyfillTools.keys()
            ].sort()
          ),
        { timeout: 30_000 }
      )
      .toEqual([...IMPLEMENTED].sort());
    const result = await jupyter.page.evaluate(() =>
      (
        window as unknown as {
          polyfillTools: Map<
            string,
            { execute: (input: unknown) => Promise<unknown> }
          >;
        }
      ).polyfillTools
        .get('jupyter_get_context')!
        .execute({})
    );
    expect(result).toMatchObject({
      structuredContent: { notebook: null, kernel: null }
    });
    await expect(jupyter.page.locator('.jp-WebMcpStatus')).toHaveText(
      `WebMCP: ${IMPLEMENTED.length} tools`
    );
  });
});
