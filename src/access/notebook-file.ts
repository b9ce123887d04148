/**
 * Notebook-level access of a notebook that is not open in this app.
 *
 * Written straight to its file: read it with the contents manager, change
 * `metadata.jupyterlite_webmcp.notebookAccess`, save it back. Only that one
 * field changes: every other key of the file (cells, outputs, other metadata,
 * other fields under the key) is written back as it was read. A notebook open
 * in this app is never written here (its live model is, see commands.ts), so
 * unsaved edits are never overwritten.
 *
 * Or, when another tab of this browser has it open (Notebook 7 gives every
 * notebook its own tab), through that tab's live model: NotebookAccessRelay.
 */
import type { Contents } from '@jupyterlab/services';
import type { PartialJSONObject } from '@lumino/coreutils';

import {
  ACCESS_METADATA_KEY,
  isPlainObject,
  readNotebookAccess,
  withNotebookAccess,
  type AgentAccess,
  type IAccessReading
} from './model';

/** How many times a write starts over when the file changed under it. */
export const MAX_FILE_WRITE_ATTEMPTS = 3;

/** What a write to a file did. */
export interface INotebookFileAccessResult {
  path: string;
  /** The access the file gave before the write. */
  previous: IAccessReading;
  /** The access the file gives now. */
  access: AgentAccess;
  /** False when the file already said so and was not saved. */
  changed: boolean;
}

/** The access a notebook file's JSON gives (its notebook metadata). */
export function readFileNotebookAccess(content: unknown): IAccessReading {
  const metadata = isPlainObject(content) ? content.metadata : undefined;
  return readNotebookAccess(
    isPlainObject(metadata) ? metadata[ACCESS_METADATA_KEY] : undefined
  );
}

/**
 * The notebook JSON to save for a new notebook access, or null when the file
 * already says so. Pure: `content` is not changed; the result shares every
 * value with it except the notebook metadata object, which is a shallow copy
 * whose `jupyterlite_webmcp` value is replaced (deleted when it becomes
 * empty). Throws when `content` is not notebook JSON.
 */
export function withFileNotebookAccess(
  content: unknown,
  access: AgentAccess
): PartialJSONObject | null {
  if (!isPlainObject(content) || !Array.isArray(content.cells)) {
    throw new Error('The file is not a notebook.');
  }
  const stored = content.metadata;
  if (stored !== undefined && !isPlainObject(stored)) {
    throw new Error('The notebook metadata is not an object.');
  }
  const current = stored ? stored[ACCESS_METADATA_KEY] : undefined;
  const next = withNotebookAccess(current, access);
  if (next === current) {
    return null;
  }
  const metadata: Record<string, unknown> = { ...(stored ?? {}) };
  if (next === undefined) {
    delete metadata[ACCESS_METADATA_KEY];
  } else {
    metadata[ACCESS_METADATA_KEY] = next;
  }
  return { ...content, metadata } as PartialJSONObject;
}

/** Read a notebook file's access through the contents manager. */
export async function readNotebookFileAccess(
  contents: Contents.IManager,
  path: string
): Promise<IAccessReading> {
  const model = await getNotebook(contents, path);
  return readFileNotebookAccess(model.content);
}

/**
 * Write a notebook access into a file, saving only when it changes. `access`
 * is the access to write, or a function choosing it from what the file says
 * (a cycle step). When the file changes between the read and the save (its
 * `last_modified` moved), the write starts over from a fresh read, at most
 * MAX_FILE_WRITE_ATTEMPTS times, so a concurrent save is not overwritten with
 * stale content.
 */
export async function writeNotebookFileAccess(
  contents: Contents.IManager,
  path: string,
  access: AgentAccess | ((previous: IAccessReading) => AgentAccess)
): Promise<INotebookFileAccessResult> {
  for (let attempt = 1; ; attempt++) {
    const model = await getNotebook(contents, path);
    const previous = readFileNotebookAccess(model.content);
    const target = typeof access === 'function' ? access(previous) : access;
    const content = withFileNotebookAccess(model.content, target);
    if (content === null) {
      return { path, previous, access: target, changed: false };
    }
    const latest = await contents.get(path, { content: false });
    if (latest.last_modified !== model.last_modified) {
      if (attempt >= MAX_FILE_WRITE_ATTEMPTS) {
        throw new Error(
          `"${path}" kept changing while its agent access was written.`
        );
      }
      continue;
    }
    await contents.save(path, { type: 'notebook', format: 'json', content });
    return { path, previous, access: target, changed: true };
  }
}

async function getNotebook(
  contents: Contents.IManager,
  path: string
): Promise<Contents.IModel> {
  const model = await contents.get(path, {
    type: 'notebook',
    format: 'json',
    content: true
  });
  if (model.type !== 'notebook' || !isPlainObject(model.content)) {
    throw new Error(`"${path}" is not a notebook.`);
  }
  return model;
}

/** The channel the apps of this origin (browser tabs) share access on. */
export const ACCESS_CHANNEL_NAME = 'jupyterlite-webmcp:notebook-access';

/** How long a tab waits for another tab to say it has the notebook open. */
export const TAB_REPLY_TIMEOUT_MS = 500;

/** How long a tab waits for the tab that has the notebook open to write it. */
export const TAB_WRITE_TIMEOUT_MS = 5000;

/**
 * How long the tab that has the notebook open waits for its save before it
 * answers: below TAB_WRITE_TIMEOUT_MS, so that a slow save is answered as
 * not saved (yet) rather than not at all.
 */
