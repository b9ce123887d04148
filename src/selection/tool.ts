/**
 * `jupyter_get_output_selection`: the text the human last selected inside a
 * rendered cell output, as the agent may see it. Errors: none thrown.
 */
import type { IOutputSelectionTracker } from '../tokens';
import {
  visibleSelection,
  type IOutputSelection,
  type NotebookModelLookup
} from './visible';

/**
 * The tracker's current record filtered through agent access and re-checked
 * against the live notebook (see `visibleSelection`), or null. Never throws:
 * whatever cannot be checked reads as no selection.
 */
export function getOutputSelection(
  tracker: IOutputSelectionTracker,
  findModel: NotebookModelLookup
): IOutputSelection | null {
  try {
    return visibleSelection(tracker.current, findModel);
  } catch {
    return null;
  }
}
