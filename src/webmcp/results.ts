/**
 * The result envelope every tool call returns, bounded to the total result
 * size. Pure: no JupyterLab import.
 *
 * A payload over the bound first loses trailing items of its largest arrays of
 * objects (the holder of each trimmed array says so with `truncated` and
 * `omittedCount`); only when no trimming fits does the text become an opaque
 * `{truncated, reason, maxBytes, partial}` envelope with no structuredContent.
 */
import { LIMITS } from '../limits';
import { type IToolErrorPayload, normalizeError } from '../jupyter/errors';
import { TRUNCATION_MARKER, utf8Length } from '../jupyter/text';
import { type IToolResult } from './types';

/** Why a payload came back as the opaque envelope. */
export const NO_FIT_REASON =
  'The result is larger than the size limit even after dropping list items; partial is the start of its JSON text.';

type JSONObject = { [key: string]: unknown };

/**
 * The result of a successful call. The text is the payload's JSON, and
 * structuredContent the payload itself, when it fits in `maxBytes` of UTF-8.
 */
export function successResult(
  payload: unknown,
  maxBytes: number = LIMITS.MAX_TOTAL_RESULT_BYTES
): IToolResult {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch (thrown) {
    // A cycle or a BigInt: the handler returned something JSON cannot carry.
    return errorResult(normalizeError(thrown), maxBytes);
  }
  if (text === undefined) {
    return {
      content: [{ type: 'text', text: 'null' }],
      structuredContent: null
    };
  }
  if (utf8Length(text) <= maxBytes) {
    return { content: [{ type: 'text', text }], structuredContent: payload };
  }
  const trimmed = new Trimmer(JSON.parse(text), maxBytes).run();
  if (trimmed) {
    return {
      content: [{ type: 'text', text: trimmed.text }],
      structuredContent: trimmed.value
    };
  }
  return { content: [{ type: 'text', text: noFitText(text, maxBytes) }] };
}

/**
 * The result of a failed call: the structured error as structuredContent and
 * as text. An error still over `maxBytes` is reduced to `{error, message}`.
 */
export function errorResult(
  error: IToolErrorPayload,
  maxBytes: number = LIMITS.MAX_TOTAL_RESULT_BYTES
): IToolResult {
  let text: string | undefined;
  try {
    text = JSON.stringify(error);
  } catch {
    text = undefined;
  }
  if (text !== undefined && utf8Length(text) <= maxBytes) {
    return {
      content: [{ type: 'text', text }],
      structuredContent: error,
      isError: true
    };
  }
  const reduced = { error: error.error, message: String(error.message) };
  const base = utf8Length(JSON.stringify({ ...reduced, message: '' }));
  if (base + jsonStringBytes(reduced.message) - 2 > maxBytes) {
    const room = maxBytes - base - (jsonStringBytes(TRUNCATION_MARKER) - 2);
    reduced.message =
      room > 0
        ? jsonEscapedPrefix(reduced.message, room) + TRUNCATION_MARKER
        : '';
  }
  return {
    content: [{ type: 'text', text: JSON.stringify(reduced) }],
    structuredContent: reduced,
    isError: true
  };
}

/** The error result for anything a handler threw. */
export function thrownResult(
  thrown: unknown,
  maxBytes: number = LIMITS.MAX_TOTAL_RESULT_BYTES
): IToolResult {
  return errorResult(normalizeError(thrown), maxBytes);
}

/**
 * The UTF-8 length of `JSON.stringify(text)`, quotes included, computed
 * without serializing: `"` and `\` and the short escapes take 2 bytes, other
 * control characters and lone surrogates 6 (`\uXXXX`).
 */
export function jsonStringBytes(text: string): number {
  return jsonEscaped(text, Infinity).bytes + 2;
}

/**
 * The longest prefix of `text` whose JSON-escaped form (without the quotes)
 * takes at most `maxBytes` of UTF-8, never splitting a code point.
 */
export function jsonEscapedPrefix(text: string, maxBytes: number): string {
  return text.slice(0, jsonEscaped(text, maxBytes).end);
}

function jsonEscaped(
  text: string,
  maxBytes: number
): { bytes: number; end: number } {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    let cost: number;
    let units = 1;
    if (code === 0x22 || code === 0x5c) {
      cost = 2;
    } else if (code < 0x20) {
      // \b \t \n \f \r have short escapes; the rest are \u00XX.
      cost =
        code === 8 || code === 9 || code === 10 || code === 12 || code === 13
          ? 2
          : 6;
    } else if (code < 0x80) {
      cost = 1;
    } else if (code < 0x800) {
      cost = 2;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        cost = 4;
        units = 2;
      } else {
        cost = 6; // A lone surrogate: JSON.stringify writes \uXXXX.
      }
    } else {
      cost = 3;
    }
    if (bytes + cost > maxBytes) {
      return { bytes, end: i };
    }
    bytes += cost;
    i += units - 1;
  }
  return { bytes, end: n };
}

