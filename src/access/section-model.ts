/**
 * The model of the Agent panel's Access tab: the current notebook, its own
 * access, and its cells' access, following the notebook tracker, the
 * notebook's active cell and selection, and every access change the access
 * service reports. Every write goes through `IAgentAccess`.
 *
 * A notebook may have thousands of cells: the tab shows a window of at most
 * `limit` rows, centred on the active cell (so the row of the cell the
 * person is on is always there), and says which part it shows.
 */
import type { ISharedCell } from '@jupyter/ydoc';
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';

import { type AgentAccess, type IAccessReading } from './model';
import { isHidden, mayWrite } from './policy';
import { CurrentNotebookModel } from '../agent-panel/current-notebook';
import { previewOf } from '../agent-panel/rows';
import {
  type IAgentAccess,
  type IProposals,
  type IWebMcpRegistry
} from '../tokens';

/** The tool whose runs share the kernel with every cell. */
export const RUN_TOOL = 'jupyter_run_cells';

/** How many cell rows the Access tab renders at most. */
export const MAX_ACCESS_ROWS = 200;

/** One row of the Access tab: a cell and its access. */
export interface IAccessRow {
  /** The cell's index in the notebook (0-based). */
  index: number;
  id: string;
  /** The first non-blank line of its source, shortened. */
  preview: string;
  reading: IAccessReading;
  /** Whether it is the notebook's active cell. */
  active: boolean;
  /** Whether it is selected (the active cell included). */
  selected: boolean;
}

/**
 * The rows to show of `count` cells: all when they fit in `limit`, else
 * `limit` rows around `active` (the first ones when there is none).
 */
export function rowWindow(
  count: number,
  active: number,
  limit: number
): { start: number; end: number } {
  if (count <= limit) {
    return { start: 0, end: count };
  }
  const centre = active < 0 ? 0 : active;
  const start = Math.min(
    Math.max(0, centre - Math.floor(limit / 2)),
    count - limit
  );
  return { start, end: start + limit };
}

/**
 * Whether the Access tab warns that code the agent runs can read a hidden
 * cell's variables: the notebook has a hidden cell, the agent may run code
 * in it (the notebook is writable for agents, or its access is not known
 * yet, and the run tool is on), and its runs do not wait for the owner.
 */
export function kernelWarning(state: {
  hiddenCells: number;
  notebookAccess: IAccessReading | null;
  runsReviewed: boolean;
  runsOff: boolean;
}): boolean {
  const notebook = state.notebookAccess;
  const agentMayRun = notebook === null || mayWrite(notebook.access);
  return (
    state.hiddenCells > 0 &&
    agentMayRun &&
    !state.runsReviewed &&
    !state.runsOff
  );
}

export class AccessTabModel extends CurrentNotebookModel {
  constructor(options: AccessTabModel.IOptions) {
    super();
    this._access = options.access;
    this._limit = Math.max(1, options.limit ?? MAX_ACCESS_ROWS);
    this._access.changed.connect(this._onAccess, this);
    this._access.withholdSecretsByDefaultChanged?.connect(this._onNow, this);
    this._proposals = options.proposals ?? null;
    this._registry = options.registry ?? null;
    this._proposals?.modeChanged.connect(this._onNow, this);
    this._registry?.statusChanged.connect(this._onNow, this);
    this.follow(options.tracker);
  }

  /**
   * Whether to warn that the agent's runs share the kernel with hidden
   * cells (see `kernelWarning`), computed now.
   */
  get kernelWarning(): boolean {
    const shared = this.panel?.content.model?.sharedModel;
    if (!shared) {
      return false;
    }
    const hiddenCells = shared.cells.filter(cell =>
      isHidden(this._access.cellAccess(cell).access)
    ).length;
    return kernelWarning({
      hiddenCells,
      notebookAccess: this._notebookAccess,
      runsReviewed: this._proposals?.reviews(shared, 'run') ?? false,
      runsOff: this._registry?.status.disabled.includes(RUN_TOOL) ?? false
    });
  }

  /** The notebook's own access; null until read. */
  get notebookAccess(): IAccessReading | null {
    return this._notebookAccess;
  }

  /** How many cells the notebook has. */
  get cellCount(): number {
    return this.panel?.content.widgets.length ?? 0;
  }

  /** The window of rows shown. */
  get window(): { start: number; end: number } {
    const notebook = this.panel?.content;
    return rowWindow(
      this.cellCount,
      notebook ? notebook.activeCellIndex : -1,
      this._limit
    );
  }

