/**
 * Writing agent access: cells through their shared model (one transaction
 * and one undo step for a whole selection, nothing when nothing changes); a
 * notebook through its live model when it is open in this app, through the
 * live model of another tab of this browser that has it open, or through its
 * file. Used only by the access service (`./service`); no tool reaches it.
 */
import type { ISharedCell, ISharedNotebook } from '@jupyter/ydoc';
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import type { Contents } from '@jupyterlab/services';
import { type IDisposable } from '@lumino/disposable';

import { asOwnUndoStep } from '../common/undo-step';
import { type ICellAccessChange, type INotebookAccessChange } from '../tokens';
import {
  ACCESS_METADATA_KEY,
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
  TAB_SAVE_WAIT_MS,
  readNotebookFileAccess,
  writeNotebookFileAccess,
  type IMessageChannel,
  type ITabWriteResult
} from './notebook-file';
import { findNotebookPanel } from './panels';

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
  asOwnUndoStep(notebook, () =>
    notebook.transact(() => {
      for (const { cell, value } of writes) {
        if (value === undefined) {
          cell.deleteMetadata(ACCESS_METADATA_KEY);
        } else {
          cell.setMetadata(ACCESS_METADATA_KEY, value);
        }
      }
    })
  );
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

/** An access, or how to pick one from the current reading. */
export type AccessChoice =
  AgentAccess | ((previous: IAccessReading) => AgentAccess);

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
    return findNotebookPanel(this._tracker, path);
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
    if (!changed) {
      return { previous, changed, saved: clean };
    }
    // the other tab tells its owner the file has it only once it does; a
    // save that fails leaves the notebook with unsaved changes (logged), one
    // still running after TAB_SAVE_WAIT_MS is answered as not saved yet
    const saved =
      clean &&
      (await Promise.race([
        panel.context.save().then(
          () => true,
          (error: unknown) => {
            console.warn(`Agent access: could not save "${path}".`, error);
            return false;
          }
        ),
        new Promise<boolean>(resolve =>
          setTimeout(resolve, TAB_SAVE_WAIT_MS, false)
        )
      ]));
    return { previous, changed, saved };
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
