/**
 * The stored form of agent access and provenance: how a cell's and a
 * notebook's `jupyterlite_webmcp` metadata value is read, changed and written
 * back. Pure: no JupyterLab runtime import, no side effects.
 *
 * Every reader is total: metadata is hand-editable and travels with files, so
 * any JSON value (or none) may be stored under the key. Whatever cannot be
 * understood reads as the most restrictive access, `none`, flagged invalid, so
 * a typo never opens a cell or a notebook to the agent.
 *
 * Every writer follows one pattern: read the stored value, copy it, change
 * one field, and return the value to write. It returns the stored value itself
 * (the same reference) when the value to write equals it, so a caller writes
 * only when `next !== current`, and it returns `undefined` when nothing is left
 * and the key should be deleted.
 */
import { JSONExt, type PartialJSONObject } from '@lumino/coreutils';
import { isPlainObject } from '../common/json';
import { LIMITS } from '../limits';

/** The cell and notebook metadata key; part of the file format. */
export const ACCESS_METADATA_KEY = 'jupyterlite_webmcp';

/** The version written with every value under ACCESS_METADATA_KEY. */
export const ACCESS_METADATA_VERSION = 1;

/** What a connected agent may do with a cell or a notebook. */
export type AgentAccess = 'write' | 'read' | 'none';

/** Every access value, in cycle order. */
export const AGENT_ACCESS_VALUES: readonly AgentAccess[] = [
  'write',
  'read',
  'none'
];

/** The access an absent value means. */
export const DEFAULT_ACCESS: AgentAccess = 'write';

/** Who made a change recorded in a cell's history. */
export type HistoryActor = 'human' | 'agent';

/** What a change recorded in a cell's history did. */
export type HistoryAction = 'inserted' | 'edited' | 'ran' | 'deleted';

/** Every actor a history entry may name. */
export const HISTORY_ACTORS: readonly HistoryActor[] = ['human', 'agent'];

/** Every action a history entry may name. */
export const HISTORY_ACTIONS: readonly HistoryAction[] = [
  'inserted',
  'edited',
  'ran',
  'deleted'
];

/**
 * Longest tool name kept on a history entry. Tool names are short; a longer
 * (hand-edited) value is dropped from the entry, the entry itself is kept.
 */
export const MAX_HISTORY_TOOL_CHARS = 128;

/** One provenance entry. */
export interface IHistoryEntry {
  /** When, as an ISO 8601 timestamp. */
  at: string;
  actor: HistoryActor;
  action: HistoryAction;
  /** The WebMCP tool that made an agent change. */
  tool?: string;
}

/** The effective access a stored value gives, and whether it was understood. */
export interface IAccessReading {
  /** The access to enforce: `none` whenever the value was not understood. */
  access: AgentAccess;
  /** False when a value is stored but is not one this extension recognises. */
  valid: boolean;
  /** The unrecognised stored value, present only when `valid` is false. */
  raw?: unknown;
}

/** Who last changed a cell's source, and when. */
export interface ILastEdited {
  lastEditedBy: HistoryActor;
  lastEditedAt: string;
}

/** Whether a value is one of the three access values (case-sensitive). */
export function isAgentAccess(value: unknown): value is AgentAccess {
  return (
    typeof value === 'string' &&
    (AGENT_ACCESS_VALUES as readonly string[]).includes(value)
  );
}

/**
 * The access a cell's `jupyterlite_webmcp` metadata value gives.
 *
 * Absent key, or an object without `access`: `write`, valid. A recognised
 * `access`: itself, valid. Anything else (a key that is not an object, an
 * `access` of the wrong type or case, `null`): `none`, invalid, with `raw`.
 * The `version` field is not consulted: notebooks annotated elsewhere, or by a
 * later version, read the same as long as `access` is understood.
 */
export function readCellAccess(metadataValue: unknown): IAccessReading {
  return readAccessField(metadataValue, 'access');
}

/** The access a notebook's `jupyterlite_webmcp` metadata value gives. */
export function readNotebookAccess(
  notebookMetadataValue: unknown
): IAccessReading {
  return readAccessField(notebookMetadataValue, 'notebookAccess');
}

/**
 * The next access of the human's cycle: write → read → none → write.
 *
 * An invalid stored value (`valid: false`) is enforced as `none`, and its
 * first cycle step goes to a valid `none`: it repairs the stored value without
 * widening access, since what the hand-edited value meant cannot be known (a
 * typo of `none` must not become `write` on one click). The marker changes
 * from "invalid" to "hidden", and the next step continues the cycle to write.
 */
export function nextAccess(access: AgentAccess, valid = true): AgentAccess {
  if (!valid) {
    return 'none';
  }
  switch (access) {
    case 'write':
      return 'read';
    case 'read':
      return 'none';
    default:
      return 'write';
  }
}

