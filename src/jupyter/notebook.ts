/**
 * Notebook resolution: the one place every tool turns a `notebookPath`
 * argument (or the current notebook) into a notebook to act on.
 *
 * An open notebook is read from its live model, unsaved edits included. A
 * notebook that is not open is read from its file into a standalone model,
 * without opening a tab, changing focus or starting a kernel.
 */
import { YNotebook, type ISharedNotebook } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';
import { type NotebookPanel } from '@jupyterlab/notebook';
import { type Contents } from '@jupyterlab/services';

import { noActiveNotebookError, notebookNotFoundError } from '../access/policy';
import { ToolError } from './errors';
import { sourceHash, revisionOf, type IRevisionPart } from './hash';
import { basename, isNotebookPath, normalizePath } from './paths';
import { type IJupyterEnvironment } from './environment';

/** What a call needs the notebook for. */
export type AccessIntent = 'read' | 'write';

/** The notebook summary every tool reports (INotebookInfo). */
export interface INotebookInfo {
  path: string;
  name: string;
  dirty: boolean;
  revision: string;
  cellCount: number;
}

/** A notebook a tool acts on. */
export interface IResolvedNotebook {
  /** Workspace-relative path. */
  path: string;
  /** The open panel in this app, or null when the notebook was read from its file. */
  panel: NotebookPanel | null;
  /** The cells: the live shared model, or a standalone one built from the file. */
  model: ISharedNotebook;
  /** Whether the live model has unsaved changes (false for a file read). */
  dirty: boolean;
  /** Release what resolution created (a standalone model); a no-op for a live one. */
  release(): void;
}

/** Options of a resolution. */
export interface IResolveOptions {
  /** 'write' for calls that change the notebook; defaults to 'read'. */
  intent?: AccessIntent;
  /** The argument name, for error messages. */
  key?: string;
}

/** The path a panel's document is known by in the workspace. */
export function panelPath(panel: NotebookPanel): string {
  return panel.context.localPath;
}

/** Whether a contents error means "nothing at that path". */
export function isNotFound(error: unknown): boolean {
  const status = (error as { response?: { status?: number } } | null)?.response
    ?.status;
  return status === 404;
}

/**
 * Resolves notebooks for tools. Access control (issue: per-notebook access)
 * plugs in here, so no tool ever checks it on its own.
 */
export class NotebookResolver {
  constructor(private readonly _env: IJupyterEnvironment) {}

  /** The notebook the user is working in, or null. */
  currentPanel(): NotebookPanel | null {
    const panel = this._env.tracker.currentWidget;
    return panel && !panel.isDisposed ? panel : null;
  }

  /** The open panel for a path in this app, if any. */
  findOpenPanel(path: string): NotebookPanel | null {
    return (
      this._env.tracker.find(
        panel => !panel.isDisposed && panelPath(panel) === path
      ) ?? null
    );
  }

  /**
   * Resolve the notebook a call names, or the current one when `path` is null
   * or absent. Throws NO_ACTIVE_NOTEBOOK, NOTEBOOK_NOT_FOUND or INVALID_PATH.
   */
  async resolveNotebook(
    path: string | null | undefined,
    options: IResolveOptions = {}
  ): Promise<IResolvedNotebook> {
    if (path === null || path === undefined) {
      const panel = this.currentPanel();
      if (!panel) {
        throw noActiveNotebookError();
      }
      return this.fromPanel(panel);
    }
    const normal = normalizePath(path, { key: options.key ?? 'notebookPath' });
    const panel = this.findOpenPanel(normal);
    if (panel) {
      return this.fromPanel(panel);
    }
    const content = await this.readNotebookFile(normal);
    const model = YNotebook.create();
    model.fromJSON(content);
    return {
      path: normal,
      panel: null,
      model,
      dirty: false,
      release: () => model.dispose()
    };
  }

