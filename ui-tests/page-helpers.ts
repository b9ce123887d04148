/**
 * Helpers that run inside the page, on top of `window.jupyterapp`.
 *
 * `installPageHelpers` is added as an init script of every browser context
 * (see fixtures.ts): Playwright serializes the function, so its body must be
 * self-contained (type imports only). The Node side calls the helpers through
 * `page.evaluate(() => window.uiTests.…)`.
 */
import type { ISharedCodeCell } from '@jupyter/ydoc';
import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { INotebookContent } from '@jupyterlab/nbformat';
import type { NotebookPanel } from '@jupyterlab/notebook';
import type { Contents } from '@jupyterlab/services';

/** What a ready notebook looks like to a test. */
export interface INotebookState {
  path: string;
  cellCount: number;
  activeCellIndex: number;
  dirty: boolean;
  kernelName: string | null;
  kernelStatus: string | null;
}

/** The result of running a cell the way a human does. */
export interface ICellRun {
  /** False when the cell raised (what `notebook:run-cell` reports). */
  ok: boolean;
  executionCount: number | null;
  outputs: unknown[];
}

/** How to read a file (default: what the contents manager infers from its name). */
export interface IReadOptions {
  type?: 'file' | 'notebook' | 'directory';
  format?: 'text' | 'base64' | 'json';
}

/** What a test saves: a directory, notebook JSON or a text file. */
export type SavedModel =
  | { type: 'directory' }
  | { type: 'notebook'; format: 'json'; content: INotebookContent }
  | { type: 'file'; format: 'text'; content: string };

/** A directory entry, without contents. */
export interface IEntry {
  name: string;
  path: string;
  type: string;
}

/** What the screen shows of one cell (its widget and DOM), and its model. */
export interface ICellView {
  id: string;
  index: number;
  type: string;
  source: string;
  executionCount: number | null;
  outputCount: number;
  /** The cell model's `trusted` (untrusted outputs are sanitized, scripts never run). */
  trusted: boolean;
  /** The cell's `trusted` metadata, as saved in the file. */
  metadataTrusted: unknown;
  /** Whether the cell's node is in the page. */
  attached: boolean;
  /** Whether the cell's node overlaps the visible part of the notebook. */
  inViewport: boolean;
  /** Markdown cells: whether the rendered view is shown; null otherwise. */
  rendered: boolean | null;
  /** Whether the cell's editor is shown. */
  editorVisible: boolean;
  /** Markdown cells: the rendered HTML when rendered, else null. */
  renderedHtml: string | null;
  /** The cell's visible text (prompt, editor or rendered markdown, outputs). */
  text: string;
  active: boolean;
  selected: boolean;
}

/** A main-area widget: its id and, for a document, its path. */
export interface IWidgetInfo {
  id: string;
  label: string;
  path: string | null;
}

/** The main area: its widgets in shell order, and the current one. */
export interface IMainArea {
  widgets: IWidgetInfo[];
  current: IWidgetInfo | null;
}

/** A running session as the app's session manager knows it. */
export interface ISessionInfo {
  id: string;
  path: string;
  kernelId: string | null;
}

/** How a notebook is displayed. */
export interface INotebookView {
  windowingMode: string;
  scrollTop: number;
  activeCellIndex: number;
  mode: string;
  /** Whether it is the app's current widget. */
  current: boolean;
}

