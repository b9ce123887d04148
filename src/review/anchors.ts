/**
 * Review-thread anchors: capturing a source range when a thread is created,
 * and where a thread points now, recomputed against the live notebook on
 * every read. Pure: no JupyterLab import at run time.
 *
 * Positions are `{ line, column }`, zero-based, lines split on `\n`, columns
 * in UTF-16 code units: the positions CodeMirror's selection gives, and what
 * 0.1.1 stored ("sum(values) / 2" in "mean = sum(values) / 2" on the second
 * line is `{1, 7}`–`{1, 22}`).
 *
 * Re-anchoring is exact-text only: the stored selected text is searched for
 * in the current source, and when it occurs more than once the stored
 * context before and after it decides, if it singles one occurrence out.
 * There is deliberately no fuzzy matching: a thread re-attached to text that
 * merely resembles what the reviewer selected would present their comment as
 * being about code they never saw, silently. An `orphaned` anchor instead
 * tells the human and the agent the truth, and the thread and its cell are
 * still there to read. Exact matching is also deterministic, so every
 * collaborator sees the same state.
 */
import type {
  ISharedCell,
  ISharedCodeCell,
  ISharedNotebook
} from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';

import { outputFingerprint } from '../common/fingerprint';
import { digest } from '../common/hash';
import { utf8Prefix } from '../common/text';
import { LIMITS } from '../limits';
import {
  LEGACY_HASH_PATTERN,
  legacyHash,
  legacyOutputFingerprint
} from './legacy';
import type {
  AnchorKind,
  IReviewThread,
  ISourcePosition,
  IThreadAnchor
} from './format';

/** Where an anchor stands against the notebook as it is now. */
export type AnchorState = 'exact' | 'reanchored' | 'orphaned' | 'cell-missing';

/** A range of a cell's source. */
export interface ISourceRange {
  start: ISourcePosition;
  end: ISourcePosition;
}

/** The live status of a thread's anchor (the spec's `anchorStatus`). */
export interface IAnchorStatus {
  kind: AnchorKind;
  cellId: string;
  cellExists: boolean;
  /** The cell's index now, or null when no cell has the anchor's id. */
  cellIndex: number | null;
  state: AnchorState;
  /** source-range: where the text is now, when it was found. */
  range?: ISourceRange;
  /** source-range: the anchored text, when it was found. */
  text?: string;
  /** output: which output the thread is about. */
  outputIndex?: number;
  /** output: the output at that index is gone or is not the one commented on. */
  outputChanged?: boolean;
}

/** What a source-range anchor stores about its range. */
export type ICapturedRange = Pick<
  IThreadAnchor,
  'sourceRange' | 'selectedText' | 'selectedTextHash' | 'prefix' | 'suffix'
>;

/** The offset each line of `source` starts at. */
function lineStarts(source: string): number[] {
  const starts = [0];
  for (let at = source.indexOf('\n'); at !== -1;) {
    starts.push(at + 1);
    at = source.indexOf('\n', at + 1);
  }
  return starts;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The offset of a position, or null when it lies outside the source or
 * between the two halves of a surrogate pair.
 */
function offsetOf(
  source: string,
  starts: readonly number[],
  position: ISourcePosition
): number | null {
  const { line, column } = position;
  if (
    !Number.isInteger(line) ||
    !Number.isInteger(column) ||
    line < 0 ||
    column < 0 ||
    line >= starts.length
  ) {
    return null;
  }
  const lineEnd =
    line + 1 < starts.length ? starts[line + 1] - 1 : source.length;
  const offset = starts[line] + column;
  if (offset > lineEnd) {
    return null;
  }
  if (
    offset > 0 &&
    isHighSurrogate(source.charCodeAt(offset - 1)) &&
    isLowSurrogate(source.charCodeAt(offset))
  ) {
    return null;
  }
  return offset;
}

/** The position of an offset. */
function positionOf(
  starts: readonly number[],
  offset: number
): ISourcePosition {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= offset) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return { line: low, column: offset - starts[low] };
}

