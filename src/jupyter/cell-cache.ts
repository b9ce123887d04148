/**
 * The source hash of a cell, cached on the cell and dropped when its source
 * changes, so repeated reads of a large notebook hash only what changed. (A
 * cell's access has its own cached reader in `../access/read`.)
 */
import { cellMemo } from '../common/cell-memo';
import { sourceHash } from '../common/hash';

/** The source hash of a cell, from its type and current source. */
export const cellHash = cellMemo(
  cell => sourceHash(cell.cell_type, cell.getSource()),
  change => !!change.sourceChange
);
