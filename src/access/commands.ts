/**
 * The human's access commands: cycle the agent access of the selected cells,
 * cycle or set a notebook's access. No WebMCP tool reaches this module: it is
 * wired only by the access plugin, into menus, the palette and a shortcut.
 *
 * Cells are written through their shared model (one transaction for a whole
 * selection, nothing when nothing changes). A notebook open in this app is
 * written through its live model; any other notebook through its file.
 */
import type { ISharedCell, ISharedNotebook } from '@jupyter/ydoc';
import type { JupyterFrontEnd } from '@jupyterlab/application';
import { Notification, showErrorMessage } from '@jupyterlab/apputils';
import type { FileBrowser } from '@jupyterlab/filebrowser';
import type {
  INotebookTracker,
  Notebook,
  NotebookPanel
} from '@jupyterlab/notebook';
import type { Contents } from '@jupyterlab/services';
import {
  nullTranslator,
  type ITranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import { DisposableSet, type IDisposable } from '@lumino/disposable';

import {
  ACCESS_METADATA_KEY,
  AGENT_ACCESS_VALUES,
  isAgentAccess,
  nextAccess,
  readCellAccess,
  readNotebookAccess,
  withCellAccess,
  withNotebookAccess,
  type AgentAccess,
  type IAccessReading
} from './model';
import {
  NotebookAccessRelay,
  readNotebookFileAccess,
  writeNotebookFileAccess,
  type IMessageChannel,
  type ITabWriteResult
} from './notebook-file';

/** The ids of the access commands. */
export namespace CommandIDs {
  /** Cycle the selected cells' access: write → read → none → write. */
  export const cycleCellAccess = 'jupyterlite-webmcp:cycle-cell-access';
  /** Cycle a notebook's access (the file browser's, or the current one). */
  export const cycleNotebookAccess = 'jupyterlite-webmcp:cycle-notebook-access';
  /** Set a notebook's access to one value. */
  export const setNotebookAccess = 'jupyterlite-webmcp:set-notebook-access';
}

/** Where the cell command shows in the context menu. */
export const CELL_CONTEXT_SELECTOR = '.jp-Notebook .jp-Cell';

/** Where the notebook command shows in the file browser's context menu. */
export const NOTEBOOK_FILE_SELECTOR =
  '.jp-DirListing-item[data-file-type="notebook"]';

/**
 * The cell command's shortcut, in command mode. Shift+G is bound by neither
 * JupyterLab 4.6 nor Notebook 7.6 (G for "guard"); the selector is the one
 * the notebook's own command-mode shortcuts use.
 */
export const CELL_ACCESS_SHORTCUT = {
  keys: ['Shift G'],
  selector: '.jp-Notebook.jp-mod-commandMode:not(.jp-mod-readWrite) :focus'
};

/** The human-facing name of each access value. */
export function accessName(
  access: AgentAccess,
  trans: TranslationBundle
): string {
  switch (access) {
    case 'write':
      return trans.__('read and write');
    case 'read':
      return trans.__('read-only');
    default:
      return trans.__('hidden');
  }
}

/** What a change of cell access did. */
export interface ICellAccessChange {
  /** The access the cells were given. */
  access: AgentAccess;
  /** How many cells' metadata was written. */
  changed: number;
}

/**
 * Give cells one access, in one transaction of their notebook. A cell whose
 * metadata already says so is not written; `write` is stored as absence and
 * an emptied key is deleted (withCellAccess). Returns how many were written.
 */
export function setCellsAccess(
  notebook: ISharedNotebook,
  cells: readonly ISharedCell[],
  access: AgentAccess
): number {
  const writes: {
    cell: ISharedCell;
    value: ReturnType<typeof withCellAccess>;
  }[] = [];
  for (const cell of cells) {
    const current = cell.getMetadata(ACCESS_METADATA_KEY);
    const value = withCellAccess(current, access);
    if (value !== current) {
      writes.push({ cell, value });
    }
  }
  if (writes.length === 0) {
    return 0;
  }
  // One undo step of its own: not merged with an edit (or another access
  // change) made just before or after.
  const undo = (notebook as { undoManager?: { stopCapturing(): void } })
    .undoManager;
  undo?.stopCapturing();
  notebook.transact(() => {
    for (const { cell, value } of writes) {
      if (value === undefined) {
        cell.deleteMetadata(ACCESS_METADATA_KEY);
      } else {
        cell.setMetadata(ACCESS_METADATA_KEY, value);
      }
    }
  });
  undo?.stopCapturing();
  return writes.length;
}

/**
 * One step of the human's cycle on a selection. Every cell takes the next
 * access of the anchor (the active cell, or the first of the selection), so
 * a mixed selection ends up uniform: one step makes it all the same, the
 * next steps cycle it together. An invalid anchor value steps to `none`
 * (nextAccess), repairing it without widening access.
 */
export function cycleCellsAccess(
  notebook: ISharedNotebook,
  cells: readonly ISharedCell[],
  anchor: ISharedCell | null = null
): ICellAccessChange | null {
  const from = anchor ?? cells[0];
  if (!from) {
    return null;
  }
  const reading = readCellAccess(from.getMetadata(ACCESS_METADATA_KEY));
  const access = nextAccess(reading.access, reading.valid);
  const targets = cells.includes(from) ? cells : [from, ...cells];
  return { access, changed: setCellsAccess(notebook, targets, access) };
}

/** The selected cells of a notebook widget (the active one included). */
export function selectedCells(notebook: Notebook): {
  cells: ISharedCell[];
  active: ISharedCell | null;
} {
  const cells = notebook.widgets
    .filter(widget => notebook.isSelectedOrActive(widget))
    .map(widget => widget.model.sharedModel);
  return { cells, active: notebook.activeCell?.model.sharedModel ?? null };
}

/**
 * Give a live notebook model an access. Writes only when it changes; `write`
 * deletes the key when nothing else is under it. Returns whether it wrote.
 */
export function setSharedNotebookAccess(
  notebook: ISharedNotebook,
  access: AgentAccess
): boolean {
  const current = notebook.getMetadata(ACCESS_METADATA_KEY);
  const value = withNotebookAccess(current, access);
  if (value === current) {
    return false;
  }
  if (value === undefined) {
    notebook.deleteMetadata(ACCESS_METADATA_KEY);
  } else {
    notebook.setMetadata(ACCESS_METADATA_KEY, value);
  }
  return true;
}

/** What a change of notebook access did. */
export interface INotebookAccessChange {
  path: string;
  previous: IAccessReading;
  access: AgentAccess;
  changed: boolean;
  /**
   * Where it was written: the live model of a notebook open in this app, the
   * live model of one open in another tab of this browser, or the file.
   */
  where: 'live' | 'tab' | 'file';
  /** For `tab`: whether that tab saves it (false: it has unsaved edits). */
  saved?: boolean;
}

type AccessChoice = AgentAccess | ((previous: IAccessReading) => AgentAccess);

const choose = (access: AccessChoice, previous: IAccessReading) =>
  typeof access === 'function' ? access(previous) : access;

/**
 * Reads and writes notebook-level access: through the live model when the
 * notebook is open in this app; through the live model of another tab of
 * this browser that has it open (NotebookAccessRelay); through its file
 * otherwise.
 */
export class NotebookAccessWriter implements IDisposable {
  constructor(options: NotebookAccessWriter.IOptions) {
    this._tracker = options.tracker;
    this._contents = options.contents;
    this._relay = options.channel
      ? new NotebookAccessRelay({
          channel: options.channel,
          timeoutMs: options.tabTimeoutMs,
          host: {
            read: path => this._readHere(path),
            write: (path, access) => this._serveTab(path, access)
          }
        })
      : null;
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  dispose(): void {
    this._isDisposed = true;
    this._relay?.dispose();
  }

  /** The panel of a notebook open in this app, by workspace path. */
  findPanel(path: string): NotebookPanel | null {
    return (
      this._tracker.find(
        panel =>
          !panel.isDisposed &&
          (panel.context.path === path || panel.context.localPath === path)
      ) ?? null
    );
  }

  /** The access a notebook gives now. */
  async read(path: string): Promise<IAccessReading> {
    const here = await this._readHere(path);
    if (here) {
      return here;
    }
    const tab = await this._relay?.read(path);
    return tab ?? readNotebookFileAccess(this._contents, path);
  }

  /** Give a notebook an access (or the one `access` picks from its current). */
  async write(
    path: string,
    access: AccessChoice
  ): Promise<INotebookAccessChange> {
    const panel = this.findPanel(path);
    if (panel) {
      const { previous, target, changed } = await writeLive(panel, access);
      return { path, previous, access: target, changed, where: 'live' };
    }
    const relay = this._relay;
    const current = relay ? await relay.read(path) : null;
    if (relay && current) {
      const target = choose(access, current);
      const result = await relay.write(path, target);
      if (!result) {
        // never the file behind a tab that has the notebook open
        throw new Error(
          `The tab that has "${path}" open did not answer; its agent access is unchanged.`
        );
      }
      return { path, ...result, access: target, where: 'tab' };
    }
    const result = await writeNotebookFileAccess(this._contents, path, access);
    return { ...result, where: 'file' };
  }

  /**
   * One cycle step for several notebooks: all take the next access of the
   * first (the anchor), as a cell selection does.
   */
  async cycle(paths: readonly string[]): Promise<INotebookAccessChange[]> {
    if (paths.length === 0) {
      return [];
    }
    const [first, ...rest] = paths;
    const anchor = await this.write(first, previous =>
      nextAccess(previous.access, previous.valid)
    );
    const changes = [anchor];
    for (const path of rest) {
      changes.push(await this.write(path, anchor.access));
    }
    return changes;
  }

  private async _readHere(path: string): Promise<IAccessReading | null> {
    const panel = this.findPanel(path);
    if (!panel) {
      return null;
    }
    await panel.context.ready;
    return readNotebookAccess(
      panel.context.model.sharedModel.getMetadata(ACCESS_METADATA_KEY)
    );
  }

  /**
   * Write a notebook open here for another tab. The file is that tab's
   * source of truth (its agent reads this notebook from the file), so a
   * notebook without unsaved edits is saved too; one with unsaved edits is
   * not saved behind its owner's back, and the other tab says so.
   */
  private async _serveTab(
    path: string,
    access: AgentAccess
  ): Promise<ITabWriteResult | null> {
    const panel = this.findPanel(path);
    if (!panel) {
      return null;
    }
    await panel.context.ready;
    const clean = !panel.context.model.dirty;
    const { previous, changed } = await writeLive(panel, access);
    const saved = changed && clean;
    if (saved) {
      panel.context.save().catch(error => {
        console.warn(`Agent access: could not save "${path}".`, error);
      });
    }
    return { previous, changed, saved: saved || (!changed && clean) };
  }

  private _tracker: INotebookTracker;
  private _contents: Contents.IManager;
  private _relay: NotebookAccessRelay | null;
  private _isDisposed = false;
}

export namespace NotebookAccessWriter {
  export interface IOptions {
    tracker: INotebookTracker;
    contents: Contents.IManager;
    /**
     * The channel to the other tabs of this browser (a BroadcastChannel
     * named ACCESS_CHANNEL_NAME); none: files are written directly.
     */
    channel?: IMessageChannel | null;
    tabTimeoutMs?: number;
  }
}

async function writeLive(
  panel: NotebookPanel,
  access: AccessChoice
): Promise<{
  previous: IAccessReading;
  target: AgentAccess;
  changed: boolean;
}> {
  await panel.context.ready;
  const model = panel.context.model.sharedModel;
  const previous = readNotebookAccess(model.getMetadata(ACCESS_METADATA_KEY));
  const target = choose(access, previous);
  return { previous, target, changed: setSharedNotebookAccess(model, target) };
}

/** The arguments of the notebook commands. */
interface INotebookArgs {
  path?: string;
  fileBrowser?: boolean;
  access?: AgentAccess;
}

const PATH_SCHEMA = {
  type: 'string',
  description:
    'Workspace path of the notebook; default: the current notebook (or, with fileBrowser, the notebooks selected in the file browser).'
};

const CYCLE_NOTEBOOK_SCHEMA = {
  type: 'object',
  properties: {
    path: PATH_SCHEMA,
    fileBrowser: {
      type: 'boolean',
      description:
        "Act on the notebooks selected in the file browser the command was opened from (what the file browser's context menu passes)."
    }
  },
  additionalProperties: false
};

const SET_NOTEBOOK_SCHEMA = {
  type: 'object',
  properties: {
    path: PATH_SCHEMA,
    access: { type: 'string', enum: [...AGENT_ACCESS_VALUES] }
  },
  required: ['access'],
  additionalProperties: false
};

/**
 * Add the access commands to an app. Returns what removes them again.
 */
export function addAccessCommands(
  app: JupyterFrontEnd,
  options: addAccessCommands.IOptions
): IDisposable {
  const { tracker, writer } = options;
  const trans = (options.translator ?? nullTranslator).load(
    'jupyterlite-webmcp'
  );
  const { commands } = app;
  const set = new DisposableSet();

  const currentPanel = (): NotebookPanel | null => {
    const panel = tracker.currentWidget;
    return panel && !panel.isDisposed && panel.content.model ? panel : null;
  };

  set.add(
    commands.addCommand(CommandIDs.cycleCellAccess, {
      label: trans.__('Cycle Agent Access'),
      caption: trans.__(
        'Change what the agent may do with the selected cells: read and write, read-only, hidden'
      ),
      describedBy: { args: { type: 'object', properties: {} } },
      isEnabled: () => currentPanel() !== null,
      execute: () => {
        const panel = currentPanel();
        const model = panel?.content.model;
        if (!panel || !model) {
          return null;
        }
        const { cells, active } = selectedCells(panel.content);
        return cycleCellsAccess(model.sharedModel, cells, active);
      }
    })
  );

  /** The notebooks a notebook command acts on. */
  const targets = (args: INotebookArgs): string[] => {
    if (typeof args.path === 'string' && args.path) {
      return [args.path];
    }
    if (args.fileBrowser) {
      return browserSelection(app, options.fileBrowsers?.() ?? []);
    }
    const panel = currentPanel();
    return panel ? [panel.context.path] : [];
  };

  const report = async (
    args: INotebookArgs,
    run: (paths: string[]) => Promise<INotebookAccessChange[]>
  ): Promise<INotebookAccessChange[]> => {
    const paths = targets(args);
    if (paths.length === 0) {
      return [];
    }
    try {
      const changes = await run(paths);
      // A notebook with no indicator on screen: say what it became.
      if (args.fileBrowser || changes.some(change => change.where !== 'live')) {
        notify(changes, trans);
      }
      return changes;
    } catch (error) {
      await showErrorMessage(
        trans.__('Agent access not changed'),
        error instanceof Error ? error : String(error)
      );
      return [];
    }
  };

  set.add(
    commands.addCommand(CommandIDs.cycleNotebookAccess, {
      label: trans.__('Cycle Agent Access for Notebook'),
      caption: trans.__(
        'Change what the agent may do with the notebook: read and write, read-only, hidden'
      ),
      describedBy: { args: CYCLE_NOTEBOOK_SCHEMA },
      isEnabled: args => targets(args as INotebookArgs).length > 0,
      execute: args =>
        report(args as INotebookArgs, paths => writer.cycle(paths))
    })
  );

  set.add(
    commands.addCommand(CommandIDs.setNotebookAccess, {
      label: args => {
        const access = (args as INotebookArgs).access;
        return isAgentAccess(access)
          ? trans.__(
              'Set Agent Access for Notebook: %1',
              accessName(access, trans)
            )
          : trans.__('Set Agent Access for Notebook');
      },
      describedBy: { args: SET_NOTEBOOK_SCHEMA },
      isEnabled: args =>
        isAgentAccess((args as INotebookArgs).access) &&
        targets(args as INotebookArgs).length > 0,
      execute: async args => {
        const access = (args as INotebookArgs).access;
        if (!isAgentAccess(access)) {
          throw new Error(`Unknown agent access: ${String(access)}`);
        }
        return report(args as INotebookArgs, paths =>
          Promise.all(paths.map(path => writer.write(path, access)))
        );
      }
    })
  );

  return set;
}

export namespace addAccessCommands {
  export interface IOptions {
    tracker: INotebookTracker;
    writer: NotebookAccessWriter;
    translator?: ITranslator | null;
    /** The app's file browsers (the default one first), when it has any. */
    fileBrowsers?: () => FileBrowser[];
  }
}

/**
 * The notebooks selected in the file browser whose context menu was opened,
 * the right-clicked one first (it anchors a cycle, as the active cell does).
 */
function browserSelection(
  app: JupyterFrontEnd,
  browsers: FileBrowser[]
): string[] {
  const hit = app.contextMenuHitTest(node =>
    node.classList.contains('jp-DirListing-item')
  );
  const browser =
    (hit && browsers.find(candidate => candidate.node.contains(hit))) ||
    browsers[0];
  if (!browser) {
    return [];
  }
  const selected = [...browser.selectedItems()]
    .filter(item => item.type === 'notebook')
    .map(item => item.path);
  if (hit && browser.node.contains(hit)) {
    const name = hit.querySelector('.jp-DirListing-itemText')?.textContent;
    const clicked = selected.find(
      path => path.slice(path.lastIndexOf('/') + 1) === name
    );
    if (clicked) {
      return [clicked, ...selected.filter(path => path !== clicked)];
    }
  }
  return selected;
}

function notify(
  changes: readonly INotebookAccessChange[],
  trans: TranslationBundle
): void {
  if (changes.length === 0) {
    return;
  }
  const access = accessName(changes[0].access, trans);
  const message =
    changes.length === 1
      ? trans.__('Agent access of %1: %2', baseName(changes[0].path), access)
      : trans.__('Agent access of %1 notebooks: %2', changes.length, access);
  Notification.info(message, { autoClose: 4000 });
  for (const change of changes) {
    if (change.where === 'tab' && change.changed && !change.saved) {
      Notification.warning(
        trans.__(
          '%1 is open with unsaved changes in another tab: its agent access changed there, and reaches the file when that tab saves it.',
          baseName(change.path)
        ),
        { autoClose: false }
      );
    }
  }
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
