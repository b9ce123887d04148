/**
 * Per-cell facts the tools need on every call (source hash, agent access),
 * cached on the cell and dropped when its source or metadata change, so
 * repeated reads of a large notebook hash only what changed.
 */
import { type ISharedCell } from '@jupyter/ydoc';

import {
  ACCESS_METADATA_KEY,
  readCellAccess,
  type AgentAccess
} from '../access/model';
import { sourceHash } from '../common/hash';

interface ICellCache {
  hash: string | null;
  access: AgentAccess | null;
}

const cellCaches = new WeakMap<ISharedCell, ICellCache>();

/**
 * The cached facts of a cell, dropped when its source or metadata change, so
 * hashing and access reads cost nothing for cells that did not change.
 */
function cacheOf(cell: ISharedCell): ICellCache {
  let cache = cellCaches.get(cell);
  if (!cache) {
    const created: ICellCache = { hash: null, access: null };
    cache = created;
    cellCaches.set(cell, created);
    cell.changed.connect((_, change) => {
      if (change.sourceChange) {
        created.hash = null;
      }
      if (change.metadataChange) {
        created.access = null;
      }
    });
  }
  return cache;
}

/** The source hash of a cell, from its type and current source. */
export function cellHash(cell: ISharedCell): string {
  const cache = cacheOf(cell);
  if (cache.hash === null) {
    cache.hash = sourceHash(cell.cell_type, cell.getSource());
  }
  return cache.hash;
}

/** What the owner lets the agent do with a cell (an unknown value is 'none'). */
export function cellAccess(cell: ISharedCell): AgentAccess {
  const cache = cacheOf(cell);
  if (cache.access === null) {
    cache.access = readCellAccess(cell.getMetadata(ACCESS_METADATA_KEY)).access;
  }
  return cache.access;
}

/** Whether the agent may know a cell exists. */
export function isCellVisible(cell: ISharedCell): boolean {
  return cellAccess(cell) !== 'none';
}
