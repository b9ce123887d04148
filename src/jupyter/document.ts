/**
 * Whole-notebook operations: `jupyter_save_notebook` and
 * `jupyter_export_notebook`.
 */
import { signalToPromise } from '@jupyterlab/coreutils';
import type * as nbformat from '@jupyterlab/nbformat';
import { type ISignal } from '@lumino/signaling';
import { type ISharedCodeCell, type ISharedNotebook } from '@jupyter/ydoc';

import { contentsFailure, contentsStatus } from '../common/contents-errors';
import { ToolError } from '../common/errors';
import { isCellVisible } from '../access/read';
import { type IJupyterEnvironment } from './environment';
import { exportMarkdown, type IExportCell } from './outputs/export';
import { otherTabError, type NotebookResolver } from './notebook';
import { type ICallTrace, NO_CALL } from './call';
import { secretFilter } from './secrets';

/** What `jupyter_save_notebook` returns. */
export interface ISaveResult {
  saved: true;
  path: string;
  dirty: boolean;
}

/**
 * Save an open notebook through its document context (the app's own save).
 * A notebook that is not open in JupyterLab has no unsaved state: its file is
 * the notebook, so there is nothing to write. In an app with one notebook per
 * tab, another tab's notebook may hold unsaved edits only that tab can save.
 */
export async function saveNotebook(
  env: IJupyterEnvironment,
  resolver: NotebookResolver,
  args: { notebookPath?: string | null }
): Promise<ISaveResult> {
  const notebook = await resolver.resolveNotebook(args.notebookPath, {
    intent: 'write'
  });
  if (!notebook.panel) {
    notebook.release();
    if (!env.multiDocument) {
      throw otherTabError(notebook.path);
    }
    return { saved: true, path: notebook.path, dirty: false };
  }
  const context = notebook.panel.context;
  try {
    // JupyterLab's own save asks the person, in a modal, what to do with a
    // file changed on disk, and waits for them: a call would wait with it.
    const margin = env.docManager.lastModifiedCheckMargin;
    const disk = await diskStamp(env, context.path);
    if (
      disk &&
      changedOnDisk(context.contentsModel, disk, margin) &&
      !(
        context.model.collaborative &&
        (await caughtUpWithFile({
          fileChanged: context.fileChanged,
          pageStamp: () => context.contentsModel,
          diskStamp: () => diskStamp(env, context.path),
          disk,
          marginMs: margin,
          waitMs: COLLABORATIVE_SAVE_CATCH_UP_MS
        }))
      )
    ) {
      throw new ToolError(
        'NOTEBOOK_NOT_FOUND',
        `"${context.path}" changed on disk since this page last read or saved it, so it was not saved: the person decides whether to overwrite it or load it (File > Save). The open notebook keeps its edits.`,
        { path: context.path, reason: 'changed-on-disk' }
      );
    }
    await context.save();
  } catch (error) {
    throw saveError(error, notebook.path);
  }
  return {
    saved: true,
    path: notebook.path,
    dirty: notebook.panel.context.model.dirty
  };
}

/** What says which version of a file a contents model is. */
export interface IFileStamp {
  hash?: string | null;
  last_modified?: string | null;
}

/**
 * Whether a file changed on disk since the page last read or saved it, by
 * the rule JupyterLab's own save applies before writing: the hashes differ
 * when both sides have one, else the file on disk is newer by more than
 * `marginMs`. Nothing known of the page's version (`client` null) is no
 * change, as there.
 */
export function changedOnDisk(
  client: IFileStamp | null,
  disk: IFileStamp,
  marginMs: number
): boolean {
  if (!client) {
    return false;
  }
  if (
    client.hash !== undefined &&
    client.hash !== null &&
    disk.hash !== undefined &&
    disk.hash !== null
  ) {
    return client.hash !== disk.hash;
  }
  if (!client.last_modified || !disk.last_modified) {
    return false;
  }
  const newer =
    new Date(disk.last_modified).getTime() -
    new Date(client.last_modified).getTime();
  return newer > marginMs;
}

/**
 * How long an agent's save of a collaborative notebook waits for the page to
 * hear of the server's own latest save of it (see `caughtUpWithFile`).
 */
export const COLLABORATIVE_SAVE_CATCH_UP_MS = 5000;

/**
 * Under real-time collaboration the server writes the shared document to
 * the file itself, a moment after each change, and loads a change made to
 * the file by anything else into the document. The page hears of each of
 * those writes a moment later still: the document's `hash` state changes,
 * the page reads the file's new stamp, and the context's contents model
 * takes it (`fileChanged`). A file newer than the page's stamp is then most
 * often that write on its way, and JupyterLab's save, which compares the
 * same stamps, would ask the person about it in a modal.
 *
 * Waits until the page's stamp matches the file again: compared after each
 * change of the page's stamp (the file read again each time, as the server
 * may have written again), and once more when `waitMs` have passed. True
 * when they match; never waits longer than `waitMs` and one read.
 */
