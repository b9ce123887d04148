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
import {
  type CellActivityKind,
  type IRegistrationFailure,
  type IRegistrationStatus,
  type IToolCall,
  type IToolProgress,
  type IWebMcpRegistry
} from '../tokens';
import { errorResult, successResult } from './results';
import { type ToolName } from './schemas';
import {
  type IToolCallContext,
  type IToolDefinition,
  type IToolResult
} from './types';
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

/** Delays of the re-checks for a late polyfill: about 16 s in all, then stop. */
const RECHECK_DELAYS_MS = [100, 250, 500, 1000, 2000, 4000, 8000];

/** Finished calls kept in the history when no size is given. */
export const DEFAULT_CALL_HISTORY_SIZE = 200;

/** Cell ids one call record keeps (a long run reports many). */
const MAX_CALL_CELL_IDS = 100;

/**
 * Registers tools on the model context and keeps the stream of their calls:
 * the calls in progress and a bounded history of finished ones, each with
 * its target notebook and cells and the outcome its envelope carried.
 */
export class WebMcpRegistry implements IWebMcpRegistry, IDisposable {
  constructor(options: WebMcpRegistry.IOptions) {
    this._tools = options.tools;
    this._validator = options.validator;
    this._find = options.findModelContext ?? findModelContext;
    this._delays = options.recheckDelaysMs ?? RECHECK_DELAYS_MS;
    this._log = options.log ?? console;
    this._historySize = Math.max(
      0,
      options.historySize ?? DEFAULT_CALL_HISTORY_SIZE
    );
  }

  /** Where registration stands. */
  get status(): IRegistrationStatus {
    return this._status;
  }

  /** Emitted whenever the status changes. */
  get statusChanged(): ISignal<this, IRegistrationStatus> {
    return this._statusChanged;
  }

  /**
   * Emitted with a copy of a call when it starts, when it reports a cell or
   * progress, and when it ends.
   */
  get callChanged(): ISignal<this, IToolCall> {
    return this._callChanged;
  }

  /** The calls in progress (copies). */
  get activeCalls(): IToolCall[] {
    return [...this._active.values()].map(copyCall);
  }

  /** The most recent finished calls, oldest first (copies). */
  get history(): readonly IToolCall[] {
    return this._history.map(copyCall);
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
      notebookPath: null,
      cellIds: [],
      activity: null,
      progress: null,
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
      call.notebookPath = namedNotebook(tool.name, args);
      result = successResult(
        await tool.handler(args, this._callContext(call, signal))
      );
    } catch (thrown) {
      result = safeErrorResult(thrown);
    }
    call.outcome = outcomeOf(result);
    call.activity = null;
    call.finishedAt = Date.now();
    this._active.delete(call.id);
    if (this._historySize > 0) {
      this._history.push(call);
      if (this._history.length > this._historySize) {
        this._history.splice(0, this._history.length - this._historySize);
      }
    }
    this._emitCall(call);
    return result;
  }

  /** What a handler of `call` gets; reports after the call ended are dropped. */
  private _callContext(call: IToolCall, signal: AbortSignal): IToolCallContext {
    const live = () => call.finishedAt === null && !this._disposed;
    return {
      signal,
      reportCell: (
        notebookPath: string,
        cellId: string,
        kind: CellActivityKind
      ) => {
        if (!live()) {
          return;
        }
        call.notebookPath ??= notebookPath;
        if (
          call.notebookPath === notebookPath &&
          !call.cellIds.includes(cellId) &&
          call.cellIds.length < MAX_CALL_CELL_IDS
        ) {
          call.cellIds.push(cellId);
        }
        call.activity = { notebookPath, cellId, kind };
        this._emitCall(call);
      },
      reportProgress: (progress: IToolProgress) => {
        if (!live()) {
          return;
        }
        call.progress = { ...progress };
        this._emitCall(call);
      }
    };
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
    this._history = [];
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
    this._callChanged.emit(copyCall(call));
  }

  private readonly _tools: IToolDefinition[];
  private readonly _validator: InputValidator;
  private readonly _find: () => IModelContext | null;
  private readonly _delays: number[];
  private readonly _log: Pick<Console, 'warn'>;
  private readonly _historySize: number;
  private _history: IToolCall[] = [];
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
    /** Finished calls kept; defaults to DEFAULT_CALL_HISTORY_SIZE. */
    historySize?: number;
  }
}

/** A copy of a call that later changes to the original do not reach. */
function copyCall(call: IToolCall): IToolCall {
  return {
    ...call,
    cellIds: [...call.cellIds],
    activity: call.activity && { ...call.activity },
    progress: call.progress && { ...call.progress }
  };
}

/** The notebook a call names in its arguments, if any. */
function namedNotebook(
  tool: string,
  args: Record<string, unknown>
): string | null {
  // `path` names a notebook only for open; for the workspace it is a folder
  const named =
    tool === 'jupyter_open_notebook' ? args.path : args.notebookPath;
  return typeof named === 'string' && named !== '' ? named : null;
}

/**
 * The outcome a result envelope carries: the error code when it is an error
 * (including a payload that could not be serialized), else 'ok'.
 */
function outcomeOf(result: IToolResult): 'ok' | ErrorCode {
  if (!result.isError) {
    return 'ok';
  }
  const code = (result.structuredContent as { error?: unknown } | undefined)
    ?.error;
  return typeof code === 'string' ? (code as ErrorCode) : 'INTERNAL_ERROR';
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
