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
 * unexpected exception, becomes the result envelope. Every tool arrives
 * through `addTool`; the calls are recorded in the call log (./calls.ts).
 */
import { PromiseDelegate } from '@lumino/coreutils';
import { DisposableDelegate, type IDisposable } from '@lumino/disposable';
import { Signal, type ISignal } from '@lumino/signaling';

import { ownSignal } from '../common/abort-signal';
import { normalizeError } from '../common/errors';
import {
  type IOfferedTool,
  type IRegistrationFailure,
  type IRegistrationStatus,
  type IToolCall,
  type IToolSummary,
  type IWebMcpNotebooks,
  type IWebMcpRegistry,
  type IWebMcpTool
} from '../tokens';
import { CallLog, DEFAULT_CALL_HISTORY_SIZE } from './calls';
import { compileToolSchema } from './compile';
import { errorResult, successResult } from './results';
import { TOOL_NAMES } from './specs';
import {
  type CompiledValidator,
  type IToolDefinition,
  type IToolResult,
  type JSONSchema
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

export { DEFAULT_CALL_HISTORY_SIZE } from './calls';

/**
 * Registers tools on the model context and keeps the stream of their calls:
 * the calls in progress and a bounded history of finished ones, each with
 * its target notebook and cells and the outcome its envelope carried.
 */
export class WebMcpRegistry implements IWebMcpRegistry, IDisposable {
  constructor(options: WebMcpRegistry.IOptions) {
    this._validator = options.validator;
    this._compile = options.compileSchema ?? compileToolSchema;
    this.notebooks = options.notebooks ?? NO_NOTEBOOKS;
    this._find = options.findModelContext ?? findModelContext;
    this._delays = options.recheckDelaysMs ?? RECHECK_DELAYS_MS;
    this._log = options.log ?? console;
    this._calls = new CallLog(
      options.historySize ?? DEFAULT_CALL_HISTORY_SIZE,
      call => this._callChanged.emit(call)
    );
    for (const tool of options.tools ?? []) {
      this.addTool(tool);
    }
  }

  /** Notebook resolution with the owner's access rules, for handlers. */
  readonly notebooks: IWebMcpNotebooks;

  /**
   * Adds a tool (ours, or another extension's): registered at once when
   * registration has started and the owner has not turned it off, else when
   * it starts. Disposing the result unregisters it.
   */
  addTool(tool: IWebMcpTool): IDisposable {
    if (this._disposed) {
      throw new Error('jupyterlite-webmcp: the registry is disposed.');
    }
    const definition = checkedTool(tool);
    if (this._tools.some(known => known.name === definition.name)) {
      throw new Error(
        `jupyterlite-webmcp: a tool named "${definition.name}" is already added.`
      );
    }
    const forget = this._validator.has(definition.name)
      ? () => undefined
      : this._validator.add(
          definition.name,
          definition.validate ??
            this._compile(definition.name, definition.inputSchema),
          definition.inputSchema
        );
    this._tools.splice(insertionIndex(this._tools, definition), 0, definition);
    this._offerChanged();
    if (this._started) {
      void this._reconcile();
    }
    return new DisposableDelegate(() => {
      const index = this._tools.indexOf(definition);
      if (index < 0) {
        return;
      }
      this._tools.splice(index, 1);
      forget();
      this._unregisterOne(definition.name);
      if (!this._disposed) {
        this._offerChanged();
      }
      if (this._started && !this._disposed) {
        void this._reconcile();
      }
    });
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
    return this._calls.active;
  }

  /** The most recent finished calls, oldest first (copies). */
  get history(): readonly IToolCall[] {
    return this._calls.history;
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
    // kept whole: a tool added later by another extension may be among them
    const before = this.disabledTools.join('\n');
    this._disabled = new Set(names);
    if (this.disabledTools.join('\n') !== before) {
      this._offerChanged();
    }
    return this._reconcile();
  }

  /**
   * The tools offered to clients in the page other than WebMCP: every tool
   * not turned off, each calling {@link execute} as a WebMCP call does.
   */
  get offeredTools(): readonly IOfferedTool[] {
    if (this._disposed) {
      return [];
    }
    if (this._offered === null) {
      this._offered = this._tools
        .filter(tool => !this._disabled.has(tool.name))
        .map(tool => this._offer(tool));
    }
    return this._offered;
  }

  /** Emitted when {@link offeredTools} changes. */
  get offeredToolsChanged(): ISignal<this, void> {
    return this._offeredToolsChanged;
  }

  /** The clients other than WebMCP that offer the tools (the status item names them). */
  get clients(): readonly string[] {
    return [...this._clients];
  }

  /** Says a client other than WebMCP offers the tools; dispose to take it back. */
  addClient(label: string): IDisposable {
    const entry = String(label);
    this._clients.push(entry);
    this._setStatus({ ...this._status });
    return new DisposableDelegate(() => {
      const index = this._clients.indexOf(entry);
      if (index >= 0 && !this._disposed) {
        this._clients.splice(index, 1);
        this._setStatus({ ...this._status });
      }
    });
  }

  get isDisposed(): boolean {
    return this._disposed;
  }

  /**
   * Resolves once the first look for the model context is over: every tool
   * added until then registered (or refused), or no WebMCP found at once
   * (the re-checks go on).
   */
  get firstLook(): Promise<void> {
    return this._firstLook.promise;
  }

  /**
   * Resolves once the registrations started so far have settled (tools
   * added since `firstLook` are registered in later rounds).
   */
  async settled(): Promise<void> {
    await this._firstLook.promise;
    await this._reconciling;
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
    const call = this._calls.start(tool.name);
    let result: IToolResult;
    try {
      // a signal from another realm (an isolated world, an iframe) counts too
      const signal = ownSignal(options?.signal);
      await this._validator.ready(tool.name);
      const args = this._validator.validate(tool.name, input);
      this._calls.validated(call, args);
      result = successResult(
        await tool.handler(
          args,
          this._calls.context(call, signal, () => !this._disposed)
        )
      );
    } catch (thrown) {
      result = safeErrorResult(thrown);
    }
    this._calls.finish(call, result);
    return result;
  }

  dispose(): void {
    if (this._disposed) {
      return;
    }
    this._disposed = true;
    this._firstLook.resolve();
    if (this._timer !== null) {
      clearTimeout(this._timer);
      this._timer = null;
    }
    for (const name of [...this._handles.keys()]) {
      this._unregisterOne(name);
    }
    this._calls.clear();
    // the other clients drop every tool
    this._offerChanged();
    Signal.clearData(this);
  }

  /** One offered tool, kept while its definition is (its identity is stable). */
  private _offer(tool: IToolDefinition): IOfferedTool {
    let offered = this._offers.get(tool);
    if (!offered) {
      offered = Object.freeze({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: Object.freeze({ ...tool.annotations }),
        // a client may hold the tool after it was turned off (an assistant's
        // chat keeps the tools it started with): it is refused, never run
        call: (input: unknown, options?: { signal?: AbortSignal }) =>
          this._isOffered(tool)
            ? this.execute(tool, input, options)
            : Promise.resolve(
                errorResult({
                  error: 'WEBMCP_UNAVAILABLE',
                  message: `${tool.name} is not offered any more: the notebook owner turned it off, or it was removed. It did not run.`,
                  tool: tool.name
                })
              )
      });
      this._offers.set(tool, offered);
    }
    return offered;
  }

  /** Whether `tool` is still offered: registered, not turned off, not disposed. */
  private _isOffered(tool: IToolDefinition): boolean {
    return (
      !this._disposed &&
      !this._disabled.has(tool.name) &&
      this._tools.includes(tool)
    );
  }

  private _offerChanged(): void {
    this._offered = null;
    this._offeredToolsChanged.emit();
  }

  private _attempt(index: number): void {
    this._timer = null;
    if (this._disposed) {
      return;
    }
    const context = this._find();
    if (context) {
      void this._registerAll(context).then(() => this._firstLook.resolve());
      return;
    }
    // no WebMCP at the first look: the start is over without registrations
    this._firstLook.resolve();
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
    // disposed, or the tool removed, while the runtime settled it
    if (this._disposed || !this._tools.includes(tool)) {
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

  private readonly _firstLook = new PromiseDelegate<void>();
  private readonly _tools: IToolDefinition[] = [];
  private readonly _validator: InputValidator;
  private readonly _compile: (
    name: string,
    schema: JSONSchema
  ) => CompiledValidator;
  private readonly _find: () => IModelContext | null;
  private readonly _delays: number[];
  private readonly _log: Pick<Console, 'warn'>;
  private readonly _calls: CallLog;
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
  private _status: IRegistrationStatus = {
    available: false,
    pending: true,
    registered: [],
    failed: [],
    disabled: []
  };
  private _statusChanged = new Signal<this, IRegistrationStatus>(this);
  private _callChanged = new Signal<this, IToolCall>(this);
  private _offered: IOfferedTool[] | null = null;
  private _offers = new WeakMap<IToolDefinition, IOfferedTool>();
  private _offeredToolsChanged = new Signal<this, void>(this);
  private _clients: string[] = [];
}

/** The namespace of {@link WebMcpRegistry}. */
export namespace WebMcpRegistry {
  export interface IOptions {
    /** Tools to add at once (more come through `addTool`). */
    tools?: IToolDefinition[];
    validator: InputValidator;
    /** Notebook resolution for handlers; the plugin gives the app's. */
    notebooks?: IWebMcpNotebooks;
    /**
     * Compiles the schema of a tool added without a validator; defaults to
     * the app's ajv (./compile.ts).
     */
    compileSchema?: (name: string, schema: JSONSchema) => CompiledValidator;
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

/** A registry without notebooks (unit tests give none). */
const NO_NOTEBOOKS: IWebMcpNotebooks = {
  resolve: () =>
    Promise.reject(new Error('This registry was given no notebooks.'))
};

/** What a tool's name may be (WebMCP clients pass it on to MCP). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The spec's order for ours, then the others in the order added. */
function insertionIndex(
  tools: readonly IToolDefinition[],
  tool: IToolDefinition
): number {
  const rank = (name: string) => {
    const index = (TOOL_NAMES as readonly string[]).indexOf(name);
    return index < 0 ? TOOL_NAMES.length : index;
  };
  const own = rank(tool.name);
  const after = tools.findIndex(known => rank(known.name) > own);
  return after < 0 ? tools.length : after;
}

/**
 * A tool's definition as given, checked: another extension's mistakes are
 * reported when it adds the tool, not to the agent at the first call.
 */
function checkedTool(tool: IWebMcpTool): IToolDefinition {
  const fail = (what: string): never => {
    throw new Error(
      `jupyterlite-webmcp: cannot add the tool "${String(tool?.name).slice(0, 64)}": ${what}.`
    );
  };
  if (!tool || typeof tool !== 'object') {
    return fail('a tool is an object');
  }
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    fail('its name must be 1 to 128 letters, digits, "_", "-" or "."');
  }
  if (
    tool.name.startsWith('jupyter_') &&
    !(TOOL_NAMES as readonly string[]).includes(tool.name)
  ) {
    fail(
      'names starting with "jupyter_" are kept for the tools of the specification'
    );
  }
  for (const key of ['title', 'description'] as const) {
    if (typeof tool[key] !== 'string' || tool[key].trim() === '') {
      fail(`its ${key} must be a non-empty string`);
    }
  }
  const schema = tool.inputSchema as JSONSchema | null;
  if (
    !schema ||
    typeof schema !== 'object' ||
    Array.isArray(schema) ||
    schema.type !== 'object'
  ) {
    fail('its inputSchema must be a JSON Schema of type "object"');
  }
  const annotations = tool.annotations;
  if (
    !annotations ||
    typeof annotations.readOnlyHint !== 'boolean' ||
    typeof annotations.untrustedContentHint !== 'boolean'
  ) {
    fail('its annotations need readOnlyHint and untrustedContentHint');
  }
  if (typeof tool.handler !== 'function') {
    fail('its handler must be a function');
  }
  // a copy: what the extension changes later does not reach the runtime
  return { ...tool, annotations: { ...annotations } } as IToolDefinition;
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
