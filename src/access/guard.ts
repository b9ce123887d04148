/**
 * The one guard every tool's cell access goes through, and the attribution
 * that tells the provenance listener which changes a tool call made.
 */
export { assertCellAccessible, assertNotebookAccessible } from './policy';

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
