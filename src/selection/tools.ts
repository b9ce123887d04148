/**
 * `jupyter_get_output_selection`: the text the human last selected inside a
 * rendered cell output, as the agent may see it. Errors: none thrown. The
 * selection feature adds the tool (./plugin.ts); its handler is loaded with
 * the later chunk (src/later.ts).
 */
import type { ISharedNotebook } from '@jupyter/ydoc';

import { type NotebookResolver } from '../jupyter/notebook';
import { secretFilter } from '../jupyter/secrets';
import type { IOutputSelectionTracker } from '../tokens';
import { type SelectionToolName, type ToolHandlers } from '../webmcp/define';
import {
  visibleSelection,
  type IOutputSelection,
  type NotebookModelLookup
} from './visible';

/**
 * What the agent is shown of a text from a notebook (secrets withheld when
 * the notebook's switch says so); none: the text as it is.
 */
export type NotebookTextFilter = (
  model: ISharedNotebook,
  text: string
) => string;

/**
 * The tracker's current record filtered through agent access and re-checked
 * against the live notebook (see `visibleSelection`), its text through
 * `filter`, or null. Never throws: whatever cannot be checked reads as no
 * selection.
 */
export function getOutputSelection(
  tracker: IOutputSelectionTracker,
  findModel: NotebookModelLookup,
  filter?: NotebookTextFilter
): IOutputSelection | null {
  try {
    let model: ISharedNotebook | null = null;
    const selection = visibleSelection(tracker.current, path => {
      model = findModel(path);
      return model;
    });
    if (selection && model && filter) {
      selection.text = filter(model, selection.text);
    }
    return selection;
  } catch {
    return null;
  }
}

/** The handler of the output-selection tool. */
export function selectionHandlers(
  resolver: NotebookResolver,
  outputSelection: IOutputSelectionTracker
): ToolHandlers<SelectionToolName> {
  return {
    jupyter_get_output_selection: async (_args, call) =>
      getOutputSelection(
        outputSelection,
        path =>
          resolver.findOpenPanel(path)?.content.model?.sharedModel ?? null,
        (model, text) => secretFilter(resolver, model, call)(text)
      )
  };
}
