/**
 * Workspace path rules. Pure: no JupyterLab import.
 *
 * Paths are relative to the workspace root and use `/`. A path is refused when
 * it is longer than MAX_PATH_BYTES, has a segment longer than
 * MAX_PATH_SEGMENT_BYTES, is absolute, uses a backslash, holds a control
 * character, or climbs out of the root with `..`; `.` and empty segments are
 * dropped, and a `..` that stays inside the root is resolved.
 *
 * The length bounds live here, not in the contents service, so every app
 * answers the same: a Jupyter server fails on a name its file system refuses,
 * JupyterLite's browser storage would store it.
 */
import { LIMITS } from '../limits';
import { ToolError } from '../common/errors';
import { utf8Length } from '../common/text';

// C0 and C1 control characters, DEL included.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const DRIVE = /^[A-Za-z]:/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** Options of {@link normalizePath}. */
export interface IPathOptions {
  /** The argument name, used in error messages. */
  key?: string;
  /** Whether the root itself (an empty path) is a valid answer. */
  allowRoot?: boolean;
}

function invalid(input: string, why: string, key: string): ToolError {
  return new ToolError('INVALID_PATH', `Invalid ${key} "${input}": ${why}.`, {
    path: input
  });
}

/** A path (or one of its segments) over its bound, with its UTF-8 length. */
function tooLong(
  input: string,
  key: string,
  what: string,
  bytes: number,
  max: number
): ToolError {
  // The message names the length, not the (long) input; `path` carries it.
  return new ToolError(
    'INVALID_PATH',
    `Invalid ${key}: ${what} is ${bytes} bytes of UTF-8, more than the ${max} allowed.`,
    { path: input, bytes }
  );
}

/**
 * Validate a path argument and return its normal form ('' for the root).
 * Throws INVALID_PATH with the reason; a path or segment over its length
 * bound carries its UTF-8 length as `bytes`.
 */
export function normalizePath(
  input: string,
  options: IPathOptions = {}
): string {
  const key = options.key ?? 'path';
  // Cheap before anything walks a long string: a UTF-16 unit is at most
  // 3 bytes, so only a path of more than MAX/3 units needs counting.
  if (input.length * 3 > LIMITS.MAX_PATH_BYTES) {
    const bytes = utf8Length(input);
    if (bytes > LIMITS.MAX_PATH_BYTES) {
      throw tooLong(input, key, 'the path', bytes, LIMITS.MAX_PATH_BYTES);
    }
  }
  if (CONTROL.test(input)) {
    throw invalid(input, 'control characters are not allowed', key);
  }
  if (input.includes('\\')) {
    throw invalid(input, 'use "/" as the separator, not a backslash', key);
  }
  if (input.startsWith('/') || DRIVE.test(input) || SCHEME.test(input)) {
    throw invalid(
      input,
      'paths are relative to the workspace root, not absolute',
      key
    );
  }
  const parts: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') {
      continue;
    }
    if (segment === '..') {
      if (parts.length === 0) {
        throw invalid(input, '".." may not leave the workspace root', key);
      }
      parts.pop();
      continue;
    }
    const bytes = utf8Length(segment);
    if (bytes > LIMITS.MAX_PATH_SEGMENT_BYTES) {
      throw tooLong(
        input,
        key,
        'a file or directory name',
        bytes,
        LIMITS.MAX_PATH_SEGMENT_BYTES
      );
    }
    parts.push(segment);
  }
  const path = parts.join('/');
  if (!path && !options.allowRoot) {
    throw invalid(input, 'a file path is required, not the root', key);
  }
  return path;
}

/** The last segment of a normal path. */
export function basename(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/** Everything before the last segment of a normal path ('' at the root). */
export function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Join normal paths, dropping empty parts. */
export function joinPath(...parts: string[]): string {
  return parts.filter(part => part !== '').join('/');
}

/** Whether a normal path names a notebook file. */
export function isNotebookPath(path: string): boolean {
  return path.toLowerCase().endsWith('.ipynb');
}
