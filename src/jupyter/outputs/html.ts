/**
 * text/html outputs reduced to readable plain text. Pure: no JupyterLab
 * import; needs the browser's `DOMParser` (jsdom provides one in tests).
 *
 * The HTML is parsed by the browser into an inert document — a DOMParser
 * document runs no script and loads no image or stylesheet — so markup is
 * read exactly as the page would read it: entities decoded, malformed and
 * unclosed tags repaired. The tree is then walked once to write text.
 */
import { cleanBound } from './ansi';
import {
  type IBoundedText,
  TRUNCATION_MARKER,
  utf8Length,
  utf8Prefix
} from '../../common/text';

/**
 * At most this many characters of HTML are parsed per byte of text returned:
 * 320 KiB of HTML for the 5 KiB html bound. A styled DataFrame spends about
 * 35 characters of markup (per-cell ids, classes and CSS rules) per character
 * of text, so it still fills the bound; a table of a million rows or a page
 * embedding a plotting library costs no more than that to parse. The text of
 * a cut source is marked truncated.
 */
const SOURCE_CHARS_PER_BYTE = 64;

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
      this._write(text);
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

function isCell(element: Element): boolean {
  return element.localName === 'td' || element.localName === 'th';
}

/** Whether a `td`/`th` comes after another cell of its row. */
function followsCell(cell: Element): boolean {
  for (let e = cell.previousElementSibling; e; e = e.previousElementSibling) {
    if (isCell(e)) {
      return true;
    }
  }
  return false;
}

/** Writes the text of a document's nodes as the walk enters and leaves them. */
class TextWriter {
  /** Write what starts at `node`; whether to walk into its children. */
  enter(node: Node): boolean {
    if (
      node.nodeType === Node.TEXT_NODE ||
      node.nodeType === Node.CDATA_SECTION_NODE
    ) {
      const text = node.nodeValue ?? '';
      if (this._pre > 0) {
        this._sink.raw(text);
      } else {
        this._sink.flow(text);
      }
      return false;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) {
      return false; // comments, processing instructions, doctypes
    }
    const element = node as Element;
    const name = element.localName;
    if (HIDDEN.has(name)) {
      return false;
    }
    if (name === 'br') {
      this._sink.lineBreak();
    } else if (isCell(element)) {
      if (followsCell(element)) {
        this._sink.cellSeparator();
      }
    } else {
      if (name === 'pre') {
        this._pre++; // the parser already dropped its leading newline
      }
      this._boundary(name);
    }
    return true;
  }

  /** Write what ends at `node`, after its children (if walked into). */
  leave(node: Node): void {
    if (node.nodeType !== Node.ELEMENT_NODE) {
      return;
    }
    const name = (node as Element).localName;
    if (HIDDEN.has(name)) {
      return;
    }
    if (name === 'pre') {
      this._pre--;
    }
    this._boundary(name);
  }

  toString(): string {
    return this._sink.toString();
  }

  private _boundary(name: string): void {
    if (PARAGRAPH.has(name)) {
      this._sink.block(2);
    } else if (BLOCK.has(name)) {
      this._sink.block(1);
    }
  }

  private _sink = new TextSink();
  private _pre = 0;
}

/**
 * Visit `root` and its descendants in document order, calling `leave` after
 * a node's children. Iterative, so deeply nested markup cannot overflow the
 * stack.
 */
function walk(root: Node, writer: TextWriter): void {
  let node = root;
  for (;;) {
    const child = writer.enter(node) ? node.firstChild : null;
    if (child) {
      node = child;
      continue;
    }
    for (;;) {
      writer.leave(node);
      const next = node === root ? null : node.nextSibling;
      if (next) {
        node = next;
        break;
      }
      const parent = node === root ? null : node.parentNode;
      if (!parent) {
        return;
      }
      node = parent;
    }
  }
}

/**
 * Reduce HTML to readable plain text: script, style and other hidden content
 * and comments are dropped; block elements, `br`, `tr` and `li` become
 * newlines, paragraphs and headings are set off by a blank line, and `td`/`th`
 * are separated by tabs, so a DataFrame table stays readable; runs of
 * whitespace collapse as a browser would, except inside `pre`. Malformed HTML
 * never throws: it is read as a browser reads it.
 */
export function htmlToText(html: string): string {
  // Parsed as body content, as JupyterLab's renderer inserts an output into
  // an element: a leading `noscript` or text then stays where it is rather
  // than being read as part of the head.
  const doc = new DOMParser().parseFromString(`<body>${html}`, 'text/html');
  const writer = new TextWriter();
  walk(doc.documentElement, writer);
  return writer.toString();
}

/**
 * `htmlToText`, ANSI-stripped and bounded to `maxBytes` of UTF-8, parsing at
 * most `SOURCE_CHARS_PER_BYTE * maxBytes` characters of the HTML. A text cut
 * by either bound ends in the truncation marker.
 */
export function boundedHtmlText(html: string, maxBytes: number): IBoundedText {
  let end = SOURCE_CHARS_PER_BYTE * maxBytes;
  if (html.length <= end) {
    return cleanBound(htmlToText(html), maxBytes);
  }
  const high = html.charCodeAt(end - 1);
  if (high >= 0xd800 && high <= 0xdbff) {
    end--; // never keep half a surrogate pair
  }
  const bounded = cleanBound(htmlToText(html.slice(0, end)), maxBytes);
  if (bounded.truncated) {
    return bounded;
  }
  const room = maxBytes - utf8Length(TRUNCATION_MARKER);
  const text =
    room > 0
      ? utf8Prefix(bounded.text, room) + TRUNCATION_MARKER
      : utf8Prefix(TRUNCATION_MARKER, maxBytes);
  return { text, truncated: true };
}
