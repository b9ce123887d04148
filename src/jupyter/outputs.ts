/**
 * Cell outputs as bounded plain JSON: the serializer `jupyter_get_cells`,
 * `jupyter_run_cells` and `jupyter_export_notebook` share, the one-line run
 * summary, and the content fingerprint of an output. Pure: no JupyterLab
 * import at run time.
 *
 * ANSI stripping and HTML-to-text are written here rather than taken from
 * `strip-ansi`/`htmlparser2`: those are only transitive dependencies of this
 * package, and this task could not add dependencies. They are candidates to
 * replace `stripAnsi` and `htmlToText` if the project decides to depend on them.
 */
import type * as nbformat from '@jupyterlab/nbformat';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { LIMITS } from '../limits';
import { boundChars, boundUtf8, type IBoundedText, utf8Length } from './text';

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

// ANSI escape sequences: ESC, and the 8-bit C1 introducers (CSI, OSC, DCS,
// SOS, PM, APC) and string terminator.
const ANSI_START = /[\u001b\u0090\u0098\u009b-\u009f]/g;

/**
 * Remove ANSI escape sequences in one linear pass: CSI (colours, cursor
 * moves, erase), OSC (titles, hyperlinks) ended by BEL or ST, the other string
 * sequences (DCS, SOS, PM, APC), and two- or three-character ESC sequences.
 *
 * A sequence cut short by the end of the text is dropped. A malformed CSI ends
 * at the first byte that cannot belong to it, which is kept. A string sequence
 * with no terminator ends at the next ESC (which starts a sequence of its
 * own) or at the end of its line, so one stray OSC never swallows the rest of
 * an output.
 */
export function stripAnsi(text: string): string {
  ANSI_START.lastIndex = 0;
  if (!ANSI_START.test(text)) {
    return text;
  }
  const parts: string[] = [];
  let kept = 0;
  ANSI_START.lastIndex = 0;
  for (let m = ANSI_START.exec(text); m; m = ANSI_START.exec(text)) {
    const start = m.index;
    if (start < kept) {
      continue;
    }
    const end = sequenceEnd(text, start);
    parts.push(text.slice(kept, start));
    kept = end;
    ANSI_START.lastIndex = end;
  }
  parts.push(text.slice(kept));
  return parts.join('');
}

/** The index just past the escape sequence starting at `i`. */
function sequenceEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x9b) {
    return csiEnd(text, i + 1);
  }
  if (c === 0x9c) {
    return i + 1;
  }
  if (c !== 0x1b) {
    return stringEnd(text, i + 1);
  }
  const j = i + 1;
  if (j >= text.length) {
    return j;
  }
  const next = text.charCodeAt(j);
  if (next === 0x5b) {
    return csiEnd(text, j + 1); // ESC [
  }
  // ESC ] (OSC), ESC P (DCS), ESC X (SOS), ESC ^ (PM), ESC _ (APC).
  if (
    next === 0x5d ||
    next === 0x50 ||
    next === 0x58 ||
    next === 0x5e ||
    next === 0x5f
  ) {
    return stringEnd(text, j + 1);
  }
  let k = j;
  while (k < text.length && inRange(text.charCodeAt(k), 0x20, 0x2f)) {
    k++; // intermediate bytes, as in ESC ( B
  }
  // A final byte ends it; anything else ends it unconsumed (and is kept).
  return k < text.length && inRange(text.charCodeAt(k), 0x30, 0x7e) ? k + 1 : k;
}

function csiEnd(text: string, k: number): number {
  const n = text.length;
  while (k < n && inRange(text.charCodeAt(k), 0x30, 0x3f)) {
    k++;
  }
  while (k < n && inRange(text.charCodeAt(k), 0x20, 0x2f)) {
    k++;
  }
  return k < n && inRange(text.charCodeAt(k), 0x40, 0x7e) ? k + 1 : k;
}

function stringEnd(text: string, k: number): number {
  for (; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x07 || c === 0x9c || c === 0x18 || c === 0x1a) {
      return k + 1; // BEL, ST, or CAN/SUB cancelling it
    }
    if (c === 0x1b) {
      return text.charCodeAt(k + 1) === 0x5c ? k + 2 : k; // ESC \ is ST
    }
    if (c === 0x0a) {
      return k;
    }
  }
  return k;
}

function inRange(c: number, low: number, high: number): boolean {
  return c >= low && c <= high;
}

/** Elements whose content is never shown as text. */
const HIDDEN = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'title'
]);

