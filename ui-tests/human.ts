/**
 * What the person at the keyboard (or a collaborator) does, through the app's
 * own commands and shared models rather than through the agent's tools.
 *
 * Every method acts on the current notebook unless `path` is given.
 */
import type { ICellRun, INotebookState } from './page-helpers';
import type { IOpenOptions, JupyterApp } from './jupyter';

export interface INotebookRef {
  /** The notebook to act on (default: the current one). */
  path?: string;
}

export class Human {
  constructor(jupyter: JupyterApp) {
    this._jupyter = jupyter;
  }

  private get _page() {
    return this._jupyter.page;
  }

  /**
   * Opens a notebook with the app's `docmanager:open` command, as a double
   * click in the file browser does, and waits for it to be ready. Notebook 7
   * (and JupyterLite's Notebook UI) open it in a new browser tab: the test then
   * follows that tab (`jupyter.page` becomes the new page).
   */
  async openNotebook(
    path: string,
    options: IOpenOptions = {}
  ): Promise<INotebookState> {
    const jupyter = this._jupyter;
    const alreadyHere = await this._page.evaluate(
      p => !!window.uiTests.findNotebook(p),
      path
    );
    if (jupyter.ui === 'notebook' && !alreadyHere) {
      const [tab] = await Promise.all([
        jupyter.context.waitForEvent('page', { timeout: jupyter.readyTimeout }),
        this._page.evaluate(p => window.uiTests.openWithCommand(p), path)
      ]);
      jupyter.usePage(tab);
      await jupyter.waitForApp(tab);
    } else if (jupyter.ui === 'lab') {
      // opens it, or brings its existing tab to the front
      await this._page.evaluate(p => window.uiTests.openWithCommand(p), path);
    }
    return jupyter.waitForNotebook(path, options);
  }

  /** Replaces a cell's source in the shared model (one collaborator edit). */
  async setCellSource(
    index: number,
    source: string,
    ref: INotebookRef = {}
  ): Promise<void> {
    await this._page.evaluate(
      ([p, i, s]) => window.uiTests.setCellSource(p, i, s),
      [ref.path ?? null, index, source] as const
    );
  }

  /**
   * Types `text` into a cell one character per shared-model change, at `at`
   * (default: the end), `delayMs` apart, as a collaborator's keystrokes arrive.
   */
  async typeInCell(
    index: number,
    text: string,
    options: INotebookRef & { at?: number; delayMs?: number } = {}
  ): Promise<void> {
    await this._page.evaluate(
      ([p, i, t, a, d]) => window.uiTests.typeInCell(p, i, t, a, d),
      [
        options.path ?? null,
        index,
        text,
        options.at ?? null,
        options.delayMs ?? 0
      ] as const
    );
  }

  /** Makes `from` the active cell and selects through `to`. */
  async selectCells(
    from: number,
    to: number = from,
    ref: INotebookRef = {}
  ): Promise<void> {
    await this._page.evaluate(
      ([p, f, t]) => window.uiTests.selectCells(p, f, t),
      [ref.path ?? null, from, to] as const
    );
  }

  /** Selects the characters `start`–`end` of a cell's source in its editor. */
  async selectText(
    index: number,
    start: number,
    end: number,
    ref: INotebookRef = {}
  ): Promise<void> {
    await this._page.evaluate(
      ([p, i, s, e]) => window.uiTests.selectText(p, i, s, e),
      [ref.path ?? null, index, start, end] as const
    );
  }

  /** Runs a cell with the notebook's own Run command; resolves when done. */
  async runCell(index: number, ref: INotebookRef = {}): Promise<ICellRun> {
    return this._page.evaluate(([p, i]) => window.uiTests.runCell(p, i), [
      ref.path ?? null,
      index
    ] as const);
  }

  /** Saves the notebook (the app's own save, not a tool). */
  async save(ref: INotebookRef = {}): Promise<void> {
    await this._page.evaluate(p => window.uiTests.save(p), ref.path ?? null);
  }

  /** The live sources of every cell (shared model, unsaved edits included). */
  async cellSources(ref: INotebookRef = {}): Promise<string[]> {
    return this._page.evaluate(
      p => window.uiTests.cellSources(p),
      ref.path ?? null
    );
  }

  /** The ids of every cell, in order. */
  async cellIds(ref: INotebookRef = {}): Promise<string[]> {
    return this._page.evaluate(
      p => window.uiTests.cellIds(p),
      ref.path ?? null
    );
  }

  private _jupyter: JupyterApp;
}
