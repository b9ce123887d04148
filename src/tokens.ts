/**
 * The public tokens of the extension and the interfaces behind them. Each
 * implementation lives in its feature folder; other plugins (and other
 * extensions) depend only on what is declared here.
 */
import type { ISharedCell, ISharedNotebook } from '@jupyter/ydoc';
import type { DocumentRegistry } from '@jupyterlab/docregistry';
import type { INotebookModel, NotebookPanel } from '@jupyterlab/notebook';
import { Token } from '@lumino/coreutils';
import type { IDisposable } from '@lumino/disposable';
import { type ISignal } from '@lumino/signaling';
import type { Widget } from '@lumino/widgets';

import {
  type AgentAccess,
  type IAccessReading,
  type IAnnouncedAccess
} from './access/model';
import { type ErrorCode } from './common/errors';
// The review store's types are declared with the stored format, in
// review/format, which imports nothing of the app.
import type {
  ICreateThreadOptions,
  IMessageAuthor,
  IMessageOptions,
  IReviewCounts,
  IReviewThread,
  ThreadStatus
} from './review/format';
import {
  type IProposal,
  type IRunTarget,
  type ProposalKind,
  type ProposalOutcome
} from './propose/store';
import { type IOutputSelectionRecord } from './selection/visible';
import { type AccessIntent } from './access/policy';

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

/** What a change of cell access did. */
export interface ICellAccessChange {
  /** The access the cells were given. */
  access: AgentAccess;
  /** How many cells' metadata was written. */
  changed: number;
}

/** What a change of notebook access did. */
export interface INotebookAccessChange {
  path: string;
  previous: IAccessReading;
  access: AgentAccess;
  changed: boolean;
  /**
   * Where it was written: the live model of a notebook open in this app, the
   * live model of one open in another tab of this browser, or the file.
   */
  where: 'live' | 'tab' | 'file';
  /** For `tab`: whether that tab saves it (false: it has unsaved edits). */
  saved?: boolean;
}

/**
 * The owner's agent access, as a service: read and write it per cell and
 * per notebook, find a notebook's open panel (one rule for every caller),
 * and hear of every change, whoever made it. The human's commands, the
 * markers and the Agent panel use it; no WebMCP tool can write through it.
 */
export interface IAgentAccess {
  /**
   * Emitted when the access of an open notebook or of its cells changed
   * (through this service, an undo, a hand edit of the metadata, or a
   * collaborator), and when a notebook that is not open was written.
   */
  readonly changed: ISignal<IAgentAccess, IAgentAccess.IChange>;
  /**
   * The restrictions other tabs of this browser hold unsaved, for the
   * readers of notebook files (src/access/announced.ts).
   */
  readonly announced: IAnnouncedAccess;
  /** The live panel open on a workspace path in this app, if any. */
  findPanel(path: string): NotebookPanel | null;
  /** A cell's access as its metadata says (invalid reads as `none`). */
  cellAccess(cell: ISharedCell): IAccessReading;
  /** A notebook's access: its live model when open, else its file. */
  notebookAccess(path: string): Promise<IAccessReading>;
  /** Give cells of a notebook one access, as one undo step. */
  setCellsAccess(
    notebook: ISharedNotebook,
    cells: readonly ISharedCell[],
    access: AgentAccess
  ): ICellAccessChange;
  /** One step of the cycle write → read → none on cells, anchored. */
  cycleCellsAccess(
    notebook: ISharedNotebook,
    cells: readonly ISharedCell[],
    anchor?: ISharedCell | null
  ): ICellAccessChange | null;
  /** Give a notebook an access. */
  setNotebookAccess(
    path: string,
    access: AgentAccess
  ): Promise<INotebookAccessChange>;
  /** One cycle step for notebooks: all take the next access of the first. */
  cycleNotebookAccess(
    paths: readonly string[]
  ): Promise<INotebookAccessChange[]>;
  /**
   * The owner's setting for notebooks whose own switch says nothing:
   * whether tool results withhold values in credential formats (on by
   * default; docs/access.md, "Secrets").
   */
  readonly withholdSecretsByDefault: boolean;
  /** Emitted when that setting changed. */
  readonly withholdSecretsByDefaultChanged: ISignal<IAgentAccess, boolean>;
  /**
   * Whether the tools withhold secrets from what they return of a
   * notebook: its own switch, else the setting.
   */
  withholdsSecrets(notebook: ISharedNotebook): boolean;
  /**
   * Set a notebook's own switch (null: it follows the setting); whether it
   * changed. Heard as a change of the notebook's access (`changed`).
   */
  setWithholdSecrets(notebook: ISharedNotebook, value: boolean | null): boolean;
}