  /**
   * Read a notebook file's content. Throws NOTEBOOK_NOT_FOUND when nothing is
   * there or it is not a notebook, so both read the same to a caller.
   */
  async readNotebookFile(path: string): Promise<nbformat.INotebookContent> {
    const model = await this.getContentsModel(path, true);
    if (
      !model ||
      model.type !== 'notebook' ||
      typeof model.content !== 'object' ||
      model.content === null
    ) {
      throw notebookNotFoundError(path);
    }
    return model.content as nbformat.INotebookContent;
  }

  /**
   * The contents model at a path, or null when nothing is there. Other
   * failures (a server error) propagate.
   */
  async getContentsModel(
    path: string,
    content: boolean
  ): Promise<Contents.IModel | null> {
    try {
      return await this._env.contents.get(path, { content });
    } catch (error) {
      if (isNotFound(error)) {
        return null;
      }
      throw error;
    }
  }

  /** The live notebook of an open panel. */
  fromPanel(panel: NotebookPanel): IResolvedNotebook {
    const model = panel.content.model;
    if (!model) {
      throw new ToolError(
        'NOTEBOOK_NOT_FOUND',
        `Notebook "${panelPath(panel)}" is still loading; try again.`,
        { path: panelPath(panel) }
      );
    }
    return {
      path: panelPath(panel),
      panel,
      model: model.sharedModel,
      dirty: model.dirty,
      release: () => undefined
    };
  }
}

/** Check that a path names a notebook file by its extension. */
export function assertNotebookPath(path: string): void {
  if (!isNotebookPath(path)) {
    throw notebookNotFoundError(path);
  }
}

/** The INotebookInfo summary of a resolved notebook. */
export function notebookInfo(notebook: IResolvedNotebook): INotebookInfo {
  return {
    path: notebook.path,
    name: basename(notebook.path),
    dirty: notebook.dirty,
    revision: notebookRevision(notebook.model),
    cellCount: notebook.model.cells.length
  };
}

interface IRevisionCache {
  revision: string | null;
}

const revisionCaches = new WeakMap<ISharedNotebook, IRevisionCache>();

/**
 * The revision of a notebook: a hash over its agent-visible cells. It is
 * recomputed only after the notebook's document changed, so repeated calls on
 * an unchanged large notebook cost nothing.
 */
export function notebookRevision(model: ISharedNotebook): string {
  let cache = revisionCaches.get(model);
  if (!cache) {
    const created: IRevisionCache = { revision: null };
    cache = created;
    revisionCaches.set(model, created);
    const ydoc = (model as YNotebook).ydoc;
    ydoc?.on('update', () => {
      created.revision = null;
    });
  }
  if (cache.revision === null) {
    cache.revision = revisionOf(revisionParts(model));
  }
  return cache.revision;
}

function* revisionParts(model: ISharedNotebook): Iterable<IRevisionPart> {
  for (const cell of model.cells) {
    yield { id: cell.id, sourceHash: sourceHash(cell.cell_type, cell.source) };
  }
}

/** The review thread counts stored in a notebook's metadata. */
export interface IReviewCounts {
  openThreads: number;
  totalThreads: number;
}

/** The metadata key review threads live under. */
export const REVIEW_METADATA_KEY = 'jupyterlite_webmcp_review';

/**
 * Count the review threads stored in the notebook, read defensively: a
 * malformed value counts as no threads.
 */
export function reviewCounts(model: ISharedNotebook): IReviewCounts {
  const stored = model.getMetadata(REVIEW_METADATA_KEY) as
    { threads?: unknown } | undefined;
  const threads = stored?.threads;
  const list: unknown[] = Array.isArray(threads)
    ? threads
    : threads && typeof threads === 'object'
      ? Object.values(threads)
      : [];
  let openThreads = 0;
  let totalThreads = 0;
  for (const thread of list) {
    if (thread && typeof thread === 'object') {
      totalThreads++;
      if ((thread as { status?: unknown }).status !== 'resolved') {
        openThreads++;
      }
    }
  }
  return { openThreads, totalThreads };
}
