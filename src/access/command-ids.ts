/**
 * The ids of the access commands and their labels, apart from the commands
 * themselves: the plugin registers stand-ins under them at the start
 * (src/common/parts.ts, `standInCommands`), and the commands come with the
 * later chunk.
 */
import type { TranslationBundle } from '@jupyterlab/translation';

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

/**
 * The labels of the commands a menu shows, which the stand-ins carry until
 * the commands are wired.
 */
export function commandLabels(trans: TranslationBundle) {
  return {
    cycleCellAccess: trans.__('Cycle Agent Access'),
    cycleNotebookAccess: trans.__('Cycle Agent Access for Notebook')
  };
}

/**
 * The cell command's shortcut, in command mode. Shift+G is bound by neither
 * JupyterLab 4.6 nor Notebook 7.6 (G for "guard"); the selector is the one
 * the notebook's own command-mode shortcuts use. Bound at the start (the
 * plugin), so a key pressed before the commands are wired runs the stand-in.
 */
export const CELL_ACCESS_SHORTCUT = {
  keys: ['Shift G'],
  selector: '.jp-Notebook.jp-mod-commandMode:not(.jp-mod-readWrite) :focus'
};

/** Where the cell command shows in the context menu. */
export const CELL_CONTEXT_SELECTOR = '.jp-Notebook .jp-Cell';

/** Where the notebook command shows in the file browser's context menu. */
export const NOTEBOOK_FILE_SELECTOR =
  '.jp-DirListing-item[data-file-type="notebook"]';
