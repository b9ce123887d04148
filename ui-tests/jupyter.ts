/**
 * The app under test, the same way for JupyterLab, Notebook 7 and JupyterLite:
 * where its pages are, when it is ready, and the test's own files.
 */
import fs from 'node:fs';
import path from 'node:path';

import type { INotebookContent } from '@jupyterlab/nbformat';
import type { Contents } from '@jupyterlab/services';
import type {
  BrowserContext,
  ConsoleMessage,
  Locator,
  Page,
  WebError
} from '@playwright/test';

import type { AppKind, UiKind } from './options';
import type {
  ICellView,
  IEntry,
  IMainArea,
  INotebookState,
  INotebookView,
  IReadOptions,
  SavedModel,
  ISessionInfo
} from './page-helpers';

/** The notebooks of ui-tests/fixtures. */
export const FIXTURES_DIR = path.join(__dirname, 'fixtures');
/** The notebooks the unit tests read too (tests/fixtures). */
const SHARED_FIXTURES_DIR = path.join(__dirname, '..', 'tests', 'fixtures');

/** One console message or uncaught page error. */
export interface IConsoleEntry {
  type: string;
  text: string;
  /** The script or resource the message is about, when known. */
  url: string;
  pageUrl: string;
}

/** A console error an app logs by itself; applies where every field given matches. */
export interface INoise {
  apps?: AppKind[];
  uis?: UiKind[];
  type: string;
  text: RegExp;
  /** The resource or script the message is about. */
  url?: RegExp;
  pageUrl?: RegExp;
  why: string;
}

/** Console errors the apps log by themselves, with no extension involved. */
export const KNOWN_NOISE: INoise[] = [
  {
    apps: ['lite'],
    type: 'error',
    text: /^Failed to load resource: the server responded with a status of 404/,
    url: /\/api\/contents\/.*all\.json$/,
    why: 'JupyterLite probes the server for a listing of every directory it opens'
  },
  {
    apps: ['lite'],
    type: 'error',
    text: /^Failed to load resource: the server responded with a status of 404/,
    url: /\/favicon\.ico$/,
    why: 'the JupyterLite site has no /favicon.ico'
  },
  {
    uis: ['notebook'],
    type: 'pageerror',
    text: /^Cannot read properties of undefined \(reading 'schema'\)$/,
    why: 'Notebook 7.6.5 throws this on every page load, even with no extension installed'
  },
  {
    uis: ['notebook'],
    type: 'error',
    text: /^Cannot read properties of null \(reading 'updateRenderOption'\)$/,
    pageUrl: /\/(tree|notebooks\/)/,
    why:
      'Notebook 7.6.5 logs this on the page a notebook is opened from, the file ' +
      'browser or another notebook, when it opens in a new tab (a double click ' +
      'does it too)'
  },
  {
    apps: ['lite'],
    uis: ['notebook'],
    type: 'pageerror',
    text: /^Cannot read properties of null \(reading 'insertWidget'\)$/,
    pageUrl: /\/tree\//,
    why:
      "JupyterLite's Notebook UI throws this on the file browser page when a " +
      'notebook opens in a new tab'
  },
  {
    apps: ['lab', 'notebook'],
    type: 'error',
    text: /^Failed to load resource: the server responded with a status of 500/,
    url: /\/api\/kernels\?\d+$/,
    why:
      "jupyter_server 2.21 answers the app's poll of the kernel list with 500 " +
      'when it lands while another kernel is starting (KeyError then ' +
      "TraitError on the new kernel's last_activity, in the server log); " +
      'seen with two test workers sharing one server'
  }
];

/** One cell of a live notebook after runs (see `JupyterApp.cellRuns`). */
export interface ICellRunState {
  id: string;
  type: string;
  executionCount: number | null;
  /** Whether it shows as running or queued (`[*]`). */
  running: boolean;
  /** nbformat outputs (empty for non-code cells). */
  outputs: unknown[];
}

/** A notebook's kernel as the app's session sees it. */
export interface IKernelState {
  id: string;
  name: string;
  status: string;
}

export interface IOpenOptions {
  /** Wait for the notebook's kernel to be idle (default true). */
  kernel?: boolean;
  /** Override the UI (JupyterLite only: `/lab/` or `/notebooks/`). */
  ui?: UiKind;
}

