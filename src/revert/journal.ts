/**
 * The journal of agent edits a person can revert, stored in the notebook
 * under the metadata key `jupyterlite_webmcp_edits`, so a revert works after
 * a reload, in another browser, and with no agent connected.
 *
 * Each entry keeps what the revert needs and nothing more: for an update the
 * source before it and the hash of the source the agent left; for an insert
 * the hash of the source it left; for a delete the whole cell (outputs
 * included) and its neighbours, to bring it back at its place. The journal is
 * bounded (MAX_AGENT_EDITS entries, MAX_AGENT_EDITS_BYTES of UTF-8 JSON),
 * oldest first out. No tool reads it: tools never return notebook metadata, and a
 * cell's own metadata shown to the agent never holds it.
 *
 * No JupyterLab import at run time.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';
import type { PartialJSONObject } from '@lumino/coreutils';

import { isPlainObject } from '../common/json';
import { utf8Length } from '../common/text';

/** The notebook metadata key of the journal. */
export const EDITS_METADATA_KEY = 'jupyterlite_webmcp_edits';

/** The version of the stored format. */
export const EDITS_METADATA_VERSION = 1;

/** How many agent edits a notebook keeps for reverting. */
export const MAX_AGENT_EDITS = 50;

/**
 * How large the whole journal may grow, in UTF-8 bytes of its JSON (what
 * the notebook file holds), not string length: a multi-byte source counts
 * for what it weighs. A deleted cell whose entry would pass half of it is
 * kept without its outputs.
 */
export const MAX_AGENT_EDITS_BYTES = 1024 * 1024;

/** What the agent did. */
export type AgentEditKind = 'insert' | 'update' | 'delete';

/** One agent edit, as stored. */
export interface IAgentEdit {
  /** Unique within the notebook. */
  id: string;
  /** When the edit was made (ISO 8601). */
  at: string;
  /** The tool that made it. */
  tool: string;
  kind: AgentEditKind;
  cellId: string;
  /** The page session and call that made it (`<session>:<call id>`). */
  call?: string;
  /** update: the source before the edit. */
  before?: string;
  /** insert and update: the source hash right after the edit. */
  afterHash?: string;
  /** delete: the cell as it was, outputs included. */
  cell?: nbformat.ICell;
  /** delete: the index it had. */
  index?: number;
  /** delete: the id of the cell just above it, null at the top. */
  previousCellId?: string | null;
  /** delete: the id of the cell just below it, null at the bottom. */
  nextCellId?: string | null;
  /** delete: the outputs were too large to keep. */
  outputsDropped?: boolean;
}

/** The stored value. */
interface IStoredJournal {
  version: number;
  edits: IAgentEdit[];
  /**
   * When the person last told the notebook to forget the agent's edits: no
   * page puts back an entry of its own from before then.
   */
  forgottenAt?: string;
}

