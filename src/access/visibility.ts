/**
 * Which notebooks in a listing the agent may see, without re-reading every
 * notebook's content on every call: an open notebook is judged from its live
 * model; a closed one from its file, read once per version of the file.
 *
 * Cost. The contents service has no way to read a notebook's metadata alone,
 * so the first listing of a closed notebook downloads it whole, once. What
 * this class guarantees:
 *
 * - A version of a file (its path, modification time and size) is downloaded
 *   at most once: the verdict is remembered for it, and a read already in
 *   flight (another listing, or a create, asking meanwhile) is shared, never
 *   started again.
 * - At most MAX_CONCURRENT_NOTEBOOK_READS files download at once: enough to
 *   overlap the server's work with the transfer and the parse, while leaving
 *   the browser's six connections per host to the app and the kernel (and a
 *   Jupyter server is one Python process: more at once only queue there).
 * - Steady state reads nothing: a listing of already judged notebooks costs
 *   the directory listing plus a map lookup per notebook.
 *
 * Fail closed. A notebook is hidden unless a read of it said otherwise:
 * when the read fails because the service cannot answer (a 5xx, the network)
 * or the file is gone (404), the notebook is left out of that listing like a
 * hidden one (the spec makes hidden indistinguishable from absent, so no
 * listing names a file it could not judge, and no error names it either), and
 * nothing is remembered: the next listing asks again. A file the service
 * answers and refuses (another 4xx: not valid notebook JSON, say) has no
 * readable metadata, so no owner setting to honour, for the agent or anyone
 * reading it through the service: it is listed, like any file the agent
 * cannot open, and the verdict is remembered for that version of the file,
 * so a broken file is not downloaded on every call. Nothing is persisted
 * beyond the page: the cache lives in memory.
 */
import { type Contents } from '@jupyterlab/services';

import { LIMITS } from '../limits';
import { contentsFailure } from '../common/contents-errors';
import { isPlainObject } from '../common/json';
import { ACCESS_METADATA_KEY, readNotebookAccess } from './model';
import { type IAnnouncedAccess } from './announced';
import { isHidden } from './policy';

/** A listed file, as the visibility check needs it. */
export interface IListedNotebook {
  path: string;
  modified?: string;
  size?: number;
}

/**
 * What the live source answers for a notebook open in this app whose access
 * is not yet known: its panel has not loaded the file (a page restore, the
 * person opening it). The cache then judges it as a closed notebook, from its
 * file: what the panel is loading.
 */
export const NOT_YET_KNOWN: unique symbol = Symbol('not yet known');

/** What the cache needs from the app. */
export interface IVisibilitySource {
  /**
   * The live notebook metadata of an open notebook, null if not open, or
   * NOT_YET_KNOWN while its panel is still loading.
   */
  liveMetadata(path: string): unknown | null | typeof NOT_YET_KNOWN;
  contents: Contents.IManager;
  /**
   * The restrictions other tabs of this browser announced for notebooks they
   * hold unsaved (see ./announced), applied on top of what a file says.
   */
  announced?: IAnnouncedAccess;
}

/** Options of the cache. */
export interface IVisibilityOptions {
  /** Files read at once (default MAX_CONCURRENT_NOTEBOOK_READS). */
  maxConcurrentReads?: number;
}

/** A verdict on one version of a file. */
interface IVerdict {
  version: string;
  visible: boolean;
}

/** The version key of a listed or read file; null when it has no time. */
function versionOf(modified?: string, size?: number): string | null {
  return modified ? `${modified}\u0000${size ?? ''}` : null;
}

/**
 * Decides and remembers whether closed notebooks are hidden. A file whose
 * modification time or size changed is read again.
 */
export class NotebookVisibilityCache {
  constructor(
    private readonly _source: IVisibilitySource,
    options: IVisibilityOptions = {}
  ) {
    this._maxReads = Math.max(
      1,
      options.maxConcurrentReads ?? LIMITS.MAX_CONCURRENT_NOTEBOOK_READS
    );
  }

