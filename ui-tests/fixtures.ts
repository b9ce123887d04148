/**
 * The browser tests' `test`: Playwright's, plus an app, a human and an agent,
 * the same for JupyterLab, Notebook 7 and JupyterLite.
 *
 *   import { expect, test } from '../fixtures';
 *
 *   test('…', async ({ jupyter, human, agent }) => {
 *     await jupyter.open();                              // the app's home page
 *     const nb = await jupyter.addFixture('simple.ipynb'); // in the test's own dir
 *     await human.openNotebook(nb);                      // docmanager:open
 *     const result = await agent.call('jupyter_get_context');
 *   });
 *
 * Each test gets a fresh browser context (one browser per worker), its own
 * directory `jupyter.dir` (deleted afterwards on Jupyter servers, together
 * with its kernels) and, in JupyterLab, its own workspace.
 */
import { test as base } from '@playwright/test';

import { Agent } from './agent';
import { Human } from './human';
import { JupyterApp } from './jupyter';
import { McpConnector, injectMcpB } from './mcp-client';
import type { IAppOptions } from './options';
import { installPageHelpers } from './page-helpers';
import { type ISharedPage, SharedApp } from './shared-app';

export { expect } from '@playwright/test';
export { McpConnector } from './mcp-client';
export type { IToolInfo, IToolResult } from './results';

export interface IFixtures {
  /** The app: pages, readiness, the test's files, console errors. */
  jupyter: JupyterApp;
  /** The person in front of the app. */
  human: Human;
  /** An agent calling the tools through native WebMCP (or CDP). */
  agent: Agent;
  /** MCP clients over `@mcp-b/global` (projects with `mcpB: true`). */
  mcp: McpConnector;
}

interface ISharingOptions {
  /** The test may use its worker's shared app page (see shared-app.ts). */
  shareApp: boolean;
  /**
   * The shared page when it does: with `shareApp`, unless
   * UI_TESTS_SHARE_APP=0 starts an app for every test (to tell a failure of
   * sharing from one of the test).
   */
  shared: ISharedPage | null;
}

interface IWorkerFixtures {
  sharedApp: SharedApp;
}

let counter = 0;

/** A short, unique, path-safe directory name for a test. */
function testDirName(title: string, workerIndex: number): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 24);
  const unique = `${Date.now().toString(36)}${workerIndex}${(counter++).toString(36)}`;
  return `uit-${slug || 'test'}-${unique}`;
}

export const test = base.extend<
  IAppOptions & IFixtures & ISharingOptions,
  IWorkerFixtures
>({
  appKind: ['lab', { option: true }],
  shareApp: [false, { option: true }],
  shared: async ({ shareApp, sharedApp, appKind, liteUi }, use) => {
    await use(
      shareApp && process.env.UI_TESTS_SHARE_APP !== '0'
        ? await sharedApp.get(appKind === 'lite' ? liteUi : appKind)
        : null
    );
  },

  sharedApp: [
    async ({ browser }, use, workerInfo) => {
      const shared = new SharedApp(
        browser,
        workerInfo.project.use.baseURL,
        workerInfo.workerIndex
      );
      await use(shared);
      await shared.close();
    },
    { scope: 'worker' }
  ],

  // a test that shares gets the shared page; Playwright's own context is
  // still made (cheap, and closed with no page), but no page in it
  context: async ({ context, shared }, use) => {
    await use(shared?.context ?? context);
  },

  page: async ({ context, shared }, use) => {
    await use(shared?.page ?? (await context.newPage()));
  },

  liteUi: ['lab', { option: true }],
  webmcp: [true, { option: true }],
  mcpB: [false, { option: true }],
  failOnConsoleErrors: [false, { option: true }],

  jupyter: async (
    {
      context,
      page,
      appKind,
      liteUi,
      baseURL,
      mcpB,
      failOnConsoleErrors,
      shared,
      sharedApp
    },
    use,
    testInfo
  ) => {
    if (!baseURL) {
      throw new Error('the project has no baseURL (see playwright.config.ts)');
    }
    if (shared && mcpB) {
      throw new Error('a test with @mcp-b/global cannot share the app');
    }
    if (!shared) {
      await context.addInitScript(installPageHelpers);
    }
    if (mcpB) {
      await injectMcpB(context);
    }
    const jupyter = new JupyterApp({
      context,
      page,
      kind: appKind,
      ui: appKind === 'lite' ? liteUi : appKind,
      baseURL,
      dir: testDirName(testInfo.title, testInfo.workerIndex),
      sharedWorkspace: shared?.workspace
    });

    await use(jupyter);

    const errors = jupyter.consoleErrors();
    if (jupyter.console.length) {
      await testInfo.attach('console', {
        body: jupyter.console
          .map(entry => `[${entry.type}] ${entry.text} (${entry.url})`)
          .join('\n'),
        contentType: 'text/plain'
      });
    }
    if (
      shared &&
      (testInfo.status !== testInfo.expectedStatus ||
        (failOnConsoleErrors && errors.length > 0) ||
        jupyter.sharedPageReloaded)
    ) {
      // nothing of a failed test, nor a page it loaded again, is left to
      // the next: a new app
      await sharedApp.close();
    }
    await jupyter.dispose();
    if (failOnConsoleErrors && errors.length) {
      throw new Error(`unexpected console errors:\n${errors.join('\n')}`);
    }
  },

  human: async ({ jupyter }, use) => {
    await use(new Human(jupyter));
  },

  agent: async ({ jupyter }, use) => {
    const agent = new Agent(jupyter);
    await use(agent);
    await agent.dispose();
  },

  mcp: async ({ jupyter }, use) => {
    const connector = new McpConnector();
    await use(connector);
    await connector.dispose();
  }
});

/**
 * `test.use(shareInLab)`: the tests share their worker's app start-up
 * (`shareApp`) in JupyterLab only. For files whose sharing failed once,
 * unexplained, in Notebook 7 or JupyterLite, and for those that share only
 * where that was tried (docs/testing.md).
 */
export const shareInLab: Parameters<typeof test.use>[0] = {
  shareApp: async ({ appKind }, use) => use(appKind === 'lab')
};
