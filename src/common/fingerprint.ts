/**
 * The content fingerprint of a cell output: what an output anchor and an
 * output selection remember, to tell later whether the output changed.
 * Pure: no JupyterLab import at run time.
 */
import type * as nbformat from '@jupyterlab/nbformat';

import { digest } from './hash';
import { baseMime, isJsonMime, multiline, textOf } from './mime';

/** An output as the JSON record it is. */
type OutputRecord = { [key: string]: unknown };

/** An output's content, without execution counts, metadata or transients. */
function fingerprintContent(output: nbformat.IOutput): unknown {
  const record = output as OutputRecord;
  const type = record.output_type;
  if (type === 'stream') {
    return { output_type: type, name: record.name, text: textOf(record.text) };
  }
  if (type === 'error') {
    const tb = record.traceback;
    return {
      output_type: type,
      ename: record.ename,
      evalue: record.evalue,
      traceback: Array.isArray(tb) ? tb.map(textOf).join('\n') : tb
    };
  }
  const data = record.data;
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const content: OutputRecord = {};
    for (const [mimeType, value] of Object.entries(data as OutputRecord)) {
      content[mimeType] = isJsonMime(baseMime(mimeType))
        ? value
        : (multiline(value) ?? value);
    }
    return { output_type: type, data: content };
  }
  const rest: OutputRecord = { ...record };
  delete rest.execution_count;
  delete rest.metadata;
  delete rest.transient;
  return rest;
}

/** JSON with object keys sorted, so equal content serializes identically. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  const object = value as OutputRecord;
  const keys = Object.keys(object)
    .filter(key => object[key] !== undefined)
    .sort();
  return `{${keys
    .map(key => `${JSON.stringify(key)}:${canonicalJson(object[key])}`)
    .join(',')}}`;
}

/**
 * A stable hash of an output's content: equal for the same content however
 * its multi-line strings are split, whatever its execution count, metadata
 * or transient data; different whenever the content differs.
 */
export function outputFingerprint(output: nbformat.IOutput): string {
  const json = canonicalJson(fingerprintContent(output));
  return `sha256:${digest(json)}`;
}
