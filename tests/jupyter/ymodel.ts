/** Cells for the tests that build a `YNotebook` directly. */
import { type ISharedCell, type SharedCell } from '@jupyter/ydoc';

import { ACCESS_METADATA_KEY, type AgentAccess } from '../../src/access/model';

export function code(id: string, source = `x = "${id}"`): SharedCell.Cell {
  return { id, cell_type: 'code', source, metadata: {} };
}

export function markdown(id: string, source = `# ${id}`): SharedCell.Cell {
  return { id, cell_type: 'markdown', source, metadata: {} };
}

/** Set a cell's agent access as the owner's command writes it. */
export function setAccess(cell: ISharedCell, access: AgentAccess): void {
  cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access });
}