/** The opaque envelope for a payload no trimming fits. */
function noFitText(original: string, maxBytes: number): string {
  const envelope = {
    truncated: true,
    reason: NO_FIT_REASON,
    maxBytes,
    partial: ''
  };
  const base = utf8Length(JSON.stringify(envelope));
  if (base <= maxBytes) {
    envelope.partial = jsonEscapedPrefix(original, maxBytes - base);
    return JSON.stringify(envelope);
  }
  // A bound too small for the envelope itself: say only that it was cut.
  return JSON.stringify({ truncated: true });
}

/** An array of objects held by an object: one that may lose trailing items. */
interface IArrayRecord {
  /** Document order, to break ties between arrays of one size. */
  readonly id: number;
  readonly items: unknown[];
  readonly holder: JSONObject;
  /** The nearest enclosing record, and the index of the item holding this one. */
  readonly parent: IArrayRecord | null;
  readonly indexInParent: number;
  /** The serialized size of each remaining item, kept current. */
  readonly itemSizes: number[];
  /** Records nested directly inside each item. */
  readonly children: Map<number, IArrayRecord[]>;
  /** The serialized size of the array, kept current. */
  size: number;
  /** How many of the direct children are still attached and non-empty. */
  liveChildren: number;
}

interface IHeapEntry {
  record: IArrayRecord;
  key: number;
}

/** Largest key first; the earlier array on a tie. */
function before(a: IHeapEntry, b: IHeapEntry): boolean {
  return a.key > b.key || (a.key === b.key && a.record.id < b.record.id);
}

/** A binary max-heap of array records. Keys go stale and are re-checked on pop. */
class RecordHeap {
  push(entry: IHeapEntry): void {
    const heap = this._entries;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!before(heap[i], heap[up])) {
        break;
      }
      [heap[i], heap[up]] = [heap[up], heap[i]];
      i = up;
    }
  }

  pop(): IHeapEntry | undefined {
    const heap = this._entries;
    const top = heap[0];
    const last = heap.pop();
    if (last && heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        let best = i;
        if (left < heap.length && before(heap[left], heap[best])) {
          best = left;
        }
        if (left + 1 < heap.length && before(heap[left + 1], heap[best])) {
          best = left + 1;
        }
        if (best === i) {
          break;
        }
        [heap[i], heap[best]] = [heap[best], heap[i]];
        i = best;
      }
    }
    return top;
  }

  private _entries: IHeapEntry[] = [];
}

