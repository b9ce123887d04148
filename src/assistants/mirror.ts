/**
 * Keeps an assistant's tool registry holding exactly the tools we offer:
 * every tool the owner has not turned off, added when it appears, removed
 * when it is turned off or removed, all of them removed when disposed. Only
 * entries this mirror added are ever removed: a tool of the same name that
 * the assistant or another extension put there is left alone.
 */
import { type IDisposable } from '@lumino/disposable';
import { type ISignal } from '@lumino/signaling';

import { type IOfferedTool } from '../tokens';
import { aiSdkTool, type IAiSdkTool } from './ai-sdk-tool';

/**
 * The part of an assistant's tool registry used here (jupyter-ai-lite's
 * `@jupyter-ai/agent-lite:IToolRegistry`, jupyterlite-ai's
 * `@jupyternaut/agent:IToolRegistry`).
 */
export interface IAssistantToolRegistry {
  add(name: string, tool: IAiSdkTool): void;
  get(name: string): unknown;
  remove(name: string): unknown;
}

/** Where the offered tools come from (the WebMCP registry). */
export interface IToolSource {
  readonly offeredTools: readonly IOfferedTool[];
  readonly offeredToolsChanged: ISignal<IToolSource, void>;
}

export class ToolMirror implements IDisposable {
  constructor(
    private readonly _source: IToolSource,
    private readonly _target: IAssistantToolRegistry
  ) {
    this._source.offeredToolsChanged.connect(this._sync, this);
    this._sync();
  }

  /** The names of the tools this mirror holds in the assistant's registry. */
  get names(): string[] {
    return [...this._added.keys()];
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this._source.offeredToolsChanged.disconnect(this._sync, this);
    for (const name of [...this._added.keys()]) {
      this._remove(name);
    }
  }

  private _sync(): void {
    if (this._disposed) {
      return;
    }
    const wanted = new Map(
      this._source.offeredTools.map(tool => [tool.name, tool])
    );
    for (const [name, entry] of [...this._added]) {
      if (wanted.get(name) !== entry.offered) {
        this._remove(name);
      }
    }
    for (const [name, offered] of wanted) {
      if (this._added.has(name)) {
        continue;
      }
      const tool = aiSdkTool(offered);
      this._target.add(name, tool);
      this._added.set(name, { offered, tool });
    }
  }

  private _remove(name: string): void {
    const entry = this._added.get(name);
    this._added.delete(name);
    // someone else's tool of that name since: theirs to keep
    if (entry && this._target.get(name) === entry.tool) {
      this._target.remove(name);
    }
  }

  private readonly _added = new Map<
    string,
    { offered: IOfferedTool; tool: IAiSdkTool }
  >();
  private _disposed = false;
}
