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

/** A directory entry, without contents. */
export interface IEntry {
  name: string;
  path: string;
  type: string;
}

export interface IPageHelpers {
  /** The exposed app; throws if `expose_app_in_browser` is off. */
  app(): JupyterFrontEnd;
  /** Resolves once the app has started and restored its layout. */
  appReady(): Promise<string>;
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
  saveNotebook(path: string, content: INotebookContent): Promise<void>;
  saveText(path: string, text: string): Promise<void>;
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

  window.uiTests = {
    app,
    async appReady() {
      const exposed = await until('window.jupyterapp', 120_000, () =>
        window.jupyterapp ? window.jupyterapp : undefined
      );
      await exposed.started;
      await exposed.restored;
      return exposed.name;
    },
    notebookPanels,
    findNotebook,
    notebookReady,
    async mkdir(path) {
      await contents().save(path, { type: 'directory' });
    },
    async saveNotebook(path, content) {
      await contents().save(path, {
        type: 'notebook',
        format: 'json',
        content
      });
    },
    async saveText(path, text) {
      await contents().save(path, {
        type: 'file',
        format: 'text',
        content: text
      });
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
    }
  };
}