export namespace IAgentAccess {
  /** One change of access. */
  export interface IChange {
    /** The notebook's workspace path. */
    path: string;
    /** Whether the notebook's own access or its cells' changed. */
    scope: 'notebook' | 'cells';
    /** For `cells`: the ids of the cells whose access changed. */
    cellIds: string[];
  }
}

/** The token of the agent access service. */
export const IAgentAccess = new Token<IAgentAccess>(
  'jupyterlite-webmcp:IAgentAccess',
  "The owner's agent access per cell and per notebook: read, write, and hear of changes."
);

/** The record of the text the human last selected inside one output. */
export interface IOutputSelectionTracker {
  /** The current record, or null when nothing is recorded. */
  readonly current: IOutputSelectionRecord | null;
  /** Emitted when the record changes. */
  readonly changed: ISignal<unknown, void>;
}

/** The tracker of the text the human selects inside one rendered output. */
export const IOutputSelectionTracker = new Token<IOutputSelectionTracker>(
  'jupyterlite-webmcp:IOutputSelectionTracker',
  'Records the text the human selects inside one rendered cell output.'
);

/**
 * The review threads stored in notebooks (under the notebook metadata key
 * `jupyterlite_webmcp_review`). `threads` and `counts` are as the agent may
 * see them: a thread anchored to a cell the owner hid (`none`) is neither
 * listed nor counted. The rest is unfiltered: callers check access first.
 * Works on any notebook model, a live one or one built from its file; writes
 * are merged so that collaborators writing at once lose nothing (see
 * docs/review-format.md). What a read returns is read-only: the lists are
 * new arrays, but the threads' messages and anchors are shared by every read
 * until the notebook changes, and frozen.
 */
export interface IReviewStore {
  /**
   * Emitted after every write of this store, and after every change another
   * browser made to a notebook this store wrote to, once merged.
   */
  readonly changed: ISignal<IReviewStore, { model: ISharedNotebook }>;
  /** The agent-visible threads of a notebook, in stored order. */
  threads(model: ISharedNotebook): IReviewThread[];
  /** How many agent-visible threads a notebook has, and how many are open. */
  counts(model: ISharedNotebook): IReviewCounts;
  /** Every thread of a notebook, hidden ones included (the human side). */
  allThreads(model: ISharedNotebook): IReviewThread[];
  /** A thread by id, whatever its cell's access; null when there is none. */
  getThread(model: ISharedNotebook, threadId: string): IReviewThread | null;
  /** Create an open thread with its first message; returns it as stored. */
  createThread(
    model: ISharedNotebook,
    options: ICreateThreadOptions
  ): IReviewThread;
  /** Append a message; throws for an unknown thread id. */
  reply(
    model: ISharedNotebook,
    threadId: string,
    options: IMessageOptions
  ): IReviewThread;
  /**
   * Resolve (with an optional closing message) or reopen (appending nothing)
   * a thread; throws for an unknown thread id.
   */
  setStatus(
    model: ISharedNotebook,
    threadId: string,
    status: ThreadStatus,
    closing?: { body: string; author: IMessageAuthor } | null,
    now?: Date
  ): IReviewThread;
}

/** The token of the review store. */
export const IReviewStore = new Token<IReviewStore>(
  'jupyterlite-webmcp:IReviewStore',
  'The review threads stored in notebooks, as the agent may see them.'
);

/** Direct: agent edits apply at once. Propose: they wait for the human. */
export type ProposeMode = 'direct' | 'propose';

/**
 * Propose mode: each notebook's Direct/Propose mode, the human's switch on
 * the current notebook, and the proposals that wait for their Accept or
 * Deny. The mode is stored in the notebook (shared by every browser of it);
 * only the human's commands and the Agent panel change it;
 * `jupyter_update_cell` reads the mode of the notebook it edits, stages
 * proposals through `propose` and never reports the mode itself.
 */
