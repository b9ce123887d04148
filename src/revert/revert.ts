/**
 * Reverting agent edits: which journal entries can be reverted now, and the
 * revert itself, as one step of the notebook's undo history.
 *
 * Whether an entry can be reverted is read from the notebook as it is, never
 * stored: an update can be reverted while its cell still holds exactly what
 * the agent left, an insert while its cell is there unchanged, a delete while
 * no cell has its id. So undoing a revert (or the agent's edit) with the
 * notebook's own undo makes the entry revertable again (or reverted), and a
 * cell the human changed since is never overwritten.
 *
 * No JupyterLab import at run time.
 */
import type { ISharedCell, ISharedNotebook } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';

import { sourceHash } from '../common/hash';
import { replaceSource } from '../common/source-edit';
import { asOwnUndoStep } from '../common/undo-step';
import { recordHistory } from '../access/provenance';
import { agentEdits, type IAgentEdit } from './journal';

/** Why an entry cannot be reverted. */
export type RevertBlock =
  /** The cell was changed after the agent's edit. */
  | 'changed'
  /** A later agent edit changed the cell; revert from that one. */
  | 'later-edit'
  /** The cell the agent updated is gone. */
  | 'cell-missing';

/** Where an entry stands. */
export type EditStatus =
  | { state: 'revertable' }
  | { state: 'reverted' }
  | { state: 'blocked'; reason: RevertBlock };

/** A cell as the revert sees it: by id, its type and source. */
interface ICellState {
  cellType: string;
  source: string;
}

/**
 * The cells of a notebook that `edits` name, by id (the first of any
 * repeated id): only their sources are read, so a large notebook costs one
 * id read per cell.
 */
function cellStates(
  model: ISharedNotebook,
  edits: readonly IAgentEdit[]
): Map<string, ICellState> {
  const wanted = new Set(edits.map(edit => edit.cellId));
  const states = new Map<string, ICellState>();
  for (const cell of model.cells) {
    const id = cell.id;
    if (wanted.has(id) && !states.has(id)) {
      states.set(cell.id, {
        cellType: cell.cell_type,
        source: cell.getSource()
      });
    }
  }
  return states;
}

/** The status of an entry against a state of the cells. */
function statusIn(
  cells: ReadonlyMap<string, ICellState>,
  edit: IAgentEdit
): EditStatus {
  const cell = cells.get(edit.cellId);
  switch (edit.kind) {
    case 'update':
      if (!cell) {
        return { state: 'blocked', reason: 'cell-missing' };
      }
      if (sourceHash(cell.cellType, cell.source) === edit.afterHash) {
        return { state: 'revertable' };
      }
      if (cell.source === edit.before) {
        return { state: 'reverted' };
      }
      return { state: 'blocked', reason: 'changed' };
    case 'insert':
      if (!cell) {
        return { state: 'reverted' };
      }
      if (sourceHash(cell.cellType, cell.source) === edit.afterHash) {
        return { state: 'revertable' };
      }
      return { state: 'blocked', reason: 'changed' };
    case 'delete':
      return cell ? { state: 'reverted' } : { state: 'revertable' };
  }
}

/**
 * The status of each entry of a journal (oldest first), in the notebook as it
 * is. A cell changed since an entry is blamed on a later agent edit of the
 * same cell when one is still in place, so the person knows to revert from
 * there.
 */
export function editStatuses(
  model: ISharedNotebook,
  edits: readonly IAgentEdit[] = agentEdits(model)
): Map<string, EditStatus> {
  const cells = cellStates(model, edits);
  const statuses = new Map<string, EditStatus>();
  for (let i = 0; i < edits.length; i++) {
    const edit = edits[i];
    let status = statusIn(cells, edit);
    if (status.state === 'blocked' && status.reason !== 'later-edit') {
      const later = edits
        .slice(i + 1)
        .some(
          next =>
            next.cellId === edit.cellId &&
            statusIn(cells, next).state === 'revertable'
        );
      if (later) {
        status = { state: 'blocked', reason: 'later-edit' };
      }
    }
    statuses.set(edit.id, status);
  }
  return statuses;
}

/** What reverting a group did. */
export interface IRevertOutcome {
  /** The entries reverted, newest first. */
  reverted: IAgentEdit[];
  /** The entries that could not be, with why. */
  blocked: { edit: IAgentEdit; reason: RevertBlock }[];
  /** The entries already reverted, left alone. */
  skipped: IAgentEdit[];
}

