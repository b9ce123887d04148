/**
 * Test doubles for what the browser and the server provide around the access
 * modules: the contents manager (files) and a BroadcastChannel (tabs).
 */
import type { Contents } from '@jupyterlab/services';

import type { IMessageChannel } from '../../src/access/notebook-file';

/**
 * An in-memory stand-in for the contents manager's `get` and `save`, keeping
 * each file as the JSON text a server would store, so a test can compare the
 * bytes written with the bytes read.
 */
export class FakeContents {
  /** The paths saved, in order. */
  readonly saves: string[] = [];

  /** Called before every read; a test changes a file here to race a write. */
  beforeGet: ((path: string, content: boolean) => void) | null = null;

  addNotebook(path: string, content: unknown): void {
    this.setText(path, JSON.stringify(content));
  }

  /** Stores a file's text as it is (any JSON, or not JSON at all). */
  setText(path: string, text: string): void {
    this._files.set(path, { text, modified: this._tick() });
  }

  text(path: string): string {
    const file = this._files.get(path);
    if (!file) {
      throw new Error(`no file ${path}`);
    }
    return file.text;
  }

  notebook(path: string): Record<string, unknown> {
    return JSON.parse(this.text(path)) as Record<string, unknown>;
  }

  async get(
    path: string,
    options: Contents.IFetchOptions = {}
  ): Promise<Contents.IModel> {
    const content = options.content !== false;
    this.beforeGet?.(path, content);
    const file = this._files.get(path);
    if (!file) {
      throw Object.assign(new Error(`not found: ${path}`), {
        response: { status: 404 }
      });
    }
    let parsed: unknown = null;
    let type: Contents.ContentType = 'file';
    try {
      parsed = JSON.parse(file.text);
      type = path.endsWith('.ipynb') ? 'notebook' : 'file';
    } catch {
      parsed = file.text;
    }
    return {
      name: path.slice(path.lastIndexOf('/') + 1),
      path,
      type,
      writable: true,
      created: file.modified,
      last_modified: file.modified,
      mimetype: '',
      format: content ? (type === 'notebook' ? 'json' : 'text') : null,
      content: content ? parsed : null
    };
  }

  async save(
    path: string,
    options: Partial<Contents.IModel> = {}
  ): Promise<Contents.IModel> {
    this.saves.push(path);
    this.setText(path, JSON.stringify(options.content));
    return this.get(path, { content: false });
  }

  private _tick(): string {
    this._clock += 1000;
    return new Date(this._clock).toISOString();
  }

  private _files = new Map<string, { text: string; modified: string }>();
  private _clock = Date.UTC(2026, 0, 1);
}

/**
 * The tabs of one browser: every channel made here hears the others' messages
 * (never its own), later and as a copy, as a BroadcastChannel does.
 */
export class FakeBus {
  channel(): IMessageChannel {
    const listeners = new Set<(event: MessageEvent) => void>();
    const member = {
      listeners,
      postMessage: (message: unknown) => {
        for (const other of this._members) {
          if (other !== member) {
            const data = JSON.parse(JSON.stringify(message)) as unknown;
            setTimeout(() => {
              other.listeners.forEach(listener =>
                listener({ data } as MessageEvent)
              );
            }, 0);
          }
        }
      },
      addEventListener: (_: 'message', l: (event: MessageEvent) => void) =>
        listeners.add(l),
      removeEventListener: (_: 'message', l: (event: MessageEvent) => void) =>
        listeners.delete(l),
      close: () => this._members.delete(member)
    };
    this._members.add(member);
    return member;
  }

  private _members = new Set<
    IMessageChannel & { listeners: Set<(event: MessageEvent) => void> }
  >();
}