/** The offsets of a range, or null when it is outside the source or empty. */
function offsetsOf(
  source: string,
  range: ISourceRange
): { start: number; end: number } | null {
  const starts = lineStarts(source);
  const start = offsetOf(source, starts, range.start);
  const end = offsetOf(source, starts, range.end);
  return start === null || end === null || start >= end ? null : { start, end };
}

function rangeOf(source: string, start: number, end: number): ISourceRange {
  const starts = lineStarts(source);
  return { start: positionOf(starts, start), end: positionOf(starts, end) };
}

/** The hash a new anchor stores of its selected text (0.1.1's form). */
export function selectedTextHash(text: string): string {
  return legacyHash(text);
}

/**
 * Whether a stored selected-text hash is the hash of `text`: a 0.1.1 hash
 * (16 hex digits) by 0.1.1's scheme, a `sha256:` one by SHA-256; any other
 * form never matches.
 */
function textHashMatches(stored: string, text: string): boolean {
  if (LEGACY_HASH_PATTERN.test(stored)) {
    return legacyHash(text) === stored;
  }
  if (stored.startsWith('sha256:')) {
    return `sha256:${digest(text)}` === stored;
  }
  return false;
}

/**
 * What a source-range anchor stores about `range` of `source`: the range,
 * the selected text (at most MAX_SELECTED_TEXT_BYTES of UTF-8, cut at a code
 * point, without a marker since it is matched against the source), the hash
 * of the whole selected text, and at most MAX_ANCHOR_CONTEXT code points of
 * context on each side. Null when the range is empty or outside the source;
 * never throws.
 */
export function captureSourceRange(
  source: string,
  range: ISourceRange
): ICapturedRange | null {
  const offsets = offsetsOf(source, range);
  if (!offsets) {
    return null;
  }
  const { start, end } = offsets;
  const whole = source.slice(start, end);
  const context = LIMITS.MAX_ANCHOR_CONTEXT;
  // 2 × context UTF-16 units hold at least `context` code points.
  const before = Array.from(
    source.slice(Math.max(0, start - 2 * context), start)
  );
  const after = Array.from(source.slice(end, end + 2 * context));
  return {
    sourceRange: {
      start: { line: range.start.line, column: range.start.column },
      end: { line: range.end.line, column: range.end.column }
    },
    selectedText: utf8Prefix(whole, LIMITS.MAX_SELECTED_TEXT_BYTES),
    selectedTextHash: selectedTextHash(whole),
    prefix: before.slice(Math.max(0, before.length - context)).join(''),
    suffix: after.slice(0, context).join('')
  };
}

/** The kind of content an output holds, as an output anchor records it. */
export function outputMimeType(output: nbformat.IOutput): string {
  if (output.output_type === 'stream') {
    return 'text/plain';
  }
  if (output.output_type === 'error') {
    return 'application/vnd.jupyter.error';
  }
  const data = (output as nbformat.IDisplayData).data;
  const types = data && typeof data === 'object' ? Object.keys(data) : [];
  return types.find(type => type !== 'text/plain') ?? types[0] ?? 'text/plain';
}

/** The anchor of output `outputIndex` of cell `cellId`, which is `output`. */
export function outputAnchor(
  cellId: string,
  outputIndex: number,
  output: nbformat.IOutput
): IThreadAnchor {
  return {
    kind: 'output',
    cellId,
    outputIndex,
    outputFingerprint: outputFingerprint(output),
    mimeType: outputMimeType(output)
  };
}

/**
 * The anchor of `range` of cell `cellId`, whose source is `source`; null
 * when the range is empty or outside the source.
 */
export function sourceRangeAnchor(
  cellId: string,
  source: string,
  range: ISourceRange
): IThreadAnchor | null {
  const captured = captureSourceRange(source, range);
  return captured ? { kind: 'source-range', cellId, ...captured } : null;
}

/** The range of the first exact occurrence of `text` in `source`, if any. */
export function rangeOfText(source: string, text: string): ISourceRange | null {
  if (text === '') {
    return null;
  }
  const at = source.indexOf(text);
  return at === -1 ? null : rangeOf(source, at, at + text.length);
}

