/**
 * Cell outputs as bounded plain JSON: the serializer `jupyter_get_cells`,
 * `jupyter_run_cells` and `jupyter_export_notebook` share, and the one-line
 * run summary. Pure: no JupyterLab import at run time. The content
 * fingerprint of an output is in `../common/fingerprint`.
 *
 * ANSI stripping lives in `./ansi`, HTML-to-text in `./html`.
 */
import type * as nbformat from '@jupyterlab/nbformat';
import { baseMime, isJsonMime, multiline, textOf } from '../../common/mime';
import { LIMITS } from '../../limits';
import { cleanBound } from './ansi';
import { boundedHtmlText } from './html';
import {
  boundChars,
  boundUtf8,
  type IBoundedText,
  utf8Length
} from '../../common/text';
import { SHOW_TEXT, type TextFilter } from '../secrets';

/** One text-like MIME entry of an execute_result or display_data output. */
export interface ITextDataEntry {
  mimeType: string;
  text: string;
  truncated?: boolean;
}

/** A binary MIME entry: its approximate decoded size, never its content. */
export interface IMediaEntry {
  mimeType: string;
  bytes: number;
  included: false;
}

/** One output as the tools return it. */
export interface ISerializedOutput {
  outputType: string;
  executionCount?: number;
  name?: string;
  text?: string;
  html?: string;
  ename?: string;
  evalue?: string;
  traceback?: string;
  textData?: ITextDataEntry[];
  media?: IMediaEntry[];
  /** Whether any field was cut or any entry left out. */
  truncated: boolean;
}

/** A cell's outputs, at most `MAX_OUTPUTS_PER_CELL` of them. */
export interface ISerializedOutputs {
  outputs: ISerializedOutput[];
  outputsTruncated: boolean;
}

export { withJoinedStreams } from './join-streams';

/** Whether a MIME entry comes back as text (textData) rather than as media. */
export function isTextLike(mimeType: string, value: unknown): boolean {
  const mime = baseMime(mimeType);
  if (mime.startsWith('image/')) {
    return false;
  }
  if (multiline(value) === undefined) {
    return true; // JSON-valued data: an object, array, number or boolean
  }
  return (
    mime.startsWith('text/') ||
    isJsonMime(mime) ||
    mime.endsWith('+xml') ||
    mime === 'application/xml' ||
    mime === 'application/javascript' ||
    mime === 'application/x-latex'
  );
}

/** A text-like MIME value as text: JSON values (and JSON types) stringified. */
function mimeText(mimeType: string, value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (!isJsonMime(baseMime(mimeType))) {
    const joined = multiline(value);
    if (joined !== undefined) {
      return joined;
    }
  }
  return JSON.stringify(value) ?? '';
}

function inRange(c: number, low: number, high: number): boolean {
  return c >= low && c <= high;
}

/**
 * The approximate decoded size of a binary MIME value: base64 (line breaks
 * ignored) counts 3 bytes per 4 characters less padding; any other text,
 * such as SVG, its UTF-8 length; a JSON value, its JSON's UTF-8 length.
 */
export function mediaBytes(value: unknown): number {
  const text = typeof value === 'string' ? value : multiline(value);
  if (text === undefined) {
    return utf8Length(JSON.stringify(value) ?? '');
  }
  let digits = 0;
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) {
      continue; // base64 wrapped in lines
    }
    const digit =
      inRange(c, 0x41, 0x5a) ||
      inRange(c, 0x61, 0x7a) ||
      inRange(c, 0x30, 0x39) ||
      c === 0x2b ||
      c === 0x2f;
    if (digit && padding === 0) {
      digits++;
    } else if (c === 0x3d && padding < 2) {
      padding++;
    } else {
      return utf8Length(text);
    }
  }
  if (digits % 4 === 1 || (padding > 0 && (digits + padding) % 4 !== 0)) {
    return utf8Length(text);
  }
  return Math.floor((digits * 3) / 4);
}

type OutputRecord = { [key: string]: unknown };

/**
 * How far past its bound a text is read when secrets are withheld, so a
 * value the bound cuts is still found whole (then withheld) before the
 * final cut: longer than any value of a kind but a private key, which is
 * found cut short too.
 */
const SECRET_MARGIN_BYTES = 8 * 1024;

/**
 * `bound(text, maxBytes)` through `filter`: the text bounded with a margin,
 * filtered, then bounded.
 */
function boundThrough(
  text: string,
  maxBytes: number,
  filter: TextFilter,
  bound: (text: string, maxBytes: number) => IBoundedText
): IBoundedText {
  if (filter === SHOW_TEXT) {
    return bound(text, maxBytes);
  }
  const wide = bound(text, maxBytes + SECRET_MARGIN_BYTES);
  const cut = boundUtf8(filter(wide.text), maxBytes);
  return { text: cut.text, truncated: wide.truncated || cut.truncated };
}

/**
 * One output as bounded plain JSON (see `ISerializedOutput`). Every text is
 * ANSI-stripped, then goes through `filter` (secrets withheld, when they
 * are) before it is bounded; a cut field ends in the truncation marker and
 * sets `truncated`.
 */
