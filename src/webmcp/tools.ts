/**
 * The handlers of our tools, in three groups: the core tools the WebMCP
 * plugin registers, the comment tools the review feature adds and the
 * output-selection tool the selection feature adds. Each group is a map from
 * name to handler (./define.ts), so a handler's arguments are derived from
 * the tool's schema (./specs.ts) and a missing handler does not compile.
 * Handlers call the semantic layer; they never touch widgets or
 * `document.modelContext`.
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
  defineTools,
  type SelectionToolName
} from './define';
import { TOOL_NAMES } from './specs';
import { type IToolServices } from './services';
import { type IToolDefinition } from './types';

/** The tools the WebMCP plugin registers itself, in the spec's order. */
export function coreTools(
  services: IToolServices,
  proposals: IProposals | null
): IToolDefinition[] {
  const { env, resolver, isNotebookVisible } = services;
  return defineTools<CoreToolName>({
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
  });
}

/** The review-thread tools, which the review feature adds. */
export function commentTools(
  { env, resolver }: IToolServices,
  review: IReviewStore
): IToolDefinition[] {
  const services = { env, resolver, review };
  return defineTools<CommentToolName>({
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
  });
}

/** The output-selection tool, which the selection feature adds. */
export function selectionTools(
  resolver: NotebookResolver,
  outputSelection: IOutputSelectionTracker
): IToolDefinition[] {
  return defineTools<SelectionToolName>({
    jupyter_get_output_selection: async (_args, call) =>
      getOutputSelection(
        outputSelection,
        path =>
          resolver.findOpenPanel(path)?.content.model?.sharedModel ?? null,
        (model, text) => secretFilter(resolver, model, call)(text)
      )
  });
}

/**
 * Every tool of ours, in the spec's order, as the three plugins add them
 * (the output-selection tool only with a tracker): what the docs check and
 * the unit tests read.
 */
export function buildTools(
  services: IToolServices & {
    review: IReviewStore;
    proposals?: IProposals | null;
    outputSelection?: IOutputSelectionTracker | null;
  }
): IToolDefinition[] {
  const tools = [
    ...coreTools(services, services.proposals ?? null),
    ...commentTools(services, services.review),
    ...(services.outputSelection
      ? selectionTools(services.resolver, services.outputSelection)
      : [])
  ];
  return TOOL_NAMES.flatMap(name => tools.filter(tool => tool.name === name));
}