  /** Whether the owner lets the agent know this notebook exists. */
  async isVisible(entry: IListedNotebook): Promise<boolean> {
    const live = this._source.liveMetadata(entry.path);
    if (live !== null && live !== NOT_YET_KNOWN) {
      return !isHidden(readNotebookAccess(live).access);
    }
    // another tab's unsaved restriction holds here too, never its widening
    const announced = this._source.announced?.announced(entry.path)?.notebook;
    if (isHidden(announced ?? 'write')) {
      return false;
    }
    const version = versionOf(entry.modified, entry.size);
    const cached = this._cache.get(entry.path);
    if (cached && version !== null && cached.version === version) {
      return cached.visible;
    }
    // One download per version: a read in flight is shared.
    const key = `${entry.path}\u0000${version ?? ''}`;
    let pending = this._inFlight.get(key);
    if (!pending) {
      pending = this._judge(entry, version).finally(() =>
        this._inFlight.delete(key)
      );
      this._inFlight.set(key, pending);
    }
    return pending;
  }

  /** Read the file (within the concurrency bound) and remember the verdict. */
  private async _judge(
    entry: IListedNotebook,
    listedVersion: string | null
  ): Promise<boolean> {
    await this._acquire();
    let verdict: IVerdict | null;
    let visible = false;
    try {
      const { model, metadata } = await this._readMetadata(entry.path);
      const stored =
        typeof metadata === 'object' && metadata !== null
          ? (metadata as Record<string, unknown>)[ACCESS_METADATA_KEY]
          : undefined;
      visible = !isHidden(readNotebookAccess(stored).access);
      // Remembered for the version read, which may be newer than the listed.
      const read = versionOf(
        model.last_modified,
        typeof model.size === 'number' ? model.size : entry.size
      );
      verdict = read === null ? null : { version: read, visible };
    } catch (error) {
      visible = contentsFailure(error) === 'refused';
      verdict =
        visible && listedVersion !== null
          ? { version: listedVersion, visible }
          : null;
    } finally {
      this._release();
    }
    if (verdict) {
      this._cache.set(entry.path, verdict);
    } else {
      this._cache.delete(entry.path);
    }
    return visible;
  }

  /**
   * A notebook file's metadata. Read as text first: a Jupyter server then
   * sends the file as it is, without validating it against the notebook
   * schema and checking its trust signature, which for a 5,000-cell notebook
   * costs it far more than the transfer. A drive that does not answer a
   * notebook as JSON text is asked for it as a notebook.
   */
  private async _readMetadata(
    path: string
  ): Promise<{ model: Contents.IModel; metadata: unknown }> {
    const contents = this._source.contents;
    try {
      const model = await contents.get(path, {
        content: true,
        type: 'file',
        format: 'text'
      });
      const notebook = notebookJson(model.content);
      if (notebook) {
        return { model, metadata: notebook.metadata };
      }
    } catch (error) {
      if (contentsFailure(error) !== 'refused') {
        throw error;
      }
    }
    const model = await contents.get(path, { content: true, type: 'notebook' });
    return { model, metadata: notebookJson(model.content)?.metadata };
  }

  private _acquire(): Promise<void> {
    if (this._reading < this._maxReads) {
      this._reading++;
      return Promise.resolve();
    }
    return new Promise(resolve => this._waiting.push(resolve));
  }

  private _release(): void {
    const next = this._waiting.shift();
    if (next) {
      next();
    } else {
      this._reading--;
    }
  }

  private readonly _maxReads: number;
  private _reading = 0;
  private readonly _waiting: (() => void)[] = [];
  private readonly _cache = new Map<string, IVerdict>();
  private readonly _inFlight = new Map<string, Promise<boolean>>();
}

/** Notebook JSON, given as an object or as its text; null when it is neither. */
function notebookJson(content: unknown): { metadata?: unknown } | null {
  let value = content;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return isPlainObject(value) ? (value as { metadata?: unknown }) : null;
}
