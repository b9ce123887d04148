/**
 * What the Agent panel's sections share in their rows: how a cell's source
 * is previewed, how long a section waits after typing before it repaints,
 * and how many cell links one row shows.
 */

/** How many characters of a cell's first line a row shows. */
export const PREVIEW_CHARS = 80;

/** How long a section waits after an edit before it updates its previews. */
export const SOURCE_SETTLE_MS = 300;

/** How many cell links a row shows before "and N more". */
export const MAX_ROW_CELL_LINKS = 5;

/** The first non-blank line of a source, at most `max` characters. */
export function previewOf(source: string, max = PREVIEW_CHARS): string {
  const line = source.split('\n').find(text => text.trim() !== '') ?? '';
  const trimmed = line.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}
