/**
 * The public tokens of the extension and the interfaces behind them. Each
 * implementation lives in its feature folder; other plugins (and other
 * extensions) depend only on what is declared here.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';
import { Token } from '@lumino/coreutils';
import { type ISignal } from '@lumino/signaling';

import { type ErrorCode } from './common/errors';
import type { IReviewCounts, IReviewThread } from './review/storage';
import { type IOutputSelectionRecord } from './selection/visible';

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
}

/**
 * The WebMCP registration of this app's tools: whether WebMCP is available,
 * what is registered, the calls in progress and the recent ones.
 */
export interface IWebMcpRegistry {
  readonly status: IRegistrationStatus;
  readonly statusChanged: ISignal<IWebMcpRegistry, IRegistrationStatus>;
  /** Emitted when a call starts, reports a cell or progress, and ends. */
  readonly callChanged: ISignal<IWebMcpRegistry, IToolCall>;
  readonly activeCalls: IToolCall[];
  /** The most recent finished calls, oldest first, bounded. */
  readonly history: readonly IToolCall[];
  readonly toolNames: string[];
}

/** The token of the WebMCP registration. */
export const IWebMcpRegistry = new Token<IWebMcpRegistry>(
  'jupyterlite-webmcp:IWebMcpRegistry',
  'The WebMCP registration of the notebook tools, and the stream of their calls.'
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
 * `jupyterlite_webmcp_review`), as the agent may see them: a thread anchored
 * to a cell the owner hid (`none`) is neither listed nor counted. Works on
 * any notebook model, a live one or one built from its file.
 */
export interface IReviewStore {
  /** The agent-visible threads of a notebook, in stored order. */
  threads(model: ISharedNotebook): IReviewThread[];
  /** How many agent-visible threads a notebook has, and how many are open. */
  counts(model: ISharedNotebook): IReviewCounts;
}

/** The token of the review store. */
export const IReviewStore = new Token<IReviewStore>(
  'jupyterlite-webmcp:IReviewStore',
  'The review threads stored in notebooks, as the agent may see them.'
);
