/**
 * The handlers of the core tools, which the WebMCP plugin registers itself
 * (the comment tools' are in src/review/tools.ts, the output-selection
 * tool's in src/selection/tools.ts). A group of handlers is a map from name
 * to handler (./define.ts), so a handler's arguments are derived from the
 * tool's schema (./specs.ts) and a missing handler does not compile.
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
import { openNotebook } from '../jupyter/open';
import { listWorkspace } from '../jupyter/workspace';
import { type IProposals } from '../tokens';
import { type CoreToolName, type ToolHandlers } from './define';
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
