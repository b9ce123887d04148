/**
 * The page runtime the local WebMCP relay's page script (`embed.js` of
 * `@mcp-b/webmcp-local-relay` 2.2.0) reads the tools from, built on the
 * registry's offered tools: every call runs through the registry's own path
 * (validation, access, Propose mode, Activity, the bounded envelope), and a
 * tool the owner turns off leaves the list at once.
 *
 * Why not one of the runtimes the relay names (measured, docs/clients.md):
 * `@mcp-b/webmcp-polyfill` and `@mcp-b/global` both install nothing usable
 * when the browser has native WebMCP (`document.modelContext`), and neither
 * tells the page script when the tools change, so a tool turned off would stay
 * listed. The page script also accepts this shape, which it reads from
 * `navigator.modelContextTesting`: `listTools()` (synchronous, each input
 * schema as JSON text), `executeTool(name, argumentsJson)` answering the
 * result as JSON text, and `registerToolsChangedCallback(callback)`.
 *
 * Pure: no JupyterLab import, no DOM beyond the object it is installed on.
 */
import { type IDisposable } from '@lumino/disposable';

import { type IOfferedTool, type IToolEnvelope } from '../tokens';

/** Where the offered tools come from (the WebMCP registry). */
export interface IOfferedToolsSource {
  readonly offeredTools: readonly IOfferedTool[];
  readonly offeredToolsChanged: {
    connect(slot: () => void, thisArg?: unknown): boolean;
    disconnect(slot: () => void, thisArg?: unknown): boolean;
  };
}

/** A tool as the relay's page script lists it. */
export interface IRelayToolInfo {
  name: string;
  description: string;
  /** The JSON Schema of the arguments, as JSON text. */
  inputSchema: string;
}

/** The name the relay's page script reads the runtime from, on `navigator`. */
export const RUNTIME_PROPERTY = 'modelContextTesting';

/**
 * The runtime: lists the offered tools, runs a call through the offered
 * tool's `call`, and says when the list changes. Disposing it stops the
 * callbacks and refuses later calls.
 */
export class RelayRuntime implements IDisposable {
  constructor(source: IOfferedToolsSource) {
    this._source = source;
    source.offeredToolsChanged.connect(this._onChanged, this);
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  /** The tools offered now (the owner's turned-off tools are not among them). */
  listTools(): IRelayToolInfo[] {
    if (this._disposed) {
      return [];
    }
    return this._source.offeredTools.map(tool => ({
      name: tool.name,
      description: tool.description,
      inputSchema: JSON.stringify(tool.inputSchema)
    }));
  }

  /**
   * Runs one call and answers the envelope as JSON text. Never rejects: a
   * tool that is not offered (turned off since it was listed, say) and
   * arguments that are not JSON answer an error envelope, as the registry's
   * own errors do.
   */
  async executeTool(name: string, argumentsJson: string): Promise<string> {
    const tool = this._disposed
      ? undefined
      : this._source.offeredTools.find(offered => offered.name === name);
    if (!tool) {
      return JSON.stringify(
        errorEnvelope(
          'INVALID_ARGUMENT',
          `No tool named "${String(name).slice(0, 128)}" is offered: the owner may have turned it off. List the tools again.`
        )
      );
    }
    let input: unknown;
    try {
      input = argumentsJson === '' ? {} : JSON.parse(argumentsJson);
    } catch {
      return JSON.stringify(
        errorEnvelope('INVALID_ARGUMENT', 'The arguments are not valid JSON.')
      );
    }
    return JSON.stringify(await tool.call(input));
  }

  /** Calls `callback` whenever the offered tools change, until disposed. */
  registerToolsChangedCallback(callback: () => void): void {
    if (!this._disposed && typeof callback === 'function') {
      this._callbacks.push(callback);
    }
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this._callbacks.length = 0;
    this._source.offeredToolsChanged.disconnect(this._onChanged, this);
  }

  private _onChanged(): void {
    for (const callback of [...this._callbacks]) {
      try {
        callback();
      } catch (reason) {
        console.warn(
          'jupyterlite-webmcp: the relay page script failed on a tool change:',
          reason
        );
      }
    }
  }

  private readonly _source: IOfferedToolsSource;
  private readonly _callbacks: (() => void)[] = [];
  private _disposed = false;
}

/** An error envelope in the registry's shape, for what never reaches a tool. */
function errorEnvelope(error: 'INVALID_ARGUMENT', message: string) {
  const payload = { error, message };
  const envelope: IToolEnvelope = {
    content: [{ type: 'text', text: JSON.stringify(payload) }],
    structuredContent: payload,
    isError: true
  };
  return envelope;
}

/**
 * Installs the runtime as `target.modelContextTesting` (the page's
 * `navigator`). Refuses (returns null) when the property is already there:
 * a browser's own, or another script's, is never replaced. Disposing the
 * result removes it, if it is still ours, and disposes the runtime.
 */
export function installRuntime(
  target: object,
  runtime: RelayRuntime
): IDisposable | null {
  if (RUNTIME_PROPERTY in target) {
    return null;
  }
  // the page script calls the methods on the object it read: bind them
  const surface = Object.freeze({
    listTools: () => runtime.listTools(),
    executeTool: (name: string, argumentsJson: string) =>
      runtime.executeTool(name, argumentsJson),
    registerToolsChangedCallback: (callback: () => void) =>
      runtime.registerToolsChangedCallback(callback)
  });
  Object.defineProperty(target, RUNTIME_PROPERTY, {
    configurable: true,
    enumerable: false,
    get: () => surface
  });
  let disposed = false;
  return {
    get isDisposed() {
      return disposed;
    },
    dispose() {
      if (disposed) {
        return;
      }
      disposed = true;
      const descriptor = Object.getOwnPropertyDescriptor(
        target,
        RUNTIME_PROPERTY
      );
      if (descriptor?.get?.() === surface) {
        delete (target as Record<string, unknown>)[RUNTIME_PROPERTY];
      }
      runtime.dispose();
    }
  };
}
