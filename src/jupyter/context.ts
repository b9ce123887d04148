/**
 * `jupyter_get_context`: the live state of the workspace in one read.
 */
import { type NotebookPanel } from '@jupyterlab/notebook';

import { type IJupyterEnvironment } from './environment';
import { type ICallTrace, NO_CALL } from './call';
import { focusContext, type IFocusContext } from './focus';
import { secretPartsFilter } from './secrets';
import { kernelInfo, type IKernelInfo } from './kernel/action';
import {
  notebookInfo,
  type INotebookInfo,
  type NotebookResolver
} from './notebook';
import { agentVisibleCounts, type IReviewCounts } from '../review/storage';
import { basename, dirname } from './paths';
import { type NotebookVisibility } from './workspace';

/** What `jupyter_get_context` returns. */
export interface IContextResult {
  workspace: { currentDirectory: string; openDocuments: string[] };
  notebook: INotebookInfo | null;
  kernel: IKernelInfo | null;
  focus: IFocusContext | null;
  review: IReviewCounts | null;
}

interface IDocumentLike {
  context?: {
    localPath?: unknown;
    contentsModel?: { last_modified?: string; size?: number } | null;
  };
  isDisposed?: boolean;
}

/** Whether a path is a notebook file, whatever widget shows it. */
function isNotebookFile(env: IJupyterEnvironment, path: string): boolean {
  return env.app.docRegistry
    .getFileTypesForPath(path)
    .some(type => type.contentType === 'notebook');
}

/**
 * The paths of the documents open in this app's main area, in shell order,
 * without the notebooks the owner hid from the agent, whatever widget shows
 * them (a notebook panel, a text editor, the JSON viewer). A notebook's access
 * comes from its live panel when one is open here (not yet known, so hidden,
 * while it loads), else from its file, judged as the listing does.
 */
export async function openDocuments(
  env: IJupyterEnvironment,
  resolver: NotebookResolver,
  isVisible: NotebookVisibility = async () => true
): Promise<string[]> {
  const documents: { path: string; visible: Promise<boolean> }[] = [];
  const seen = new Set<string>();
  for (const widget of env.app.shell.widgets?.('main') ?? []) {
    const context = (widget as unknown as IDocumentLike).context;
    const path = context?.localPath;
    if (typeof path !== 'string' || !path || seen.has(path)) {
      continue;
    }
    seen.add(path);
    let visible: Promise<boolean>;
    if (env.tracker.has(widget)) {
      visible = Promise.resolve(
        !resolver.isHiddenPanel(widget as NotebookPanel)
      );
    } else if (!isNotebookFile(env, path)) {
      visible = Promise.resolve(true);
    } else {
      const panel = resolver.findOpenPanel(path);
      const file = context?.contentsModel;
      visible = panel
        ? Promise.resolve(!resolver.isHiddenPanel(panel))
        : isVisible({
            path,
            name: basename(path),
            type: 'notebook',
            modified: file?.last_modified,
            size: file?.size
          });
    }
    documents.push({ path, visible });
  }
  const shown = await Promise.all(documents.map(document => document.visible));
  return documents.filter((_, i) => shown[i]).map(document => document.path);
}

/** Read the live state of the workspace. Never throws for a missing notebook. */
export async function getContext(
  env: IJupyterEnvironment,
  resolver: NotebookResolver,
  isVisible?: NotebookVisibility,
  call: ICallTrace = NO_CALL
): Promise<IContextResult> {
  // everything is read now, at call time; only closed notebook files shown
  // in another widget are judged after
  const documents = openDocuments(env, resolver, isVisible);
  const current = resolver.currentPanel();
  // A hidden current notebook reads exactly like no notebook being open, and
  // so does one still loading: its access is not yet known.
  const panel = current && !resolver.isHiddenPanel(current) ? current : null;
  const browsing = env.browsingDirectory();
  const currentDirectory =
    browsing ?? (panel ? dirname(panel.context.localPath) : '');
  if (!panel?.content.model) {
    return {
      workspace: { currentDirectory, openDocuments: await documents },
      notebook: null,
      kernel: null,
      focus: null,
      review: null
    };
  }
  const notebook = resolver.fromPanel(panel);
  const live = {
    notebook: notebookInfo(notebook),
    kernel: kernelInfo(panel.sessionContext),
    focus: focusContext(
      panel,
      secretPartsFilter(resolver, notebook.model, call)
    ),
    review: agentVisibleCounts(notebook.model)
  };
  return {
    workspace: { currentDirectory, openDocuments: await documents },
    ...live
  };
}