/** Elements that start and end a line. */
const BLOCK = new Set(
  (
    'address article aside caption dd details dialog div dl dt fieldset ' +
    'figcaption figure footer form header li main nav ol section summary ' +
    'table tbody tfoot thead tr ul'
  ).split(' ')
);

/** Elements set off by a blank line. */
const PARAGRAPH = new Set('blockquote h1 h2 h3 h4 h5 h6 hr p pre'.split(' '));

// The common named references, as `name=value`; rarer ones stay as written.
const NAMED_ENTITIES = new Map<string, string>(
  (
    'amp=& lt=< gt=> quot=" apos=\' nbsp=\u00a0 shy=\u00ad copy=© reg=® ' +
    'trade=™ hellip=… mdash=— ndash=– lsquo=‘ rsquo=’ ldquo=“ rdquo=” ' +
    'laquo=« raquo=» bull=• middot=· deg=° plusmn=± times=× divide=÷ ' +
    'minus=− le=≤ ge=≥ ne=≠ infin=∞ micro=µ sect=§ para=¶ euro=€ pound=£ ' +
    'yen=¥ cent=¢ larr=← rarr=→ uarr=↑ darr=↓ hArr=⇔ rArr=⇒ alpha=α ' +
    'beta=β gamma=γ delta=δ epsilon=ε lambda=λ mu=μ pi=π sigma=σ theta=θ ' +
    'omega=ω Delta=Δ Sigma=Σ Omega=Ω sup2=² sup3=³ frac12=½ frac14=¼ frac34=¾'
  )
    .split(' ')
    .map(pair => [
      pair.slice(0, pair.indexOf('=')),
      pair.slice(pair.indexOf('=') + 1)
    ])
);