export interface IProposals {
  /** The current notebook's mode (the setting's mode when none is open). */
  readonly mode: ProposeMode;
  /** Whether a notebook is current, for the switch to act on. */
  readonly hasNotebook: boolean;
  /** A notebook's mode: its own, or the setting's when it stores none. */
  modeOf(notebook: ISharedNotebook): ProposeMode;
  /**
   * Whether a kind of agent action waits for the human in a notebook: it is
   * in Propose mode, and the deployment's `reviewed` setting lists the kind.
   */
  reviews(notebook: ISharedNotebook, kind: ProposalKind): boolean;
  /** The kinds reviewed in Propose mode. */
  readonly reviewed: readonly ProposalKind[];
  /** A notebook's key, as its proposals carry it. */
  notebookKey(context: DocumentRegistry.IContext<INotebookModel>): string;
  /**
   * The cells the human allowed to run again while their code is unchanged
   * (kept in the page, never in the file); a cell that changed is dropped.
   */
  allowances(
    context: DocumentRegistry.IContext<INotebookModel>
  ): IProposals.IAllowance[];
  /** Whether every cell given may run without review (its hash allowed). */
  isAllowed(
    context: DocumentRegistry.IContext<INotebookModel>,
    cells: readonly IProposals.IAllowance[]
  ): boolean;
  /** The human takes a cell's allowance back. */
  revokeAllowance(
    context: DocumentRegistry.IContext<INotebookModel>,
    cellId: string
  ): boolean;
  /** Emitted with a notebook's key when its allowances change. */
  readonly allowancesChanged: ISignal<IProposals, string>;
  /** Emitted when the current notebook's mode changes, or another notebook becomes current. */
  readonly modeChanged: ISignal<IProposals, ProposeMode>;
  /**
   * Switch the current notebook's mode (the human's commands), stored in
   * the notebook; false when no notebook is current.
   */
  setMode(mode: ProposeMode): boolean;
  /** Emitted when a proposal is staged or settles. */
  readonly changed: ISignal<IProposals, IProposal>;
  /** The proposals waiting for the human. */
  pending(): readonly IProposal[];
  /**
   * Stage a proposal on a cell of an open notebook and wait for it to end.
   * Throws PROPOSAL_ALREADY_PENDING, or ABORTED when the signal has fired.
   */
  propose(request: IProposals.IRequest): Promise<ProposalOutcome>;
  /**
   * The human accepts a proposal (null when it is no longer pending); for a
   * run, `allowAgain` lets its cells run again while their code is unchanged.
   */
  accept(
    id: string,
    options?: IProposals.IAcceptOptions
  ): ProposalOutcome | null;
  /** The human denies a proposal, with a reason or none. */
  deny(id: string, reason: string | null): ProposalOutcome | null;
}

export namespace IProposals {
  /** What `propose` needs. */
  export interface IRequest {
    /** What the proposal would do (default `update`). */
    kind?: ProposalKind;
    /** The panel of the notebook (any of its views). */
    panel: NotebookPanel;
    /**
     * The cell the block sits at (the edited, deleted or first run cell, the
     * cell an insert goes next to); null in a notebook with no cell.
     */
    cellId: string | null;
    /** The cells it acts on (default `[cellId]`; none for an insert). */
    cellIds?: readonly string[];
    /** The cell's current source (update, delete). */
    original?: string;
    /** The source the agent proposes (update, insert). */
    proposed?: string;
    /** `insert`: the new cell's type, and where it goes from `cellId`. */
    cellType?: string;
    position?: 'above' | 'below';
    /** `run`: the code cells to run, in order, with the hash of each source. */
    cells?: readonly IRunTarget[];
    /** `run`, `kernel`: the kernel's name as the notebook shows it. */
    kernelName?: string | null;
    /** `kernel`: the action. */
    action?: 'restart' | 'interrupt';
    /** The tool call's abort signal: when it fires, the proposal is withdrawn. */
    signal: AbortSignal;
    /**
     * Runs on Accept, before the outcome settles: applies an edit, or checks
     * that a run or a kernel action may still go ahead; throws (writing
     * nothing) when it must not, and the proposal is recorded as stale.
     */
    apply: () => void;
  }

  /** How the human accepts. */
  export interface IAcceptOptions {
    /** For a run: allow its cells to run again while their code is unchanged. */
    allowAgain?: boolean;
  }

  /** A cell allowed to run again without review, with the hash it may run with. */
  export interface IAllowance {
    cellId: string;
    sourceHash: string;
  }
}

/** The token of Propose mode. */
export const IProposals = new Token<IProposals>(
  'jupyterlite-webmcp:IProposals',
  'Propose mode: the human-only Direct/Propose switch and the proposals waiting for review.'
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