function isPlainObject(value: unknown): value is JSONObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasOwn(object: JSONObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/**
 * Drops trailing items from a parsed copy of the payload until its JSON fits.
 *
 * Every value is measured once; each drop updates the sizes of the arrays that
 * enclose it and the running total, and the whole copy is serialized only to
 * check the result. Arrays with two or more items are trimmed first, largest
 * first; only then is an array emptied, innermost first, so a single cell with
 * a huge output list loses outputs before the cell itself is dropped.
 */
class Trimmer {
  constructor(
    private readonly _root: unknown,
    private readonly _maxBytes: number
  ) {}

  /** The trimmed copy and its JSON, or null when no trimming fits. */
  run(): { value: JSONObject; text: string } | null {
    const root = this._root;
    if (!isPlainObject(root)) {
      return null;
    }
    this._total = this._measure(root, null, 0);
    for (const record of this._records) {
      if (record.items.length >= 2) {
        this._multi.push({ record, key: record.size });
      }
    }
    // The running total is exact by construction; the check below only
    // guards against an estimate gone wrong, by trimming further.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (!this._trim()) {
        return null;
      }
      const text = JSON.stringify(root);
      const bytes = utf8Length(text);
      if (bytes <= this._maxBytes) {
        return { value: root, text };
      }
      this._total = bytes;
    }
    return null;
  }

  /** Trim until the total fits; false when every candidate is exhausted. */
  private _trim(): boolean {
    while (this._total > this._maxBytes) {
      const entry = this._multi.pop();
      if (!entry) {
        break;
      }
      const { record } = entry;
      if (record.items.length < 2 || !this._attached(record)) {
        continue;
      }
      if (entry.key !== record.size) {
        this._multi.push({ record, key: record.size });
        continue;
      }
      this._drop(record);
      if (record.items.length >= 2) {
        this._multi.push({ record, key: record.size });
      }
    }
    if (this._total > this._maxBytes && !this._lastStarted) {
      this._lastStarted = true;
      for (const record of this._records) {
        this._offerLast(record);
      }
    }
    while (this._total > this._maxBytes) {
      const entry = this._last.pop();
      if (!entry) {
        return false;
      }
      const { record } = entry;
      if (record.items.length === 0 || record.liveChildren > 0) {
        continue;
      }
      if (entry.key !== record.size) {
        this._last.push({ record, key: record.size });
        continue;
      }
      if (!this._attached(record)) {
        continue;
      }
      this._drop(record);
      if (record.parent) {
        this._offerLast(record.parent);
      }
    }
    return true;
  }

  /** Queue a record for emptying once it holds no non-empty array. */
  private _offerLast(record: IArrayRecord): void {
    if (
      record.items.length > 0 &&
      record.liveChildren === 0 &&
      this._attached(record)
    ) {
      this._last.push({ record, key: record.size });
    }
  }

  /** Whether every item holding this record is still in its array. */
  private _attached(record: IArrayRecord): boolean {
    for (let r = record; r.parent; r = r.parent) {
      if (r.indexInParent >= r.parent.items.length) {
        return false;
      }
    }
    return true;
  }

  private _drop(record: IArrayRecord): void {
    const count = record.items.length;
    const index = count - 1;
    const removed = record.itemSizes[index] + (count > 1 ? 1 : 0);
    record.items.pop();
    record.itemSizes.pop();
    for (const child of record.children.get(index) ?? []) {
      if (child.items.length > 0) {
        record.liveChildren--;
      }
    }
    if (count === 1 && record.parent) {
      record.parent.liveChildren--;
    }
    record.size -= removed;
    this._grow(record, -removed);
    // The holder is inside the same enclosing items as its array.
    const holder = record.holder;
    this._grow(record, this._markTruncated(holder) + this._addOmitted(holder));
    this._total += this._markTruncated(this._root as JSONObject);
  }

  /** Add `delta` bytes to every array enclosing `record`, and to the total. */
  private _grow(record: IArrayRecord, delta: number): void {
    let index = record.indexInParent;
    for (let p = record.parent; p; p = p.parent) {
      p.itemSizes[index] += delta;
      p.size += delta;
      index = p.indexInParent;
    }
    this._total += delta;
  }

  /** Set `truncated: true`, returning the change in serialized bytes. */
  private _markTruncated(object: JSONObject): number {
    if (this._marked.has(object)) {
      return 0;
    }
    this._marked.add(object);
    // `,"truncated":true` when new; otherwise the old value is replaced.
    const delta = hasOwn(object, 'truncated')
      ? 4 - this._sizeOf(object.truncated)
      : 17;
    object.truncated = true;
    return delta;
  }

  /** Count one more dropped item in `omittedCount`, returning the byte change. */
  private _addOmitted(object: JSONObject): number {
    let state = this._omitted.get(object);
    if (!state) {
      const old = object.omittedCount;
      const present = hasOwn(object, 'omittedCount');
      state = {
        base: typeof old === 'number' && Number.isFinite(old) ? old : 0,
        // `,"omittedCount":` costs 16 bytes when the field is new.
        overhead: present ? -this._sizeOf(old) : 16,
        added: 0
      };
      this._omitted.set(object, state);
    }
    const previous =
      state.added === 0
        ? 0
        : state.overhead + String(state.base + state.added).length;
    state.added++;
    const value = state.base + state.added;
    object.omittedCount = value;
    return state.overhead + String(value).length - previous;
  }

  /** The serialized size of a value about to be replaced (nothing recorded). */
  private _sizeOf(value: unknown): number {
    return this._measure(value, null, 0, false);
  }

  /**
   * The serialized size of a parsed JSON value; with `track`, every array of
   * objects inside it is recorded as a candidate for trimming.
   */
  private _measure(
    value: unknown,
    parent: IArrayRecord | null,
    index: number,
    track = true
  ): number {
    if (typeof value === 'string') {
      return jsonStringBytes(value);
    }
    if (value === null) {
      return 4;
    }
    if (typeof value !== 'object') {
      // Numbers and booleans, as JSON.parse produced them.
      return String(value).length;
    }
    if (Array.isArray(value)) {
      let size = 2 + Math.max(0, value.length - 1);
      for (const item of value) {
        size += this._measure(item, parent, index, track);
      }
      return size;
    }
    const object = value as JSONObject;
    const keys = Object.keys(object);
    let size = 2 + Math.max(0, keys.length - 1);
    for (const key of keys) {
      const item = object[key];
      size += jsonStringBytes(key) + 1;
      size +=
        track &&
        Array.isArray(item) &&
        item.length > 0 &&
        item.every(isPlainObject)
          ? this._record(item, object, parent, index)
          : this._measure(item, parent, index, track);
    }
    return size;
  }

  private _record(
    items: unknown[],
    holder: JSONObject,
    parent: IArrayRecord | null,
    indexInParent: number
  ): number {
    const record: IArrayRecord = {
      id: this._records.length,
      items,
      holder,
      parent,
      indexInParent,
      itemSizes: [],
      children: new Map(),
      size: 0,
      liveChildren: 0
    };
    this._records.push(record);
    if (parent) {
      const siblings = parent.children.get(indexInParent);
      if (siblings) {
        siblings.push(record);
      } else {
        parent.children.set(indexInParent, [record]);
      }
      parent.liveChildren++;
    }
    let size = 2 + items.length - 1;
    for (let i = 0; i < items.length; i++) {
      const itemSize = this._measure(items[i], record, i);
      record.itemSizes.push(itemSize);
      size += itemSize;
    }
    record.size = size;
    return size;
  }

  private _total = 0;
  private _lastStarted = false;
  private readonly _records: IArrayRecord[] = [];
  private readonly _multi = new RecordHeap();
  private readonly _last = new RecordHeap();
  private readonly _marked = new Set<JSONObject>();
  private readonly _omitted = new Map<
    JSONObject,
    { base: number; overhead: number; added: number }
  >();
}
