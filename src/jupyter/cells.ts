/**
 * Cells as the agent sees them: snapshots with source hashes, lookup by id
 * through the access guard, and `jupyter_get_cells`.
 *
 * Every read is of the live shared model (or, for a notebook that is not
 * open, of its file), so unsaved edits are always included.
 */
import {
  type ISharedCell,
  type ISharedCodeCell,
  type ISharedNotebook
} from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';

import { ACCESS_METADATA_KEY, lastEdited, readHistory } from '../access/model';
import { assertCellAccessible } from '../access/guard';
import { cellNotFoundError } from '../access/policy';
import { LIMITS } from '../limits';
import { ToolError } from '../common/errors';
import { withholdSecrets } from '../common/secrets';
import { type ICallTrace, NO_CALL } from './call';
import { cellAccess, isCellVisible } from '../access/read';
import { cellHash } from './cell-cache';
import { type IFoundCell } from './find-cell';
import { cellIndexOf } from './model-index';
import {
  notebookInfo,
  type INotebookInfo,
  type NotebookResolver
} from './notebook';
import { serializeOutputs, type ISerializedOutput } from './outputs/outputs';
import { boundChars, boundUtf8 } from '../common/text';
import { secretFilter, type TextFilter } from './secrets';

/** One cell as a tool returns it (ICellSnapshot). */
export interface ICellSnapshot {
  id: string;
  index: number;
  type: string;
  source?: string;
  sourceTruncated?: boolean;
  sourceHash: string;
  executionCount?: number | null;
  outputs?: ISerializedOutput[];
  outputsTruncated?: boolean;
  metadata?: Record<string, unknown>;
  lastEditedBy?: 'human' | 'agent';
  lastEditedAt?: string;
}

/** What a snapshot includes. */
export interface ISnapshotOptions {
  includeSource: boolean;
  includeOutputs: boolean;
  /** What the source and outputs go through (secrets withheld); none: as is. */
  filter?: TextFilter;
}

export { findCell, type IFoundCell } from './find-cell';

/**
 * Refuse a write whose hash is not the cell's current one, with the current
 * hash and a preview so the agent can re-read and retry.
 */
export function assertSourceHash(
  cell: ISharedCell,
  expected: string,
  message: string
): void {
  const current = cellHash(cell);
  if (current !== expected) {
    throw new ToolError('STALE_CELL', message, {
      cellId: cell.id,
      expectedSourceHash: expected,
      currentSourceHash: current,
      // withheld whatever the notebook's switch: this error has no call
      // to count on, and a preview is for finding the change, not a value
      currentSourcePreview: boundChars(
        withholdSecrets(cell.getSource()).text,
        LIMITS.MAX_PREVIEW_CHARS
      ).text
    });
  }
}

/** Metadata worth showing: non-empty, short, without our own key. */
function visibleMetadata(cell: ISharedCell): Record<string, unknown> | null {
  const metadata = { ...cell.getMetadata() } as Record<string, unknown>;
  delete metadata[ACCESS_METADATA_KEY];
  const keys = Object.keys(metadata);
  if (keys.length === 0) {
    return null;
  }
  const json = JSON.stringify(metadata);
  return json.length <= LIMITS.MAX_CELL_METADATA_CHARS ? metadata : null;
}

/** The snapshot of one cell. */
export function cellSnapshot(
  cell: ISharedCell,
  index: number,
  options: ISnapshotOptions
): ICellSnapshot {
  const snapshot: ICellSnapshot = {
    id: cell.id,
    index,
    type: cell.cell_type,
    sourceHash: cellHash(cell)
  };
  if (options.includeSource) {
    const source = cell.getSource();
    const bounded = boundUtf8(
      options.filter ? options.filter(source) : source,
      LIMITS.MAX_CELL_SOURCE_BYTES
    );
    snapshot.source = bounded.text;
    if (bounded.truncated) {
      snapshot.sourceTruncated = true;
    }
  }
  if (cell.cell_type === 'code') {
    const code = cell as ISharedCodeCell;
    snapshot.executionCount = code.execution_count ?? null;
    if (options.includeOutputs) {
      const { outputs, outputsTruncated } = serializeOutputs(
        code.getOutputs() as nbformat.IOutput[],
        options.filter
      );
      snapshot.outputs = outputs;
      if (outputsTruncated) {
        snapshot.outputsTruncated = true;
      }
    }
  }
  const metadata = visibleMetadata(cell);
  if (metadata) {
    snapshot.metadata = metadata;
  }
  const edited = lastEdited(readHistory(cell.getMetadata(ACCESS_METADATA_KEY)));
  if (edited) {
    snapshot.lastEditedBy = edited.lastEditedBy;
    snapshot.lastEditedAt = edited.lastEditedAt;
  }
  return snapshot;
}

