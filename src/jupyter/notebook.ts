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

import { applyAnnounced } from '../access/announced';
import { isHidden, type KnownAccess } from '../access/policy';
import { notebookAccess } from '../access/read';
import { assertNotebookAccessible } from '../access/guard';
import { findNotebookPanel, panelPath } from '../access/panels';
import { WITHHOLD_SECRETS_DEFAULT, withholdsSecrets } from '../access/secrets';
import {
  noActiveNotebookError,
  notebookNotFoundError,
  type AccessIntent
} from '../access/policy';

export type { AccessIntent } from '../access/policy';
import { ToolError } from '../common/errors';
import { contentsError, contentsFailure } from '../common/contents-errors';
import { withStableCellIds } from './cell-ids';
import { notebookRevision } from './model-index';
import { withJoinedStreams } from './outputs/join-streams';
import { basename, normalizePath } from './paths';
import { type IJupyterEnvironment } from './environment';

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

/** A notebook open in this app, with its panel. */
export interface ILiveNotebook extends IResolvedNotebook {
  panel: NotebookPanel;
}

/** Options of a resolution. */
export interface IResolveOptions {
  /** 'write' for calls that change the notebook; defaults to 'read'. */
  intent?: AccessIntent;
  /** The argument name, for error messages. */
  key?: string;
}

/**
 * A call's own checks of the cells it addresses, run on a notebook's model;
 * it throws the call's error (CELL_NOT_FOUND, CELL_ACCESS_DENIED, STALE_CELL…).
 */
export type LiveCheck = (model: ISharedNotebook) => void;

/** Whether a call named its notebook (rather than acting on the current one). */
export function namesNotebook(path: string | null | undefined): boolean {
  return path !== null && path !== undefined;
}

/**
 * The owner's word on a resolved notebook, now: resolution runs it, and so
 * does a call that answers later (hidden meanwhile, it fails as a hidden
 * notebook would). `addressedByPath` is whether the call named its path.
 */
export function checkNotebookAccess(
  notebook: IResolvedNotebook,
  intent: AccessIntent,
  addressedByPath: boolean
): void {
  assertNotebookAccessible(
    { path: notebook.path, access: notebookAccess(notebook.model) },
    intent,
    addressedByPath
  );
}

/** Whether a contents error means "nothing at that path". */
export function isNotFound(error: unknown): boolean {
  return contentsFailure(error) === 'not-found';
}

/**
 * Wait until an open panel has loaded its file. Until then its model holds
 * none of the notebook's cells (a panel restored with the page, or still
 * opening), so reading it would report an empty notebook.
 */
async function loaded(panel: NotebookPanel): Promise<void> {
  if (!panel.context.isReady) {
    await panel.context.ready;
  }
}

/**
 * Resolves notebooks for tools. Access control (issue: per-notebook access)
 * plugs in here, so no tool ever checks it on its own.
 */
export class NotebookResolver {
  constructor(private readonly _env: IJupyterEnvironment) {}

  /** Background openings in flight, by path (see _openInBackground). */
  private readonly _opening = new Map<string, Promise<NotebookPanel>>();

  /**
   * Whether what the tools return from a notebook withholds secrets: its
   * own switch, else the owner's setting for all notebooks.
   */
  withholdsSecrets(model: ISharedNotebook): boolean {
    return withholdsSecrets(
      model,
      this._env.withholdSecrets?.() ?? WITHHOLD_SECRETS_DEFAULT
    );
  }

  /** The notebook the user is working in, or null. */
  currentPanel(): NotebookPanel | null {
    const panel = this._env.tracker.currentWidget;
    return panel && !panel.isDisposed ? panel : null;
  }

  /** The open panel for a path in this app, if any (the one rule). */
  findOpenPanel(path: string): NotebookPanel | null {
    return findNotebookPanel(this._env.tracker, path);
  }

  /**
   * Resolve the notebook a call names, or the current one when `path` is null
   * or absent, and check the owner lets the agent do `intent` with it. A
   * hidden notebook reads exactly like a missing one (or, as the current
   * notebook, like no notebook at all). Throws NO_ACTIVE_NOTEBOOK,
   * NOTEBOOK_NOT_FOUND, NOTEBOOK_ACCESS_DENIED or INVALID_PATH.
   */
  async resolveNotebook(
    path: string | null | undefined,
    options: IResolveOptions = {}
  ): Promise<IResolvedNotebook> {
    const intent = options.intent ?? 'read';
    if (path === null || path === undefined) {
      const panel = this.currentPanel();
      if (!panel) {
        throw noActiveNotebookError();
      }
      await loaded(panel);
      const current = this.fromPanel(panel);
      checkNotebookAccess(current, intent, false);
      return current;
    }
    const normal = normalizePath(path, { key: options.key ?? 'notebookPath' });
    const panel = this.findOpenPanel(normal);
    let resolved: IResolvedNotebook;
    if (panel) {
      await loaded(panel);
      resolved = this.fromPanel(panel);
    } else {
      const content = await this.readNotebookFile(normal);
      const model = YNotebook.create();
      // Cells without ids get the ones JupyterLab gives them once open.
      model.fromJSON(withStableCellIds(withJoinedStreams(content)));
      // what another tab of this browser restricts unsaved holds here too
      applyAnnounced(model, this._env.announced?.announced(normal) ?? null);
      resolved = {
        path: normal,
        panel: null,
        model,
        dirty: false,
        release: () => model.dispose()
      };
    }
    try {
      checkNotebookAccess(resolved, intent, true);
    } catch (error) {
      resolved.release();
      throw error;
    }
    return resolved;
  }

