/**
 * The agent access service behind the `IAgentAccess` token: one object the
 * human's commands, the markers and the Agent panel share to read and write
 * agent access, find a notebook's open panel, and hear of every change.
 *
 * Changes are observed on the open notebooks' shared models, so a change
 * made by an undo, a hand edit of the metadata or a collaborator is heard
 * like one made here; a write to a notebook that is not open (its file, or
 * another tab) is announced by the write itself.
 */
import type {
  CellChange,
  ISharedCell,
  ISharedNotebook,
  NotebookChange
} from '@jupyter/ydoc';
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import type { Contents } from '@jupyterlab/services';
import { type IDisposable } from '@lumino/disposable';
import { Signal, type ISignal } from '@lumino/signaling';

import {
  type IAgentAccess,
  type ICellAccessChange,
  type INotebookAccessChange
} from '../tokens';
import {
  ACCESS_METADATA_KEY,
  readCellAccess,
  type AgentAccess,
  type IAccessReading
} from './model';
import { type IAnnouncedAccess } from './announced';
import { TabRestrictions } from './announcer';
import { type IMessageChannel } from './notebook-file';
import { findNotebookPanel, panelPath } from './panels';
import {
  setWithholdSecrets,
  WITHHOLD_SECRETS_DEFAULT,
  withholdsSecrets
} from './secrets';
import {
  NotebookAccessWriter,
  cycleCellsAccess,
  setCellsAccess
} from './writer';

export class AgentAccessService implements IAgentAccess, IDisposable {
  constructor(options: AgentAccessService.IOptions) {
    this._tracker = options.tracker;
    this._writer = new NotebookAccessWriter(options);
    this._tracker.forEach(panel => this._watch(panel));
    this._tracker.widgetAdded.connect(this._onPanelAdded, this);
    this._restrictions = options.restrictionsChannel
      ? new TabRestrictions({
          tracker: this._tracker,
          channel: options.restrictionsChannel,
          accessChanged: this._changed
        })
      : null;
  }

