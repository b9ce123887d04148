/**
 * Opening notebooks: `jupyter_open_notebook`, and the opening step of
 * `jupyter_create_notebook`.
 *
 * In JupyterLab every notebook opens in this page. In Notebook 7 and
 * JupyterLite's notebook pages each notebook has its own browser tab: a
 * notebook other than this tab's opens the way the app opens it (a new tab),
 * and the result says so.
 */
import { findCell } from './cells';
import { revealCell } from './navigate';
import { type IJupyterEnvironment } from './environment';
import { type ICallTrace, NO_CALL } from './call';
import { focusContext, type IFocusContext } from './focus';
import { secretPartsFilter } from './secrets';
import {
  kernelInfo,
  storedKernelInfo,
  type IKernelInfo
} from './kernel/action';
import {
  notebookInfo,
  type INotebookInfo,
  type NotebookResolver
} from './notebook';
import { agentVisibleCounts, type IReviewCounts } from '../review/storage';

/** Where an opened notebook now lives. */
export type OpenedIn = 'this-page' | 'new-tab';

/** What `jupyter_open_notebook` returns. */
export interface IOpenResult {
  notebook: INotebookInfo;
  kernel: IKernelInfo;
  focus: IFocusContext | null;
  review: IReviewCounts;
  /**
   * Present when the notebook opened in another browser tab (Notebook 7,
   * JupyterLite's notebook pages): tools in that tab act on it.
   */
  openedIn?: OpenedIn;
  /** Present with openedIn: what happened, for the agent to relay. */
  message?: string;
}

/** Arguments of `jupyter_open_notebook`. */
export interface IOpenArgs {
  path: string;
  cellId?: string | null;
  activate?: boolean;
}

/**
 * Open (or reveal) a notebook. An already open notebook is reused with its
 * unsaved edits, never re-read from disk.
 */
export async function openNotebook(
  env: IJupyterEnvironment,
  resolver: NotebookResolver,
  args: IOpenArgs,
  call: ICallTrace = NO_CALL
): Promise<IOpenResult> {
  const activate = args.activate ?? true;
  // Missing, hidden and non-notebook files all fail here, the same way.
  const resolved = await resolver.resolveNotebook(args.path, { key: 'path' });
  if (args.cellId !== null && args.cellId !== undefined) {
    // Checked against the notebook (its file, or its live model when open)
    // before any tab opens: an unknown or hidden cell opens nothing.
    try {
      findCell(resolved.model, args.cellId, 'read');
    } catch (error) {
      resolved.release();
      throw error;
    }
  }
  let panel = resolved.panel;
  if (!panel) {
    resolved.release();
    if (!env.multiDocument) {
      return openInNewTab(env, resolver, resolved.path);
    }
    panel = await resolver.openPanel(resolved.path, { activate });
  } else if (activate) {
    env.app.shell.activateById(panel.id);
  }
  const notebook = resolver.fromPanel(panel);
  if (args.cellId !== null && args.cellId !== undefined) {
    const { index } = findCell(notebook.model, args.cellId, 'read');
    await revealCell(panel, index);
  }
  return {
    notebook: notebookInfo(notebook),
    kernel: kernelInfo(panel.sessionContext),
    focus: focusContext(
      panel,
      secretPartsFilter(resolver, notebook.model, call)
    ),
    review: agentVisibleCounts(notebook.model)
  };
}

/**
 * Open a notebook the way a one-notebook-per-tab app does: a new browser
 * tab. The result is read from the file, since this page cannot see the new
 * tab's live state.
 */
export async function openInNewTab(
  env: IJupyterEnvironment,
  resolver: NotebookResolver,
  path: string
): Promise<IOpenResult> {
  const opened = await withWindowOpenWatch(() =>
    env.app.commands.execute('docmanager:open', { path })
  );
  const notebook = await resolver.resolveNotebook(path);
  try {
    const message = opened.blocked
      ? `The browser blocked opening "${path}" in a new tab. Ask the user to open it; tools act on the notebook of the tab they are called in.`
      : `Opened "${path}" in a new browser tab. Tools called in that tab act on it; tools in this tab keep acting on this tab's notebook.`;
    return {
      notebook: notebookInfo(notebook),
      kernel: storedKernelInfo(notebook.model),
      focus: null,
      review: agentVisibleCounts(notebook.model),
      openedIn: 'new-tab',
      message
    };
  } finally {
    notebook.release();
  }
}

/**
 * Run `action` and report whether a `window.open` it made was blocked. The
 * app's own opener calls `window.open`; a popup blocker makes that return
 * null, and nothing else tells us.
 */
async function withWindowOpenWatch(
  action: () => Promise<unknown>
): Promise<{ blocked: boolean }> {
  const original = window.open;
  let blocked = false;
  window.open = function (this: Window, ...args: Parameters<Window['open']>) {
    const opened = original.apply(this, args);
    if (!opened) {
      blocked = true;
    }
    return opened;
  };
  try {
    await action();
  } finally {
    window.open = original;
  }
  return { blocked };
}
