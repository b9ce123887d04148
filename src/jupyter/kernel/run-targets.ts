/**
 * Which cells a `jupyter_run_cells` call runs: cellIds, or a contiguous
 * range, or the active cell; all of them checked before the first one runs.
 */
import { type ISharedNotebook } from '@jupyter/ydoc';

import { isHidden } from '../../access/policy';
import { cellAccess } from '../../access/read';
import { findCell } from '../cells';
import { ToolError } from '../../common/errors';
import { cellIndexOf } from '../model-index';
import { type ILiveNotebook } from '../notebook';
import { LIMITS } from '../../limits';

/** Arguments of `jupyter_run_cells`. */
export interface IRunArgs {
  notebookPath?: string | null;
  cellIds?: string[];
  startIndex?: number;
  endIndex?: number;
  stopOnError?: boolean;
}

/** A target, remembered by id; `byId` when the agent named it. */
export interface ITarget {
  cellId: string;
  byId: boolean;
}

function invalid(message: string, field: string, rule: string): ToolError {
  return new ToolError('INVALID_ARGUMENT', message, { field, rule });
}

/** Check the selector and list the targets; every check before any run. */
export function selectTargets(
  notebook: ILiveNotebook,
  args: IRunArgs
): ITarget[] {
  return addressedTargets(notebook.model, args) ?? [activeTarget(notebook)];
}

/**
 * Check the selector and, for cellIds or a range, list their targets in a
 * notebook's model (its file, before a notebook that is not open opens);
 * null when the call runs the active cell, which only the open notebook has.
 */
export function addressedTargets(
  model: ISharedNotebook,
  args: IRunArgs
): ITarget[] | null {
  const hasStart = args.startIndex !== undefined;
  const hasEnd = args.endIndex !== undefined;
  if (args.cellIds && (hasStart || hasEnd)) {
    throw invalid(
      'Give either cellIds or startIndex/endIndex, not both.',
      'cellIds',
      'exclusive'
    );
  }
  if (args.cellIds?.length === 0) {
    // An empty list selects nothing: never read as "run nothing, ok".
    throw invalid(
      'Invalid argument "cellIds": give at least one cell id, or leave cellIds out to run the active cell.',
      'cellIds',
      'minItems'
    );
  }
  if (args.cellIds) {
    return args.cellIds.map(cellId => {
      findCell(model, cellId, 'write');
      return { cellId, byId: true };
    });
  }
  if (hasStart || hasEnd) {
    if (!hasStart || !hasEnd) {
      throw invalid(
        'A range needs both startIndex and endIndex.',
        hasStart ? 'endIndex' : 'startIndex',
        'required'
      );
    }
    const start = args.startIndex!;
    const end = args.endIndex!;
    if (end < start) {
      throw invalid(
        `Invalid argument "endIndex": ${end} is before startIndex ${start}.`,
        'endIndex',
        'range'
      );
    }
    if (end - start > LIMITS.MAX_CELL_IDS_PER_CALL) {
      throw invalid(
        `Invalid argument "endIndex": a range may hold at most ${LIMITS.MAX_CELL_IDS_PER_CALL} cells.`,
        'endIndex',
        'maxCells'
      );
    }
    const targets: ITarget[] = [];
    for (let index = start; index < end; index++) {
      const cell = model.cells[index];
      if (!cell || isHidden(cellAccess(cell))) {
        // Never the id of a hidden cell: only where the range failed.
        throw new ToolError(
          'CELL_NOT_FOUND',
          `No cell at index ${index} in this notebook.`,
          { index }
        );
      }
      findCell(model, cell.id, 'write');
      targets.push({ cellId: cell.id, byId: false });
    }
    return targets;
  }
  return null;
}

/** The active cell as the one target, checked. */
function activeTarget(notebook: ILiveNotebook): ITarget {
  const active = notebook.panel.content.activeCell;
  if (!active) {
    throw invalid(
      'No cell is active: give cellIds or startIndex/endIndex.',
      'cellIds',
      'required'
    );
  }
  if (isHidden(cellAccess(active.model.sharedModel))) {
    throw new ToolError(
      'CELL_NOT_FOUND',
      'The active cell cannot be found in this notebook.'
    );
  }
  findCell(notebook.model, active.model.id, 'write');
  return { cellId: active.model.id, byId: false };
}

/**
 * Whether the targets need a kernel: any of them that still exists is a code
 * cell. An empty code cell is a code cell too (it runs as a no-op, but only
 * on a notebook that could run it), so a notebook with no kernel refuses it.
 */
export function needsKernel(
  notebook: ILiveNotebook,
  targets: ITarget[]
): boolean {
  const model = notebook.model;
  return targets.some(target => {
    const index = cellIndexOf(model, target.cellId);
    return index >= 0 && model.cells[index].cell_type === 'code';
  });
}
