/**
 * Trimming a payload to a byte bound by dropping trailing items of its largest
 * arrays of objects. Pure: no JupyterLab import.
 */
import { utf8Length } from '../common/text';
import { isPlainObject, jsonStringBytes } from '../common/json';

type JSONObject = { [key: string]: unknown };

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
export class Trimmer {
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
