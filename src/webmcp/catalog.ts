/**
 * What every tool tells the agent: its title, its description (verbatim from
 * the specification) and its annotations. Data only; handlers live in tools.ts.
 */
import { type IToolAnnotations } from './types';
import { type ToolName } from './schemas';

/** The advertised part of a tool. */
export interface IToolMetadata {
  title: string;
  description: string;
  annotations: IToolAnnotations;
}

/**
 * `consequentialHint` marks the tools that run code, delete or restart.
 */
export const TOOL_CATALOG: Record<ToolName, IToolMetadata> = {
  jupyter_get_context: {
    title: 'Get notebook context',
    description:
      'Read the live state of the browser-local Jupyter workspace: the open documents, the current notebook (including whether it has unsaved changes), the kernel status, the active and selected cells, the cursor, and the exact text the user currently has selected. Call this first; the selection is how the user points at something when they say "this".',
    annotations: { readOnlyHint: true, untrustedContentHint: true }
  },
  jupyter_list_workspace: {
    title: 'List workspace files',
    description:
      'List files and directories in the browser-local workspace. Returns names, paths, types, sizes and modification times, never file contents. Use it to find a notebook before opening it.',
    annotations: { readOnlyHint: true, untrustedContentHint: true }
  },
  jupyter_open_notebook: {
    title: 'Open a notebook',
    description:
      'Open a notebook from the workspace and bring it to the front, optionally scrolling to a specific cell. This visibly changes what the user is looking at.',
    annotations: { readOnlyHint: false, untrustedContentHint: true }
  },
  jupyter_create_notebook: {
    title: 'Create a notebook',
    description:
      'Create a new, empty notebook in the browser-local workspace and open it. Refuses to overwrite an existing file.',
    annotations: { readOnlyHint: false, untrustedContentHint: false }
  },
  jupyter_get_cells: {
    title: 'Read notebook cells',
    description:
      'Read cells from the live notebook model, including edits the user has not saved yet. Each cell comes back with its stable id and a sourceHash; you must pass that hash back to edit or delete the cell. Outputs are bounded and only included when asked for.',
    annotations: { readOnlyHint: true, untrustedContentHint: true }
  },
  jupyter_get_cell_access: {
    title: 'Read cell agent access',
    description:
      'Report what a connected agent may currently do with each cell (write, read, or none) plus its full provenance history, and how many cells in range are hidden entirely. The notebook owner controls this per cell from the cell context menu; there is no tool to change it. Use this to explain to the user why you are not touching a cell.',
    annotations: { readOnlyHint: true, untrustedContentHint: true }
  },
  jupyter_insert_cell: {
    title: 'Insert a cell',
    description:
      'Insert a new cell into the live notebook, above or below a reference cell. The cell is visible to the user immediately. It is not executed: run it with jupyter_run_cells as a separate, explicit step.',
    annotations: { readOnlyHint: false, untrustedContentHint: true }
  },
  jupyter_update_cell: {
    title: 'Update a cell',
    description:
      'Replace the source of a visible notebook cell in the live model. Requires the sourceHash returned by a previous read, so an unsaved human edit can never be overwritten by accident: if the cell changed, the write is refused with a STALE_CELL error containing the current hash and a preview. Does not run or save the cell. When the human has switched the notebook to Propose mode, this call does not apply immediately: it stages a reviewable diff in the notebook UI and waits for the human; it does not resolve until they accept (applied, same as Direct mode) or deny it (a normal, non-error result carrying their reason, coded PROPOSAL_DENIED), or the call is aborted. It is auto-denied the same way, with a reason, if the cell is deleted or the notebook is closed or renamed first.',
    annotations: { readOnlyHint: false, untrustedContentHint: true }
  },
  jupyter_delete_cell: {
    title: 'Delete a cell',
    description:
      'Delete a visible notebook cell. Requires the sourceHash from a previous read; a cell the user has edited since then is not deleted.',
    annotations: {
      readOnlyHint: false,
      untrustedContentHint: true,
      consequentialHint: true
    }
  },
  jupyter_run_cells: {
    title: 'Run notebook cells',
    description:
      'Execute cells that already exist in the notebook, using the browser-local kernel the user shares. Select them with cellIds, or with an explicit contiguous startIndex/endIndex range; if no selector is given, the active cell runs. The user sees the busy state, the execution counts and the outputs. There is no way to run an arbitrary source string: to compute something new, insert a visible cell first and then run it.',
    annotations: {
      readOnlyHint: false,
      untrustedContentHint: true,
      consequentialHint: true
    }
  },
  jupyter_focus_cell: {
    title: 'Focus a cell',
    description:
      'Scroll to a cell, select it, and optionally place the cursor or select an exact range of its source using the notebook editor’s own selection. Use it to point the user at the code you are talking about. Changes only what is on screen.',
    annotations: { readOnlyHint: false, untrustedContentHint: true }
  },
  jupyter_save_notebook: {
    title: 'Save the notebook',
    description:
      'Save the notebook to the browser-local workspace. The live in-memory model is authoritative, so this is only needed when the user wants the file on disk updated.',
    annotations: { readOnlyHint: false, untrustedContentHint: false }
  },
  jupyter_kernel_action: {
    title: 'Interrupt or restart the kernel',
    description:
      'Interrupt or restart the browser-local kernel for a notebook. The kernel is shared with the user, so an interrupt also stops anything they started. Restarting discards every in-memory variable.',
    annotations: {
      readOnlyHint: false,
      untrustedContentHint: false,
      consequentialHint: true
    }
  },
  jupyter_list_comments: {
    title: 'List review comments',
    description:
      'List the review threads stored in a notebook. Threads are an ordinary notebook feature the user can also create, reply to and resolve by hand; they are saved in the notebook file. Each summary says whether the thread still points at live code or has become orphaned.',
    annotations: { readOnlyHint: true, untrustedContentHint: true }
  },
  jupyter_get_comment: {
    title: 'Read a review thread',
    description:
      'Read one review thread: its messages (the first and the most recent when long), the anchor, whether the anchor still resolves, and the code or output it is attached to as it exists now.',
    annotations: { readOnlyHint: true, untrustedContentHint: true }
  },
  jupyter_create_comment: {
    title: 'Create a review comment',
    description:
      'Create a review thread anchored to a whole cell, to an exact range of a cell’s source, or to one of a cell’s outputs. This is the same kind of comment the user creates from the Comments tab of the Agent panel, so use it to leave observations without editing their notebook.',
    annotations: { readOnlyHint: false, untrustedContentHint: true }
  },
  jupyter_reply_comment: {
    title: 'Reply to a review thread',
    description:
      'Append a message to an existing review thread. The user sees it in the Comments tab of the Agent panel next to their own messages.',
    annotations: { readOnlyHint: false, untrustedContentHint: true }
  },
  jupyter_resolve_comment: {
    title: 'Resolve a review thread',
    description:
      'Mark a review thread resolved, optionally adding a closing message. The history is preserved and the user can reopen it.',
    annotations: { readOnlyHint: false, untrustedContentHint: true }
  },
  jupyter_reopen_comment: {
    title: 'Reopen a review thread',
    description: 'Reopen a resolved review thread, preserving its history.',
    annotations: { readOnlyHint: false, untrustedContentHint: true }
  },
  jupyter_focus_comment: {
    title: 'Focus a review thread',
    description:
      'Scroll to what a review thread is attached to and select it, so the user can see exactly which code or output is under discussion. Changes only what is on screen.',
    annotations: { readOnlyHint: false, untrustedContentHint: true }
  },
  jupyter_export_notebook: {
    title: 'Export the notebook',
    description:
      'Export the notebook as a portable markdown document: markdown cells verbatim, code cells as fenced code blocks, and (by default) their text and error outputs, with images represented only by a placeholder, never embedded. Use this to hand the notebook to another tool (upload it, email it, put it in a document) without a manual export.',
    annotations: { readOnlyHint: true, untrustedContentHint: true }
  },
  jupyter_get_output_selection: {
    title: 'Read the selected output',
    description:
      'Read the text the user last selected inside a rendered cell output, if any is currently recorded. Returns null when nothing is selected, the selection crossed cells or notebook chrome, or it no longer matches the output it was taken from.',
    annotations: { readOnlyHint: true, untrustedContentHint: true }
  }
};
