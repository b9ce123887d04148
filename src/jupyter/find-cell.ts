/**
 * Finding a cell by id for what the agent means to do with it: a module of
 * its own, as the tools of other extensions use it (`IWebMcpRegistry.notebooks`)
 * from the page's start, without the rest of ./cells.ts.
 */
import { type ISharedCell, type ISharedNotebook } from '@jupyter/ydoc';

import { assertCellAccessible } from '../access/guard';
import { cellNotFoundError, type AccessIntent } from '../access/policy';
import { cellAccess } from '../access/read';
import { cellIndexOf } from './model-index';

/** A cell found by id, with its index. */
export interface IFoundCell {
  cell: ISharedCell;
  index: number;
}

/**
 * Find a cell by id and check the agent may do `intent` with it. A hidden
 * cell throws exactly the error an unknown id throws.
 */
export function findCell(
  model: ISharedNotebook,
  cellId: string,
  intent: AccessIntent
): IFoundCell {
  const index = cellIndexOf(model, cellId);
  if (index < 0) {
    throw cellNotFoundError(cellId);
  }
  const cell = model.cells[index];
  assertCellAccessible({ id: cellId, access: cellAccess(cell) }, intent);
  return { cell, index };
}
