/**
 * Whether a notebook's tool results withhold values in credential formats
 * (docs/access.md, "Secrets"): the notebook's own switch, kept in its
 * metadata beside its access (`metadata.jupyterlite_webmcp.withholdSecrets`)
 * so it travels with the file, else the owner's setting for all notebooks
 * (`withholdSecrets` of `jupyterlite-webmcp:access`, on by default).
 *
 * No tool reads or writes the switch: only the Access section does. Pure.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';
import type { PartialJSONObject } from '@lumino/coreutils';

import {
  ACCESS_METADATA_KEY,
  isPlainObject,
  notebookAccessCopy
} from './model';

/** The field of the notebook's `jupyterlite_webmcp` value holding it. */
export const WITHHOLD_SECRETS_FIELD = 'withholdSecrets';

/** Whether secrets are withheld when neither setting nor notebook says. */
export const WITHHOLD_SECRETS_DEFAULT = true;

/**
 * The switch a notebook's stored `jupyterlite_webmcp` value sets, or null
 * when it sets none (no value, no field, or not a boolean).
 */
export function readWithholdSecrets(metadataValue: unknown): boolean | null {
  if (!isPlainObject(metadataValue)) {
    return null;
  }
  const value = metadataValue[WITHHOLD_SECRETS_FIELD];
  return typeof value === 'boolean' ? value : null;
}

/**
 * Whether a notebook's results withhold secrets: its own switch, else
 * `byDefault` (the setting for all notebooks).
 */
export function withholdsSecrets(
  notebook: ISharedNotebook,
  byDefault: boolean
): boolean {
  return (
    readWithholdSecrets(notebook.getMetadata(ACCESS_METADATA_KEY)) ?? byDefault
  );
}

/**
 * The stored value with the switch set, or cleared (`null`: the notebook
 * follows the setting). Every other field is kept; a stored value that is
 * not an object (a malformed value, which hides the notebook from the
 * agent) keeps hiding it.
 */
export function withWithholdSecrets(
  metadataValue: unknown,
  value: boolean | null
): PartialJSONObject {
  const next = notebookAccessCopy(metadataValue);
  if (value === null) {
    delete next[WITHHOLD_SECRETS_FIELD];
  } else {
    next[WITHHOLD_SECRETS_FIELD] = value;
  }
  return next as PartialJSONObject;
}

/** Store a notebook's switch (null: follow the setting); whether it changed. */
export function setWithholdSecrets(
  notebook: ISharedNotebook,
  value: boolean | null
): boolean {
  const current = notebook.getMetadata(ACCESS_METADATA_KEY);
  if (readWithholdSecrets(current) === value) {
    return false;
  }
  notebook.setMetadata(
    ACCESS_METADATA_KEY,
    withWithholdSecrets(current, value)
  );
  return true;
}