/**
 * The cell metadata value to write for a new access, keeping every other
 * field. `write` is the default and is stored as absence; `undefined` means
 * delete the key. A stored value that is not an object is replaced.
 */
export function withCellAccess(
  metadataValue: unknown,
  access: AgentAccess
): PartialJSONObject | undefined {
  return withAccessField(metadataValue, 'access', access);
}

/**
 * A copy of a notebook's access metadata value to change one field of, at
 * the current version. A value that is not an object (malformed, which
 * hides the notebook from the agent) keeps hiding it: the copy has
 * `notebookAccess: 'none'`.
 */
export function notebookAccessCopy(
  metadataValue: unknown
): Record<string, unknown> {
  const next: Record<string, unknown> = isPlainObject(metadataValue)
    ? { ...metadataValue }
    : metadataValue === undefined
      ? {}
      : { notebookAccess: 'none' };
  next.version = ACCESS_METADATA_VERSION;
  return next;
}

/** The notebook metadata value to write for a new notebook access. */
export function withNotebookAccess(
  notebookMetadataValue: unknown,
  access: AgentAccess
): PartialJSONObject | undefined {
  return withAccessField(notebookMetadataValue, 'notebookAccess', access);
}

/**
 * The valid history entries of a cell's metadata value: malformed entries
 * (wrong types, unknown actors or actions, unparsable dates) are dropped,
 * timestamps are normalized to ISO 8601, the rest is sorted oldest first and
 * cut to the most recent MAX_CELL_HISTORY_ENTRIES. Never throws.
 */
export function readHistory(metadataValue: unknown): IHistoryEntry[] {
  if (!isPlainObject(metadataValue)) {
    return [];
  }
  return sanitizeHistory(metadataValue.history);
}

/**
 * Add an entry to a history. When the last entry has the same actor and
 * action and is at most HISTORY_COALESCE_WINDOW_MS away, the two coalesce
 * into one entry carrying the later timestamp and the new entry's tool (the
 * most recent change is the one to attribute). The window slides: a burst of
 * changes each within the window of the previous stays one entry. The result
 * is oldest first and at most MAX_CELL_HISTORY_ENTRIES long. A malformed new
 * entry is ignored rather than thrown on: provenance is best-effort.
 */
export function appendHistory(
  entries: IHistoryEntry[],
  entry: IHistoryEntry
): IHistoryEntry[] {
  const history = sanitizeHistory(entries);
  const added = sanitizeEntry(entry);
  if (!added) {
    return history;
  }
  const last = history[history.length - 1];
  if (
    last &&
    last.actor === added.entry.actor &&
    last.action === added.entry.action &&
    Math.abs(added.time - Date.parse(last.at)) <=
      LIMITS.HISTORY_COALESCE_WINDOW_MS
  ) {
    const at = added.time >= Date.parse(last.at) ? added.entry.at : last.at;
    history[history.length - 1] = { ...added.entry, at };
    return history;
  }
  history.push(added.entry);
  return bounded(sortByTime(history));
}

/**
 * The cell metadata value to write for a new history, keeping every other
 * field. The entries are sanitized and bounded on the way in; an empty
 * history removes the field, and `undefined` means delete the key. A stored
 * value that is not an object (enforced as an invalid `none`) is replaced by
 * an object with an explicit `access: 'none'`, so recording provenance never
 * widens a cell's access.
 */
export function withHistory(
  metadataValue: unknown,
  entries: IHistoryEntry[]
): PartialJSONObject | undefined {
  const next = copyStored(metadataValue, 'access');
  const history = sanitizeHistory(entries);
  if (history.length > 0) {
    next.history = history.map(entryToJSON);
  } else {
    delete next.history;
  }
  return finish(metadataValue, next);
}

/**
 * Who last changed the cell's source, and when: the most recent `inserted` or
 * `edited` entry. `ran` and `deleted` do not count, since neither changes the
 * source a reader sees, so a human's cell the agent only ran still reads as
 * last edited by the human. Null when no entry changed the source.
 */
export function lastEdited(entries: IHistoryEntry[]): ILastEdited | null {
  let found: { entry: IHistoryEntry; time: number } | null = null;
  for (const entry of entries) {
    if (entry.action !== 'inserted' && entry.action !== 'edited') {
      continue;
    }
    const time = Date.parse(entry.at);
    if (Number.isNaN(time)) {
      continue;
    }
    if (!found || time >= found.time) {
      found = { entry, time };
    }
  }
  return found
    ? { lastEditedBy: found.entry.actor, lastEditedAt: found.entry.at }
    : null;
}

type AccessField = 'access' | 'notebookAccess';

function readAccessField(value: unknown, field: AccessField): IAccessReading {
  if (value === undefined) {
    return { access: DEFAULT_ACCESS, valid: true };
  }
  if (!isPlainObject(value)) {
    return { access: 'none', valid: false, raw: value };
  }
  const stored = value[field];
  if (stored === undefined) {
    return { access: DEFAULT_ACCESS, valid: true };
  }
  if (isAgentAccess(stored)) {
    return { access: stored, valid: true };
  }
  return { access: 'none', valid: false, raw: stored };
}

