/**
 * The handlers of our tools, in three groups: the core tools the WebMCP
 * plugin registers, the comment tools the review feature adds and the
 * output-selection tool the selection feature adds. Each group is a map from
 * name to handler (./define.ts), so a handler's arguments are derived from
 * the tool's schema (./specs.ts) and a missing handler does not compile.
 * Handlers call the semantic layer; they never touch widgets or
 * `document.modelContext`.
 *
 * This module and what only it imports (the semantic layer, the generated
 * validators) are a chunk of their own, loaded at the first call or once the
 * page is idle (./tools.ts): registering the tools needs only their
 * definitions.
 */
import { getCellAccess } from '../jupyter/cell-access';
import { getCells } from '../jupyter/cells';
import { getContext } from '../jupyter/context';
import { createNotebook } from '../jupyter/create';
import { exportNotebook, saveNotebook } from '../jupyter/document';
import { deleteCell, insertCell, updateCell } from '../jupyter/edit';
import { runCells } from '../jupyter/kernel/execution';
import { kernelAction } from '../jupyter/kernel/action';
import { focusCell } from '../jupyter/navigate';
import { type NotebookResolver } from '../jupyter/notebook';
import { openNotebook } from '../jupyter/open';
import {
  createComment,
  focusComment,
  getComment,
  listComments,
  reopenComment,
  replyComment,
  resolveComment
} from '../jupyter/comments/threads';
import { listWorkspace } from '../jupyter/workspace';
import { secretFilter } from '../jupyter/secrets';
import { getOutputSelection } from '../selection/tool';
import {
  type IOutputSelectionTracker,
  type IProposals,
  type IReviewStore
} from '../tokens';
import {
  type CommentToolName,
  type CoreToolName,
  type SelectionToolName,
  type ToolHandlers
} from './define';
import { type IToolServices } from './services';

// the validators generated from the tools' schemas, needed at the first call
export { COMPILED_VALIDATORS } from './validators.generated';

/** The handlers of the tools the WebMCP plugin registers itself. */
export function coreHandlers(
  services: IToolServices,
  proposals: IProposals | null
): ToolHandlers<CoreToolName> {
  const { env, resolver, isNotebookVisible } = services;
  return {
    jupyter_get_context: async (_args, call) =>
      getContext(env, resolver, isNotebookVisible, call),
    jupyter_list_workspace: async (args, call) =>
      listWorkspace(resolver, args, isNotebookVisible, {
        onProgress: progress => call.reportProgress(progress)
      }),
    jupyter_open_notebook: async (args, call) =>
      openNotebook(env, resolver, args, call),
    jupyter_create_notebook: async args =>
      createNotebook(env, resolver, args, isNotebookVisible),
    jupyter_get_cells: async (args, call) => getCells(resolver, args, call),
    jupyter_get_cell_access: async args => getCellAccess(resolver, args),
    jupyter_insert_cell: async (args, call) =>
      insertCell(resolver, args, call, proposals),
    jupyter_update_cell: async (args, call) =>
      updateCell(resolver, args, call, proposals),
    jupyter_delete_cell: async (args, call) =>
      deleteCell(resolver, args, call, proposals),
    jupyter_run_cells: async (args, call) =>
      runCells(resolver, args, call, proposals),
    jupyter_focus_cell: async (args, call) =>
      focusCell(env, resolver, args, call),
    jupyter_save_notebook: async args => saveNotebook(env, resolver, args),
    jupyter_kernel_action: async (args, call) =>
      kernelAction(resolver, args, call, proposals),
    jupyter_export_notebook: async (args, call) =>
      exportNotebook(resolver, args, call)
  };
}

/** The handlers of the review-thread tools, which the review feature adds. */
export function commentHandlers(
  { env, resolver }: IToolServices,
  review: IReviewStore
): ToolHandlers<CommentToolName> {
  const services = { env, resolver, review };
  return {
    jupyter_list_comments: async (args, call) =>
      listComments(services, args, call),
    jupyter_get_comment: async (args, call) => getComment(services, args, call),
    jupyter_create_comment: async (args, call) =>
      createComment(services, args, call),
    jupyter_reply_comment: async (args, call) =>
      replyComment(services, args, call),
    jupyter_resolve_comment: async (args, call) =>
      resolveComment(services, args, call),
    jupyter_reopen_comment: async (args, call) =>
      reopenComment(services, args, call),
    jupyter_focus_comment: async (args, call) =>
      focusComment(services, args, call)
  };
}

/** The handler of the output-selection tool, which the selection feature adds. */
export function selectionHandlers(
  resolver: NotebookResolver,
  outputSelection: IOutputSelectionTracker
): ToolHandlers<SelectionToolName> {
  return {
    jupyter_get_output_selection: async (_args, call) =>
      getOutputSelection(
        outputSelection,
        path =>
          resolver.findOpenPanel(path)?.content.model?.sharedModel ?? null,
        (model, text) => secretFilter(resolver, model, call)(text)
      )
  };
}