export interface IJupyterAppOptions {
  context: BrowserContext;
  page: Page;
  kind: AppKind;
  ui: UiKind;
  baseURL: string;
  dir: string;
  /**
   * The app's page is shared with other tests of the worker (see
   * shared-app.ts): `open()` reuses it when it already shows the app, and
   * JupyterLab's workspace is this one, not the test's own.
   */
  sharedWorkspace?: string;
}

/** Events of a shared context whose listeners a test may have added. */
const SHARED_EVENTS = [
  'page',
  'request',
  'requestfailed',
  'requestfinished',
  'response',
  'dialog'
] as const;

function encodePath(value: string): string {
  return value.split('/').map(encodeURIComponent).join('/');
}

export class JupyterApp {
  constructor(options: IJupyterAppOptions) {
    this.context = options.context;
    this._page = options.page;
    this.kind = options.kind;
    this.ui = options.ui;
    this.baseURL = options.baseURL.replace(/\/$/, '');
    this.dir = options.dir;
    this._sharedWorkspace = options.sharedWorkspace ?? null;
    this._sharedPage = options.page;
    this.context.on('console', this._onConsole);
    this.context.on('weberror', this._onWebError);
  }

  private readonly _onConsole = (message: ConsoleMessage): void => {
    this.console.push({
      type: message.type(),
      text: message.text(),
      url: message.location().url,
      pageUrl: message.page()?.url() ?? ''
    });
  };

  private readonly _onWebError = (webError: WebError): void => {
    const error = webError.error();
    this.console.push({
      type: 'pageerror',
      text: error.message,
      // where it was thrown: the first frame of the stack
      url:
        error.stack
          ?.split('\n')
          .find(line => line.trim().startsWith('at '))
          ?.trim() ?? '',
      pageUrl: webError.page()?.url() ?? ''
    });
  };

  readonly context: BrowserContext;
  readonly kind: AppKind;
  readonly ui: UiKind;
  readonly baseURL: string;
  /** The test's own directory (relative to the contents root). */
  readonly dir: string;
  /** Console messages and page errors of every page, in order. */
  readonly console: IConsoleEntry[] = [];

  /**
   * Whether the shared app's page was loaded again during the test (see
   * shared-app.ts): it is then not lent to the next test.
   */
  get sharedPageReloaded(): boolean {
    return this._sharedReloaded;
  }

  /** The page the test acts on (Notebook 7 opens notebooks in new tabs). */
  get page(): Page {
    return this._page;
  }

  usePage(page: Page): void {
    this._page = page;
  }

  /** Generous for JupyterLite: its kernel boots Pyodide in the page. */
  get readyTimeout(): number {
    return this.kind === 'lite' ? 150_000 : 60_000;
  }

  /** The URL of the app's home, or of a document. */
  url(docPath?: string, ui: UiKind = this.ui): string {
    const base = this.baseURL;
    if (this.kind === 'lite') {
      const query = docPath ? `?path=${encodeURIComponent(docPath)}` : '';
      if (ui === 'notebook') {
        return docPath
          ? `${base}/notebooks/index.html${query}`
          : `${base}/tree/index.html`;
      }
      return `${base}/lab/index.html${query}`;
    }
    if (this.kind === 'notebook') {
      return docPath
        ? `${base}/notebooks/${encodePath(docPath)}`
        : `${base}/tree`;
    }
    // one workspace per test: a fresh layout, never another test's tabs
    const workspace = `${base}/lab/workspaces/${encodeURIComponent(this._sharedWorkspace ?? this.dir)}`;
    return docPath ? `${workspace}/tree/${encodePath(docPath)}` : workspace;
  }

  /**
   * Loads the app (and opens `docPath` when given), then waits for the app to
   * be restored and, for a notebook, for it to be ready.
   */
  async open(
    docPath?: string,
    options: IOpenOptions = {}
  ): Promise<INotebookState | null> {
    const url = this.url(docPath, options.ui ?? this.ui);
    // a shared page that shows the app already is used as it is
    const shown =
      !!this._sharedWorkspace &&
      !docPath &&
      new URL(this.page.url()).pathname.startsWith(new URL(url).pathname) &&
      (await this.page.evaluate(() => !!window.uiTests?.app()));
    if (!shown) {
      await this.page.goto(url);
      if (this._sharedWorkspace && (docPath || options.ui)) {
        // the page now shows a document (or another interface): the next
        // test that shares gets a new app
        this._sharedReloaded = true;
      }
    }
    await this.waitForApp();
    if (this._sharedWorkspace && !this._watchingShared) {
      // a shared page loaded again by the test (a reload, another address)
      // is not lent to the next: what it restores is this test's
      this._watchingShared = true;
      this._sharedPage.on('load', this._onSharedLoad);
    }
    if (!docPath) {
      return null;
    }
    return this.waitForNotebook(docPath, options);
  }

