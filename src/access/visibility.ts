/**
 * Which notebooks in a listing the agent may see, without re-reading every
 * notebook's content on every call: an open notebook is judged from its live
 * model; a closed one from its file, read once per modification time.
 */
import { type Contents } from '@jupyterlab/services';

import { ACCESS_METADATA_KEY, readNotebookAccess } from './model';

/** A listed file, as the visibility check needs it. */
export interface IListedNotebook {
  path: string;
  modified?: string;
}

/** What the cache needs from the app. */
export interface IVisibilitySource {
  /** The live notebook metadata of an open notebook, or null if not open. */
  liveMetadata(path: string): unknown | null;
  contents: Contents.IManager;
}

/**
 * Decides and remembers whether closed notebooks are hidden. A file whose
 * modification time changed is read again; an unreadable one counts as
 * visible (it is then listed like any file the agent cannot open).
 */
export class NotebookVisibilityCache {
  constructor(private readonly _source: IVisibilitySource) {}

  /** Whether the owner lets the agent know this notebook exists. */
  async isVisible(entry: IListedNotebook): Promise<boolean> {
    const live = this._source.liveMetadata(entry.path);
    if (live !== null) {
      return readNotebookAccess(live).access !== 'none';
    }
    const cached = this._cache.get(entry.path);
    if (cached && entry.modified && cached.modified === entry.modified) {
      return cached.visible;
    }
    let visible = true;
    let modified = entry.modified;
    try {
      const model = await this._source.contents.get(entry.path, {
        content: true,
        type: 'notebook'
      });
      const metadata = (model.content as { metadata?: Record<string, unknown> })
        ?.metadata;
      visible =
        readNotebookAccess(metadata?.[ACCESS_METADATA_KEY]).access !== 'none';
      modified = model.last_modified ?? modified;
    } catch {
      visible = true;
    }
    if (modified) {
      this._cache.set(entry.path, { modified, visible });
    }
    return visible;
  }

  private readonly _cache = new Map<
    string,
    { modified: string; visible: boolean }
  >();
}
