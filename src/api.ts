/**
 * The public API of jupyterlite-webmcp: what another extension imports from
 * `jupyterlite-webmcp` (the package's only entry, package.json `exports`).
 * Stable within a minor version (docs/extending.md, "What is stable"):
 *
 * - `IWebMcpRegistry`: add a tool that goes through what ours go through,
 *   resolve notebooks under the owner's access rules, follow the calls, and
 *   offer the tools to another client in the page;
 * - `IAgentPanel`: add a section or a header control to the Agent panel;
 * - `ToolError` and `ErrorCode`: the errors an agent can act on.
 *
 * Types only and tokens, declared here, never imported from a feature
 * folder: the tokens our features share with each other are in
 * ./tokens.ts, which is not part of it.
 */
import type { ISharedCell, ISharedNotebook } from '@jupyter/ydoc';
import type { NotebookPanel } from '@jupyterlab/notebook';
import { Token } from '@lumino/coreutils';
import type { IDisposable } from '@lumino/disposable';
import { type ISignal } from '@lumino/signaling';
import type { Widget } from '@lumino/widgets';

import { type ErrorCode } from './common/errors';

export { ToolError, type ErrorCode } from './common/errors';

/** What a tool may resolve a notebook or a cell for. */
export type AccessIntent = 'read' | 'write';

/** What a tool call is doing with a cell, for on-cell presence. */
export type CellActivityKind = 'reading' | 'editing' | 'running';

/** Progress of a long call, for the status bar. */
export interface IToolProgress {
  /** What is being done, in plain words. */
  message: string;
  /** Units done so far. */
  done: number;
  /** Units in all, when known. */
  total?: number;
}

/** The cell a call is acting on right now. */
export interface ICellActivity {
  notebookPath: string;
  cellId: string;
  kind: CellActivityKind;
}

/**
 * One tool call, from start to end, as the call stream records it. The same
 * call is emitted again (a fresh copy) whenever it changes.
 */
export interface IToolCall {
  id: number;
  tool: string;
  /** The validated arguments, once validation passed. */
  args: Record<string, unknown> | null;
  /**
   * The notebook the call targets: the path it named, or the one a handler
   * reported acting on; null when neither is known.
   */
  notebookPath: string | null;
  /** The cells the call reported acting on, in first-report order. */
  cellIds: string[];
  /** The cell it is acting on now (null once finished). */
  activity: ICellActivity | null;
  /** The latest progress of a long call. */
  progress: IToolProgress | null;
  /**
   * How many values in credential formats its result withheld from the
   * agent (docs/access.md, "Secrets"); 0 when none.
   */
  withheld: number;
  startedAt: number;
  finishedAt: number | null;
  /** 'ok' or the error code of the envelope it returned, once finished. */
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
  /** The tools the owner turned off in the settings (not registered). */
  disabled: string[];
}

/** A tool this app offers, as the status item lists it. */
export interface IToolSummary {
  name: string;
  title: string;
  /** The annotations declared to the runtime (`readOnlyHint`, ...). */
  annotations: Readonly<Record<string, boolean>>;
}

/** The annotations a tool declares to the WebMCP runtime. */
export interface IToolAnnotations {
  /** The tool changes nothing. */
  readOnlyHint: boolean;
  /** Its result carries text others wrote (a notebook's cells, say). */
  untrustedContentHint: boolean;
  /** Present (true) on tools that run code, delete or restart. */
  consequentialHint?: boolean;
}

/** What a tool's handler gets beside its validated arguments. */
export interface IToolCallContext {
  /** The caller's abort signal (never undefined: a dummy one when none came). */
  signal: AbortSignal;
  /** The call's id in the call stream (IToolCall.id). */
  callId: number;
  /**
   * Say which notebook and cell the call is reading, editing or running now,
   * for the human (the Activity tab, on-cell presence); never sent to the
   * agent.
   */
  reportCell(
    notebookPath: string,
    cellId: string,
    kind: CellActivityKind
  ): void;
  /** Report the progress of long work (listing a big workspace, say). */
  reportProgress(progress: IToolProgress): void;
  /**
   * Report that `count` more values in credential formats were withheld
   * from the result; the call's record adds them up (`IToolCall.withheld`).
   */
  reportWithheld(count: number): void;
}

