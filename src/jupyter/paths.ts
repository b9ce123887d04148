/**
 * Workspace path rules. Pure: no JupyterLab import.
 *
 * Paths are relative to the workspace root and use `/`. A path is refused when
 * it is absolute, uses a backslash, holds a control character, or climbs out
 * of the root with `..`; `.` and empty segments are dropped, and a `..` that
 * stays inside the root is resolved.
 */
import { ToolError } from '../common/errors';

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

/**
 * Validate a path argument and return its normal form ('' for the root).
 * Throws INVALID_PATH with the reason.
 */
export function normalizePath(
  input: string,
  options: IPathOptions = {}
): string {
  const key = options.key ?? 'path';
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
