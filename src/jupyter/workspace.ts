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

/** Progress of a long listing, for the status bar. */
export interface IListingProgress {
  message: string;
  done: number;
  total?: number;
}

/** Where a listing reports its progress (the tool call's reportProgress). */
export type ListingProgressReporter = (progress: IListingProgress) => void;

/** A listing reports progress only once it has run this long. */
export const PROGRESS_AFTER_MS = 500;
/** And then at most this often. */
export const PROGRESS_EVERY_MS = 200;

/**
 * Counts the notebooks whose visibility a listing judged, and reports the
 * count once the listing has taken long (the first listing of a large
 * workspace reads every notebook file). A quick listing reports nothing.
 */
class NotebookCheckProgress {
  constructor(
    private readonly _report: ListingProgressReporter | undefined,
    private readonly _now: () => number
  ) {
    this._started = _now();
  }

  found(count: number): void {
    this._total += count;
  }

  checked(): void {
    this._done++;
    this._maybeReport();
  }

  private _maybeReport(): void {
    if (!this._report) {
      return;
    }
    const now = this._now();
    if (
      now - this._started < PROGRESS_AFTER_MS ||
      (now - this._last < PROGRESS_EVERY_MS && this._done < this._total)
    ) {
      return;
    }
    this._last = now;
    this._report({
      message: `Checking which notebooks the agent may see: ${this._done} of ${this._total}`,
      done: this._done,
      total: this._total
    });
  }

  private readonly _started: number;
  private _last = -Infinity;
  private _done = 0;
  private _total = 0;
}

/** Options of a listing beyond its arguments. */
export interface IListWorkspaceOptions {
  /** Report progress of a long listing. */
  onProgress?: ListingProgressReporter;
  /** The clock, in ms (tests). */
  now?: () => number;
}

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
  isVisible: NotebookVisibility = everyNotebookVisible,
  options: IListWorkspaceOptions = {}
): Promise<IWorkspaceListing> {
  const progress = new NotebookCheckProgress(
    options.onProgress,
    options.now ?? (() => Date.now())
  );
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
    const children = await visibleChildren(directory, isVisible, progress);
    for (const child of children) {
      if (entries.length < limit) {
        entries.push(child);
        if (args.recursive && child.type === 'directory') {
          const listing = await subdirectory(resolver, child.path);
          if (listing) {
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

/**
 * A subdirectory met in a recursive walk, or null to skip it: one deleted
 * mid-walk (the spec), or one the contents service refuses to list (its entry
 * is still listed; only its children are not). A service that cannot answer
 * fails the call with its closed-set error.
 */
async function subdirectory(
  resolver: NotebookResolver,
  path: string
): Promise<Contents.IModel | null> {
  let listing: Contents.IModel | null;
  try {
    listing = await resolver.getContentsModel(path, true);
  } catch (error) {
    if (error instanceof ToolError && error.code === 'INVALID_PATH') {
      return null;
    }
    throw error;
  }
  return listing && listing.type === 'directory' ? listing : null;
}

/**
 * A directory's entries the agent may see, sorted. Every notebook is asked
 * about at once; the visibility check bounds how many files it reads at a
 * time and never reads one twice (see src/access/visibility.ts), so a first
 * listing overlaps its downloads instead of waiting for each in turn.
 */
async function visibleChildren(
  directory: Contents.IModel,
  isVisible: NotebookVisibility,
  progress: NotebookCheckProgress
): Promise<IWorkspaceEntry[]> {
  const content: unknown = directory.content;
  const models = Array.isArray(content) ? (content as Contents.IModel[]) : [];
  const entries = models.map(toEntry).sort(compareEntries);
  progress.found(entries.filter(entry => entry.type === 'notebook').length);
  const shown = await Promise.all(
    entries.map(async entry => {
      if (entry.type !== 'notebook') {
        return true;
      }
      const visible = await isVisible(entry);
      progress.checked();
      return visible;
    })
  );
  return entries.filter((_, i) => shown[i]);
}