  /**
   * Resolve a notebook a call will change: its live model, open in this app.
   * In JupyterLab a notebook that is not open is opened in the background
   * (never its file behind an open tab's back). In an app with one notebook
   * per tab, another tab's notebook is refused: the call belongs in its tab.
   *
   * `check` is what the call will check of the cells it addresses (ids,
   * access, hashes, anchors). For a notebook that is not open it runs on the
   * file before anything opens, so a call that can only fail opens no
   * notebook and starts no kernel; the call checks the live model again
   * once it has it (of an open notebook, only then).
   */
  async resolveLive(
    path: string | null | undefined,
    intent: AccessIntent,
    check: LiveCheck = () => undefined
  ): Promise<ILiveNotebook> {
    const resolved = await this.resolveNotebook(path, { intent });
    if (resolved.panel) {
      return resolved as ILiveNotebook;
    }
    try {
      if (!this._env.multiDocument) {
        throw otherTabError(resolved.path);
      }
      check(resolved.model);
    } finally {
      resolved.release();
    }
    const panel = await this._openInBackground(resolved.path);
    const live = this.fromPanel(panel);
    checkNotebookAccess(live, intent, true);
    return live as ILiveNotebook;
  }

  /**
   * Open a notebook in the background for a write, once however many calls
   * ask for it at the same time: they all wait for the same opening.
   */
  private _openInBackground(path: string): Promise<NotebookPanel> {
    let opening = this._opening.get(path);
    if (!opening) {
      opening = this.openPanel(path, { activate: false }).finally(() => {
        this._opening.delete(path);
      });
      this._opening.set(path, opening);
    }
    return opening;
  }

  /** Open a notebook in this page and wait until its model is loaded. */
  async openPanel(
    path: string,
    options: { activate: boolean; kernelName?: string }
  ): Promise<NotebookPanel> {
    const widget = this._env.docManager.openOrReveal(
      path,
      'default',
      options.kernelName ? { name: options.kernelName } : undefined,
      { activate: options.activate }
    );
    const panel = widget
      ? this._env.tracker.find(candidate => candidate === widget)
      : undefined;
    if (!panel) {
      throw new ToolError(
        'INTERNAL_ERROR',
        `"${path}" could not be opened as a notebook.`,
        { path }
      );
    }
    await panel.context.ready;
    return panel;
  }

  /**
   * The access of an open notebook, or null while it is not yet known: its
   * panel has not loaded the file (a page restore, the person opening it),
   * so its model does not hold the owner's setting yet.
   */
  panelAccess(panel: NotebookPanel): KnownAccess {
    const model = panel.content.model;
    return panel.context.isReady && model
      ? notebookAccess(model.sharedModel)
      : null;
  }

  /** Whether the agent must not know an open notebook exists (or not yet). */
  isHiddenPanel(panel: NotebookPanel): boolean {
    return isHidden(this.panelAccess(panel));
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
   * The contents model at a path, or null when nothing is there. Any other
   * failure throws its closed-set error (contentsError): INVALID_PATH when the
   * service refused the path, NOTEBOOK_NOT_FOUND when it could not answer.
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
      throw contentsError(error, path);
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

/**
 * The error for acting on another tab's notebook in an app with one notebook
 * per tab: never done through its file behind a tab that may hold unsaved
 * edits.
 */
export function otherTabError(path: string): ToolError {
  return new ToolError(
    'INVALID_ARGUMENT',
    `"${path}" is not this tab's notebook. In this app each notebook has its own browser tab: open it with jupyter_open_notebook and act in that notebook's tab.`,
    { path, reason: 'other-tab' }
  );
}

/** The INotebookInfo summary of a resolved notebook. */
export function notebookInfo(notebook: IResolvedNotebook): INotebookInfo {
  // Read now too: the notebook may have been renamed while the call ran.
  const panel = notebook.panel;
  const path = panel && !panel.isDisposed ? panelPath(panel) : notebook.path;
  return {
    path,
    name: basename(path),
    // Read now: a write since the notebook was resolved may have dirtied it.
    dirty: notebook.panel?.content.model?.dirty ?? notebook.dirty,
    revision: notebookRevision(notebook.model),
    cellCount: notebook.model.cells.length
  };
}
