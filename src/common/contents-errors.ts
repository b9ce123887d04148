/**
 * What a failed read of the contents service means to an agent: the one
 * mapping every tool that reads a path goes through, so a failure answers the
 * same closed-set code in every app and never INTERNAL_ERROR. Pure: no
 * JupyterLab import.
 *
 * - 404: nothing is there. Callers turn it into their own "not found" (a
 *   listing's missing directory, a missing notebook, a free name to create).
 * - Any other 4xx: the service refused the path (a name its file system
 *   cannot hold, a file it forbids, a request it cannot parse). The spec's
 *   INVALID_PATH is "a path argument was malformed": from the caller's side
 *   the path is what was wrong, and retrying it unchanged will not help.
 * - 5xx, no answer at all (a network error) or anything else thrown: the path
 *   could not be resolved right now. The spec's NOTEBOOK_NOT_FOUND is "the
 *   given path does not resolve to an open or existing notebook (or, for
 *   jupyter_list_workspace, an existing directory)", which is what the caller
 *   observes; `reason: "unavailable"` says a retry may succeed. It cannot
 *   reveal a hidden notebook: access is only judged on a file that was read.
 */
import { ToolError } from './errors';

/** How a read of the contents service failed. */
export type ContentsFailure = 'not-found' | 'refused' | 'unavailable';

/** The HTTP status of a contents error (a ResponseError), if it has one. */
export function contentsStatus(error: unknown): number | null {
  const status = (error as { response?: { status?: unknown } } | null)?.response
    ?.status;
  return typeof status === 'number' ? status : null;
}

/** Classify anything a contents-service call threw. */
export function contentsFailure(error: unknown): ContentsFailure {
  const status = contentsStatus(error);
  if (status === 404) {
    return 'not-found';
  }
  if (status !== null && status >= 400 && status < 500) {
    return 'refused';
  }
  return 'unavailable';
}

/**
 * The structured error for a failed read of `path` other than "not found"
 * (which each caller words itself). A ToolError passes through unchanged.
 */
export function contentsError(error: unknown, path: string): ToolError {
  if (error instanceof ToolError) {
    return error;
  }
  const status = contentsStatus(error);
  const answered = status === null ? 'did not answer' : `answered ${status}`;
  if (contentsFailure(error) === 'refused') {
    return new ToolError(
      'INVALID_PATH',
      `The workspace refused the path "${path}" (its contents service ${answered}).`,
      { path, reason: 'refused', ...(status === null ? {} : { status }) }
    );
  }
  return new ToolError(
    'NOTEBOOK_NOT_FOUND',
    `"${path}" could not be read: the workspace's contents service ${answered}. Try again later.`,
    { path, reason: 'unavailable', ...(status === null ? {} : { status }) }
  );
}