/** Arguments of `jupyter_get_cells`. */
export interface IGetCellsArgs extends ICellSelector {
  notebookPath?: string | null;
  includeSource?: boolean;
  includeOutputs?: boolean;
}

/** What `jupyter_get_cells` returns. */
export interface IGetCellsResult {
  notebook: INotebookInfo;
  cells: ICellSnapshot[];
  truncated: boolean;
  omittedCount: number;
  hiddenCellCount: number;
}

/** The cells a range read covers: [start, end) clamped to the notebook. */
export function cellRange(
  args: { startIndex?: number; endIndex?: number },
  length: number
): { start: number; end: number } {
  const start = args.startIndex ?? 0;
  const end = args.endIndex ?? start + LIMITS.DEFAULT_CELLS_RETURNED;
  if (end < start) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      `Invalid argument "endIndex": ${end} is before startIndex ${start}.`,
      { field: 'endIndex', rule: 'range' }
    );
  }
  return { start: Math.min(start, length), end: Math.min(end, length) };
}

/** How a read names its cells: explicit ids, or an index range. */
export interface ICellSelector {
  cellIds?: string[];
  startIndex?: number;
  endIndex?: number;
}

/** The cells a read returns, with what it left out. */
export interface ISelectedCells {
  cells: IFoundCell[];
  omittedCount: number;
  hiddenCellCount: number;
}

/**
 * Select the cells a read returns: by id (in the order given; every id must
 * be visible, a hidden one failing exactly like an unknown one) or by range
 * (hidden cells omitted and counted). At most MAX_CELLS_RETURNED come back.
 * An empty list of ids is INVALID_ARGUMENT.
 */
export function selectCells(
  model: ISharedNotebook,
  selector: ICellSelector
): ISelectedCells {
  const cells = model.cells;
  const selected: IFoundCell[] = [];
  let omittedCount = 0;
  let hiddenCellCount = 0;
  const keep = (cell: ISharedCell, index: number) => {
    if (selected.length < LIMITS.MAX_CELLS_RETURNED) {
      selected.push({ cell, index });
    } else {
      omittedCount++;
    }
  };
  if (selector.cellIds?.length === 0) {
    // An empty list selects nothing: never read as "no cells, ok" (as in
    // jupyter_run_cells, src/jupyter/kernel/run-targets.ts).
    throw new ToolError(
      'INVALID_ARGUMENT',
      'Invalid argument "cellIds": give at least one cell id, or leave cellIds out to select a range.',
      { field: 'cellIds', rule: 'minItems' }
    );
  }
  if (selector.cellIds) {
    const found = selector.cellIds.map(cellId => {
      const index = cellIndexOf(model, cellId);
      if (index < 0) {
        throw cellNotFoundError(cellId);
      }
      assertCellAccessible(
        { id: cellId, access: cellAccess(cells[index]) },
        'read'
      );
      return index;
    });
    found.forEach(index => keep(cells[index], index));
  } else {
    const { start, end } = cellRange(selector, cells.length);
    for (let index = start; index < end; index++) {
      if (isCellVisible(cells[index])) {
        keep(cells[index], index);
      } else {
        hiddenCellCount++;
      }
    }
  }
  return { cells: selected, omittedCount, hiddenCellCount };
}

/** Read cells by id or by index range (see {@link selectCells}). */
export async function getCells(
  resolver: NotebookResolver,
  args: IGetCellsArgs,
  call: ICallTrace = NO_CALL
): Promise<IGetCellsResult> {
  const notebook = await resolver.resolveNotebook(args.notebookPath);
  try {
    const options: ISnapshotOptions = {
      includeSource: args.includeSource ?? true,
      includeOutputs: args.includeOutputs ?? false,
      filter: secretFilter(resolver, notebook.model, call)
    };
    const { cells, omittedCount, hiddenCellCount } = selectCells(
      notebook.model,
      args
    );
    for (const { cell } of cells) {
      call.reportCell(notebook.path, cell.id, 'reading');
    }
    return {
      notebook: notebookInfo(notebook),
      cells: cells.map(({ cell, index }) => cellSnapshot(cell, index, options)),
      truncated: omittedCount > 0,
      omittedCount,
      hiddenCellCount
    };
  } finally {
    notebook.release();
  }
}