  /**
   * Gets the app ready for a test that creates its notebooks and then opens
   * them (`Human.openNotebook`): loads the app as `open()` does, except in
   * Notebook 7 on a page of the test's own, where nothing loads yet. There
   * the first notebook the person opens loads in this page, as a link to
   * it would, instead of in a tab opened from a tree page loaded first for
   * nothing (2 to 4 s a test); the test's files are made through the
   * server's contents API meanwhile. A test that uses the tree page (its
   * file browser, its menus) calls `open()`.
   */
  async start(): Promise<void> {
    if (this.kind === 'notebook' && !this._sharedWorkspace && this.isBlank()) {
      return;
    }
    await this.open();
  }

  /** Whether the test's page has loaded nothing yet. */
  isBlank(): boolean {
    return this.page.url() === 'about:blank';
  }

  /**
   * Loads the app again, as a person reloading it, and waits for it. In
   * JupyterLab and JupyterLite's lab page it is loaded at the app's own
   * address, not at the one in the address bar: that one names the notebook
   * in front (`…/tree/<path>`), and JupyterLab opens a notebook named there
   * once more after it has restored, bringing it to the front a moment later
   * (a second or more on a loaded machine), over whatever was opened since.
   * The layout, with that notebook, is restored from the workspace either way.
   */
  async reload(): Promise<void> {
    // what the layout restorer stored, for the message when the reloaded
    // app never focuses its main area
    const before = await this.page
      .evaluate(() => window.uiTests.savedLayout())
      .catch((error: unknown) => `the stored layout unread: ${String(error)}`);
    if (this.ui === 'notebook') {
      await this.page.reload();
    } else {
      await this.page.goto(this.url());
    }
    try {
      await this.waitForApp();
    } catch (error) {
      if (error instanceof Error) {
        error.message += `\nbefore the reload: ${before}`;
      }
      throw error;
    }
  }

  /** Waits for `window.jupyterapp` to have started and restored. */
  async waitForApp(page: Page = this.page): Promise<string> {
    await page.waitForFunction(() => !!window.uiTests, null, {
      timeout: this.readyTimeout
    });
    try {
      return await page.evaluate(() => window.uiTests.appReady());
    } catch (error) {
      // the page's last words say why it did not get ready (a failed
      // request, a plugin's error): the reporter shortens the attachment
      const tail = this.console
        .slice(-12)
        .map(entry => `  [${entry.type}] ${entry.text.slice(0, 400)}`)
        .join('\n');
      if (error instanceof Error && tail) {
        error.message += `\nthe page's last console messages:\n${tail}`;
      }
      throw error;
    }
  }

  /** Waits for an open notebook (default: the current one) to be ready. */
  async waitForNotebook(
    docPath: string | null = null,
    options: IOpenOptions = {}
  ): Promise<INotebookState> {
    const kernel = options.kernel ?? true;
    const timeoutMs = this.readyTimeout;
    return this.page.evaluate(
      ([p, k, t]) =>
        window.uiTests.notebookReady(p, { kernel: k, timeoutMs: t }),
      [docPath, kernel, timeoutMs] as const
    );
  }

  /** The on-screen notebook (default: the current one). */
  async notebook(docPath: string | null = null): Promise<Locator> {
    const id = await this.page.evaluate(
      p => window.uiTests.findNotebook(p)?.id ?? null,
      docPath
    );
    if (!id) {
      throw new Error(`no open notebook ${docPath ?? '(current)'}`);
    }
    return this.page.locator(`[id="${id}"]`);
  }

  /** The on-screen cell at `index` of a notebook (default: the current one). */
  async cell(index: number, docPath: string | null = null): Promise<Locator> {
    return (await this.notebook(docPath)).locator('.jp-Cell').nth(index);
  }

  /** `name` inside the test's directory. */
  path(name: string): string {
    return `${this.dir}/${name}`;
  }

  /**
   * Creates the test's directory (once; where, see `_save`).
   */
  async ensureDir(): Promise<string> {
    if (!this._dirCreated) {
      await this._save(this.dir, { type: 'directory' });
      this._dirCreated = true;
    }
    return this.dir;
  }

