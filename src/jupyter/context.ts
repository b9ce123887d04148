/**
 * `jupyter_get_context`: the live state of the workspace in one read.
 */
import { type NotebookPanel } from '@jupyterlab/notebook';

import { type IJupyterEnvironment } from './environment';
import { focusContext, type IFocusContext } from './focus';
import { kernelInfo, type IKernelInfo } from './kernel';
import {
  notebookInfo,
  type INotebookInfo,
  type NotebookResolver
} from './notebook';
import { agentVisibleCounts, type IReviewCounts } from '../review/storage';
import { dirname } from './paths';

/** What `jupyter_get_context` returns. */
export interface IContextResult {
  workspace: { currentDirectory: string; openDocuments: string[] };
  notebook: INotebookInfo | null;
  kernel: IKernelInfo | null;
  focus: IFocusContext | null;
  review: IReviewCounts | null;
}

interface IDocumentLike {
  context?: { localPath?: unknown };
  isDisposed?: boolean;
}

/**
 * The paths of the documents open in this app's main area, in shell order,
 * without the notebooks the owner hid from the agent.
 */
export function openDocuments(
  env: IJupyterEnvironment,
  resolver: NotebookResolver
): string[] {
  const paths: string[] = [];
  const seen = new Set<string>();
  const widgets = env.app.shell.widgets?.('main');
  if (!widgets) {
    return paths;
  }
  for (const widget of widgets) {
    const path = (widget as unknown as IDocumentLike).context?.localPath;
    if (
      env.tracker.has(widget) &&
      resolver.isHiddenPanel(widget as NotebookPanel)
    ) {
      continue;
    }
    if (typeof path === 'string' && path && !seen.has(path)) {
      seen.add(path);
      paths.push(path);
    }
  }
  return paths;
}

/** Read the live state of the workspace. Never throws for a missing notebook. */
export function getContext(
  env: IJupyterEnvironment,
  resolver: NotebookResolver
): IContextResult {
  const current = resolver.currentPanel();
  // A hidden current notebook reads exactly like no notebook being open.
  const panel = current && !resolver.isHiddenPanel(current) ? current : null;
  const browsing = env.browsingDirectory();
  const workspace = {
    currentDirectory:
      browsing ?? (panel ? dirname(panel.context.localPath) : ''),
    openDocuments: openDocuments(env, resolver)
  };
  if (!panel?.content.model) {
    return {
      workspace,
      notebook: null,
      kernel: null,
      focus: null,
      review: null
    };
  }
  const notebook = resolver.fromPanel(panel);
  return {
    workspace,
    notebook: notebookInfo(notebook),
    kernel: kernelInfo(panel.sessionContext),
    focus: focusContext(panel),
    review: agentVisibleCounts(notebook.model)
  };
}