/**
 * A tool as another extension adds it (`IWebMcpRegistry.addTool`): what the
 * agent is told and the handler that answers. The registry validates the
 * arguments against `inputSchema` (defaults filled in) before the handler
 * runs, wraps what it returns in the bounded result envelope, turns what it
 * throws into an error result (a `ToolError`, exported by this package,
 * keeps its code and details; anything else is `INTERNAL_ERROR` with its
 * message), lists the call in Activity and honours the owner's
 * `disabledTools` setting.
 */
export interface IWebMcpTool {
  /**
   * The tool's name: letters, digits, `_`, `-` and `.`, at most 128
   * characters; names starting with `jupyter_` are this extension's.
   */
  name: string;
  /** A short human title. */
  title: string;
  /** What the tool does, for the agent. */
  description: string;
  /** The JSON Schema of the arguments: an object schema. */
  inputSchema: { [key: string]: unknown };
  annotations: IToolAnnotations;
  /** Answers a call with its validated arguments. */
  handler(
    args: Record<string, unknown>,
    context: IToolCallContext
  ): Promise<unknown>;
}

/**
 * A notebook as a tool may act on it (`IWebMcpNotebooks.resolve`), with the
 * owner's access already checked for the intent it was resolved with.
 */
export interface IToolNotebook {
  /** Workspace-relative path. */
  readonly path: string;
  /** The open panel in this app, or null when it was read from its file. */
  readonly panel: NotebookPanel | null;
  /** The live shared model, or a standalone one built from the file. */
  readonly model: ISharedNotebook;
  /** Whether the live model has unsaved changes (false for a file read). */
  readonly dirty: boolean;
  /** The cells the agent may know of, in order (hidden cells left out). */
  visibleCells(): ISharedCell[];
  /**
   * The cell with this id, checked for `intent`: a missing or hidden cell
   * throws CELL_NOT_FOUND, a read-only one CELL_ACCESS_DENIED for a write.
   */
  cell(cellId: string, intent: AccessIntent): ISharedCell;
  /** Releases a standalone model; call it when done (a no-op when live). */
  release(): void;
}

/** The resolution and access rules our tools use, for other tools. */
export interface IWebMcpNotebooks {
  /**
   * The notebook at `path` (null or absent: the current one), checked for
   * `intent` as our tools check it: a hidden notebook throws exactly what a
   * missing one throws (NOTEBOOK_NOT_FOUND, or NO_ACTIVE_NOTEBOOK for the
   * current one), a read-only one NOTEBOOK_ACCESS_DENIED for a write.
   */
  resolve(
    path: string | null | undefined,
    intent: AccessIntent
  ): Promise<IToolNotebook>;
}

/**
 * The WebMCP registration of this app's tools: whether WebMCP is available,
 * what is registered, the calls in progress and the recent ones; and the
 * way another extension adds a tool of its own.
 */
export interface IWebMcpRegistry {
  /**
   * Adds a tool: it is registered on the page's model context (at once, or
   * when registration starts) unless the owner turned it off, and goes
   * through what every tool goes through. Disposing the result unregisters
   * it. Throws on an invalid definition or a name already taken.
   */
  addTool(tool: IWebMcpTool): IDisposable;
  /** Notebook resolution with the owner's access rules, for tool handlers. */
  readonly notebooks: IWebMcpNotebooks;
  readonly status: IRegistrationStatus;
  readonly statusChanged: ISignal<IWebMcpRegistry, IRegistrationStatus>;
  /** Emitted when a call starts, reports a cell or progress, and ends. */
  readonly callChanged: ISignal<IWebMcpRegistry, IToolCall>;
  readonly activeCalls: IToolCall[];
  /** The most recent finished calls, oldest first, bounded. */
  readonly history: readonly IToolCall[];
  readonly toolNames: string[];
  /** Every tool this app offers, with its title and annotations. */
  readonly tools: readonly IToolSummary[];
  /**
   * The tools offered now to clients in the page other than WebMCP (an
   * in-app assistant's tool registry): every tool the owner has not turned
   * off, whether or not the browser has WebMCP.
   */
  readonly offeredTools: readonly IOfferedTool[];
  /** Emitted when `offeredTools` changes: a tool added, removed, turned off or on. */
  readonly offeredToolsChanged: ISignal<IWebMcpRegistry, void>;
  /**
   * Says that a client other than WebMCP offers the tools (named in the
   * status item, for example "the in-app assistant (jupyter-ai-lite)");
   * disposing the result takes it back.
   */
  addClient(label: string): IDisposable;
  /** The clients other than WebMCP that offer the tools now. */
  readonly clients: readonly string[];
}