  get changed(): ISignal<this, IAgentAccess.IChange> {
    return this._changed;
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  get announced(): IAnnouncedAccess {
    return this._restrictions ?? NOTHING_ANNOUNCED;
  }

  findPanel(path: string): NotebookPanel | null {
    return findNotebookPanel(this._tracker, path);
  }

  cellAccess(cell: ISharedCell): IAccessReading {
    return readCellAccess(cell.getMetadata(ACCESS_METADATA_KEY));
  }

  notebookAccess(path: string): Promise<IAccessReading> {
    return this._writer.read(path);
  }

  setCellsAccess(
    notebook: ISharedNotebook,
    cells: readonly ISharedCell[],
    access: AgentAccess
  ): ICellAccessChange {
    return { access, changed: setCellsAccess(notebook, cells, access) };
  }

  cycleCellsAccess(
    notebook: ISharedNotebook,
    cells: readonly ISharedCell[],
    anchor: ISharedCell | null = null
  ): ICellAccessChange | null {
    return cycleCellsAccess(notebook, cells, anchor);
  }

  async setNotebookAccess(
    path: string,
    access: AgentAccess
  ): Promise<INotebookAccessChange> {
    return this._announced(await this._writer.write(path, access));
  }

  async cycleNotebookAccess(
    paths: readonly string[]
  ): Promise<INotebookAccessChange[]> {
    const changes = await this._writer.cycle(paths);
    changes.forEach(change => this._announced(change));
    return changes;
  }

  get withholdSecretsByDefault(): boolean {
    return this._withholdSecretsByDefault;
  }

  /** Follow the owner's setting (the plugin reads it). */
  set withholdSecretsByDefault(value: boolean) {
    if (value !== this._withholdSecretsByDefault) {
      this._withholdSecretsByDefault = value;
      this._withholdSecretsByDefaultChanged.emit(value);
    }
  }

  get withholdSecretsByDefaultChanged(): ISignal<this, boolean> {
    return this._withholdSecretsByDefaultChanged;
  }

  withholdsSecrets(notebook: ISharedNotebook): boolean {
    return withholdsSecrets(notebook, this._withholdSecretsByDefault);
  }

  setWithholdSecrets(
    notebook: ISharedNotebook,
    value: boolean | null
  ): boolean {
    return setWithholdSecrets(notebook, value);
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._tracker.widgetAdded.disconnect(this._onPanelAdded, this);
    for (const [model, watch] of this._watches) {
      model.changed.disconnect(this._onNotebookChanged, this);
      watch.cells.forEach(cell =>
        cell.changed.disconnect(this._onCellChanged, this)
      );
    }
    this._watches.clear();
    this._writer.dispose();
    this._restrictions?.dispose();
    Signal.clearData(this);
  }

  /** A write away from this app's live models is heard only through itself. */
  private _announced(change: INotebookAccessChange): INotebookAccessChange {
    if (change.changed && change.where !== 'live') {
      this._changed.emit({ path: change.path, scope: 'notebook', cellIds: [] });
    }
    return change;
  }

  private _onPanelAdded(_: INotebookTracker, panel: NotebookPanel): void {
    this._watch(panel);
  }

  private _watch(panel: NotebookPanel): void {
    void panel.context.ready.then(() => {
      const model = panel.context.model?.sharedModel;
      if (this._isDisposed || panel.isDisposed || !model) {
        return;
      }
      if (this._watches.has(model)) {
        this._watches.get(model)!.panels.add(panel);
      } else {
        this._watches.set(model, {
          panels: new Set([panel]),
          cells: new Set()
        });
        model.changed.connect(this._onNotebookChanged, this);
        model.cells.forEach(cell => this._watchCell(model, cell));
      }
      panel.disposed.connect(() => this._unwatch(model, panel));
    });
  }

  private _unwatch(model: ISharedNotebook, panel: NotebookPanel): void {
    const watch = this._watches.get(model);
    if (!watch) {
      return;
    }
    watch.panels.delete(panel);
    if (watch.panels.size === 0) {
      model.changed.disconnect(this._onNotebookChanged, this);
      watch.cells.forEach(cell =>
        cell.changed.disconnect(this._onCellChanged, this)
      );
      this._watches.delete(model);
    }
  }

  private _watchCell(model: ISharedNotebook, cell: ISharedCell): void {
    const watch = this._watches.get(model);
    if (watch && !watch.cells.has(cell)) {
      watch.cells.add(cell);
      this._notebookOf.set(cell, model);
      cell.changed.connect(this._onCellChanged, this);
    }
  }

  /** The path an observed model is open on (its first live panel's). */
  private _pathOf(model: ISharedNotebook): string | null {
    for (const panel of this._watches.get(model)?.panels ?? []) {
      if (!panel.isDisposed) {
        return panelPath(panel);
      }
    }
    return null;
  }

  private _onNotebookChanged(
    model: ISharedNotebook,
    change: NotebookChange
  ): void {
    for (const delta of change.cellsChange ?? []) {
      for (const cell of delta.insert ?? []) {
        this._watchCell(model, cell);
      }
    }
    const path = this._pathOf(model);
    if (path !== null && change.metadataChange?.has(ACCESS_METADATA_KEY)) {
      this._changed.emit({ path, scope: 'notebook', cellIds: [] });
    }
  }

  private _onCellChanged(cell: ISharedCell, change: CellChange): void {
    const entry = change.metadataChange?.get(ACCESS_METADATA_KEY);
    if (!entry) {
      return;
    }
    const before = readCellAccess(entry.oldValue);
    const after = this.cellAccess(cell);
    if (before.access === after.access && before.valid === after.valid) {
      return; // the history under the key changed, not the access
    }
    const model = this._notebookOf.get(cell);
    const path = model ? this._pathOf(model) : null;
    if (path !== null) {
      this._changed.emit({ path, scope: 'cells', cellIds: [cell.id] });
    }
  }

  private readonly _tracker: INotebookTracker;
  private readonly _writer: NotebookAccessWriter;
  private readonly _restrictions: TabRestrictions | null;
  private readonly _watches = new Map<
    ISharedNotebook,
    { panels: Set<NotebookPanel>; cells: Set<ISharedCell> }
  >();
  private readonly _notebookOf = new WeakMap<ISharedCell, ISharedNotebook>();
  private _isDisposed = false;
  private _changed = new Signal<this, IAgentAccess.IChange>(this);
  private _withholdSecretsByDefault = WITHHOLD_SECRETS_DEFAULT;
  private _withholdSecretsByDefaultChanged = new Signal<this, boolean>(this);
}

export namespace AgentAccessService {
  export interface IOptions {
    tracker: INotebookTracker;
    contents: Contents.IManager;
    /**
     * The channel to the other tabs of this browser (a BroadcastChannel
     * named ACCESS_CHANNEL_NAME); none: files are written directly.
     */
    channel?: IMessageChannel | null;
    tabTimeoutMs?: number;
    /**
     * The channel the tabs of this browser announce unsaved restrictions on
     * (a BroadcastChannel named RESTRICTIONS_CHANNEL_NAME); none: a
     * restriction holds in other tabs once saved.
     */
    restrictionsChannel?: IMessageChannel | null;
  }
}

const NOTHING_ANNOUNCED: IAnnouncedAccess = { announced: () => null };