export interface IPageHelpers {
  /** The exposed app; throws if `expose_app_in_browser` is off. */
  app(): JupyterFrontEnd;
  /** Resolves once the app has started and restored its layout. */
  appReady(): Promise<string>;
  /**
   * What the layout restorer last stored of the main area (the widget it
   * will bring to the front after a reload) and the shell's current widget
   * now: said when a reloaded app does not get ready.
   */
  savedLayout(): Promise<string>;
  /**
   * After a test on a page shared with the worker's next tests: its dialogs
   * dismissed, its documents closed without saving, the sessions of its
   * directory `dir` shut down and, with `remove`, the directory removed.
   */
  leaveShared(dir: string, remove: boolean): Promise<void>;
  /** Every open notebook panel in the main area. */
  notebookPanels(): NotebookPanel[];
  /** The panel of `path` (or the current notebook), or null. */
  findNotebook(path?: string | null): NotebookPanel | null;
  /** Waits for the panel of `path` to be ready (and its kernel settled). */
  notebookReady(
    path: string | null,
    options: { kernel: boolean; timeoutMs: number }
  ): Promise<INotebookState>;
  mkdir(path: string): Promise<void>;
  /** Saves a contents model (a directory, a notebook, a text file). */
  saveContents(path: string, model: SavedModel): Promise<void>;
  read(path: string, options?: IReadOptions): Promise<Contents.IModel>;
  list(path: string): Promise<IEntry[]>;
  remove(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** `docmanager:open`, as a double click in the file browser does. */
  openWithCommand(path: string): Promise<void>;
  cellSources(path: string | null): string[];
  cellIds(path: string | null): string[];
  setCellSource(path: string | null, index: number, source: string): void;
  typeInCell(
    path: string | null,
    index: number,
    text: string,
    at: number | null,
    delayMs: number
  ): Promise<void>;
  selectCells(path: string | null, from: number, to: number): void;
  selectText(
    path: string | null,
    index: number,
    start: number,
    end: number
  ): Promise<void>;
  runCell(path: string | null, index: number): Promise<ICellRun>;
  save(path: string | null): Promise<void>;
  /** Replaces a code cell's outputs in the shared model (as a kernel's replies land). */
  setCellOutputs(path: string | null, index: number, outputs: unknown[]): void;
  /** Sets one key of a cell's metadata in the shared model. */
  setCellMetadata(
    path: string | null,
    index: number,
    key: string,
    value: unknown
  ): void;
  /** Sets one key of the notebook's metadata in the shared model. */
  setNotebookMetadata(path: string | null, key: string, value: unknown): void;
  /** Runs an app command, as a menu item or a keyboard shortcut does. */
  execute(command: string, args?: Record<string, unknown>): Promise<void>;
  /** What the screen shows of a cell. */
  cellView(path: string | null, index: number): ICellView;
  /**
   * Scrolls a cell into view without activating it (as the scroll bar does),
   * waits for its widget to be ready, and reports what shows.
   */
  scrollToCell(path: string | null, index: number): Promise<ICellView>;
  /**
   * Resolves once the notebook has rendered its cells up to `through` (none
   * of them is left a placeholder for its windowing to render later), two
   * frames after the last.
   */
  cellsRendered(
    path: string | null,
    through: number,
    timeoutMs: number
  ): Promise<void>;
  /** How a notebook is displayed: windowing, scroll position, active cell. */
  notebookView(path: string | null): INotebookView;
  /** The main-area widgets and the current one. */
  mainArea(): IMainArea;
  /** The sessions the app's session manager knows of, refreshed first. */
  sessions(): Promise<ISessionInfo[]>;
  /** Starts recording the messages a notebook's kernel connections send. */
  recordKernelMessages(path: string | null): void;
  /** The message types sent since `recordKernelMessages`, in order. */
  kernelMessages(path: string | null): string[];
  /** Sets a setting through the app's settings registry (as the Settings Editor does). */
  setSetting(plugin: string, key: string, value: unknown): Promise<void>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/naming-convention
  interface Window {
    jupyterapp?: JupyterFrontEnd;
    uiTests: IPageHelpers;
  }
}

/** Installs `window.uiTests` (top-level frames only). */
export function installPageHelpers(): void {
  if (window.top !== window) {
    return;
  }

  const sleep = (ms: number) =>
    new Promise<void>(resolve => setTimeout(resolve, ms));

  /**
   * Polls `probe` until it returns a value other than undefined; `state`
   * describes what was last seen, for the timeout message.
   */
  async function until<T>(
    what: string,
    timeoutMs: number,
    probe: () => T | undefined,
    state?: () => string
  ): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value !== undefined) {
        return value;
      }
      if (performance.now() > deadline) {
        const seen = state ? ` (${state()})` : '';
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}${seen}`
        );
      }
      await sleep(50);
    }
  }

  function app(): JupyterFrontEnd {
    const exposed = window.jupyterapp;
    if (!exposed) {
      throw new Error('window.jupyterapp is not exposed');
    }
    return exposed;
  }

  function isNotebookPanel(widget: unknown): widget is NotebookPanel {
    const candidate = widget as Partial<NotebookPanel> | null;
    return (
      !!candidate &&
      !!candidate.context &&
      !!candidate.sessionContext &&
      !!candidate.content &&
      'activeCellIndex' in candidate.content
    );
  }

  function notebookPanels(): NotebookPanel[] {
    return [...app().shell.widgets('main')].filter(isNotebookPanel);
  }

  function findNotebook(path?: string | null): NotebookPanel | null {
    const panels = notebookPanels();
    if (path) {
      return panels.find(panel => panel.context.path === path) ?? null;
    }
    const current = app().shell.currentWidget;
    if (isNotebookPanel(current)) {
      return current;
    }
    return panels.length ? panels[panels.length - 1] : null;
  }

  function panelOf(path: string | null): NotebookPanel {
    const panel = findNotebook(path);
    if (!panel) {
      throw new Error(`no open notebook ${path ?? '(current)'}`);
    }
    return panel;
  }

  function cellOf(path: string | null, index: number) {
    const model = panelOf(path).content.model;
    const cell = model?.sharedModel.cells[index];
    if (!cell) {
      throw new Error(`no cell ${index} in ${path ?? '(current)'}`);
    }
    return cell;
  }

  function state(panel: NotebookPanel): INotebookState {
    const kernel = panel.sessionContext.session?.kernel ?? null;
    return {
      path: panel.context.path,
      cellCount: panel.content.model?.cells.length ?? 0,
      activeCellIndex: panel.content.activeCellIndex,
      dirty: panel.context.model.dirty,
      kernelName: kernel?.name ?? null,
      kernelStatus: kernel?.status ?? null
    };
  }

  async function notebookReady(
    path: string | null,
    options: { kernel: boolean; timeoutMs: number }
  ): Promise<INotebookState> {
    const { timeoutMs } = options;
    const panel = await until(
      `notebook ${path ?? '(current)'} to open`,
      timeoutMs,
      () => findNotebook(path) ?? undefined
    );
    await panel.context.ready;
    await panel.revealed;
    await until('the cells to render', timeoutMs, () =>
      panel.content.widgets.length === (panel.content.model?.cells.length ?? -1)
        ? true
        : undefined
    );
    if (options.kernel) {
      const session = panel.sessionContext;
      const kernelState = () => {
        const kernel = session.session?.kernel;
        return kernel
          ? `kernel ${kernel.name}: status ${kernel.status}, connection ${kernel.connectionStatus}`
          : `no kernel yet (session ${session.session ? 'started' : 'none'}, ` +
              `hasNoKernel ${session.hasNoKernel}, ready ${session.isReady})`;
      };
      await until(
        'the session to be ready',
        timeoutMs,
        () => (session.isReady ? true : undefined),
        kernelState
      );
      await until(
        'the kernel to settle',
        timeoutMs,
        () => {
          if (session.hasNoKernel) {
            return true;
          }
          const kernel = session.session?.kernel;
          return kernel &&
            kernel.connectionStatus === 'connected' &&
            kernel.status === 'idle'
            ? true
            : undefined;
        },
        kernelState
      );
    }
    return state(panel);
  }

  const contents = () => app().serviceManager.contents;

  async function remove(path: string): Promise<void> {
    const model = await contents().get(path, { content: true });
    if (model.type === 'directory' && Array.isArray(model.content)) {
      // JupyterLite (and servers without always_delete_dir) keep non-empty dirs
      for (const entry of model.content as Contents.IModel[]) {
        await remove(entry.path);
      }
    }
    await contents().delete(path);
  }

  async function runCell(
    path: string | null,
    index: number
  ): Promise<ICellRun> {
    const panel = panelOf(path);
    const notebook = panel.content;
    const cell = cellOf(path, index);
    app().shell.activateById(panel.id);
    notebook.deselectAll();
    notebook.activeCellIndex = index;
    // the command resolves once the kernel has replied to the execution
    const ok = (await app().commands.execute('notebook:run-cell')) !== false;
    if (cell.cell_type !== 'code') {
      return { ok, executionCount: null, outputs: [] };
    }
    const code = cell as ISharedCodeCell;
    await until('the kernel to be idle', 60_000, () =>
      panel.sessionContext.session?.kernel?.status === 'idle' ? true : undefined
    );
    return {
      ok,
      executionCount: code.execution_count,
      outputs: code.getOutputs()
    };
  }

  /** The part of the notebook the human can see (its scroll container). */
  function scroller(panel: NotebookPanel): HTMLElement {
    const node = panel.content.node;
    return (
      (node.querySelector('.jp-WindowedPanel-outer') as HTMLElement | null) ??
      node
    );
  }

  function isShown(node: Element | null): boolean {
    if (!node || !node.isConnected) {
      return false;
    }
    const element = node as HTMLElement;
    return (
      !element.classList.contains('lm-mod-hidden') &&
      element.getClientRects().length > 0 &&
      getComputedStyle(element).display !== 'none'
    );
  }

  function cellView(path: string | null, index: number): ICellView {
    const panel = panelOf(path);
    const notebook = panel.content;
    const widget = notebook.widgets[index];
    if (!widget) {
      throw new Error(`no cell widget ${index} in ${path ?? '(current)'}`);
    }
    const model = widget.model;
    const shared = model.sharedModel;
    const node = widget.node;
    const attached = node.isConnected;
    let inViewport = false;
    if (attached && node.getClientRects().length > 0) {
      const cell = node.getBoundingClientRect();
      const view = scroller(panel).getBoundingClientRect();
      inViewport =
        cell.height > 0 && cell.top < view.bottom && cell.bottom > view.top;
    }
    const isMarkdown = model.type === 'markdown';
    const rendered = isMarkdown
      ? (widget as unknown as { rendered: boolean }).rendered
      : null;
    const markdownOutput = isMarkdown
      ? node.querySelector('.jp-MarkdownOutput')
      : null;
    const editorNode = node.querySelector('.jp-InputArea-editor');
    const code = model.type === 'code' ? (shared as ISharedCodeCell) : null;
    return {
      id: model.id,
      index,
      type: model.type,
      source: shared.getSource(),
      executionCount: code ? (code.execution_count ?? null) : null,
      outputCount: code ? code.getOutputs().length : 0,
      trusted: model.trusted,
      metadataTrusted: shared.getMetadata('trusted') ?? null,
      attached,
      inViewport,
      rendered,
      editorVisible: isShown(editorNode),
      renderedHtml:
        rendered && markdownOutput ? markdownOutput.innerHTML : null,
      text: attached ? (node as HTMLElement).innerText : '',
      active: notebook.activeCellIndex === index,
      selected: notebook.isSelectedOrActive(widget)
    };
  }

  const kernelLogs = new Map<string, string[]>();

  /** A service of the app, its token found by the end of its name. */
  function service<T>(nameEnd: RegExp, what: string): Promise<T> {
    // tests cannot import the tokens
    const registry = (
      app() as unknown as {
        pluginRegistry?: { _services?: Map<{ name: string }, string> };
      }
    ).pluginRegistry;
    const token = [...(registry?._services?.keys() ?? [])].find(candidate =>
      nameEnd.test(candidate.name)
    );
    if (!token) {
      throw new Error(`${what} is not found`);
    }
    return (
      app() as unknown as {
        resolveRequiredService(token: unknown): Promise<T>;
      }
    ).resolveRequiredService(token);
  }

  function settingRegistry(): Promise<{
    set(plugin: string, key: string, value: unknown): Promise<void>;
  }> {
    return service(/:ISettingRegistry$/, 'the settings registry');
  }

  /**
   * Our plugins come after the layout is restored (src/load-plugins.ts):
   * the app is ready once they have started and the registry's first
   * registrations have settled (or its first look found no WebMCP), as a
   * person finds the page once it has loaded; or once the loader said it
   * could not fetch them (its notification). An app without the extension
   * is ready at once.
   */
  async function ourPluginsStarted(exposed: JupyterFrontEnd): Promise<void> {
    const lumino = exposed as unknown as {
      hasPlugin(id: string): boolean;
      isPluginActivated(id: string): boolean;
    };
    if (!lumino.hasPlugin('jupyterlite-webmcp:load-plugins')) {
      return;
    }
    const webmcp = 'jupyterlite-webmcp:webmcp';
    const failed = () =>
      [...document.querySelectorAll('.Toastify__toast')].some(toast =>
        toast.textContent?.includes('could not be loaded')
      );
    await until(
      "the extension's plugins to start",
      60_000,
      () => (lumino.isPluginActivated(webmcp) || failed() ? true : undefined),
      () => `registered: ${lumino.hasPlugin(webmcp)}`
    );
    if (failed()) {
      return;
    }
    // `settled`: the first registrations settled, or the first look found
    // no WebMCP (not the end of the re-checks for a late polyfill, which a
    // test may install once the app is ready)
    const registry = await service<{ settled(): Promise<void> }>(
      /^jupyterlite-webmcp:IToolRegistry$/,
      "the extension's registry"
    );
    let settled = false;
    void registry.settled().then(() => {
      settled = true;
    });
    await until('the first registrations to settle', 60_000, () =>
      settled ? true : undefined
    );
  }

  window.uiTests = {
    app,
    async appReady() {
      const exposed = await until('window.jupyterapp', 120_000, () =>
        window.jupyterapp ? window.jupyterapp : undefined
      );
      await exposed.started;
      await exposed.restored;
      // JupyterLab (and Lite's lab) fills an empty main area with a launcher
      // after `restored`, and activating it moves the keyboard focus there a
      // moment later (700 ms under load). A test that focused something
      // first lost it then; so the app is ready once its main area holds the
      // focus, as a person arriving at the page would find it.
      const shell = exposed.shell as unknown as {
        mode?: string;
        currentWidget?: { node: HTMLElement } | null;
      };
      if (shell.mode === 'multiple-document') {
        await until(
          'the main area to be shown and focused',
          30_000,
          () =>
            shell.currentWidget?.node.contains(document.activeElement)
              ? true
              : undefined,
          () => {
            // a dialog in front (e.g. JupyterLab's "Server Connection Error")
            // keeps the focus: name it, so a failure says which one
            const dialog = document.querySelector('.jp-Dialog-content');
            const shown = dialog
              ? `, dialog: ${(dialog as HTMLElement).innerText.replace(/\s+/g, ' ').slice(0, 300)}`
              : '';
            // and which widgets the main area shows
            const visible = [
              ...document.querySelectorAll<HTMLElement>(
                '#jp-main-dock-panel .lm-DockPanel-widget:not(.lm-mod-hidden)'
              )
            ].map(node => node.id || node.className);
            return `current: ${shell.currentWidget?.node.className ?? 'none'}, focus: ${
              document.activeElement?.className ?? 'none'
            }, main area shows: ${visible.join(' ') || 'nothing'}${shown}`;
          }
        );
      }
      await ourPluginsStarted(exposed);
      return exposed.name;
    },
    async savedLayout() {
      const db = await service<{ fetch(id: string): Promise<unknown> }>(
        /:IStateDB$/,
        'the state database'
      );
      const data = (await db.fetch('layout-restorer:data')) as {
        main?: { current?: string | null };
      } | null;
      const shell = app().shell as unknown as {
        currentWidget?: { id: string } | null;
      };
      return `stored main area current: ${data?.main?.current ?? 'none'}, shell current: ${shell.currentWidget?.id ?? 'none'}`;
    },
    async leaveShared(dir, removeDir) {
      // the file browser back at the root: one left in the test's directory
      // says "Directory not found" once the directory is removed
      let browser: {
        model: { path: string; cd(path: string): Promise<void> };
      } | null = null;
      try {
        browser = await service(/:IDefaultFileBrowser$/, 'the file browser');
      } catch {
        // an app without one
      }
      if (browser?.model.path.startsWith(dir)) {
        await browser.model.cd('/');
      }
      for (const button of document.querySelectorAll<HTMLElement>(
        '.jp-Dialog .jp-mod-reject'
      )) {
        button.click();
      }
      // the test's notifications dismissed, toasts gone: one left on screen
      // would answer the next test's wait for its own (the same words, for a
      // file of the same name, in a test run again)
      if (app().commands.hasCommand('apputils:dismiss-notification')) {
        // with no id: every notification
        await app().commands.execute('apputils:dismiss-notification', {});
      }
      await until("the test's notifications to leave the screen", 5000, () =>
        document.querySelector('.Toastify__toast') ? undefined : true
      );
      for (const widget of [...app().shell.widgets('main')]) {
        const context = (widget as { context?: { model: { dirty: boolean } } })
          .context;
        if (context) {
          // closed as it is: nothing asks to save it
          context.model.dirty = false;
          widget.dispose();
        }
      }
      // the main area focused again, as after a load (what appReady waits for)
      const shell = app().shell;
      const front = shell.currentWidget ?? [...shell.widgets('main')][0];
      if (front) {
        shell.activateById(front.id);
      }
      const sessions = app().serviceManager.sessions;
      await sessions.refreshRunning();
      for (const session of [...sessions.running()]) {
        if (session.path.startsWith(`${dir}/`)) {
          await sessions.shutdown(session.id);
        }
      }
      if (removeDir) {
        await remove(dir);
      }
    },
    notebookPanels,
    findNotebook,
    notebookReady,
    async mkdir(path) {
      await contents().save(path, { type: 'directory' });
    },
    async saveContents(path, model) {
      await contents().save(path, model);
    },
    read: (path, options = {}) =>
      contents().get(path, { ...options, content: true }),
    async list(path) {
      const model = await contents().get(path, { content: true });
      return (model.content as Contents.IModel[]).map(entry => ({
        name: entry.name,
        path: entry.path,
        type: entry.type
      }));
    },
    remove,
    async exists(path) {
      try {
        await contents().get(path, { content: false });
        return true;
      } catch {
        return false;
      }
    },
    async openWithCommand(path) {
      await app().commands.execute('docmanager:open', {
        path,
        factory: 'Notebook'
      });
    },
    cellSources: path =>
      panelOf(path).content.model?.sharedModel.cells.map(cell =>
        cell.getSource()
      ) ?? [],
    cellIds: path =>
      panelOf(path).content.model?.sharedModel.cells.map(cell => cell.id) ?? [],
    setCellSource(path, index, source) {
      cellOf(path, index).setSource(source);
    },
    async typeInCell(path, index, text, at, delayMs) {
      const cell = cellOf(path, index);
      let position = at ?? cell.getSource().length;
      for (const char of text) {
        // one change per keystroke, as a collaborator's typing arrives
        cell.updateSource(position, position, char);
        position += char.length;
        if (delayMs > 0) {
          await sleep(delayMs);
        }
      }
    },
    selectCells(path, from, to) {
      const notebook = panelOf(path).content;
      notebook.deselectAll();
      notebook.activeCellIndex = from;
      if (to !== from) {
        notebook.extendContiguousSelectionTo(to);
      }
    },
    async selectText(path, index, start, end) {
      const notebook = panelOf(path).content;
      notebook.activeCellIndex = index;
      await notebook.scrollToItem(index);
      const cell = notebook.widgets[index];
      await cell.ready;
      const editor = cell.editor;
      const from = editor?.getPositionAt(start);
      const to = editor?.getPositionAt(end);
      if (!editor || !from || !to) {
        throw new Error(`cannot select ${start}-${end} in cell ${index}`);
      }
      editor.setSelection({ start: from, end: to });
    },
    runCell,
    async save(path) {
      await panelOf(path).context.save();
    },
    setCellOutputs(path, index, outputs) {
      const cell = cellOf(path, index);
      if (cell.cell_type !== 'code') {
        throw new Error(`cell ${index} is not a code cell`);
      }
      (cell as ISharedCodeCell).setOutputs(
        outputs as Parameters<ISharedCodeCell['setOutputs']>[0]
      );
    },
    setCellMetadata(path, index, key, value) {
      cellOf(path, index).setMetadata(key, value as never);
    },
    setNotebookMetadata(path, key, value) {
      const model = panelOf(path).content.model;
      if (!model) {
        throw new Error(`no model for ${path ?? '(current)'}`);
      }
      model.sharedModel.setMetadata(key, value as never);
    },
    async execute(command, args = {}) {
      await app().commands.execute(command, args as never);
    },
    cellView,
    async scrollToCell(path, index) {
      const notebook = panelOf(path).content;
      await notebook.scrollToItem(index, 'center');
      const widget = notebook.widgets[index];
      await widget.ready;
      // the windowed list attaches the cell on its next frame
      await until(`cell ${index} to be attached`, 10_000, () =>
        widget.node.isConnected && cellView(path, index).inViewport
          ? true
          : undefined
      );
      return cellView(path, index);
    },
    async cellsRendered(path, through, timeoutMs) {
      const notebook = panelOf(path).content;
      const left = () =>
        notebook.widgets
          .slice(0, through + 1)
          .filter(cell => cell.isPlaceholder()).length;
      await until(
        `cells 0-${through} to be rendered`,
        timeoutMs,
        () => (left() === 0 ? true : undefined),
        () => `${left()} not rendered`
      );
      // full windowing takes the last one it rendered out of the page on the
      // next animation frame
      for (let frame = 0; frame < 2; frame++) {
        await new Promise(resolve => requestAnimationFrame(resolve));
      }
    },
    notebookView(path) {
      const panel = panelOf(path);
      const notebook = panel.content;
      return {
        windowingMode: notebook.notebookConfig.windowingMode,
        scrollTop: scroller(panel).scrollTop,
        activeCellIndex: notebook.activeCellIndex,
        mode: notebook.mode,
        current: app().shell.currentWidget === panel
      };
    },
    mainArea() {
      const info = (widget: unknown): IWidgetInfo => {
        const w = widget as {
          id: string;
          title: { label: string };
          context?: { path?: string };
        };
        return {
          id: w.id,
          label: w.title.label,
          path: w.context?.path ?? null
        };
      };
      const current = app().shell.currentWidget;
      return {
        widgets: [...app().shell.widgets('main')].map(info),
        current: current ? info(current) : null
      };
    },
    async sessions() {
      const manager = app().serviceManager.sessions;
      await manager.refreshRunning();
      return [...manager.running()].map(session => ({
        id: session.id,
        path: session.path,
        kernelId: session.kernel?.id ?? null
      }));
    },
    recordKernelMessages(path) {
      const panel = panelOf(path);
      const log: string[] = [];
      kernelLogs.set(panel.id, log);
      const watch = (
        kernel: (typeof panel.sessionContext.session & object)['kernel']
      ) => {
        kernel?.anyMessage.connect((_, message) => {
          if (
            message.direction === 'send' &&
            kernelLogs.get(panel.id) === log
          ) {
            log.push(message.msg.header.msg_type);
          }
        });
      };
      watch(panel.sessionContext.session?.kernel ?? null);
      panel.sessionContext.kernelChanged.connect((_, change) =>
        watch(change.newValue)
      );
    },
    kernelMessages(path) {
      const log = kernelLogs.get(panelOf(path).id);
      if (!log) {
        throw new Error('recordKernelMessages was not called');
      }
      return [...log];
    },
    async setSetting(plugin, key, value) {
      await (await settingRegistry()).set(plugin, key, value);
    }
  };
}