/** Where a deleted cell comes back: after its old neighbour, or its index. */
function restoreIndex(order: readonly string[], edit: IAgentEdit): number {
  const at = (id: string | null | undefined) => (id ? order.indexOf(id) : -1);
  const previous = at(edit.previousCellId);
  if (previous >= 0) {
    return previous + 1;
  }
  const next = at(edit.nextCellId);
  if (next >= 0) {
    return next;
  }
  return Math.min(edit.index ?? order.length, order.length);
}

/**
 * Revert entries of a notebook's journal, newest first, as one step of the
 * notebook's undo history: `ids` names the entries (one, or every entry since
 * a chosen one). Each is checked against the notebook as the newer ones left
 * it, so an agent's two edits of one cell revert together, and a cell the
 * human changed is left as it is and reported. Provenance records the
 * reverted cells as the human's.
 */
export function revertEdits(
  model: ISharedNotebook,
  ids: ReadonlySet<string>
): IRevertOutcome {
  const chosen = agentEdits(model)
    .filter(edit => ids.has(edit.id))
    .reverse();
  const cells = cellStates(model, chosen);
  const outcome: IRevertOutcome = { reverted: [], blocked: [], skipped: [] };
  for (const edit of chosen) {
    const status = statusIn(cells, edit);
    if (status.state === 'reverted') {
      outcome.skipped.push(edit);
      continue;
    }
    if (status.state === 'blocked') {
      outcome.blocked.push({ edit, reason: status.reason });
      continue;
    }
    outcome.reverted.push(edit);
    switch (edit.kind) {
      case 'update':
        cells.set(edit.cellId, {
          cellType: cells.get(edit.cellId)!.cellType,
          source: edit.before ?? ''
        });
        break;
      case 'insert':
        cells.delete(edit.cellId);
        break;
      case 'delete':
        cells.set(edit.cellId, {
          cellType: edit.cell!.cell_type,
          source: joinSource(edit.cell!.source)
        });
        break;
    }
  }
  if (outcome.reverted.length === 0) {
    return outcome;
  }
  const edited = new Set<string>();
  const restored = new Set<string>();
  asOwnUndoStep(model, () => {
    // `model.cells` follows the cells only once the transaction ends: inside
    // it, positions come from this list of ids, kept in step with each write.
    const order = model.cells.map(cell => cell.id);
    const byId = new Map<string, ISharedCell>();
    for (const cell of [...model.cells].reverse()) {
      byId.set(cell.id, cell);
    }
    model.transact(() => {
      for (const edit of outcome.reverted) {
        switch (edit.kind) {
          case 'update':
            replaceSource(byId.get(edit.cellId)!, edit.before ?? '');
            edited.add(edit.cellId);
            break;
          case 'insert': {
            const index = order.indexOf(edit.cellId);
            model.deleteCell(index);
            order.splice(index, 1);
            byId.delete(edit.cellId);
            edited.delete(edit.cellId);
            restored.delete(edit.cellId);
            break;
          }
          case 'delete': {
            const index = restoreIndex(order, edit);
            const cell = model.insertCell(index, {
              ...(edit.cell as nbformat.ICell),
              id: edit.cellId
            } as never);
            order.splice(index, 0, edit.cellId);
            byId.set(edit.cellId, cell);
            restored.add(edit.cellId);
            break;
          }
        }
      }
    });
  });
  const at = new Date().toISOString();
  for (const cell of model.cells) {
    if (restored.has(cell.id)) {
      recordHistory(cell, { at, actor: 'human', action: 'inserted' });
    } else if (edited.has(cell.id)) {
      recordHistory(cell, { at, actor: 'human', action: 'edited' });
    }
  }
  return outcome;
}

/** A cell's source as one string (nbformat allows a list of lines). */
export function joinSource(source: nbformat.MultilineString): string {
  return Array.isArray(source) ? source.join('') : source;
}

/**
 * The ids of the entries from `fromId` on (oldest first in the journal):
 * "every agent edit since this one".
 */
export function editsSince(
  edits: readonly IAgentEdit[],
  fromId: string
): Set<string> {
  const start = edits.findIndex(edit => edit.id === fromId);
  return new Set(start < 0 ? [] : edits.slice(start).map(edit => edit.id));
}
