/**
 * The one module that touches the page's model context.
 *
 * It finds `document.modelContext` (or `navigator.modelContext` on older
 * runtimes), registers every tool with an abort signal, reports each failed
 * registration on its own, and unregisters everything when disposed. A
 * polyfill that installs WebMCP after start-up is picked up by a bounded
 * series of re-checks. `execute` never throws: every outcome, including an
 * unexpected exception, becomes the result envelope.
 */
import { type IDisposable } from '@lumino/disposable';
import { Signal, type ISignal } from '@lumino/signaling';

import { normalizeError, type ErrorCode } from '../common/errors';
import { errorResult, successResult } from './results';
import { type ToolName } from './schemas';
import { type IToolDefinition, type IToolResult } from './types';
import { type InputValidator } from './validate';

/** The part of a WebMCP model context this module uses. */
export interface IModelContext {
  registerTool(tool: INativeTool, options?: { signal?: AbortSignal }): unknown;
}

/** A tool as handed to the runtime. */
export interface INativeTool {
  name: string;
  title: string;
  description: string;
  inputSchema: object;
  annotations: object;
  execute(
    input: unknown,
    options?: { signal?: AbortSignal }
  ): Promise<IToolResult>;
}

/** Where the runtime lives: `document.modelContext`, then `navigator.modelContext`. */
export function findModelContext(): IModelContext | null {
  const candidates = [
    (globalThis.document as { modelContext?: unknown } | undefined)
      ?.modelContext,
    (globalThis.navigator as { modelContext?: unknown } | undefined)
      ?.modelContext
  ];
  for (const candidate of candidates) {
    if (
      candidate &&
      typeof (candidate as IModelContext).registerTool === 'function'
    ) {
      return candidate as IModelContext;
    }
  }
  return null;
}

/** A tool call, from start to end. */
export interface IToolCall {
  id: number;
  tool: string;
  /** The validated arguments, once validation passed. */
  args: Record<string, unknown> | null;
  startedAt: number;
  finishedAt: number | null;
  /** 'ok' or the error code, once finished. */
  outcome: 'ok' | ErrorCode | null;
}

/** A registration that failed, with the runtime's reason. */
export interface IRegistrationFailure {
  name: string;
  reason: string;
}

/** Where registration stands. */
export interface IRegistrationStatus {
  /** Whether a model context was found. */
  available: boolean;
  /** Whether registration is still looking for one or still in flight. */
  pending: boolean;
  registered: string[];
  failed: IRegistrationFailure[];
}

/** Delays of the re-checks for a late polyfill: about 16 s in all, then stop. */
const RECHECK_DELAYS_MS = [100, 250, 500, 1000, 2000, 4000, 8000];

/**
 * Registers tools on the model context and tracks their calls.
 */
export class WebMcpRegistry implements IDisposable {
  constructor(options: WebMcpRegistry.IOptions) {
    this._tools = options.tools;
    this._validator = options.validator;
    this._find = options.findModelContext ?? findModelContext;
    this._delays = options.recheckDelaysMs ?? RECHECK_DELAYS_MS;
    this._log = options.log ?? console;
  }

  /** Where registration stands. */
  get status(): IRegistrationStatus {
    return this._status;
  }

  /** Emitted whenever the status changes. */
  get statusChanged(): ISignal<this, IRegistrationStatus> {
    return this._statusChanged;
  }

  /** Emitted when a call starts and again when it ends. */
  get callChanged(): ISignal<this, IToolCall> {
    return this._callChanged;
  }

  /** The calls in progress. */
  get activeCalls(): IToolCall[] {
    return [...this._active.values()];
  }