  /**
   * Saves a contents model through the app's contents manager, or, on a
   * Jupyter server before any page has loaded (`start()`), through the
   * server's contents API (no token, no XSRF check).
   */
  private async _save(target: string, model: SavedModel): Promise<void> {
    if (this.kind === 'lite' || !this.isBlank()) {
      await this.page.evaluate(([p, m]) => window.uiTests.saveContents(p, m), [
        target,
        model
      ] as const);
      return;
    }
    const response = await fetch(
      `${this.baseURL}/api/contents/${encodePath(target)}`,
      {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(model)
      }
    );
    if (!response.ok) {
      throw new Error(
        `saving ${target} failed: ${response.status} ${await response.text()}`
      );
    }
  }

  /** Saves notebook JSON as `name` in the test's directory; returns its path. */
  async createNotebook(
    name: string,
    content: INotebookContent
  ): Promise<string> {
    await this.ensureDir();
    const target = this.path(name);
    await this._save(target, { type: 'notebook', format: 'json', content });
    return target;
  }

  /** Copies a fixture (see `readFixture`) into the test's directory. */
  async addFixture(fixture: string, name: string = fixture): Promise<string> {
    return this.createNotebook(name, readFixture(fixture));
  }

  /** Saves a text file as `name` in the test's directory; returns its path. */
  async createFile(name: string, text: string): Promise<string> {
    await this.ensureDir();
    const target = this.path(name);
    await this._save(target, { type: 'file', format: 'text', content: text });
    return target;
  }

  /**
   * The contents model of a file, with its content. Pass `{ type: 'file',
   * format: 'text' }` to read a file whose name says notebook but whose
   * content is not one.
   */
  async read(
    filePath: string,
    options: IReadOptions = {}
  ): Promise<Contents.IModel> {
    return this.page.evaluate(([p, o]) => window.uiTests.read(p, o), [
      filePath,
      options
    ] as const);
  }

  /** A file's content as text, whatever its name. */
  async readText(filePath: string): Promise<string> {
    const model = await this.read(filePath, { type: 'file', format: 'text' });
    return model.content as string;
  }

  /** The saved notebook JSON of `filePath`. */
  async readNotebook(filePath: string): Promise<INotebookContent> {
    return (await this.read(filePath)).content as INotebookContent;
  }

  async list(dirPath: string = this.dir): Promise<IEntry[]> {
    return this.page.evaluate(p => window.uiTests.list(p), dirPath);
  }

  async exists(filePath: string): Promise<boolean> {
    return this.page.evaluate(p => window.uiTests.exists(p), filePath);
  }

  async remove(filePath: string): Promise<void> {
    await this.page.evaluate(p => window.uiTests.remove(p), filePath);
  }

  /** What the screen shows of a cell of a notebook (default: the current one). */
  async cellView(
    index: number,
    docPath: string | null = null
  ): Promise<ICellView> {
    return this.page.evaluate(([p, i]) => window.uiTests.cellView(p, i), [
      docPath,
      index
    ] as const);
  }

  /**
   * Once the notebook has rendered its cells up to `through`: under
   * windowing, the cells out of view are rendered one by one in idle time
   * after it opens, from the first on.
   */
  async cellsRendered(
    through: number,
    docPath: string | null = null,
    timeoutMs = 120_000
  ): Promise<void> {
    await this.page.evaluate(
      ([p, i, t]) => window.uiTests.cellsRendered(p, i, t),
      [docPath, through, timeoutMs] as const
    );
  }

  /** How a notebook is displayed: windowing mode, scroll position, active cell. */
  async notebookView(docPath: string | null = null): Promise<INotebookView> {
    return this.page.evaluate(p => window.uiTests.notebookView(p), docPath);
  }

  /** The main-area widgets of this page's app and its current widget. */
  async mainArea(): Promise<IMainArea> {
    return this.page.evaluate(() => window.uiTests.mainArea());
  }

  /**
   * The main area once the app has settled. JupyterLab opens its Launcher in
   * an empty main area a moment after it is restored (once the file browser
   * has restored), so a main area read before that changes by itself.
   * Notebook 7's notebook page has no launcher.
   */
  async settledMainArea(): Promise<IMainArea> {
    if (this.ui !== 'notebook') {
      await this.page.waitForFunction(
        () => window.uiTests.mainArea().widgets.length > 0,
        undefined,
        { timeout: this.readyTimeout }
      );
    }
    return this.mainArea();
  }

