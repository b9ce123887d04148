/**
 * The ids of the review commands and their labels, apart from the commands
 * themselves: the plugin registers stand-ins under them at the start
 * (src/common/parts.ts, `standInCommands`), and the commands come with the
 * later chunk.
 */
import type { TranslationBundle } from '@jupyterlab/translation';

export namespace CommandIDs {
  /** Comment on the editor's selection, else on the active cell. */
  export const addComment = 'jupyterlite-webmcp:add-comment';
  /** Comment on the active cell as a whole. */
  export const addCellComment = 'jupyterlite-webmcp:add-cell-comment';
  /** Comment on an output (the one right-clicked, else `outputIndex`). */
  export const addOutputComment = 'jupyterlite-webmcp:add-output-comment';
  /** Show a thread (or a cell's threads) in the Comments tab. */
  export const showComments = 'jupyterlite-webmcp:show-comments';
}

/**
 * The labels of the commands a menu shows, which the stand-ins carry until
 * the commands are wired.
 */
export function commandLabels(trans: TranslationBundle) {
  return {
    addComment: trans.__('Add Comment'),
    addCellComment: trans.__('Comment on Cell'),
    addOutputComment: trans.__('Comment on Output')
  };
}

/** Where the output command shows in the context menu. */
export const OUTPUT_CONTEXT_SELECTOR = '.jp-Notebook .jp-OutputArea-child';