export const TAB_SAVE_WAIT_MS = 3000;

/** What a tab that has the notebook open reports after writing it. */
export interface ITabWriteResult {
  previous: IAccessReading;
  changed: boolean;
  /**
   * True when the file says what that tab's live model says: it had no
   * unsaved edits and its save has completed (or nothing changed). False
   * while the change is only in that tab: unsaved edits it does not save
   * behind its owner, or a save that failed or has not completed yet.
   */
  saved: boolean;
}

/** This app's side of the relay: the notebooks open in it. */
export interface ITabAccessHost {
  /** The access of a notebook open here, or null when it is not open here. */
  read(path: string): Promise<IAccessReading | null>;
  /** Write a notebook open here, or null when it is not open here. */
  write(path: string, access: AgentAccess): Promise<ITabWriteResult | null>;
}

/** The part of BroadcastChannel the relay uses. */
export interface IMessageChannel {
  postMessage(message: unknown): void;
  addEventListener(
    type: 'message',
    listener: (event: MessageEvent) => void
  ): void;
  removeEventListener(
    type: 'message',
    listener: (event: MessageEvent) => void
  ): void;
  close(): void;
}

type RelayMessage =
  | { type: 'read'; id: string; path: string }
  | { type: 'write'; id: string; path: string; access: AgentAccess }
  | { type: 'read-reply'; id: string; reading: IAccessReading }
  | { type: 'write-reply'; id: string; result: ITabWriteResult };

/**
 * Notebook access across the tabs of one browser. In Notebook 7 (and
 * JupyterLite's notebook pages) the file browser and each notebook are
 * separate apps in separate tabs: a notebook the file browser's tab does not
 * have open may be open in another tab, whose live model would not see a
 * change made to the file (and would overwrite it on its next save). So before
 * writing a file, a tab asks the others: one that has the notebook open
 * writes it through its live model and answers; only when none answers within
 * TAB_REPLY_TIMEOUT_MS is the file written.
 */
export class NotebookAccessRelay {
  constructor(options: NotebookAccessRelay.IOptions) {
    this._host = options.host;
    this._channel = options.channel;
    this._timeoutMs = options.timeoutMs ?? TAB_REPLY_TIMEOUT_MS;
    this._channel.addEventListener('message', this._onMessage);
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /** The access another tab's live model gives, or null when none has it open. */
  read(path: string): Promise<IAccessReading | null> {
    return this._ask<IAccessReading>({ type: 'read', path }, this._timeoutMs);
  }

  /** Have another tab write its live model, or null when none has it open. */
  write(path: string, access: AgentAccess): Promise<ITabWriteResult | null> {
    return this._ask<ITabWriteResult>(
      { type: 'write', path, access },
      Math.max(this._timeoutMs, TAB_WRITE_TIMEOUT_MS)
    );
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._channel.removeEventListener('message', this._onMessage);
    this._channel.close();
    for (const resolve of this._waiting.values()) {
      resolve(null);
    }
    this._waiting.clear();
  }

  private _ask<T>(
    request:
      | { type: 'read'; path: string }
      | { type: 'write'; path: string; access: AgentAccess },
    timeoutMs: number
  ): Promise<T | null> {
    if (this._isDisposed) {
      return Promise.resolve(null);
    }
    const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    return new Promise<T | null>(resolve => {
      const timer = setTimeout(() => {
        this._waiting.delete(id);
        resolve(null);
      }, timeoutMs);
      this._waiting.set(id, value => {
        clearTimeout(timer);
        this._waiting.delete(id);
        resolve(value as T | null);
      });
      this._channel.postMessage({ ...request, id });
    });
  }

  private _onMessage = (event: MessageEvent): void => {
    const message = event.data as RelayMessage | null;
    if (!message || typeof message !== 'object' || !message.id) {
      return;
    }
    switch (message.type) {
      case 'read-reply':
        this._waiting.get(message.id)?.(message.reading);
        return;
      case 'write-reply':
        this._waiting.get(message.id)?.(message.result);
        return;
      case 'read':
        void this._answer(message.id, 'read-reply', () =>
          this._host.read(message.path)
        );
        return;
      case 'write':
        void this._answer(message.id, 'write-reply', () =>
          this._host.write(message.path, message.access)
        );
        return;
    }
  };

  private async _answer(
    id: string,
    type: 'read-reply' | 'write-reply',
    run: () => Promise<IAccessReading | ITabWriteResult | null>
  ): Promise<void> {
    let value: IAccessReading | ITabWriteResult | null = null;
    try {
      value = await run();
    } catch (error) {
      console.warn('Agent access: a request from another tab failed.', error);
      return;
    }
    if (value === null || this._isDisposed) {
      return;
    }
    this._channel.postMessage(
      type === 'read-reply'
        ? { type, id, reading: value }
        : { type, id, result: value }
    );
  }

  private _host: ITabAccessHost;
  private _channel: IMessageChannel;
  private _timeoutMs: number;
  private _waiting = new Map<string, (value: unknown) => void>();
  private _isDisposed = false;
}

export namespace NotebookAccessRelay {
  export interface IOptions {
    host: ITabAccessHost;
    /** Usually `new BroadcastChannel(ACCESS_CHANNEL_NAME)`. */
    channel: IMessageChannel;
    timeoutMs?: number;
  }
}
