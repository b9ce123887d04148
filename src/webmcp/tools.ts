/**
 * The tools, as data: each one is its catalog entry (title, verbatim
 * description, annotations), its input schema and a handler that calls the
 * semantic layer. Handlers never touch widgets or `document.modelContext`.
 *
 * Only implemented tools are built, so what is registered is exactly what
 * works.
 */
import { getCellAccess } from '../jupyter/cell-access';
import { getCells, type IGetCellsArgs } from '../jupyter/cells';
import { getContext } from '../jupyter/context';
import { createNotebook, type ICreateArgs } from '../jupyter/create';
import { exportNotebook, saveNotebook } from '../jupyter/document';
import {
  deleteCell,
  insertCell,
  updateCell,
  type IDeleteArgs,
  type IInsertArgs,
  type IUpdateArgs
} from '../jupyter/edit';
import { type IJupyterEnvironment } from '../jupyter/environment';
import { runCells, type IRunArgs } from '../jupyter/execution';
import { kernelAction, type IKernelActionArgs } from '../jupyter/kernel';
import { focusCell, type IFocusCellArgs } from '../jupyter/navigate';
import { type NotebookResolver } from '../jupyter/notebook';
import { openNotebook, type IOpenArgs } from '../jupyter/open';
import {
  createComment,
  focusComment,
  getComment,
  listComments,
  reopenComment,
  replyComment,
  resolveComment,
  type ICreateCommentArgs,
  type IListCommentsArgs,
  type IReplyCommentArgs,
  type IResolveCommentArgs,
  type IThreadArgs
} from '../jupyter/review';
import {
  listWorkspace,
  type IListWorkspaceArgs,
  type NotebookVisibility
} from '../jupyter/workspace';
import { getOutputSelection } from '../selection/tool';
import {
  type IOutputSelectionTracker,
  type IProposals,
  type IReviewStore
} from '../tokens';
import { TOOL_CATALOG } from './catalog';
import { TOOL_INPUT_SCHEMAS, type ToolName } from './schemas';
import { type IToolCallContext, type IToolDefinition } from './types';

/** What the handlers call. */
export interface IToolServices {
  env: IJupyterEnvironment;
  resolver: NotebookResolver;
  /** Whether a listed notebook is visible to the agent (all, by default). */
  isNotebookVisible?: NotebookVisibility;
  /**
   * The output-selection tracker; `jupyter_get_output_selection` exists only
   * when one is supplied.
   */
  outputSelection?: IOutputSelectionTracker | null;
  /** The review store the comment tools read and write threads through. */
  review: IReviewStore;
  /**
   * Propose mode, when its plugin is there: updates, inserts, deletes, runs
   * and kernel actions then stage proposals while the human has it on.
   */
  proposals?: IProposals | null;
}

type Handler = (
  args: Record<string, unknown>,
  context: IToolCallContext
) => Promise<unknown>;

function handlers(services: IToolServices): Partial<Record<ToolName, Handler>> {
  const { env, resolver, isNotebookVisible, outputSelection, review } =
    services;
  const proposals = services.proposals ?? null;
  const reviewing = { env, resolver, review };
  return {
    jupyter_get_context: async () =>
      getContext(env, resolver, isNotebookVisible),
    jupyter_list_workspace: async (args, context) =>
      listWorkspace(resolver, args as IListWorkspaceArgs, isNotebookVisible, {
        onProgress: progress => context.reportProgress(progress)
      }),
    jupyter_open_notebook: async args =>
      openNotebook(env, resolver, args as unknown as IOpenArgs),
    jupyter_create_notebook: async args =>
      createNotebook(
        env,
        resolver,
        args as unknown as ICreateArgs,
        isNotebookVisible
      ),
    jupyter_get_cells: async (args, call) =>
      getCells(resolver, args as IGetCellsArgs, call),
    jupyter_get_cell_access: async args => getCellAccess(resolver, args),
    jupyter_insert_cell: async (args, call) =>
      insertCell(resolver, args as IInsertArgs, call, proposals),
    jupyter_update_cell: async (args, call) =>
      updateCell(resolver, args as unknown as IUpdateArgs, call, proposals),
    jupyter_delete_cell: async (args, call) =>
      deleteCell(resolver, args as unknown as IDeleteArgs, call, proposals),
    jupyter_focus_cell: async args =>
      focusCell(env, resolver, args as unknown as IFocusCellArgs),
    jupyter_run_cells: async (args, call) =>
      runCells(resolver, args as IRunArgs, call, proposals),
    jupyter_save_notebook: async args => saveNotebook(env, resolver, args),
    jupyter_kernel_action: async (args, call) =>
      kernelAction(
        resolver,
        args as unknown as IKernelActionArgs,
        call,
        proposals
      ),
    jupyter_list_comments: async args =>
      listComments(reviewing, args as IListCommentsArgs),
    jupyter_get_comment: async (args, call) =>
      getComment(reviewing, args as unknown as IThreadArgs, call),
    jupyter_create_comment: async (args, call) =>
      createComment(reviewing, args as unknown as ICreateCommentArgs, call),
    jupyter_reply_comment: async (args, call) =>
      replyComment(reviewing, args as unknown as IReplyCommentArgs, call),
    jupyter_resolve_comment: async (args, call) =>
      resolveComment(reviewing, args as unknown as IResolveCommentArgs, call),
    jupyter_reopen_comment: async (args, call) =>
      reopenComment(reviewing, args as unknown as IThreadArgs, call),
    jupyter_focus_comment: async (args, call) =>
      focusComment(reviewing, args as unknown as IThreadArgs, call),
    jupyter_export_notebook: async args => exportNotebook(resolver, args),
    ...(outputSelection
      ? {
          jupyter_get_output_selection: async () =>
            getOutputSelection(
              outputSelection,
              path =>
                resolver.findOpenPanel(path)?.content.model?.sharedModel ?? null
            )
        }
      : {})
  };
}

/** Build the definitions of every implemented tool, in the spec's order. */
export function buildTools(services: IToolServices): IToolDefinition[] {
  const implemented = handlers(services);
  const tools: IToolDefinition[] = [];
  for (const name of Object.keys(TOOL_CATALOG) as ToolName[]) {
    const handler = implemented[name];
    if (handler) {
      tools.push({
        name,
        ...TOOL_CATALOG[name],
        inputSchema: TOOL_INPUT_SCHEMAS[name],
        handler
      });
    }
  }
  return tools;
}
