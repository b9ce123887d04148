/**
 * Joining the stream outputs a file stores as lists of lines: what a notebook
 * read from a file goes through (../notebook.ts), apart from the rest of
 * ./outputs.ts.
 */
import type * as nbformat from '@jupyterlab/nbformat';

import { textOf } from '../../common/mime';

/** One output as a plain record. */
type OutputRecord = { [key: string]: unknown };

/**
 * A notebook's content with every stream output's text as one string.
 *
 * nbformat lets a file store a stream's text as a list of lines, to be
 * concatenated. A Jupyter server joins them before handing the notebook over;
 * JupyterLite hands them over as stored, and `@jupyter/ydoc`'s `fromJSON`
 * joins such a list with commas. Content read from a file goes through this
 * before it becomes a model, so its streams read as the file means them.
 */
export function withJoinedStreams(
  content: nbformat.INotebookContent
): nbformat.INotebookContent {
  const split = (output: unknown): output is OutputRecord =>
    (output as OutputRecord | null)?.output_type === 'stream' &&
    Array.isArray((output as OutputRecord).text);
  const splitIn = (cell: nbformat.ICell): boolean =>
    Array.isArray(cell.outputs) && (cell.outputs as unknown[]).some(split);
  if (!Array.isArray(content.cells) || !content.cells.some(splitIn)) {
    return content;
  }
  return {
    ...content,
    cells: content.cells.map(cell =>
      splitIn(cell)
        ? ({
            ...cell,
            outputs: (cell.outputs as unknown[]).map(output =>
              split(output) ? { ...output, text: textOf(output.text) } : output
            )
          } as nbformat.ICell)
        : cell
    )
  };
}