  /**
   * The sessions (notebooks with a kernel) of this test's directory the app
   * knows of, refreshed. Tests running beside it on the same server have
   * their own.
   */
  async sessions(): Promise<ISessionInfo[]> {
    const all = await this.page.evaluate(() => window.uiTests.sessions());
    return all.filter(session => session.path.startsWith(`${this.dir}/`));
  }

  /** Starts recording what a notebook's kernel is sent (see `kernelMessages`). */
  async recordKernelMessages(docPath: string | null = null): Promise<void> {
    await this.page.evaluate(
      p => window.uiTests.recordKernelMessages(p),
      docPath
    );
  }

  /** The message types sent to a notebook's kernel since recording started. */
  async kernelMessages(docPath: string | null = null): Promise<string[]> {
    return this.page.evaluate(p => window.uiTests.kernelMessages(p), docPath);
  }

  /**
   * Keeps settings saved by this browser context out of the server, which
   * every test shares: a save (`PUT /lab/api/settings/<id>`) is answered
   * here, and every later read of that plugin's settings, on any page of the
   * context, gets the saved value. JupyterLite keeps settings in the browser
   * already, so this changes nothing there.
   */
  async isolateSettings(): Promise<void> {
    if (this._isolatedSettings) {
      return;
    }
    this._isolatedSettings = true;
    const saved = this._savedSettings;
    await this.context.route(/\/lab\/api\/settings(\/|\?|$)/, async route => {
      const request = route.request();
      const url = new URL(request.url());
      const match = /\/lab\/api\/settings\/(.+)$/.exec(url.pathname);
      const id = match ? decodeURIComponent(match[1]) : null;
      if (request.method() === 'PUT' && id) {
        const body = request.postDataJSON() as { raw: string };
        saved.set(id, body.raw);
        await route.fulfill({ status: 204 });
        return;
      }
      if (request.method() !== 'GET' || saved.size === 0) {
        await route.continue();
        return;
      }
      const response = await route.fetch();
      const json = (await response.json()) as {
        id?: string;
        raw?: string;
        settings?: { id: string; raw: string }[];
      };
      const patch = (plugin: { id?: string; raw?: string }) => {
        const raw = plugin.id ? saved.get(plugin.id) : undefined;
        if (raw !== undefined) {
          plugin.raw = raw;
        }
      };
      patch(json);
      if (Array.isArray(json.settings)) {
        json.settings.forEach(patch);
      }
      await route.fulfill({ response, json });
    });
  }

  /**
   * How every cell of a notebook (default: the current one) stands after
   * runs: its execution count, whether it shows as running, and its outputs
   * as nbformat JSON, from the live model.
   */
  async cellRuns(docPath: string | null = null): Promise<ICellRunState[]> {
    return this.page.evaluate(p => {
      const panel = window.uiTests.findNotebook(p);
      if (!panel) {
        throw new Error(`no open notebook ${p ?? '(current)'}`);
      }
      return panel.content.widgets.map(widget => {
        const model = widget.model as typeof widget.model & {
          executionCount?: number | null;
          executionState?: string;
          outputs?: { toJSON(): unknown[] };
        };
        return {
          id: model.id,
          type: model.type,
          executionCount: model.executionCount ?? null,
          running: model.executionState === 'running',
          outputs: model.outputs ? model.outputs.toJSON() : []
        };
      });
    }, docPath);
  }

  /** The kernel attached to a notebook (default: the current one), or null. */
  async kernel(docPath: string | null = null): Promise<IKernelState | null> {
    return this.page.evaluate(p => {
      const panel = window.uiTests.findNotebook(p);
      if (!panel) {
        throw new Error(`no open notebook ${p ?? '(current)'}`);
      }
      const kernel = panel.sessionContext.session?.kernel ?? null;
      return kernel
        ? { id: kernel.id, name: kernel.name, status: kernel.status }
        : null;
    }, docPath);
  }

  /**
   * Lets console errors for URLs matching `pattern` pass: the browser logs a
   * failed request (a 404 for a path the test asks about on purpose) as an
   * error the page cannot prevent.
   */
  expectConsoleErrorsFor(pattern: RegExp): void {
    this._expectedErrors.push(pattern);
  }

  /** Whether `entry` is an error the app logs by itself (KNOWN_NOISE). */
  isKnownNoise(entry: IConsoleEntry): boolean {
    return KNOWN_NOISE.some(
      noise =>
        (!noise.apps || noise.apps.includes(this.kind)) &&
        (!noise.uis || noise.uis.includes(this.ui)) &&
        noise.type === entry.type &&
        noise.text.test(entry.text) &&
        (!noise.url || noise.url.test(entry.url)) &&
        (!noise.pageUrl || noise.pageUrl.test(entry.pageUrl))
    );
  }