const ENTITY =
  /&(?:#([0-9]{1,8})|#[xX]([0-9A-Fa-f]{1,8})|([A-Za-z][A-Za-z0-9]{1,31}));?/g;

/** Decode named (common ones, with `;`) and numeric character references. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) {
    return text;
  }
  return text.replace(
    ENTITY,
    (match, dec?: string, hex?: string, name?: string) => {
      if (name !== undefined) {
        const value = match.endsWith(';')
          ? NAMED_ENTITIES.get(name)
          : undefined;
        return value ?? match;
      }
      const code = dec !== undefined ? parseInt(dec, 10) : parseInt(hex!, 16);
      const valid =
        code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : '\ufffd';
    }
  );
}

/**
 * Plain text assembled with HTML's whitespace rules: runs of spaces collapse,
 * block boundaries become (at most two) newlines, table cells are separated
 * by tabs even when empty, so columns stay aligned.
 */
class TextSink {
  /** Text outside `pre`: collapse whitespace. */
  flow(text: string): void {
    const words = text.split(/[ \t\n\r\f]+/);
    words.forEach((word, i) => {
      if (i > 0) {
        this._space = this._parts.length > 0 && !this._atBreak();
      }
      if (word !== '') {
        this._write(word);
      }
    });
  }

  /** Text inside `pre`: kept as is. */
  raw(text: string): void {
    if (text !== '') {
      this._write(text.replace(/\r\n?/g, '\n'));
    }
  }

  /** A block boundary asking for `count` newlines before the next text. */
  block(count: number): void {
    this._space = false;
    this._want = Math.max(this._want, count);
  }

  /** A `<br>`: one newline, never collapsed with the next. */
  lineBreak(): void {
    this._space = false;
    this._flushBreaks();
    this._push('\n');
  }

  /** The start of a table cell after the first one in its row. */
  cellSeparator(): void {
    this._space = false;
    this._flushBreaks();
    this._push('\t');
  }

  toString(): string {
    return this._parts
      .join('')
      .replace(/\u00a0/g, ' ')
      .replace(/^\n+/, '')
      .trimEnd();
  }

  private _write(text: string): void {
    this._flushBreaks();
    if (this._space) {
      this._push(' ');
    }
    this._space = false;
    this._push(text);
  }

  private _flushBreaks(): void {
    if (this._want > this._newlines && this._parts.length > 0) {
      this._push('\n'.repeat(this._want - this._newlines));
    }
    this._want = 0;
  }

  private _push(text: string): void {
    this._parts.push(text);
    const trimmed = text.replace(/\n+$/, '');
    this._newlines =
      trimmed.length === 0
        ? this._newlines + text.length
        : text.length - trimmed.length;
    this._last = text.charCodeAt(text.length - 1);
  }

  private _atBreak(): boolean {
    return this._last === 0x0a || this._last === 0x09 || this._want > 0;
  }

  private _parts: string[] = [];
  private _newlines = 0;
  private _want = 0;
  private _space = false;
  private _last = 0;
}

/** HTML's ASCII whitespace: space, tab, LF, FF, CR. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** Whitespace, `/` and `>` end a tag name. */
function endsName(c: number): boolean {
  return isSpace(c) || c === 0x2f || c === 0x3e;
}

/** The index just past the `>` ending a tag whose name ends at `i`, or -1. */
function tagEnd(html: string, i: number): number {
  let afterEquals = false;
  for (; i < html.length; i++) {
    const c = html[i];
    if (c === '>') {
      return i + 1;
    }
    if ((c === '"' || c === "'") && afterEquals) {
      const close = html.indexOf(c, i + 1);
      if (close < 0) {
        return -1;
      }
      i = close;
      afterEquals = false;
    } else if (c === '=') {
      afterEquals = true;
    } else if (!isSpace(c.charCodeAt(0))) {
      afterEquals = false;
    }
  }
  return -1;
}

const hiddenEnds = new Map<string, RegExp>();

/** The index just past the end tag closing a hidden element, or the end. */
function hiddenEnd(html: string, name: string, from: number): number {
  let pattern = hiddenEnds.get(name);
  if (!pattern) {
    pattern = new RegExp(`</${name}(?=[\\s/>]|$)`, 'gi');
    hiddenEnds.set(name, pattern);
  }
  pattern.lastIndex = from;
  const match = pattern.exec(html);
  if (!match) {
    return html.length;
  }
  const end = tagEnd(html, match.index + match[0].length);
  return end < 0 ? html.length : end;
}

/**
 * Reduce HTML to readable plain text without a DOM (so it runs in a worker or
 * a test): script, style and other hidden content and comments are dropped;
 * block elements, `br`, `tr` and `li` become newlines and `td`/`th` tabs, so
 * a DataFrame table stays readable; character references are decoded; runs
 * of whitespace collapse as a browser would, except inside `pre`.
 *
 * One linear pass. Malformed HTML never throws: a `<` that starts no tag is
 * text, and a tag left open at the end of the input is kept as text rather
 * than dropped.
 */
export function htmlToText(html: string): string {
  const sink = new TextSink();
  const cells: number[] = [0];
  let pre = 0;
  let skipNewline = false;
  const emit = (text: string): void => {
    let decoded = decodeEntities(text);
    if (pre > 0) {
      if (skipNewline && decoded.startsWith('\n')) {
        decoded = decoded.slice(1);
      }
      sink.raw(decoded);
    } else {
      sink.flow(decoded);
    }
    skipNewline = false;
  };
  let i = 0;
  let textStart = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      break;
    }
    const next = html.charAt(lt + 1);
    const closing = next === '/';
    const nameStart = closing ? lt + 2 : lt + 1;
    let end: number;
    if (html.startsWith('<!--', lt)) {
      const close = /^-?>/.exec(html.slice(lt + 4, lt + 6));
      const found = close ? lt + 4 : html.indexOf('-->', lt + 4);
      end = found < 0 ? html.length : found + (close ? close[0].length : 3);
    } else if (
      next === '!' ||
      next === '?' ||
      (closing && html[lt + 2] === '>')
    ) {
      const close = html.indexOf('>', lt + 1);
      end = close < 0 ? html.length : close + 1;
    } else if (/[A-Za-z]/.test(html.charAt(nameStart))) {
      let nameEnd = nameStart + 1;
      while (nameEnd < html.length && !endsName(html.charCodeAt(nameEnd))) {
        nameEnd++;
      }
      end = tagEnd(html, nameEnd);
      if (end < 0) {
        break; // An unterminated tag: the rest stays text.
      }
      const name = html.slice(nameStart, nameEnd).toLowerCase();
      emit(html.slice(textStart, lt));
      if (!closing && HIDDEN.has(name)) {
        end = hiddenEnd(html, name, end);
      } else if (name === 'br') {
        sink.lineBreak();
      } else if (name === 'td' || name === 'th') {
        if (!closing && cells[cells.length - 1]++ > 0) {
          sink.cellSeparator();
        }
      } else {
        if (name === 'table') {
          if (closing) {
            cells.length = Math.max(1, cells.length - 1);
          } else {
            cells.push(0);
          }
        } else if (name === 'tr') {
          cells[cells.length - 1] = 0;
        } else if (name === 'pre') {
          pre = closing ? Math.max(0, pre - 1) : pre + 1;
          skipNewline = !closing;
        }
        if (PARAGRAPH.has(name)) {
          sink.block(2);
        } else if (BLOCK.has(name)) {
          sink.block(1);
        }
      }
      i = textStart = end;
      continue;
    } else {
      i = lt + 1; // A `<` that starts no tag is text.
      continue;
    }
    emit(html.slice(textStart, lt));
    i = textStart = end;
  }
  emit(html.slice(textStart));
  return sink.toString();
}

