/**
 * A notebook's own Propose mode, kept in its metadata beside its access
 * (`metadata.jupyterlite_webmcp.proposeMode`), so it travels with the file
 * and, under real-time collaboration, is one value every browser of the
 * notebook reads: when one person turns Propose mode on, every person's
 * agent's edits of that notebook wait for review. Absent, the notebook is
 * in the mode of the `mode` setting (the mode notebooks start in).
 *
 * No tool reads or writes it: tools never return notebook metadata, and
 * only the human's switch and commands call `setNotebookMode`.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';
import type { PartialJSONObject } from '@lumino/coreutils';

import {
  ACCESS_METADATA_KEY,
  isPlainObject,
  notebookAccessCopy
} from '../access/model';
import type { ProposeMode } from '../tokens';

/** The field of the notebook's `jupyterlite_webmcp` value holding its mode. */
export const PROPOSE_MODE_FIELD = 'proposeMode';

/** Whether a value is a mode. */
export function isProposeMode(value: unknown): value is ProposeMode {
  return value === 'direct' || value === 'propose';
}

/**
 * The mode a notebook's stored `jupyterlite_webmcp` value sets, or null when
 * it sets none (no value, no field, or a field this extension does not
 * know: the setting's mode applies, as for a notebook never switched).
 */
export function readNotebookMode(metadataValue: unknown): ProposeMode | null {
  if (!isPlainObject(metadataValue)) {
    return null;
  }
  const mode = metadataValue[PROPOSE_MODE_FIELD];
  return isProposeMode(mode) ? mode : null;
}

/**
 * The stored value with the mode set. Every other field is kept; a stored
 * value that is not an object (a malformed value, which hides the notebook
 * from the agent) keeps hiding it: `notebookAccess` becomes `none`.
 */
export function withNotebookMode(
  metadataValue: unknown,
  mode: ProposeMode
): PartialJSONObject {
  const next = notebookAccessCopy(metadataValue);
  next[PROPOSE_MODE_FIELD] = mode;
  return next as PartialJSONObject;
}

/** Store a notebook's mode; whether it changed anything. */
export function setNotebookMode(
  notebook: ISharedNotebook,
  mode: ProposeMode
): boolean {
  const current = notebook.getMetadata(ACCESS_METADATA_KEY);
  if (readNotebookMode(current) === mode) {
    return false;
  }
  notebook.setMetadata(ACCESS_METADATA_KEY, withNotebookMode(current, mode));
  return true;
}
