/**
 * One app page per worker, shared by the tests that ask for it with
 * `test.use({ shareApp: true })`: each such test gets the page as the last
 * one left it, the app already started, instead of loading the app again (3
 * to 4 s of a test's 8 to 10 on 2 cores, docs/testing.md). A test that
 * shares still has its own directory, notebooks and kernels; when it ends,
 * its other pages are closed, its documents closed without saving, its
 * sessions shut down and its files removed (`JupyterApp.dispose`). What the
 * app itself keeps (the Agent panel's Activity, the settings, the layout) is
 * the next test's, so only tests that neither change nor depend on it share.
 * A test that fails closes the shared page: the next one starts a new app.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';

import type { UiKind } from './options';
import { installPageHelpers } from './page-helpers';

/** What a test that shares gets: the page, its context, its workspace. */
export interface ISharedPage {
  context: BrowserContext;
  page: Page;
  /** JupyterLab's workspace of the shared page. */
  workspace: string;
}

export class SharedApp {
  constructor(
    private readonly _browser: Browser,
    private readonly _baseURL: string | undefined,
    private readonly _worker: number
  ) {}

  /**
   * The shared context and page for `ui`, made when there are none (or the
   * last were for the other user interface).
   */
  async get(ui: UiKind): Promise<ISharedPage> {
    if (this._held && (this._held.ui !== ui || this._held.page.isClosed())) {
      await this.close();
    }
    if (!this._held) {
      const context = await this._browser.newContext({
        baseURL: this._baseURL
      });
      await context.addInitScript(installPageHelpers);
      const page = await context.newPage();
      this._held = {
        ui,
        context,
        page,
        workspace: `uit-shared-${Date.now().toString(36)}${this._worker}`
      };
    }
    const { context, page, workspace } = this._held;
    return { context, page, workspace };
  }

  /** Closes the shared page: the next test that shares starts a new app. */
  async close(): Promise<void> {
    const held = this._held;
    this._held = null;
    await held?.context.close();
  }

  private _held: (ISharedPage & { ui: UiKind }) | null = null;
}