/** A random id for a journal entry. */
export function newEditId(): string {
  const crypto = globalThis.crypto;
  if (crypto && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID();
  }
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** This page's session, so a journal entry can name the call that made it. */
export const PAGE_SESSION = newEditId();

/** The key of a call of this page, as journal entries store it. */
export function callKey(callId: number): string {
  return `${PAGE_SESSION}:${callId}`;
}

const KINDS: readonly AgentEditKind[] = ['insert', 'update', 'delete'];

/** One stored entry, or null when it cannot be used to revert anything. */
function readEdit(value: unknown): IAgentEdit | null {
  if (!isPlainObject(value)) {
    return null;
  }
  const { id, at, tool, kind, cellId } = value;
  if (
    typeof id !== 'string' ||
    typeof at !== 'string' ||
    typeof tool !== 'string' ||
    typeof cellId !== 'string' ||
    !(KINDS as readonly unknown[]).includes(kind)
  ) {
    return null;
  }
  const edit: IAgentEdit = {
    id,
    at,
    tool,
    kind: kind as AgentEditKind,
    cellId
  };
  if (typeof value.call === 'string') {
    edit.call = value.call;
  }
  switch (edit.kind) {
    case 'update':
      if (
        typeof value.before !== 'string' ||
        typeof value.afterHash !== 'string'
      ) {
        return null;
      }
      edit.before = value.before;
      edit.afterHash = value.afterHash;
      break;
    case 'insert':
      if (typeof value.afterHash !== 'string') {
        return null;
      }
      edit.afterHash = value.afterHash;
      break;
    case 'delete': {
      const cell = value.cell;
      if (
        !isPlainObject(cell) ||
        typeof cell.cell_type !== 'string' ||
        typeof value.index !== 'number' ||
        !Number.isInteger(value.index) ||
        value.index < 0
      ) {
        return null;
      }
      edit.cell = cell as unknown as nbformat.ICell;
      edit.index = value.index;
      edit.previousCellId =
        typeof value.previousCellId === 'string' ? value.previousCellId : null;
      edit.nextCellId =
        typeof value.nextCellId === 'string' ? value.nextCellId : null;
      if (value.outputsDropped === true) {
        edit.outputsDropped = true;
      }
      break;
    }
  }
  return edit;
}

/**
 * The entries stored in a metadata value, oldest first. What cannot be
 * understood (a hand edit, a newer version's field) is left out, never
 * guessed at; an entry id seen twice keeps its first.
 */
export function readJournal(value: unknown): IAgentEdit[] {
  if (!isPlainObject(value) || !Array.isArray(value.edits)) {
    return [];
  }
  const seen = new Set<string>();
  const edits: IAgentEdit[] = [];
  for (const raw of value.edits) {
    const edit = readEdit(raw);
    if (edit && !seen.has(edit.id)) {
      seen.add(edit.id);
      edits.push(edit);
    }
  }
  return edits;
}

/** The journal of a notebook, oldest first. */
export function agentEdits(model: ISharedNotebook): IAgentEdit[] {
  return readJournal(model.getMetadata(EDITS_METADATA_KEY));
}

/** The UTF-8 bytes of a value's JSON. */
function jsonBytes(value: unknown): number {
  return utf8Length(JSON.stringify(value));
}

/** A deleted cell small enough to keep: outputs dropped when too large. */
function boundedDelete(edit: IAgentEdit): IAgentEdit {
  if (
    edit.kind !== 'delete' ||
    !edit.cell ||
    bytesOf(edit) <= MAX_AGENT_EDITS_BYTES / 2
  ) {
    return edit;
  }
  const cell = { ...edit.cell } as nbformat.ICell & {
    outputs?: nbformat.IOutput[];
  };
  if (Array.isArray(cell.outputs)) {
    cell.outputs = [];
  }
  return { ...edit, cell, outputsDropped: true };
}

/**
 * The UTF-8 bytes of an entry's JSON, measured once per entry object: the
 * journal's entries are kept (see `readStored`) and never changed, so an
 * agent's call measures only the entry it adds, not the whole journal.
 */
const entryBytes = new WeakMap<IAgentEdit, number>();

function bytesOf(edit: IAgentEdit): number {
  let bytes = entryBytes.get(edit);
  if (bytes === undefined) {
    bytes = jsonBytes(edit);
    entryBytes.set(edit, bytes);
  }
  return bytes;
}

/**
 * The newest entries of `edits` that fit the bounds: at most
 * MAX_AGENT_EDITS, and their JSON array within MAX_AGENT_EDITS_BYTES (the
 * array's JSON is its entries' JSON, a comma between two, in brackets).
 */
function newestWithinBounds(edits: readonly IAgentEdit[]): IAgentEdit[] {
  let start = edits.length;
  let size = 2;
  while (start > 0 && edits.length - start < MAX_AGENT_EDITS) {
    const next =
      size + bytesOf(edits[start - 1]) + (start < edits.length ? 1 : 0);
    if (next > MAX_AGENT_EDITS_BYTES) {
      break;
    }
    size = next;
    start--;
  }
  return edits.slice(start);
}

/**
 * The journal with `edit` added, bounded: the newest MAX_AGENT_EDITS entries
 * whose JSON fits MAX_AGENT_EDITS_BYTES. An entry that cannot fit even alone
 * (a huge source) is not kept.
 */
export function withEdit(
  edits: readonly IAgentEdit[],
  edit: IAgentEdit
): IAgentEdit[] {
  return newestWithinBounds([...edits, boundedDelete(edit)]);
}

/**
 * How long this page keeps putting back an entry it wrote that a
 * collaborator's concurrent write of the journal replaced.
 */
export const DEFEND_EDIT_MS = 60_000;

/** A notebook's journal and when its edits were last forgotten (or null). */
interface IStored {
  edits: readonly IAgentEdit[];
  forgotten: string | null;
}

/**
 * The journal of each notebook as last read or written by this page, until
 * its metadata value changes otherwise: an agent's call adds its entry
 * without reading (copying and checking) the whole value again, up to
 * MAX_AGENT_EDITS_BYTES.
 */
const stored = new WeakMap<ISharedNotebook, IStored>();

/** The notebook whose journal this page is writing right now. */
let storing: ISharedNotebook | null = null;

/** Forget what is kept of a notebook's journal when its value changes. */
function followJournal(model: ISharedNotebook): void {
  model.metadataChanged.connect((_, change: { key?: string }) => {
    if (change.key === EDITS_METADATA_KEY && storing !== model) {
      stored.delete(model);
    }
  });
}
const followed = new WeakSet<ISharedNotebook>();

/**
 * A notebook's journal and when its edits were last forgotten (or null),
 * from one read of the metadata value (up to MAX_AGENT_EDITS_BYTES), kept
 * until the value changes.
 */
function readStored(model: ISharedNotebook): IStored {
  let kept = stored.get(model);
  if (!kept) {
    if (!followed.has(model)) {
      followed.add(model);
      followJournal(model);
    }
    const value = model.getMetadata(EDITS_METADATA_KEY);
    kept = {
      edits: readJournal(value),
      forgotten:
        isPlainObject(value) && typeof value.forgottenAt === 'string'
          ? value.forgottenAt
          : null
    };
    stored.set(model, kept);
  }
  return kept;
}

/**
 * Write a journal (setMetadata writes nothing when it is stored already),
 * with when it was last forgotten.
 */
function storeJournal(
  model: ISharedNotebook,
  edits: IAgentEdit[],
  forgotten: string | null
): void {
  const value: IStoredJournal = { version: EDITS_METADATA_VERSION, edits };
  if (forgotten !== null) {
    value.forgottenAt = forgotten;
  }
  if (!followed.has(model)) {
    followed.add(model);
    followJournal(model);
  }
  // what this page writes is what it reads next (the entries are valid and
  // distinct: they come from readJournal or from this page)
  stored.set(model, { edits, forgotten });
  const outer = storing;
  storing = model;
  try {
    model.setMetadata(
      EDITS_METADATA_KEY,
      value as unknown as PartialJSONObject
    );
  } catch (error) {
    stored.delete(model);
    throw error;
  } finally {
    storing = outer;
  }
}

interface IDefended {
  edit: IAgentEdit;
  until: number;
}

/**
 * The entries this page wrote lately, per notebook. The journal is one
 * metadata value: when two browsers' agents write it in the same instant,
 * real-time collaboration keeps one of the two values, so the other
 * browser's entry is gone from both. Each page watches the value for
 * DEFEND_EDIT_MS after a write and adds back its own missing entries, in
 * time order and within the bounds, so both browsers end with both entries;
 * an entry the bounds push out is left out on both sides alike, so the pages
 * never write against each other.
 */
const written = new WeakMap<ISharedNotebook, Map<string, IDefended>>();

function defend(model: ISharedNotebook, entry: IAgentEdit): void {
  let entries = written.get(model);
  if (!entries) {
    const own = new Map<string, IDefended>();
    entries = own;
    written.set(model, own);
    const onChange = (_: unknown, change: { key: string }): void => {
      if (change.key !== EDITS_METADATA_KEY) {
        return;
      }
      const now = Date.now();
      for (const [id, kept] of own) {
        if (kept.until < now) {
          own.delete(id);
        }
      }
      if (own.size === 0) {
        model.metadataChanged.disconnect(onChange);
        written.delete(model);
        return;
      }
      if (storing === model) {
        // this page's own write: it holds every entry of its own that fits
        return;
      }
      restoreMissing(
        model,
        [...own.values()].map(kept => kept.edit)
      );
    };
    model.metadataChanged.connect(onChange);
  }
  entries.set(entry.id, { edit: entry, until: Date.now() + DEFEND_EDIT_MS });
}

/** Add back `own` entries missing from the stored journal, if they fit. */
function restoreMissing(model: ISharedNotebook, own: IAgentEdit[]): void {
  const { edits: current, forgotten } = readStored(model);
  const ids = new Set(current.map(edit => edit.id));
  const missing = own.filter(
    edit => !ids.has(edit.id) && (forgotten === null || edit.at > forgotten)
  );
  if (missing.length === 0) {
    return;
  }
  // Adding the entries one by one in time order (withEdit each time) keeps
  // the newest that fit: the same as bounding the whole sorted list once.
  const merged = newestWithinBounds(
    [...current, ...missing]
      .map((edit, order) => ({ edit, order }))
      .sort((a, b) => a.edit.at.localeCompare(b.edit.at) || a.order - b.order)
      .map(({ edit }) => boundedDelete(edit))
  );
  const kept = new Set(merged.map(edit => edit.id));
  if (missing.some(edit => kept.has(edit.id))) {
    storeJournal(model, merged, forgotten);
  }
}

/**
 * Add an entry to a notebook's journal. The notebook's undo history tracks
 * its cells only, so this write never enters it: undoing the agent's edit
 * leaves the entry, which then reads as reverted.
 */
export function recordAgentEdit(
  model: ISharedNotebook,
  edit: Omit<IAgentEdit, 'id' | 'at'>
): void {
  const entry: IAgentEdit = {
    id: newEditId(),
    at: new Date().toISOString(),
    ...edit
  };
  const { edits, forgotten } = readStored(model);
  storeJournal(model, withEdit(edits, entry), forgotten);
  defend(model, entry);
}

/**
 * Forget every agent edit of a notebook: the journal keeps none of them (so
 * none can be reverted from it), and the notebook no longer carries the text
 * they held. The notebook's own undo history is untouched. Other pages stop
 * putting back their entries from before now; edits made later are kept as
 * usual. Returns how many entries were forgotten.
 */
export function forgetAgentEdits(model: ISharedNotebook): number {
  const count = agentEdits(model).length;
  written.get(model)?.clear();
  storeJournal(model, [], new Date().toISOString());
  return count;
}
