/**
 * The hashes jupyterlite-webmcp 0.1.1 stored in review anchors
 * (`selectedTextHash`, `outputFingerprint`): 16 lowercase hex digits, no
 * prefix. Pure: no JupyterLab import at run time.
 *
 * The scheme was worked out from the data 0.1.1 wrote (not from its code),
 * and is checked against the values in the annotated fixture: a 64-bit value
 * written as two 32-bit FNV-1a hashes of the UTF-8 bytes, the first with the
 * standard offset basis 0x811c9dc5, the second with 0x01000193 (the FNV prime)
 * as its offset basis, each as 8 hex digits, concatenated.
 *
 * FNV-1a is not a cryptographic hash; these values only tell whether text or
 * an output is still the same, and a collision can at worst make a changed
 * output read as unchanged.
 */
import type * as nbformat from '@jupyterlab/nbformat';

import { baseMime, isJsonMime, multiline, textOf } from '../common/mime';

const encoder = new TextEncoder();

const FNV_PRIME = 0x01000193;
const FNV_OFFSET_BASIS = 0x811c9dc5;

/** A legacy hash: 16 lowercase hex digits and nothing else. */
export const LEGACY_HASH_PATTERN = /^[0-9a-f]{16}$/;

/** 32-bit FNV-1a of `bytes` from `basis`, as 8 hex digits. */
function fnv1a32(bytes: Uint8Array, basis: number): string {
  let hash = basis >>> 0;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The 0.1.1 hash of a text (its UTF-8 bytes). */
export function legacyHash(text: string): string {
  const bytes = encoder.encode(text);
  return fnv1a32(bytes, FNV_OFFSET_BASIS) + fnv1a32(bytes, FNV_PRIME);
}

type JSONRecord = { [key: string]: unknown };

/** Compact JSON with object keys sorted, the form 0.1.1 hashed. */
function sortedJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    return `[${value.map(sortedJson).join(',')}]`;
  }
  const record = value as JSONRecord;
  return `{${Object.keys(record)
    .filter(key => record[key] !== undefined)
    .sort()
    .map(key => `${JSON.stringify(key)}:${sortedJson(record[key])}`)
    .join(',')}}`;
}

/**
 * The output as 0.1.1 hashed it: its JSON with multi-line strings joined
 * (the stream text as one string, not the file's list of lines; text MIME
 * values likewise) and without `execution_count`.
 *
 * Only a stream output could be checked against 0.1.1's data (the fixture
 * has no other kind). That `execution_count` is left out, and that
 * `metadata` is kept, is presumed, not verified: if the guess is wrong, a
 * 0.1.1 anchor on an execute_result reads as `outputChanged` although its
 * output is the same, which is the harmless direction to be wrong in.
 */
function legacyOutputContent(output: nbformat.IOutput): JSONRecord {
  const record: JSONRecord = { ...(output as JSONRecord) };
  delete record.execution_count;
  delete record.transient;
  if (record.output_type === 'stream') {
    record.text = textOf(record.text);
  }
  const data = record.data;
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const joined: JSONRecord = {};
    for (const [mimeType, value] of Object.entries(data as JSONRecord)) {
      joined[mimeType] = isJsonMime(baseMime(mimeType))
        ? value
        : (multiline(value) ?? value);
    }
    record.data = joined;
  }
  return record;
}

/** The 0.1.1 fingerprint of an output. */
export function legacyOutputFingerprint(output: nbformat.IOutput): string {
  return legacyHash(sortedJson(legacyOutputContent(output)));
}