  /** The names of the tools this registry offers. */
  get toolNames(): string[] {
    return this._tools.map(tool => tool.name);
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  /** Find the model context and register, re-checking a bounded number of times. */
  start(): void {
    if (this._disposed || this._started) {
      return;
    }
    this._started = true;
    this._attempt(0);
  }

  /**
   * Run one tool call. Exposed for the registered `execute`; never throws.
   */
  async execute(
    tool: IToolDefinition,
    input: unknown,
    options?: { signal?: AbortSignal }
  ): Promise<IToolResult> {
    const call: IToolCall = {
      id: ++this._nextCallId,
      tool: tool.name,
      args: null,
      startedAt: Date.now(),
      finishedAt: null,
      outcome: null
    };
    this._active.set(call.id, call);
    this._emitCall(call);
    let result: IToolResult;
    try {
      const signal =
        options?.signal instanceof AbortSignal
          ? options.signal
          : new AbortController().signal;
      const args = this._validator.validate(tool.name as ToolName, input);
      call.args = args;
      result = successResult(await tool.handler(args, { signal }));
      call.outcome = 'ok';
    } catch (thrown) {
      result = safeErrorResult(thrown);
      call.outcome =
        (result.structuredContent as { error?: ErrorCode } | undefined)
          ?.error ?? 'INTERNAL_ERROR';
    }
    call.finishedAt = Date.now();
    this._active.delete(call.id);
    this._emitCall(call);
    return result;
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    if (this._timer !== null) {
      clearTimeout(this._timer);
      this._timer = null;
    }
    this._controller.abort();
    for (const unregister of this._unregisters) {
      try {
        unregister();
      } catch {
        // The runtime is going away with us; nothing left to undo.
      }
    }
    this._unregisters = [];
    this._active.clear();
    Signal.clearData(this);
  }

  private _attempt(index: number): void {
    this._timer = null;
    if (this._disposed) {
      return;
    }
    const context = this._find();
    if (context) {
      void this._registerAll(context);
      return;
    }
    if (index < this._delays.length) {
      this._setStatus({ ...this._status, pending: true });
      this._timer = setTimeout(
        () => this._attempt(index + 1),
        this._delays[index]
      );
    } else {
      this._setStatus({ ...this._status, pending: false });
    }
  }

  private async _registerAll(context: IModelContext): Promise<void> {
    this._setStatus({
      available: true,
      pending: true,
      registered: [],
      failed: []
    });
    const registered: string[] = [];
    const failed: IRegistrationFailure[] = [];
    for (const tool of this._tools) {
      if (this._disposed) {
        return;
      }
      try {
        await this._registerOne(context, tool);
        registered.push(tool.name);
      } catch (error) {
        const reason =
          error instanceof Error ? error.message || error.name : String(error);
        failed.push({ name: tool.name, reason });
        this._log.warn(
          `jupyterlite-webmcp: could not register the tool ${tool.name}: ${reason}`
        );
      }
    }
    if (!this._disposed) {
      this._setStatus({ available: true, pending: false, registered, failed });
    }
  }

  private async _registerOne(
    context: IModelContext,
    tool: IToolDefinition
  ): Promise<void> {
    const native: INativeTool = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: { ...tool.annotations },
      execute: (input, options) => this.execute(tool, input, options)
    };
    let handle = context.registerTool(native, {
      signal: this._controller.signal
    });
    if (handle && typeof (handle as Promise<unknown>).then === 'function') {
      handle = await handle;
    }
    // Older runtimes return a handle to unregister with instead of honouring
    // the signal.
    const unregister = (handle as { unregister?: unknown } | undefined)
      ?.unregister;
    if (typeof unregister === 'function') {
      this._unregisters.push(() => unregister.call(handle));
    }
    if (this._disposed) {
      this._unregisters.forEach(fn => fn());
      this._unregisters = [];
    }
  }

  private _setStatus(status: IRegistrationStatus): void {
    this._status = status;
    this._statusChanged.emit(status);
  }

  private _emitCall(call: IToolCall): void {
    this._callChanged.emit({ ...call });
  }

  private readonly _tools: IToolDefinition[];
  private readonly _validator: InputValidator;
  private readonly _find: () => IModelContext | null;
  private readonly _delays: number[];
  private readonly _log: Pick<Console, 'warn'>;
  private readonly _controller = new AbortController();
  private _unregisters: Array<() => void> = [];
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _started = false;
  private _disposed = false;
  private _nextCallId = 0;
  private _active = new Map<number, IToolCall>();
  private _status: IRegistrationStatus = {
    available: false,
    pending: true,
    registered: [],
    failed: []
  };
  private _statusChanged = new Signal<this, IRegistrationStatus>(this);
  private _callChanged = new Signal<this, IToolCall>(this);
}

/** The namespace of {@link WebMcpRegistry}. */
export namespace WebMcpRegistry {
  export interface IOptions {
    tools: IToolDefinition[];
    validator: InputValidator;
    /** Where to look for the runtime; defaults to {@link findModelContext}. */
    findModelContext?: () => IModelContext | null;
    /** Delays of the re-checks when no runtime is found at start. */
    recheckDelaysMs?: number[];
    /** Where failed registrations are reported; defaults to the console. */
    log?: Pick<Console, 'warn'>;
  }
}

/** The error envelope of anything thrown; falls back to a constant. */
function safeErrorResult(thrown: unknown): IToolResult {
  try {
    return errorResult(normalizeError(thrown));
  } catch {
    const error = {
      error: 'INTERNAL_ERROR',
      message: 'The tool failed unexpectedly.'
    };
    return {
      content: [{ type: 'text', text: JSON.stringify(error) }],
      structuredContent: error,
      isError: true
    };
  }
}