/** A MIME value as text: strings as-is, multi-line arrays joined. */
function multiline(value: unknown): string | undefined {
  if (typeof value === 'string') {
    return value;
  }
  if (Array.isArray(value) && value.every(item => typeof item === 'string')) {
    return value.join('');
  }
  return undefined;
}

/** Any value as text, so nothing is lost for a malformed field. */
function textOf(value: unknown): string {
  return multiline(value) ?? JSON.stringify(value) ?? '';
}

/** The MIME type without parameters, lower-cased. */
function baseMime(mimeType: string): string {
  return mimeType.split(';')[0].trim().toLowerCase();
}

function isJsonMime(mime: string): boolean {
  return mime === 'application/json' || mime.endsWith('+json');
}

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

/**
 * The approximate decoded size of a binary MIME value: base64 (whitespace
 * ignored) counts 3 bytes per 4 characters less padding; any other text,
 * such as SVG, its UTF-8 length.
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
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      continue;
    }
    const digit =
      inRange(c, 0x41, 0x5a) ||
      inRange(c, 0x61, 0x7a) ||
      inRange(c, 0x30, 0x39) ||
      c === 0x2b ||
      c === 0x2f ||
      c === 0x2d ||
      c === 0x5f;
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

/**
 * Strip ANSI sequences, then bound to `maxBytes` of UTF-8. Stripping only
 * removes characters, so once a stripped prefix overflows the bound, the
 * rest of a huge text is never looked at.
 */
export function cleanBound(text: string, maxBytes: number): IBoundedText {
  for (let take = maxBytes + 64; ; take *= 2) {
    if (take >= text.length) {
      return boundUtf8(stripAnsi(text), maxBytes);
    }
    const clean = stripAnsi(text.slice(0, take));
    if (utf8Length(clean) > maxBytes) {
      return boundUtf8(clean, maxBytes);
    }
  }
}

type OutputRecord = { [key: string]: unknown };

/**
 * One output as bounded plain JSON (see `ISerializedOutput`). Every text is
 * ANSI-stripped before it is bounded; a cut field ends in the truncation
 * marker and sets `truncated`.
 */
export function serializeOutput(output: nbformat.IOutput): ISerializedOutput {
  const record = output as OutputRecord;
  const outputType =
    typeof record.output_type === 'string' ? record.output_type : 'unknown';
  const result: ISerializedOutput = { outputType, truncated: false };
  const put = (value: unknown, maxBytes: number): string => {
    const bounded = cleanBound(textOf(value), maxBytes);
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
      serializeBundle(record.data, result, put);
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
  put: (value: unknown, maxBytes: number) => string
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
      result.html = put(
        htmlToText(textOf(value)),
        LIMITS.MAX_HTML_OUTPUT_BYTES
      );
    } else if (!isTextLike(mimeType, value)) {
      media.push({ mimeType, bytes: mediaBytes(value), included: false });
    } else {
      // The first entry may be cut to the whole budget, so one large JSON
      // value still comes back as text; a later entry that no longer fits
      // in what remains is left out.
      const bounded = cleanBound(mimeText(mimeType, value), budget);
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

/** At most `MAX_OUTPUTS_PER_CELL` outputs, serialized. */
export function serializeOutputs(
  outputs: readonly nbformat.IOutput[]
): ISerializedOutputs {
  const kept = outputs.slice(0, LIMITS.MAX_OUTPUTS_PER_CELL);
  return {
    outputs: kept.map(serializeOutput),
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
export function outputSummary(outputs: readonly nbformat.IOutput[]): string {
  const max = LIMITS.MAX_SUMMARY_CHARS;
  const pieces: string[] = [];
  let length = 0;
  for (const output of outputs) {
    if (length > 2 * max) {
      // Over twice the bound in UTF-16 units is over it in code points, so
      // the cut below is certain (and marked): the rest cannot show.
      break;
    }
    const serialized = serializeOutput(output);
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
  return `sha256:${bytesToHex(sha256(utf8ToBytes(json))).slice(0, 16)}`;
}
