/**
 * What a semantic-layer function may tell the tool call that runs it: the
 * caller's abort signal, and which cell it is acting on, for the human's
 * view of the call (the Activity tab, on-cell presence). The adapter's
 * `IToolCallContext` is one; functions called outside a tool call get
 * {@link NO_CALL}.
 */
import { type CellActivityKind } from '../tokens';

export interface ICallTrace {
  readonly signal: AbortSignal;
  /** The call's id in this page's call stream, when there is one. */
  readonly callId?: number;
  reportCell(
    notebookPath: string,
    cellId: string,
    kind: CellActivityKind
  ): void;
  /**
   * Count values in credential formats withheld from the result (the call
   * stream's calls have it; a trace without it counts nothing).
   */
  reportWithheld?(count: number): void;
}

/** The trace of no call: a signal that never fires, reports dropped. */
export const NO_CALL: ICallTrace = {
  signal: new AbortController().signal,
  reportCell: () => undefined,
  reportWithheld: () => undefined
};
