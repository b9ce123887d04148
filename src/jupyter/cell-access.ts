/**
 * `jupyter_get_cell_access`: what the owner lets the agent do with each cell,
 * and each cell's provenance. Reading only: no tool can change access.
 */
import {
  ACCESS_METADATA_KEY,
  readHistory,
  type AgentAccess,
  type IHistoryEntry
} from '../access/model';
import { cellAccess } from '../access/read';
import { selectCells, type ICellSelector } from './cells';
import {
  notebookInfo,
  type INotebookInfo,
  type NotebookResolver
} from './notebook';

/** One cell's access and history (ICellAccessSummary). */
export interface ICellAccessSummary {
  cellId: string;
  index: number;
  access: AgentAccess;
  history: IHistoryEntry[];
}

/** What `jupyter_get_cell_access` returns. */
export interface ICellAccessResult {
  notebook: INotebookInfo;
  cells: ICellAccessSummary[];
  truncated: boolean;
  omittedCount: number;
  hiddenCellCount: number;
}

/** Report access and provenance for cells selected as `jupyter_get_cells` does. */
export async function getCellAccess(
  resolver: NotebookResolver,
  args: ICellSelector & { notebookPath?: string | null }
): Promise<ICellAccessResult> {
  const notebook = await resolver.resolveNotebook(args.notebookPath);
  try {
    const { cells, omittedCount, hiddenCellCount } = selectCells(
      notebook.model,
      args
    );
    return {
      notebook: notebookInfo(notebook),
      cells: cells.map(({ cell, index }) => ({
        cellId: cell.id,
        index,
        access: cellAccess(cell),
        history: readHistory(cell.getMetadata(ACCESS_METADATA_KEY))
      })),
      truncated: omittedCount > 0,
      omittedCount,
      hiddenCellCount
    };
  } finally {
    notebook.release();
  }
}