/** Every offset `text` occurs at in `source`, overlapping ones included. */
function occurrences(source: string, text: string): number[] {
  const found: number[] = [];
  for (let at = source.indexOf(text); at !== -1;) {
    found.push(at);
    at = source.indexOf(text, at + 1);
  }
  return found;
}

/** How many trailing units of `context` end `source` at `offset`. */
function matchBefore(source: string, offset: number, context: string): number {
  let n = 0;
  while (
    n < context.length &&
    n < offset &&
    source.charCodeAt(offset - 1 - n) ===
      context.charCodeAt(context.length - 1 - n)
  ) {
    n++;
  }
  return n;
}

/** How many leading units of `context` follow `offset` in `source`. */
function matchAfter(source: string, offset: number, context: string): number {
  let n = 0;
  while (
    n < context.length &&
    offset + n < source.length &&
    source.charCodeAt(offset + n) === context.charCodeAt(n)
  ) {
    n++;
  }
  return n;
}

/**
 * The one occurrence of `text` whose surroundings best match the stored
 * context (the longest common end of the prefix plus the longest common
 * start of the suffix), or null when no occurrence is strictly better than
 * every other.
 */
function bestByContext(
  source: string,
  text: string,
  found: readonly number[],
  anchor: IThreadAnchor
): number | null {
  const prefix = anchor.prefix ?? '';
  const suffix = anchor.suffix ?? '';
  let best: number | null = null;
  let bestScore = -1;
  let tied = false;
  for (const at of found) {
    const score =
      matchBefore(source, at, prefix) +
      matchAfter(source, at + text.length, suffix);
    if (score > bestScore) {
      best = at;
      bestScore = score;
      tied = false;
    } else if (score === bestScore) {
      tied = true;
    }
  }
  return tied ? null : best;
}

/** The live status of a source-range anchor on a cell that exists. */
function sourceRangeStatus(
  source: string,
  anchor: IThreadAnchor
): Pick<IAnchorStatus, 'state' | 'range' | 'text'> {
  const text = anchor.selectedText ?? '';
  if (anchor.sourceRange) {
    const offsets = offsetsOf(source, anchor.sourceRange);
    if (offsets) {
      const there = source.slice(offsets.start, offsets.end);
      // The hash also recognizes a selection whose stored text was cut.
      if (
        (text !== '' && there === text) ||
        (anchor.selectedTextHash !== undefined &&
          textHashMatches(anchor.selectedTextHash, there))
      ) {
        return {
          state: 'exact',
          range: rangeOf(source, offsets.start, offsets.end),
          text: text || there
        };
      }
    }
  }
  if (text === '') {
    return { state: 'orphaned' };
  }
  // A stored text that was cut re-anchors on the part that was kept.
  const found = occurrences(source, text);
  const at =
    found.length === 1
      ? found[0]
      : found.length > 1
        ? bestByContext(source, text, found, anchor)
        : null;
  if (at === null) {
    return { state: 'orphaned' };
  }
  return {
    state: 'reanchored',
    range: rangeOf(source, at, at + text.length),
    text
  };
}

/**
 * Whether a stored output fingerprint is that of `output`: a `sha256:` one
 * by ours, a 0.1.1 one (16 hex digits) by 0.1.1's scheme; any other form
 * never matches.
 */
export function outputMatches(
  stored: string,
  output: nbformat.IOutput
): boolean {
  if (stored.startsWith('sha256:')) {
    return outputFingerprint(output) === stored;
  }
  if (LEGACY_HASH_PATTERN.test(stored)) {
    return legacyOutputFingerprint(output) === stored;
  }
  return false;
}

/**
 * Where a thread's anchor stands in the notebook now: the cell by id (the
 * first cell holding it), then by kind: a `cell` anchor is `exact` while its
 * cell exists; a `source-range` anchor is `exact` while its range still
 * holds its text, `reanchored` when the text moved and is found again
 * without ambiguity, else `orphaned`; an `output` anchor is `exact` while its
 * cell exists and says `outputChanged` when the output at its index is gone
 * or differs from the one commented on (an output without a stored
 * fingerprint cannot be compared, and is changed only when gone).
 *
 * `indexOf` finds the first cell holding an id; by default a scan of every
 * cell's id. Callers that read many threads of a large notebook pass an
 * index kept up to date instead (src/jupyter/model-index.ts), so a list
 * does not scan the notebook once per thread.
 */