  /** The rows of the window, computed now. */
  rows(): IAccessRow[] {
    const notebook = this.panel?.content;
    if (!notebook) {
      return [];
    }
    const { start, end } = this.window;
    const rows: IAccessRow[] = [];
    for (let index = start; index < end; index++) {
      const widget = notebook.widgets[index];
      const shared = widget.model.sharedModel;
      rows.push({
        index,
        id: shared.getId(),
        preview: previewOf(shared.getSource()),
        reading: this._access.cellAccess(shared),
        active: index === notebook.activeCellIndex,
        selected: notebook.isSelectedOrActive(widget)
      });
    }
    return rows;
  }

  /**
   * Whether the tools withhold secrets from what they return of this
   * notebook (its own switch, else the setting); null without a notebook.
   */
  get withholdsSecrets(): boolean | null {
    const shared = this.panel?.content.model?.sharedModel;
    return shared ? this._access.withholdsSecrets(shared) : null;
  }

  /** The owner's setting for notebooks without a switch of their own. */
  get withholdSecretsByDefault(): boolean {
    return this._access.withholdSecretsByDefault;
  }

  /** Sets this notebook's own switch, kept in the notebook. */
  setWithholdSecrets(value: boolean): void {
    const shared = this.panel?.content.model?.sharedModel;
    if (shared) {
      this._access.setWithholdSecrets(shared, value);
    }
  }

  /** Gives the cell at `index` an access. */
  setCellAccess(index: number, access: AgentAccess): void {
    const shared = this.panel?.content.model?.sharedModel;
    const cell = shared?.cells[index];
    if (shared && cell) {
      this._access.setCellsAccess(shared, [cell as ISharedCell], access);
    }
  }

  /** Gives every cell of the notebook an access, as one undo step. */
  setAllCellsAccess(access: AgentAccess): number {
    const shared = this.panel?.content.model?.sharedModel;
    if (!shared) {
      return 0;
    }
    return this._access.setCellsAccess(shared, shared.cells, access).changed;
  }

  /** Gives the notebook an access. */
  async setNotebookAccess(access: AgentAccess): Promise<void> {
    const path = this.path;
    if (path !== null) {
      await this._access.setNotebookAccess(path, access);
    }
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._access.changed.disconnect(this._onAccess, this);
    this._access.withholdSecretsByDefaultChanged?.disconnect(this._onNow, this);
    this._proposals?.modeChanged.disconnect(this._onNow, this);
    this._registry?.statusChanged.disconnect(this._onNow, this);
    super.dispose();
  }

  private _onAccess(_: IAgentAccess, change: IAgentAccess.IChange): void {
    const panel = this.panel;
    if (!panel || this._access.findPanel(change.path) !== panel) {
      return;
    }
    if (change.scope === 'notebook') {
      void this._readNotebookAccess();
    } else {
      this.repaint();
    }
  }

  protected onPanel(
    panel: NotebookPanel | null,
    previous: NotebookPanel | null
  ): void {
    if (previous) {
      previous.content.activeCellChanged.disconnect(this._onNow, this);
      previous.content.selectionChanged.disconnect(this._onNow, this);
      previous.context.pathChanged.disconnect(this._onPath, this);
    }
    this._notebookAccess = null;
    if (panel) {
      panel.content.activeCellChanged.connect(this._onNow, this);
      panel.content.selectionChanged.connect(this._onNow, this);
      panel.context.pathChanged.connect(this._onPath, this);
      void this._readNotebookAccess();
    }
  }

  private _onNow(): void {
    this.repaint();
  }

  private _onPath(): void {
    void this._readNotebookAccess();
  }

  private async _readNotebookAccess(): Promise<void> {
    const path = this.path;
    const request = ++this._request;
    if (path === null) {
      return;
    }
    let reading: IAccessReading | null = null;
    try {
      reading = await this._access.notebookAccess(path);
    } catch {
      // unreadable (e.g. not saved yet): shown as unknown
      reading = null;
    }
    if (request !== this._request || this.isDisposed) {
      return;
    }
    this._notebookAccess = reading;
    this.repaint();
  }

  private readonly _access: IAgentAccess;
  private readonly _proposals: IProposals | null;
  private readonly _registry: IWebMcpRegistry | null;
  private readonly _limit: number;
  private _notebookAccess: IAccessReading | null = null;
  private _request = 0;
}

export namespace AccessTabModel {
  export interface IOptions {
    tracker: INotebookTracker;
    access: IAgentAccess;
    /** How many rows to show at most (default MAX_ACCESS_ROWS). */
    limit?: number;
    /** Propose mode: whether the notebook's runs wait for the owner. */
    proposals?: IProposals | null;
    /** The tools: whether the run tool is turned off in the settings. */
    registry?: IWebMcpRegistry | null;
  }
}
