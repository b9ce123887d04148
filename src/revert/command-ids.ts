/**
 * The id of the revert command, apart from the command itself: the plugin
 * registers a stand-in under it at the start (src/common/parts.ts,
 * `standInCommands`), and the command comes with the later chunk.
 */
/** The ids of the revert commands. */
export namespace CommandIDs {
  /** Forget every agent edit recorded in the current notebook (asks first). */
  export const forgetAgentEdits = 'jupyterlite-webmcp:forget-agent-edits';
}
