/**
 * The ids of the access commands, apart from the commands themselves: the
 * plugin registers stand-ins under them at the start (src/common/parts.ts,
 * `standInCommands`), and the commands come with the later chunk.
 */
/** The ids of the access commands. */
export namespace CommandIDs {
  /** Cycle the selected cells' access: write → read → none → write. */
  export const cycleCellAccess = 'jupyterlite-webmcp:cycle-cell-access';
  /** Cycle a notebook's access (the file browser's, or the current one). */
  export const cycleNotebookAccess = 'jupyterlite-webmcp:cycle-notebook-access';
  /** Set cells' access (given ids, or the selected cells) to one value. */
  export const setCellAccess = 'jupyterlite-webmcp:set-cell-access';
  /** Set a notebook's access to one value. */
  export const setNotebookAccess = 'jupyterlite-webmcp:set-notebook-access';
}
