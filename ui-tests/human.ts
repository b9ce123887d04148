/**
 * What the person at the keyboard (or a collaborator) does, through the app's
 * own commands and shared models rather than through the agent's tools.
 *
 * Every method acts on the current notebook unless `path` is given.
 */
import { expect, type Locator } from '@playwright/test';

import type { ICellRun, ICellView, INotebookState } from './page-helpers';
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
   * Makes the notebook's first cell active (a click on its prompt), which
   * makes the notebook current, opens the Agent panel from the palette and
   * returns the panel header's Propose mode switch, which acts on it.
   */
  async proposeSwitch(ref: INotebookRef = {}): Promise<Locator> {
    const path = ref.path ?? null;
    const prompt = (await this._jupyter.cell(0, path))
      .locator('.jp-InputPrompt')
      .first();
    const select = async () => {
      if (!path) {
        await prompt.click({ position: { x: 20, y: 6 } });
        return;
      }
      // A notebook opened before may be activated again late (as its session
      // comes up, or the restored layout settles) and come back in front of
      // this one: the person sees the other tab in front, brings theirs
      // back (as a double click in the file browser does) and clicks into
      // it again.
      await expect(async () => {
        if ((await this._currentPath()) !== path) {
          await this.openNotebook(path, { kernel: false });
        }
        await prompt.click({ position: { x: 20, y: 6 }, timeout: 5000 });
        expect(await this._currentPath()).toBe(path);
      }).toPass({ timeout: 30_000 });
    };
    await select();
    await this.runFromPalette('Open Agent Panel', /^Open Agent Panel/);
    const panel = this._page.locator('#jp-agent-panel');
    await expect(panel).toBeVisible();
    if (path) {
      // still in front once the panel shows: the switch acts on it
      await select();
    }
    return panel.getByRole('switch', { name: 'Propose mode' });
  }

  /** The path of the notebook in front (the app's current widget), if any. */
  private _currentPath(): Promise<string | null> {
    return this._page.evaluate(() => {
      const current = window.uiTests.app().shell.currentWidget as {
        context?: { path?: string };
      } | null;
      return current?.context?.path ?? null;
    });
  }

  /**
   * Opens the command palette with its shortcut, types `text` and clicks
   * the item whose label matches `label`. JupyterLab closes its modal
   * palette whenever any command runs, and runs one of its own
   * (`helpmenu:get-kernel`) on every change of the sessions list, so while
   * a notebook's kernel starts (later still in JupyterLite); a late
   * activation of the notebook takes the palette's focus too, which closes
   * it as well. It can close even between the item showing and the click:
   * it is opened again until the click lands, as a person would.
   */
  async runFromPalette(text: string, label: RegExp): Promise<void> {
    const page = this._page;
    const input = page.locator('.lm-CommandPalette-input:visible');
    const item = page
      .locator('.lm-CommandPalette-item:visible')
      .filter({
        has: page.locator('.lm-CommandPalette-itemLabel', { hasText: label })
      })
      .first();
    await expect(async () => {
      if (await input.isVisible()) {
        // a palette left open without the focus: click into it
        await input.click();
      } else {
        await page.keyboard.press('Control+Shift+C');
      }
      await expect(input).toBeFocused({ timeout: 2000 });
      await input.fill(text);
      await item.click({ timeout: 2000 });
    }).toPass({ timeout: 20_000 });
  }

  /**
   * Opens the app, copies fixture `fixture` into the test's directory and
   * opens it as the person does (`openNotebook`): the start of most tests.
   * Returns the notebook's path.
   */
  async openFixture(
    fixture: string,
    options: IOpenOptions = {}
  ): Promise<string> {
    await this._jupyter.open();
    const path = await this._jupyter.addFixture(fixture);
    await this.openNotebook(path, options);
    return path;
  }

  /**
   * Opens a notebook with the app's `docmanager:open` command, as a double
   * click in the file browser does, and waits for it to be ready. Notebook 7
   * (and JupyterLite's Notebook UI) open it in a new browser tab: the test then
   * follows that tab (`jupyter.page` becomes the new page); on a page that
   * has loaded nothing yet (`JupyterApp.start`), it loads the notebook there.
   */
  async openNotebook(
    path: string,
    options: IOpenOptions = {}
  ): Promise<INotebookState> {
    const jupyter = this._jupyter;
    if (jupyter.ui === 'notebook' && jupyter.isBlank()) {
      // nothing loaded yet (`JupyterApp.start`): the notebook's own page
      const state = await jupyter.open(path, options);
      return state!;
    }
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

  /**
   * Replaces a code cell's outputs in the shared model, as a kernel's (or a
   * collaborator's) outputs arrive.
   */
  async setCellOutputs(
    index: number,
    outputs: unknown[],
    ref: INotebookRef = {}
  ): Promise<void> {
    await this._page.evaluate(
      ([p, i, o]) => window.uiTests.setCellOutputs(p, i, o),
      [ref.path ?? null, index, outputs] as const
    );
  }

  /** Sets one key of a cell's metadata (the cell context menu, a collaborator). */
  async setCellMetadata(
    index: number,
    key: string,
    value: unknown,
    ref: INotebookRef = {}
  ): Promise<void> {
    await this._page.evaluate(
      ([p, i, k, v]) => window.uiTests.setCellMetadata(p, i, k, v),
      [ref.path ?? null, index, key, value] as const
    );
  }

  /** Sets one key of the notebook's metadata. */
  async setNotebookMetadata(
    key: string,
    value: unknown,
    ref: INotebookRef = {}
  ): Promise<void> {
    await this._page.evaluate(
      ([p, k, v]) => window.uiTests.setNotebookMetadata(p, k, v),
      [ref.path ?? null, key, value] as const
    );
  }

  /** Runs an app command, as its menu item or keyboard shortcut does. */
  async command(id: string, args: Record<string, unknown> = {}): Promise<void> {
    await this._page.evaluate(([c, a]) => window.uiTests.execute(c, a), [
      id,
      args
    ] as const);
  }

  /**
   * Clicks into a cell's editor (edit mode) and presses keys there, e.g.
   * `Control+z`, as the human does at the keyboard.
   */
  async pressInEditor(
    index: number,
    keys: string,
    ref: INotebookRef = {}
  ): Promise<void> {
    const cell = await this._jupyter.cell(index, ref.path ?? null);
    await cell.locator('.jp-InputArea-editor .cm-content').click();
    await this._page.keyboard.press(keys);
  }

  /**
   * Selects a cell in command mode (a click on its prompt, then Escape) and
   * presses keys, e.g. `z` for the notebook's undo of cell operations.
   */
  async pressInCommandMode(
    index: number,
    keys: string,
    ref: INotebookRef = {}
  ): Promise<void> {
    const cell = await this._jupyter.cell(index, ref.path ?? null);
    // clicked again when a cell above, rendering late, moved it away from
    // under the pointer (the person sees the wrong cell selected)
    await expect(async () => {
      await cell.locator('.jp-InputPrompt').first().click();
      await expect(cell).toHaveClass(/jp-mod-active/, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await this._page.keyboard.press('Escape');
    await this._page.keyboard.press(keys);
  }

  /** Scrolls to a cell (without activating it) and reports what shows. */
  async scrollToCell(
    index: number,
    ref: INotebookRef = {}
  ): Promise<ICellView> {
    return this._page.evaluate(([p, i]) => window.uiTests.scrollToCell(p, i), [
      ref.path ?? null,
      index
    ] as const);
  }

  /**
   * Changes a setting as the Settings Editor does. On a Jupyter server the
   * change stays in this browser context (`jupyter.isolateSettings`).
   */
  async setSetting(plugin: string, key: string, value: unknown): Promise<void> {
    if (this._jupyter.kind !== 'lite') {
      await this._jupyter.isolateSettings();
    }
    await this._page.evaluate(
      ([p, k, v]) => window.uiTests.setSetting(p, k, v),
      [plugin, key, value] as const
    );
  }

  /**
   * Starts running a cell with the notebook's own Run command, as a click on
   * Run does, without waiting for it to finish: resolves once the cell shows
   * as running (`[*]`). The kernel may still be busy with earlier work.
   */
  async startRunCell(index: number, ref: INotebookRef = {}): Promise<void> {
    await this._page.evaluate(
      async ([p, i]) => {
        const panel = window.uiTests.findNotebook(p);
        if (!panel) {
          throw new Error(`no open notebook ${p ?? '(current)'}`);
        }
        const app = window.uiTests.app();
        app.shell.activateById(panel.id);
        const notebook = panel.content;
        notebook.deselectAll();
        notebook.activeCellIndex = i;
        const model = notebook.widgets[i].model as { executionState?: string };
        void app.commands.execute('notebook:run-cell');
        const deadline = performance.now() + 30_000;
        while (model.executionState !== 'running') {
          if (performance.now() > deadline) {
            throw new Error(`cell ${i} did not start running`);
          }
          await new Promise(resolve => setTimeout(resolve, 20));
        }
      },
      [ref.path ?? null, index] as const
    );
  }

  /** Deletes a cell through the shared model, as a collaborator does. */
  async deleteCell(index: number, ref: INotebookRef = {}): Promise<void> {
    await this._page.evaluate(
      ([p, i]) => {
        const model = window.uiTests.findNotebook(p)?.content.model;
        if (!model || !model.sharedModel.cells[i]) {
          throw new Error(`no cell ${i} in ${p ?? '(current)'}`);
        }
        model.sharedModel.deleteCell(i);
      },
      [ref.path ?? null, index] as const
    );
  }

  /**
   * Shuts the notebook's kernel down (the Kernel menu's Shut Down, without
   * its dialog): the notebook stays open with no kernel attached.
   */
  async shutdownKernel(ref: INotebookRef = {}): Promise<void> {
    await this._page.evaluate(async p => {
      const panel = window.uiTests.findNotebook(p);
      if (!panel) {
        throw new Error(`no open notebook ${p ?? '(current)'}`);
      }
      await panel.sessionContext.shutdown();
    }, ref.path ?? null);
  }

  private _jupyter: JupyterApp;
}
