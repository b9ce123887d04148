/**
 * The one guard every tool's cell access goes through, and the attribution
 * that tells the provenance listener which changes a tool call made.
 */
import {
  type AccessIntent,
  accessDecision,
  cellAccessDeniedError,
  cellNotFoundError,
  type IGuardedCell,
  type IGuardedNotebook,
  noActiveNotebookError,
  notebookAccessDeniedError,
  notebookNotFoundError
} from './policy';

/**
 * The one guard every id-addressed cell operation goes through. A hidden
 * cell throws exactly what an unknown id throws (cellNotFoundError); a
 * read-only cell throws CELL_ACCESS_DENIED only for a write.
 */
export function assertCellAccessible(
  cell: IGuardedCell,
  intent: AccessIntent
): void {
  switch (accessDecision(cell.access, intent)) {
    case 'hidden':
      throw cellNotFoundError(cell.id);
    case 'denied':
      throw cellAccessDeniedError(cell.id);
    default:
      return;
  }
}

/**
 * The guard notebook resolution goes through. A hidden notebook throws
 * exactly what a missing one throws: NOTEBOOK_NOT_FOUND for the path when it
 * was addressed by path, NO_ACTIVE_NOTEBOOK when it was the current notebook.
 * A read-only notebook throws NOTEBOOK_ACCESS_DENIED only for a write.
 */
export function assertNotebookAccessible(
  notebook: IGuardedNotebook,
  intent: AccessIntent,
  addressedByPath: boolean
): void {
  switch (accessDecision(notebook.access, intent)) {
    case 'hidden':
      throw addressedByPath
        ? notebookNotFoundError(notebook.path)
        : noActiveNotebookError();
    case 'denied':
      throw notebookAccessDeniedError(notebook.path);
    default:
      return;
  }
}

let agentDepth = 0;

/**
 * Run `change` as the agent's: the provenance listener, which runs
 * synchronously inside the change, leaves it to the tool path to record.
 */
export function withAgentAttribution<T>(change: () => T): T {
  agentDepth++;
  try {
    return change();
  } finally {
    agentDepth--;
  }
}

/** Whether the change being observed right now is a tool call's. */
export function isAgentAttributed(): boolean {
  return agentDepth > 0;
}
