/**
 * `jupyter_get_output_selection`: the text the human last selected inside a
 * rendered cell output, as the agent may see it. Errors: none thrown.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';

import type { IOutputSelectionTracker } from '../tokens';
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
