/**
 * The model of the Agent panel's Activity tab: every tool call the WebMCP
 * registry reports, the running ones first, then the finished ones newest
 * first, bounded. No JupyterLab runtime import, so unit tests use it as is.
 */
import { type IDisposable } from '@lumino/disposable';
import { type ISignal, Signal } from '@lumino/signaling';

import { SoonestTimer } from '../common/soonest-timer';
import { type IToolCall, type IWebMcpRegistry } from '../tokens';
import { RUNNING_DELAY_MS } from './status';

/** How many finished calls the Activity tab keeps. */
export const MAX_ACTIVITY_ROWS = 100;

/** How a call ended, in the words the tab uses. */
export type CallState = 'running' | 'ok' | 'refused' | 'error';

/** The error codes that mean the owner's access refused the call. */
export const REFUSAL_CODES: readonly string[] = [
  'CELL_ACCESS_DENIED',
  'NOTEBOOK_ACCESS_DENIED'
];

/** A call's state: running, ok, refused by access, or another error. */
export function callState(call: IToolCall): CallState {
  if (call.finishedAt === null || call.outcome === null) {
    return 'running';
  }
  if (call.outcome === 'ok') {
    return 'ok';
  }
  return REFUSAL_CODES.includes(call.outcome) ? 'refused' : 'error';
}

/** A call's duration in ms (up to `now` while it runs). */
export function callDuration(call: IToolCall, now: number): number {
  return Math.max(0, (call.finishedAt ?? now) - call.startedAt);
}

/** Where WebMCP stands, as the tab shows it. */
export type WebMcpAvailability = 'unavailable' | 'looking' | 'available';

/**
 * Keeps the rows of the Activity tab from a registry's history and its live
 * calls. `changed` is emitted after the current task, never inside a call:
 * a call that starts is announced once it has lasted RUNNING_DELAY_MS (a
 * quick call shows once, when it ends), so a call never pays for a page
 * update (see WebMcpStatus).
 */
export class ActivityModel implements IDisposable {
  constructor(options: ActivityModel.IOptions) {
    this._registry = options.registry;
    this._limit = Math.max(1, options.limit ?? MAX_ACTIVITY_ROWS);
    const registry = this._registry;
    if (registry) {
      for (const call of registry.history) {
        this._record(call);
      }
      for (const call of registry.activeCalls) {
        this._record(call);
      }
      registry.callChanged.connect(this._onCall, this);
      registry.statusChanged.connect(this._onStatus, this);
    }
  }

  /** Emitted (after the current task) when rows or availability changed. */
  get changed(): ISignal<this, void> {
    return this._changed;
  }

  /** Whether WebMCP is there to call tools at all. */
  get availability(): WebMcpAvailability {
    const status = this._registry?.status;
    if (!status) {
      return 'unavailable';
    }
    if (status.available) {
      return 'available';
    }
    return status.pending ? 'looking' : 'unavailable';
  }

  /** How many finished calls are kept. */
  get limit(): number {
    return this._limit;
  }

  set limit(value: number) {
    const limit = Math.max(1, Math.floor(value));
    if (!Number.isFinite(limit) || limit === this._limit) {
      return;
    }
    this._limit = limit;
    this._finished = this._finished.slice(0, limit);
    this._repaint.schedule(0);
  }

  /** The running calls (newest first), then the finished ones, newest first. */
  get rows(): readonly IToolCall[] {
    const running = [...this._active.values()].sort(newestFirst);
    return [...running, ...this._finished];
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  dispose(): void {
    if (this._isDisposed) {
      return;
    }
    this._isDisposed = true;
    this._repaint.dispose();
    if (this._registry) {
      this._registry.callChanged.disconnect(this._onCall, this);
      this._registry.statusChanged.disconnect(this._onStatus, this);
    }
    this._active.clear();
    this._announced.clear();
    this._finished = [];
    Signal.clearData(this);
  }

  private _onCall(_: IWebMcpRegistry, call: IToolCall): void {
    this._record(call);
    // a running call not shown yet waits (its start, its cells, its
    // progress); its end, and anything about a shown call, shows at once
    const waits = call.finishedAt === null && !this._announced.has(call.id);
    if (call.finishedAt !== null) {
      this._announced.delete(call.id);
    }
    this._repaint.schedule(waits ? RUNNING_DELAY_MS : 0);
  }

  private _onStatus(): void {
    this._repaint.schedule(0);
  }

  /** Files a copy of a call under running or finished. */
  private _record(call: IToolCall): void {
    const copy: IToolCall = {
      ...call,
      cellIds: [...call.cellIds],
      activity: call.activity ? { ...call.activity } : null,
      progress: call.progress ? { ...call.progress } : null
    };
    if (call.finishedAt === null) {
      this._active.set(call.id, copy);
      return;
    }
    this._active.delete(call.id);
    const finished = this._finished.filter(row => row.id !== call.id);
    finished.push(copy);
    finished.sort(newestFirst);
    this._finished = finished.slice(0, this._limit);
  }

  private readonly _registry: IWebMcpRegistry | null;
  private _limit: number;
  private readonly _active = new Map<number, IToolCall>();
  private _finished: IToolCall[] = [];
  /** The running calls `changed` was emitted for. */
  private _announced = new Set<number>();
  /** Tells the view, at the soonest delay asked for. */
  private readonly _repaint = new SoonestTimer(() => {
    this._announced = new Set(this._active.keys());
    this._changed.emit();
  });
  private _isDisposed = false;
  private readonly _changed = new Signal<this, void>(this);
}

export namespace ActivityModel {
  export interface IOptions {
    /** The call stream; null when the WebMCP plugin is absent. */
    registry: IWebMcpRegistry | null;
    /** How many finished calls to keep (default MAX_ACTIVITY_ROWS). */
    limit?: number;
  }
}

/** Newest first: by start time, then by id (ids grow with time). */
function newestFirst(a: IToolCall, b: IToolCall): number {
  return b.startedAt - a.startedAt || b.id - a.id;
}
