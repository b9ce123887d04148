/**
 * The one module that touches the page's model context.
 *
 * It finds `document.modelContext` (or `navigator.modelContext` on older
 * runtimes), registers every tool with an abort signal of its own, reports
 * each failed registration on its own, unregisters a tool the owner turns
 * off (and registers it again when turned back on), and unregisters
 * everything when disposed. A
 * polyfill that installs WebMCP after start-up is picked up by a bounded
 * series of re-checks. `execute` never throws: every outcome, including an
 * unexpected exception, becomes the result envelope.
 */
import { type IDisposable } from '@lumino/disposable';
import { Signal, type ISignal } from '@lumino/signaling';

import { ownSignal } from '../common/abort-signal';
import { normalizeError, type ErrorCode } from '../common/errors';
import {
  type CellActivityKind,
  type IRegistrationFailure,
  type IRegistrationStatus,
  type IToolCall,
  type IToolProgress,
  type IToolSummary,
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

  /** Every tool this registry offers, with its title and annotations. */
  get tools(): IToolSummary[] {
    return this._tools.map(tool => ({
      name: tool.name,
      title: tool.title,
      annotations: { ...tool.annotations }
    }));
  }

  /** The tools the owner turned off (never registered while off). */
  get disabledTools(): string[] {
    return this._tools
      .map(tool => tool.name)
      .filter(name => this._disabled.has(name));
  }

  /**
   * Turns tools off (unregistered at once) and the others on (registered
   * again if they were off). Unknown names are ignored. Resolves once the
   * registrations match.
   */
  setDisabledTools(names: Iterable<string>): Promise<void> {
    const known = new Set(this.toolNames);
    this._disabled = new Set([...names].filter(name => known.has(name)));
    return this._reconcile();
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
      // a signal from another realm (an isolated world, an iframe) counts too
      const signal = ownSignal(options?.signal);
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
      callId: call.id,
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
    for (const name of [...this._handles.keys()]) {
      this._unregisterOne(name);
    }
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

  private _registerAll(context: IModelContext): Promise<void> {
    this._context = context;
    return this._reconcile();
  }

  /**
   * Makes the registrations match what is wanted (every tool not turned
   * off), one reconciliation at a time, then publishes the status.
   */
  private _reconcile(): Promise<void> {
    const run = async () => {
      const context = this._context;
      if (!context || this._disposed) {
        return;
      }
      this._setStatus({ ...this._status, available: true, pending: true });
      // Every registration is started at once and awaited together: the
      // runtime settles each one a round trip later, and one after the other
      // the 22 of them took about 600 ms after start-up (load.bench.ts).
      const pending: { name: string; registration: Promise<void> }[] = [];
      for (const tool of this._tools) {
        const wanted = !this._disabled.has(tool.name);
        const registered = this._handles.has(tool.name);
        if (!wanted && registered) {
          this._unregisterOne(tool.name);
        } else if (wanted && !registered) {
          pending.push({
            name: tool.name,
            registration: this._registerOne(context, tool)
          });
        }
      }
      const failed: IRegistrationFailure[] = [];
      const settled = await Promise.allSettled(
        pending.map(entry => entry.registration)
      );
      settled.forEach((outcome, index) => {
        if (outcome.status === 'fulfilled') {
          return;
        }
        const error = outcome.reason;
        const reason =
          error instanceof Error ? error.message || error.name : String(error);
        const { name } = pending[index];
        failed.push({ name, reason });
        this._log.warn(
          `jupyterlite-webmcp: could not register the tool ${name}: ${reason}`
        );
      });
      if (!this._disposed) {
        this._setStatus({
          available: true,
          pending: false,
          registered: this.toolNames.filter(name => this._handles.has(name)),
          failed,
          disabled: this.disabledTools
        });
      }
    };
    this._reconciling = this._reconciling.then(run, run);
    return this._reconciling;
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
    const controller = new AbortController();
    let handle = context.registerTool(native, { signal: controller.signal });
    if (handle && typeof (handle as Promise<unknown>).then === 'function') {
      handle = await handle;
    }
    // Older runtimes return a handle to unregister with instead of honouring
    // the signal.
    const unregister = (handle as { unregister?: unknown } | undefined)
      ?.unregister;
    this._handles.set(tool.name, {
      controller,
      unregister:
        typeof unregister === 'function' ? () => unregister.call(handle) : null
    });
    if (this._disposed) {
      this._unregisterOne(tool.name);
    }
  }

  private _unregisterOne(name: string): void {
    const handle = this._handles.get(name);
    if (!handle) {
      return;
    }
    this._handles.delete(name);
    handle.controller.abort();
    try {
      handle.unregister?.();
    } catch {
      // the runtime forgot it already; nothing left to undo
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
  /** The registered tools, each with what unregisters it. */
  private _handles = new Map<
    string,
    { controller: AbortController; unregister: (() => void) | null }
  >();
  private _disabled = new Set<string>();
  private _context: IModelContext | null = null;
  private _reconciling: Promise<void> = Promise.resolve();
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _started = false;
  private _disposed = false;
  private _nextCallId = 0;
  private _active = new Map<number, IToolCall>();
  private _status: IRegistrationStatus = {
    available: false,
    pending: true,
    registered: [],
    failed: [],
    disabled: []
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