function withAccessField(
  value: unknown,
  field: AccessField,
  access: AgentAccess
): PartialJSONObject | undefined {
  const next = copyStored(value, null);
  if (access === DEFAULT_ACCESS) {
    delete next[field];
  } else {
    next[field] = access;
  }
  return finish(value, next);
}

/**
 * A shallow copy of a stored value to change. A value that is not an object
 * starts over; when `keepNone` names a field, it is set to `none` so the
 * access the malformed value was enforced as survives the rewrite.
 */
function copyStored(
  value: unknown,
  keepNone: AccessField | null
): Record<string, unknown> {
  if (isPlainObject(value)) {
    return { ...value };
  }
  const next: Record<string, unknown> = {};
  if (value !== undefined && keepNone) {
    next[keepNone] = 'none';
  }
  return next;
}

/**
 * Stamp the version, drop the value when nothing but the version is left,
 * and hand back the stored value itself when nothing changed.
 */
function finish(
  stored: unknown,
  next: Record<string, unknown>
): PartialJSONObject | undefined {
  if (Array.isArray(next.history) && next.history.length === 0) {
    delete next.history;
  }
  delete next.version;
  if (Object.keys(next).length === 0) {
    return undefined;
  }
  const version = isPlainObject(stored) ? stored.version : undefined;
  const result = {
    // A later version's number is kept: this copy only changed known fields.
    version:
      typeof version === 'number' &&
      Number.isInteger(version) &&
      version > ACCESS_METADATA_VERSION
        ? version
        : ACCESS_METADATA_VERSION,
    ...next
  } as PartialJSONObject;
  return isPlainObject(stored) &&
    JSONExt.deepEqual(stored as PartialJSONObject, result)
    ? (stored as PartialJSONObject)
    : result;
}

function sanitizeHistory(value: unknown): IHistoryEntry[] {
  if (!Array.isArray(value)) {
    return [];
  }
  const kept: { entry: IHistoryEntry; time: number; order: number }[] = [];
  for (let i = 0; i < value.length; i++) {
    const valid = sanitizeEntry(value[i]);
    if (valid) {
      kept.push({ ...valid, order: i });
    }
  }
  // Stored history is oldest first; a hand-edited or clock-skewed one is
  // put back in order, ties keeping their stored order.
  kept.sort((a, b) => a.time - b.time || a.order - b.order);
  return bounded(kept.map(item => item.entry));
}

function sanitizeEntry(
  value: unknown
): { entry: IHistoryEntry; time: number } | null {
  if (!isPlainObject(value)) {
    return null;
  }
  const { at, actor, action, tool } = value;
  if (
    typeof at !== 'string' ||
    typeof actor !== 'string' ||
    typeof action !== 'string' ||
    !(HISTORY_ACTORS as readonly string[]).includes(actor) ||
    !(HISTORY_ACTIONS as readonly string[]).includes(action)
  ) {
    return null;
  }
  const time = Date.parse(at);
  if (!Number.isFinite(time)) {
    return null;
  }
  const entry: IHistoryEntry = {
    at: new Date(time).toISOString(),
    actor: actor as HistoryActor,
    action: action as HistoryAction
  };
  if (
    typeof tool === 'string' &&
    tool.length > 0 &&
    tool.length <= MAX_HISTORY_TOOL_CHARS
  ) {
    entry.tool = tool;
  }
  return { entry, time };
}

function sortByTime(entries: IHistoryEntry[]): IHistoryEntry[] {
  return entries
    .map((entry, order) => ({ entry, order, time: Date.parse(entry.at) }))
    .sort((a, b) => a.time - b.time || a.order - b.order)
    .map(item => item.entry);
}

function bounded(entries: IHistoryEntry[]): IHistoryEntry[] {
  const max = LIMITS.MAX_CELL_HISTORY_ENTRIES;
  return entries.length > max ? entries.slice(entries.length - max) : entries;
}

function entryToJSON(entry: IHistoryEntry): PartialJSONObject {
  const json: PartialJSONObject = {
    at: entry.at,
    actor: entry.actor,
    action: entry.action
  };
  if (entry.tool !== undefined) {
    json.tool = entry.tool;
  }
  return json;
}

export { isPlainObject } from '../common/json';

/** What one tab's live model restricts for one notebook. */
export interface IAnnouncedNotebook {
  /** The notebook's access, or null when it does not restrict it. */
  notebook: AgentAccess | null;
  /** The restricted cells (`read` or `none`), by id. */
  cells: ReadonlyMap<string, AgentAccess>;
}

/** Where the readers of files learn what other tabs announced. */
export interface IAnnouncedAccess {
  /** The restrictions announced for a notebook path, or null when none. */
  announced(path: string): IAnnouncedNotebook | null;
}
