/**
 * `jupyter_list_workspace`: files and directories, never their contents.
 */
import { type Contents } from '@jupyterlab/services';

import { LIMITS } from '../limits';
import { ToolError } from '../common/errors';
import { type NotebookResolver } from './notebook';
import { normalizePath } from './paths';

/** One row of a listing. */
export interface IWorkspaceEntry {
  path: string;
  name: string;
  type: 'directory' | 'notebook' | 'file';
  size?: number;
  modified?: string;
}

/** What `jupyter_list_workspace` returns. */
export interface IWorkspaceListing {
  path: string;
  entries: IWorkspaceEntry[];
  truncated: boolean;
  omittedCount: number;
}

/** Arguments of a listing, validated by the tool's schema. */
export interface IListWorkspaceArgs {
  path?: string | null;
  recursive?: boolean;
  limit?: number;
}

/**
 * Decides whether the agent may see a listed notebook. The owner's
 * notebook-level access plugs in here; the default hides nothing.
 */
export type NotebookVisibility = (entry: IWorkspaceEntry) => Promise<boolean>;

const everyNotebookVisible: NotebookVisibility = async () => true;

function toEntry(model: Contents.IModel): IWorkspaceEntry {
  const type =
    model.type === 'directory' || model.type === 'notebook'
      ? model.type
      : 'file';
  const entry: IWorkspaceEntry = { path: model.path, name: model.name, type };
  if (typeof model.size === 'number' && type !== 'directory') {
    entry.size = model.size;
  }
  if (model.last_modified) {
    entry.modified = model.last_modified;
  }
  return entry;
}

const collator = new Intl.Collator('en', { numeric: true });

/** Directories first, then files; each alphabetically by name. */
export function compareEntries(a: IWorkspaceEntry, b: IWorkspaceEntry): number {
  const dirA = a.type === 'directory' ? 0 : 1;
  const dirB = b.type === 'directory' ? 0 : 1;
  return dirA - dirB || collator.compare(a.name, b.name);
}

/**
 * List a directory, or walk it breadth-first when `recursive`. The limit
 * holds across the whole walk. Once it is reached no further directory is
 * fetched; `omittedCount` counts the visible entries found but not returned.
 */
export async function listWorkspace(
  resolver: NotebookResolver,
  args: IListWorkspaceArgs,
  isVisible: NotebookVisibility = everyNotebookVisible
): Promise<IWorkspaceListing> {
  const root = normalizePath(args.path ?? '', { allowRoot: true });
  const limit = Math.min(
    args.limit ?? LIMITS.MAX_WORKSPACE_ROWS,
    LIMITS.MAX_WORKSPACE_ROWS
  );
  const top = await resolver.getContentsModel(root, true);
  // A notebook hidden from the agent is a path that does not exist.
  if (!top || (top.type === 'notebook' && !(await isVisible(toEntry(top))))) {
    throw new ToolError(
      'NOTEBOOK_NOT_FOUND',
      `No directory found at "${root}".`,
      { path: root }
    );
  }
  if (top.type !== 'directory') {
    throw new ToolError(
      'INVALID_PATH',
      `"${root}" is a file, not a directory.`,
      { path: root }
    );
  }
  const entries: IWorkspaceEntry[] = [];
  let omittedCount = 0;
  const queue: Contents.IModel[] = [top];
  while (queue.length > 0) {
    const directory = queue.shift()!;
    const children = await visibleChildren(directory, isVisible);
    for (const child of children) {
      if (entries.length < limit) {
        entries.push(child);
        if (args.recursive && child.type === 'directory') {
          const listing = await resolver.getContentsModel(child.path, true);
          // A directory deleted mid-walk is skipped, not an error.
          if (listing && listing.type === 'directory') {
            queue.push(listing);
          }
        }
      } else {
        omittedCount++;
      }
    }
  }
  return {
    path: root,
    entries,
    truncated: omittedCount > 0,
    omittedCount
  };
}

async function visibleChildren(
  directory: Contents.IModel,
  isVisible: NotebookVisibility
): Promise<IWorkspaceEntry[]> {
  const content: unknown = directory.content;
  const models = Array.isArray(content) ? (content as Contents.IModel[]) : [];
  const entries = models.map(toEntry).sort(compareEntries);
  const visible: IWorkspaceEntry[] = [];
  for (const entry of entries) {
    if (entry.type !== 'notebook' || (await isVisible(entry))) {
      visible.push(entry);
    }
  }
  return visible;
}