export async function caughtUpWithFile(options: {
  fileChanged: ISignal<unknown, unknown>;
  pageStamp: () => IFileStamp | null;
  diskStamp: () => Promise<IFileStamp | null>;
  /** The file's stamp as last read. */
  disk: IFileStamp;
  marginMs: number;
  waitMs: number;
}): Promise<boolean> {
  const { pageStamp, marginMs } = options;
  const deadline = Date.now() + options.waitMs;
  let disk: IFileStamp | null = options.disk;
  while (disk && changedOnDisk(pageStamp(), disk, marginMs)) {
    const left = deadline - Date.now();
    const heard =
      left > 0 &&
      (await signalToPromise(options.fileChanged, left).then(
        () => true,
        () => false
      ));
    disk = await options.diskStamp();
    if (!heard) {
      return !disk || !changedOnDisk(pageStamp(), disk, marginMs);
    }
  }
  return true;
}

/** The file's stamp on disk, or null when nothing is there (a save makes it). */
async function diskStamp(
  env: IJupyterEnvironment,
  path: string
): Promise<IFileStamp | null> {
  try {
    return await env.contents.get(path, { content: false, hash: true });
  } catch (error) {
    if (contentsFailure(error) === 'not-found') {
      return null;
    }
    throw error;
  }
}

/**
 * The closed-set error for a save the contents service did not take, read
 * as the one mapping of contents failures does (INVALID_PATH when it refused
 * the path, NOTEBOOK_NOT_FOUND with `reason: "unavailable"` when it failed or
 * did not answer), worded for a save. The open notebook keeps every edit.
 */
function saveError(error: unknown, path: string): ToolError {
  if (error instanceof ToolError) {
    return error;
  }
  const status = contentsStatus(error);
  const answered = status === null ? 'did not answer' : `answered ${status}`;
  const details = {
    path,
    ...(status === null ? {} : { status })
  };
  if (contentsFailure(error) === 'refused') {
    return new ToolError(
      'INVALID_PATH',
      `The workspace refused to save "${path}" (its contents service ${answered}); the open notebook keeps its edits.`,
      { ...details, reason: 'refused' }
    );
  }
  return new ToolError(
    'NOTEBOOK_NOT_FOUND',
    `"${path}" could not be saved: the workspace's contents service ${answered}. The open notebook keeps its edits; try again later.`,
    { ...details, reason: 'unavailable' }
  );
}

/** What `jupyter_export_notebook` returns. */
export interface IExportNotebookResult {
  notebookPath: string;
  document: string;
  truncated: boolean;
  cellCount: number;
  hiddenCellCount: number;
}

/** The language code cells are fenced with, from the notebook's metadata. */
function notebookLanguage(model: ISharedNotebook): string {
  const info = model.getMetadata('language_info') as
    { name?: unknown } | undefined;
  const spec = model.getMetadata('kernelspec') as
    { language?: unknown } | undefined;
  const name = info?.name ?? spec?.language;
  return typeof name === 'string' && name ? name : 'python';
}

/**
 * Export the agent-visible cells as markdown. Hidden cells leave no trace in
 * the document and are only counted.
 */
export async function exportNotebook(
  resolver: NotebookResolver,
  args: { notebookPath?: string | null; includeOutputs?: boolean },
  call: ICallTrace = NO_CALL
): Promise<IExportNotebookResult> {
  const notebook = await resolver.resolveNotebook(args.notebookPath);
  try {
    let hiddenCellCount = 0;
    const cells: IExportCell[] = [];
    for (const cell of notebook.model.cells) {
      if (!isCellVisible(cell)) {
        hiddenCellCount++;
        continue;
      }
      cells.push({
        type: cell.cell_type,
        source: cell.getSource(),
        outputs:
          cell.cell_type === 'code'
            ? ((cell as ISharedCodeCell).getOutputs() as nbformat.IOutput[])
            : undefined
      });
    }
    const exported = exportMarkdown(cells, {
      includeOutputs: args.includeOutputs ?? true,
      language: notebookLanguage(notebook.model),
      filter: secretFilter(resolver, notebook.model, call)
    });
    return {
      notebookPath: notebook.path,
      document: exported.document,
      truncated: exported.truncated,
      cellCount: exported.cellCount,
      hiddenCellCount
    };
  } finally {
    notebook.release();
  }
}
