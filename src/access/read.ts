/**
 * The one place a cell's or a notebook's access is read from its metadata,
 * for every layer: the tools, the review storage, the selection and the
 * panel's models. Decisions on what is read are the policy's (`./policy`).
 *
 * A cell's reading is cached on the cell and dropped when its metadata
 * changes, so repeated reads of a large notebook cost nothing for cells that
 * did not change. `storedCellAccess` reads past the cache, for a listener
 * that may run before the cache has heard of the change.
 */
import { type ISharedCell } from '@jupyter/ydoc';

import { cellMemo } from '../common/cell-memo';
import {
  ACCESS_METADATA_KEY,
  readCellAccess,
  readNotebookAccess,
  type AgentAccess
} from './model';
import { isHidden } from './policy';

/** Anything that carries `jupyterlite_webmcp` metadata: a shared or a cell model. */
export interface IHasAccessMetadata {
  getMetadata(key: string): unknown;
}

/** What the owner lets the agent do with a cell (an unknown value is 'none'). */
export const cellAccess: (cell: ISharedCell) => AgentAccess = cellMemo(
  cell => storedCellAccess(cell),
  change => !!change.metadataChange
);

/** A cell's access read from its metadata now, past the cache. */
export function storedCellAccess(cell: IHasAccessMetadata): AgentAccess {
  return readCellAccess(cell.getMetadata(ACCESS_METADATA_KEY)).access;
}

/** What the owner lets the agent do with a notebook (an unknown value is 'none'). */
export function notebookAccess(model: IHasAccessMetadata): AgentAccess {
  return readNotebookAccess(model.getMetadata(ACCESS_METADATA_KEY)).access;
}

/** Whether the agent may know a cell exists. */
export function isCellVisible(cell: ISharedCell): boolean {
  return !isHidden(cellAccess(cell));
}
