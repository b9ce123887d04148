/**
 * Builders for the notebooks the browser tests write: nbformat 4.5 JSON with
 * cell ids, for the Python kernel every app of the test run has.
 */
import type { ICell, INotebookContent, IOutput } from '@jupyterlab/nbformat';
import type { PartialJSONObject } from '@lumino/coreutils';

/** Cell metadata to start from; `{}` when omitted. */
export type CellMetadata = PartialJSONObject;

/**
 * A code cell: no outputs and never run unless `outputs` and
 * `executionCount` are given.
 */
export function codeCell(
  id: string,
  source: string,
  options: {
    outputs?: unknown[];
    executionCount?: number;
    metadata?: CellMetadata;
  } = {}
): ICell {
  return {
    cell_type: 'code',
    id,
    source,
    metadata: options.metadata ?? {},
    outputs: (options.outputs ?? []) as IOutput[],
    execution_count: options.executionCount ?? null
  };
}

/** A markdown cell. */
export function markdownCell(
  id: string,
  source: string,
  metadata: CellMetadata = {}
): ICell {
  return { cell_type: 'markdown', id, source, metadata };
}

/** A raw cell. */
export function rawCell(id: string, source: string): ICell {
  return { cell_type: 'raw', id, source, metadata: {} };
}

/** A Python notebook of `cells`, with extra notebook metadata if given. */
export function notebookOf(
  cells: ICell[],
  metadata: PartialJSONObject = {}
): INotebookContent {
  return {
    cells,
    metadata: {
      kernelspec: {
        display_name: 'Python 3 (ipykernel)',
        language: 'python',
        name: 'python3'
      },
      language_info: { name: 'python' },
      ...metadata
    },
    nbformat: 4,
    nbformat_minor: 5
  };
}