/**
 * A tool as offered to a client in the page other than WebMCP. A call goes
 * through exactly what a WebMCP call goes through: input validation, the
 * owner's access and Propose mode, the call stream (Activity, the status
 * item) and the bounded result envelope.
 */
export interface IOfferedTool {
  readonly name: string;
  readonly title: string;
  /** What the tool does, for the agent (the specification's words for ours). */
  readonly description: string;
  /** The JSON Schema of its arguments. */
  readonly inputSchema: { readonly [key: string]: unknown };
  readonly annotations: Readonly<IToolAnnotations>;
  /**
   * Runs one call; never throws. Aborting `signal` aborts the call as a
   * WebMCP caller's abort does (the result is then `ABORTED`).
   */
  call(
    input: unknown,
    options?: { signal?: AbortSignal }
  ): Promise<IToolEnvelope>;
}

/** The envelope a call returns: the result as JSON text, bounded to 50 KiB. */
export interface IToolEnvelope {
  content: [{ type: 'text'; text: string }];
  /** The same value as the text, when it fits. */
  structuredContent?: unknown;
  /** Present when the call failed (the text is then a structured error). */
  isError?: true;
}

/** The token of the WebMCP registration. */
export const IWebMcpRegistry = new Token<IWebMcpRegistry>(
  'jupyterlite-webmcp:IWebMcpRegistry',
  'The WebMCP registration of the notebook tools, and the stream of their calls.'
);

/**
 * The Agent panel (a side panel titled Agent, right sidebar; Notebook 7: its
 * right side panel): features, this extension's and other extensions', add
 * their sections and header controls to it, each from its own plugin.
 *
 * Sections are stacked top to bottom by rank, lower ranks first, equal ranks
 * in the order added. This extension's sections use:
 *
 * - 100: Comments (the review threads of the current notebook)
 * - 150: Proposals (what waits for the human in Propose mode)
 * - 200: Access (what the agent may see or change)
 * - 300: Activity (the tool calls, and the agent's edits to revert)
 *
 * Header controls are laid out left to right by rank; this extension's:
 *
 * - 100: the Direct/Propose switch
 *
 * A third party picks a rank between or after these (say 250 for a section
 * between Access and Activity, 1000 for one at the end).
 */
export interface IAgentPanel {
  /** The panel's widget id, for `app.shell.activateById`. */
  readonly id: string;
  /**
   * Adds a section: a widget whose `title.label` is the section's name.
   * Disposing the result removes the section from the panel (the widget
   * itself is not disposed); disposing the widget removes it too.
   */
  addSection(widget: Widget, options?: IAgentPanel.IRankOptions): IDisposable;
  /**
   * Adds a control to the panel's header (the Direct/Propose switch is one).
   * Disposing the result removes it (the widget itself is not disposed).
   */
  addHeaderControl(
    widget: Widget,
    options?: IAgentPanel.IRankOptions
  ): IDisposable;
  /**
   * Reveals the panel, and the given section expanded and in view. (Not
   * `show`: the panel is a widget, whose `show()` only un-hides it.)
   */
  reveal(section?: Widget): void;
}

export namespace IAgentPanel {
  /** Where an item goes among the others. */
  export interface IRankOptions {
    /** Lower ranks come first; without one, the item goes last (rank 1000). */
    rank?: number;
  }
}

/** The token of the Agent panel. */
export const IAgentPanel = new Token<IAgentPanel>(
  'jupyterlite-webmcp:IAgentPanel',
  'The Agent panel: add a section (a titled widget) or a header control to it, and reveal it.'
);