export function anchorStatus(
  model: ISharedNotebook,
  thread: IReviewThread,
  indexOf: (model: ISharedNotebook, cellId: string) => number = scanIndexOf
): IAnchorStatus {
  const anchor = thread.anchor;
  const cellIndex = indexOf(model, anchor.cellId);
  const base = { kind: anchor.kind, cellId: anchor.cellId };
  const outputIndex = anchor.outputIndex ?? 0;
  if (cellIndex === -1) {
    return {
      ...base,
      cellExists: false,
      cellIndex: null,
      state: 'cell-missing',
      ...(anchor.kind === 'output' ? { outputIndex, outputChanged: true } : {})
    };
  }
  const cell = model.cells[cellIndex];
  const found = { ...base, cellExists: true, cellIndex };
  switch (anchor.kind) {
    case 'source-range':
      return { ...found, ...sourceRangeStatus(cell.getSource(), anchor) };
    case 'output': {
      const output = outputAt(cell, outputIndex);
      const outputChanged =
        output === undefined ||
        (anchor.outputFingerprint !== undefined &&
          !outputMatches(anchor.outputFingerprint, output));
      return { ...found, state: 'exact', outputIndex, outputChanged };
    }
    default:
      return { ...found, state: 'exact' };
  }
}

/** The shared outputs array of a code cell, as @jupyter/ydoc keeps it. */
interface IYOutputs {
  readonly length: number;
  get(index: number): unknown;
}

function youtputsOf(cell: ISharedCell): IYOutputs | null {
  const ymodel = (cell as { ymodel?: { get?: (key: string) => unknown } })
    .ymodel;
  const youtputs =
    typeof ymodel?.get === 'function' ? ymodel.get('outputs') : undefined;
  return youtputs &&
    typeof (youtputs as IYOutputs).get === 'function' &&
    typeof (youtputs as IYOutputs).length === 'number'
    ? (youtputs as IYOutputs)
    : null;
}

/**
 * Output `index` of a cell as JSON (a copy), or undefined when it has no
 * output there. It reads that one output from the cell's shared outputs
 * array: `getOutputs()` copies every output of the cell twice (Yjs to JSON,
 * then a deep copy), so a list of threads on outputs copied each anchored
 * cell's outputs, however large, on every call. Falls back to `getOutputs()`
 * for a cell model of another shape.
 */
export function outputAt(
  cell: ISharedCell,
  index: number
): nbformat.IOutput | undefined {
  if (cell.cell_type !== 'code' || index < 0) {
    return undefined;
  }
  const youtputs = youtputsOf(cell);
  if (!youtputs) {
    return (cell as ISharedCodeCell).getOutputs()[index] as
      nbformat.IOutput | undefined;
  }
  if (index >= youtputs.length) {
    return undefined;
  }
  const item = youtputs.get(index) as { toJSON?: () => unknown } | null;
  // a shared map's JSON still holds the stored nested values (its `data`,
  // its `metadata`), so it is copied, as getOutputs() does
  const json =
    item !== null && typeof item?.toJSON === 'function' ? item.toJSON() : item;
  return JSON.parse(JSON.stringify(json ?? null)) as nbformat.IOutput;
}

/** How many outputs a cell has (0 for a cell that cannot have any). */
export function outputCount(cell: ISharedCell): number {
  if (cell.cell_type !== 'code') {
    return 0;
  }
  return (
    youtputsOf(cell)?.length ?? (cell as ISharedCodeCell).getOutputs().length
  );
}

/** The index of the first cell holding `cellId`, or -1: a scan. */
function scanIndexOf(model: ISharedNotebook, cellId: string): number {
  return model.cells.findIndex(cell => cell.id === cellId);
}
