/**
 * The agent edits of the current notebook the person can revert, for the
 * Activity tab: the notebook's journal (src/revert/journal.ts), newest first,
 * each with where it stands now, and the revert itself. It follows the
 * notebook tracker and every change of the current notebook (this browser's,
 * a collaborator's, an undo), re-reading after the change settles, so an
 * entry's state is never stale for long and never computed inside a typing
 * burst. Works with no agent connected: it reads only the notebook.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';

import { SoonestTimer } from '../common/soonest-timer';
import { agentEdits, type IAgentEdit } from './journal';
import { previewOf } from '../agent-panel/rows';
import { CurrentNotebookModel } from '../agent-panel/current-notebook';
import {
  editStatuses,
  editsSince,
  joinSource,
  revertEdits,
  type EditStatus,
  type IRevertOutcome
} from './revert';

/** How long after a change of the notebook its entries are re-read. */
export const EDITS_SETTLE_MS = 250;

/** An entry as the tab shows it. */
export interface IEditRow {
  edit: IAgentEdit;
  status: EditStatus;
  /** Whether "revert this and every later edit" would revert anything. */
  groupRevertable: boolean;
  /**
   * The first line of the cell, so the person knows which: as it is now
   * while the cell is there, as it was for a deleted one; null when an
   * inserted cell is gone.
   */
  preview: string | null;
}

/** What the last revert did, for the tab to say. */
export interface IRevertReport {
  /** 'one' or 'since' (this and later). */
  scope: 'one' | 'since';
  outcome: IRevertOutcome;
}

/** What the model reads of a Yjs transaction: the types it changed. */
interface IYTransactionLike {
  changed: { size: number };
}

/**
 * The part of a Yjs document the model listens to. Not its `update` event:
 * a listener of that makes Yjs encode every transaction of the notebook
 * into an update message (`writeUpdateMessageFromTransaction`), which this
 * model never reads; `afterTransaction` hands over the transaction itself.
 */
interface IYDocLike {
  on(
    event: 'afterTransaction',
    f: (transaction: IYTransactionLike) => void
  ): void;
  off(
    event: 'afterTransaction',
    f: (transaction: IYTransactionLike) => void
  ): void;
}

export class AgentEditsModel extends CurrentNotebookModel {
  constructor(options: AgentEditsModel.IOptions) {
    super();
    // it listens to the notebook's document itself
    this.follow(options.tracker, false);
    if (!this.panel) {
      // no notebook: the tab says so
      this._refresh();
      this.repaint();
    }
  }

  /** The entries, newest first. */
  get rows(): readonly IEditRow[] {
    return this._rows;
  }

  /** What the last revert in this notebook did, until the notebook changes. */
  get lastReport(): IRevertReport | null {
    return this._report;
  }

  /** Revert one entry. */
  revert(editId: string): IRevertReport | null {
    return this._revert('one', new Set([editId]));
  }

  /** Revert an entry and every entry after it, as one undo step. */
  revertSince(editId: string): IRevertReport | null {
    const model = this._model();
    if (!model) {
      return null;
    }
    return this._revert('since', editsSince(agentEdits(model), editId));
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._settle.dispose();
    super.dispose();
  }

  private _revert(
    scope: 'one' | 'since',
    ids: ReadonlySet<string>
  ): IRevertReport | null {
    const model = this._model();
    if (!model || ids.size === 0) {
      return null;
    }
    const report: IRevertReport = { scope, outcome: revertEdits(model, ids) };
    this._refresh();
    this._report = report;
    this.repaint();
    return report;
  }

  private _model(): ISharedNotebook | null {
    return this.panel?.content.model?.sharedModel ?? null;
  }

  protected onPanel(): void {
    this._doc?.off('afterTransaction', this._onTransaction);
    this._doc = null;
    this._report = null;
    this._refresh();
  }

  /** Listen to the notebook's document. */
  protected onModelReady(panel: NotebookPanel): void {
    const doc = (
      panel.content.model?.sharedModel as unknown as { ydoc?: IYDocLike }
    )?.ydoc;
    if (doc) {
      this._doc = doc;
      doc.on('afterTransaction', this._onTransaction);
    }
    this._refresh();
  }

  private readonly _onTransaction = (transaction: IYTransactionLike): void => {
    // a transaction that changed nothing (an empty transact) is no change
    if (transaction.changed.size > 0) {
      this._settle.schedule(EDITS_SETTLE_MS);
    }
  };

  /** Re-read the entries; whether anything shown changed. */
  private _refresh(): boolean {
    const model = this._model();
    const edits = model ? agentEdits(model) : [];
    const statuses =
      model && edits.length > 0 ? editStatuses(model, edits) : null;
    const sources = new Map<string, string>();
    if (model && edits.length > 0) {
      const wanted = new Set(edits.map(edit => edit.cellId));
      for (const cell of model.cells) {
        if (wanted.has(cell.id) && !sources.has(cell.id)) {
          sources.set(cell.id, cell.getSource());
        }
      }
    }
    const rows: IEditRow[] = [];
    let later = false;
    for (let i = edits.length - 1; i >= 0; i--) {
      const edit = edits[i];
      const status = statuses!.get(edit.id)!;
      later ||= status.state === 'revertable';
      rows.push({
        edit,
        status,
        groupRevertable: later,
        preview: previewFor(edit, sources.get(edit.cellId))
      });
    }
    const key = JSON.stringify(
      rows.map(row => [
        row.edit.id,
        row.status,
        row.groupRevertable,
        row.preview
      ])
    );
    if (key === this._key) {
      return false;
    }
    this._key = key;
    this._rows = rows;
    return true;
  }

  private _doc: IYDocLike | null = null;
  private _rows: IEditRow[] = [];
  private _key = '';
  private _report: IRevertReport | null = null;
  /** Re-reads the entries once a burst of changes has settled. */
  private readonly _settle = new SoonestTimer(() => {
    if (this._refresh()) {
      this.repaint();
    }
  });
}

/** The preview of an entry's cell (see IEditRow.preview). */
function previewFor(
  edit: IAgentEdit,
  current: string | undefined
): string | null {
  if (edit.kind === 'delete' && edit.cell) {
    return previewOf(joinSource(edit.cell.source));
  }
  return current === undefined ? null : previewOf(current);
}

export namespace AgentEditsModel {
  export interface IOptions {
    tracker: INotebookTracker;
  }
}
