/**
 * The call stream: the calls in progress and a bounded history of finished
 * ones, each with its target notebook and cells and the outcome its envelope
 * carried. The registry records every call here; the Activity section, the
 * status bar and on-cell presence read it through `IWebMcpRegistry`.
 */
import { type ErrorCode } from '../common/errors';
import {
  type CellActivityKind,
  type IToolCall,
  type IToolProgress
} from '../tokens';
import { type IToolCallContext, type IToolResult } from './types';

/** Finished calls kept in the history when no size is given. */
export const DEFAULT_CALL_HISTORY_SIZE = 200;

/** Cell ids one call record keeps (a long run reports many). */
const MAX_CALL_CELL_IDS = 100;

/** The calls of one registry; every change is handed to `emit` as a copy. */
export class CallLog {
  constructor(
    historySize: number,
    private readonly _emit: (call: IToolCall) => void
  ) {
    this._historySize = Math.max(0, historySize);
  }

  /** The calls in progress (copies). */
  get active(): IToolCall[] {
    return [...this._active.values()].map(copyCall);
  }

  /** The most recent finished calls, oldest first (copies). */
  get history(): IToolCall[] {
    return this._history.map(copyCall);
  }

  /** Records the start of a call of `tool`. */
  start(tool: string): IToolCall {
    const call: IToolCall = {
      id: ++this._nextId,
      tool,
      args: null,
      notebookPath: null,
      cellIds: [],
      activity: null,
      progress: null,
      withheld: 0,
      startedAt: Date.now(),
      finishedAt: null,
      outcome: null
    };
    this._active.set(call.id, call);
    this._changed(call);
    return call;
  }

  /** Records the validated arguments, and the notebook they name. */
  validated(call: IToolCall, args: Record<string, unknown>): void {
    call.args = args;
    call.notebookPath = namedNotebook(call.tool, args);
  }

  /**
   * What the handler of `call` gets; reports after the call ended, or once
   * `live` says no, are dropped.
   */
  context(
    call: IToolCall,
    signal: AbortSignal,
    live: () => boolean
  ): IToolCallContext {
    const open = () => call.finishedAt === null && live();
    return {
      signal,
      callId: call.id,
      reportCell: (
        notebookPath: string,
        cellId: string,
        kind: CellActivityKind
      ) => {
        if (!open()) {
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
        this._changed(call);
      },
      reportProgress: (progress: IToolProgress) => {
        if (!open()) {
          return;
        }
        call.progress = { ...progress };
        this._changed(call);
      },
      reportWithheld: (count: number) => {
        if (!open() || !(count > 0)) {
          return;
        }
        call.withheld += count;
        this._changed(call);
      }
    };
  }

  /** Records the end of a call with the envelope it returned. */
  finish(call: IToolCall, result: IToolResult): void {
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
    this._changed(call);
  }

  /** Forgets every call. */
  clear(): void {
    this._active.clear();
    this._history = [];
  }

  private _changed(call: IToolCall): void {
    this._emit(copyCall(call));
  }

  private readonly _historySize: number;
  private _history: IToolCall[] = [];
  private _active = new Map<number, IToolCall>();
  private _nextId = 0;
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