  /**
   * Console errors and uncaught page errors, minus the apps' own known noise,
   * as `[type] text (url)` lines (readable in a failed `toEqual([])`).
   */
  consoleErrors(): string[] {
    return this.console
      .filter(
        entry =>
          (entry.type === 'error' || entry.type === 'pageerror') &&
          !this.isKnownNoise(entry) &&
          !this._expectedErrors.some(pattern => pattern.test(entry.url))
      )
      .map(
        entry =>
          `[${entry.type}] ${entry.text} (${entry.url}) on ${entry.pageUrl.replace(this.baseURL, '')}`
      );
  }

  /**
   * After the test: closes its pages, then (on a Jupyter server) shuts down
   * the kernels of its notebooks and deletes its directory. JupyterLite keeps
   * everything in the browser context, which Playwright discards.
   */
  async dispose(): Promise<void> {
    this.context.off('console', this._onConsole);
    this.context.off('weberror', this._onWebError);
    if (this._sharedWorkspace) {
      await this._leaveShared();
    }
    const server = this.kind !== 'lite' && this._dirCreated;
    if (server) {
      // a kernel shut down while it is still starting makes the server log
      // tracebacks: give the test's kernels a few seconds to come up first
      const deadline = Date.now() + 10_000;
      while (
        Date.now() < deadline &&
        (await this._sessions()).some(
          session => session.kernel?.execution_state === 'starting'
        )
      ) {
        await new Promise(resolve => setTimeout(resolve, 100));
      }
    }
    if (!this._sharedWorkspace) {
      for (const page of this.context.pages()) {
        await page.close();
      }
    }
    if (!server) {
      return;
    }
    const api = `${this.baseURL}/api`;
    for (const session of await this._sessions()) {
      await fetch(`${api}/sessions/${session.id}`, { method: 'DELETE' });
    }
    await fetch(`${api}/contents/${encodePath(this.dir)}`, {
      method: 'DELETE'
    });
  }

  /**
   * Leaves the shared page as the next test expects it: the test's other
   * pages closed, its documents closed without saving, its dialogs
   * dismissed and its notebooks' sessions shut down (the server's files and
   * sessions are then removed as for any test).
   */
  private async _leaveShared(): Promise<void> {
    const shared = this._sharedPage;
    shared.off('load', this._onSharedLoad);
    for (const page of this.context.pages()) {
      if (page !== shared) {
        await page.close();
      }
    }
    this._page = shared;
    if (shared.isClosed()) {
      // the test failed: the shared app was closed, the next one is new
      return;
    }
    // what the test added to the context: listeners, routes
    for (const event of SHARED_EVENTS) {
      this.context.removeAllListeners(event);
    }
    await this.context.unrouteAll({ behavior: 'ignoreErrors' });
    await shared.evaluate(
      ([dir, remove]) => window.uiTests.leaveShared(dir, remove),
      // JupyterLite's files are the page's: removed here, not by the server
      [this.dir, this.kind === 'lite' && this._dirCreated] as const
    );
  }

  /** The server's sessions of the test's notebooks. */
  private async _sessions(): Promise<
    { id: string; path: string; kernel?: { execution_state?: string } }[]
  > {
    const response = await fetch(`${this.baseURL}/api/sessions`);
    const sessions = (await response.json()) as {
      id: string;
      path: string;
      kernel?: { execution_state?: string };
    }[];
    return sessions.filter(session => session.path.startsWith(`${this.dir}/`));
  }

  private readonly _sharedWorkspace: string | null;
  private readonly _sharedPage: Page;
  private _watchingShared = false;
  private _sharedReloaded = false;
  private readonly _onSharedLoad = (): void => {
    this._sharedReloaded = true;
  };
  private _expectedErrors: RegExp[] = [];
  private _page: Page;
  private _dirCreated = false;
  private _isolatedSettings = false;
  private _savedSettings = new Map<string, string>();
}

/**
 * Reads `name` as notebook JSON from ui-tests/fixtures, else from
 * tests/fixtures (the notebooks the unit tests read as well).
 */
export function readFixture(name: string): INotebookContent {
  const own = path.join(FIXTURES_DIR, name);
  const file = fs.existsSync(own) ? own : path.join(SHARED_FIXTURES_DIR, name);
  return JSON.parse(fs.readFileSync(file, 'utf-8')) as INotebookContent;
}