export function serializeOutput(
  output: nbformat.IOutput,
  filter: TextFilter = SHOW_TEXT
): ISerializedOutput {
  const record = output as OutputRecord;
  const outputType =
    typeof record.output_type === 'string' ? record.output_type : 'unknown';
  const result: ISerializedOutput = { outputType, truncated: false };
  const put = (value: unknown, maxBytes: number): string => {
    const bounded = boundThrough(textOf(value), maxBytes, filter, cleanBound);
    result.truncated ||= bounded.truncated;
    return bounded.text;
  };
  switch (outputType) {
    case 'stream':
      if (record.name !== undefined) {
        result.name = put(record.name, LIMITS.MAX_PREVIEW_CHARS);
      }
      result.text = put(record.text ?? '', LIMITS.MAX_TEXT_OUTPUT_BYTES);
      break;
    case 'error': {
      result.ename = put(record.ename ?? '', LIMITS.MAX_PREVIEW_CHARS);
      result.evalue = put(record.evalue ?? '', LIMITS.MAX_TEXT_OUTPUT_BYTES);
      const traceback = record.traceback;
      const joined =
        Array.isArray(traceback) &&
        traceback.every(line => typeof line === 'string')
          ? traceback.join('\n')
          : textOf(traceback ?? '');
      result.traceback = put(joined, LIMITS.MAX_TEXT_OUTPUT_BYTES);
      break;
    }
    case 'execute_result':
    case 'display_data':
    case 'update_display_data':
      if (typeof record.execution_count === 'number') {
        result.executionCount = record.execution_count;
      }
      serializeBundle(record.data, result, put, filter);
      break;
    default:
      break;
  }
  return result;
}

/** text/plain, text/html, then every other entry as textData or media. */
function serializeBundle(
  data: unknown,
  result: ISerializedOutput,
  put: (value: unknown, maxBytes: number) => string,
  filter: TextFilter
): void {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return;
  }
  const textData: ITextDataEntry[] = [];
  const media: IMediaEntry[] = [];
  let budget = LIMITS.MAX_TEXT_OUTPUT_BYTES;
  for (const [mimeType, value] of Object.entries(data as OutputRecord)) {
    const mime = baseMime(mimeType);
    if (mime === 'text/plain' && result.text === undefined) {
      result.text = put(value, LIMITS.MAX_TEXT_OUTPUT_BYTES);
    } else if (mime === 'text/html' && result.html === undefined) {
      const html = boundThrough(
        textOf(value),
        LIMITS.MAX_HTML_OUTPUT_BYTES,
        filter,
        boundedHtmlText
      );
      result.html = html.text;
      result.truncated ||= html.truncated;
    } else if (!isTextLike(mimeType, value)) {
      media.push({ mimeType, bytes: mediaBytes(value), included: false });
    } else {
      // The first entry may be cut to the whole budget, so one large JSON
      // value still comes back as text; a later entry that no longer fits
      // in what remains is left out.
      const bounded = boundThrough(
        mimeText(mimeType, value),
        budget,
        filter,
        cleanBound
      );
      if (bounded.truncated && textData.length > 0) {
        result.truncated = true;
        continue;
      }
      const entry: ITextDataEntry = { mimeType, text: bounded.text };
      if (bounded.truncated) {
        entry.truncated = true;
        result.truncated = true;
      }
      textData.push(entry);
      budget = Math.max(0, budget - utf8Length(bounded.text));
    }
  }
  if (textData.length > 0) {
    result.textData = textData;
  }
  if (media.length > 0) {
    result.media = media;
  }
}

/** At most `MAX_OUTPUTS_PER_CELL` outputs, serialized through `filter`. */
export function serializeOutputs(
  outputs: readonly nbformat.IOutput[],
  filter: TextFilter = SHOW_TEXT
): ISerializedOutputs {
  const kept = outputs.slice(0, LIMITS.MAX_OUTPUTS_PER_CELL);
  return {
    outputs: kept.map(output => serializeOutput(output, filter)),
    outputsTruncated: outputs.length > kept.length
  };
}

/** The placeholder of a media entry in a summary. */
function mediaLabel(entry: IMediaEntry): string {
  return `[${entry.mimeType} ${entry.bytes} bytes]`;
}

/** What one serialized output contributes to a summary. */
function summaryPiece(output: ISerializedOutput): string {
  if (output.outputType === 'error') {
    const value = output.evalue ? `: ${output.evalue}` : '';
    return `error: ${output.ename ?? ''}${value}`;
  }
  if (output.outputType === 'stream') {
    return output.text ?? '';
  }
  const text = output.text || output.html || output.textData?.[0]?.text || '';
  const media = (output.media ?? []).map(mediaLabel);
  const known =
    output.outputType === 'execute_result' ||
    output.outputType === 'display_data' ||
    output.outputType === 'update_display_data';
  return [known ? '' : `[${output.outputType}]`, text, ...media]
    .filter(part => part !== '')
    .join(' ');
}

/**
 * A one-line summary of a cell's outputs, at most `MAX_SUMMARY_CHARS` code
 * points: each output's text (or `error: Name: value`, or
 * `[mime/type N bytes]` for media), whitespace runs collapsed to one space,
 * outputs separated by ` | `. `(no output)` when there is nothing to show.
 */
export function outputSummary(
  outputs: readonly nbformat.IOutput[],
  filter: TextFilter = SHOW_TEXT
): string {
  const max = LIMITS.MAX_SUMMARY_CHARS;
  const pieces: string[] = [];
  let length = 0;
  for (const output of outputs) {
    if (length > 2 * max) {
      // Over twice the bound in UTF-16 units is over it in code points, so
      // the cut below is certain (and marked): the rest cannot show.
      break;
    }
    const serialized = serializeOutput(output, filter);
    const piece = summaryPiece(serialized).replace(/\s+/g, ' ').trim();
    if (piece !== '') {
      pieces.push(piece);
      length += piece.length + 3;
    }
  }
  if (pieces.length === 0) {
    return '(no output)';
  }
  return boundChars(pieces.join(' | '), max).text;
}
