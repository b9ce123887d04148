/**
 * UTF-8 measurement and cutting. Pure: no JupyterLab import.
 *
 * Every byte bound in the specification is a UTF-8 bound, so these are the only
 * functions that measure or cut text by size.
 */

/** The marker that ends every cut field. */
export const TRUNCATION_MARKER = '…[truncated]';

const encoder = new TextEncoder();

/**
 * The UTF-8 length of a string, without allocating its encoding.
 *
 * A lone surrogate counts as the 3 bytes of U+FFFD, which is what
 * `TextEncoder` writes for it.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes += 1;
    } else if (code < 0x800) {
      bytes += 2;
    } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < n) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    } else {
      bytes += 3;
    }
  }
  return bytes;
}

/**
 * The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`,
 * never splitting a code point.
 */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (maxBytes <= 0) {
    return '';
  }
  // Fast path: every UTF-16 unit is at most 3 UTF-8 bytes.
  if (text.length * 3 <= maxBytes) {
    return text;
  }
  const { read } = encoder.encodeInto(text, new Uint8Array(maxBytes));
  return text.slice(0, read);
}

/** The result of bounding a string. */
export interface IBoundedText {
  text: string;
  truncated: boolean;
}

/**
 * Bound `text` to `maxBytes` of UTF-8. A cut text ends in the truncation marker,
 * and the marker is counted inside the bound.
 */
export function boundUtf8(text: string, maxBytes: number): IBoundedText {
  if (utf8Length(text) <= maxBytes) {
    return { text, truncated: false };
  }
  const room = maxBytes - utf8Length(TRUNCATION_MARKER);
  if (room <= 0) {
    return { text: utf8Prefix(TRUNCATION_MARKER, maxBytes), truncated: true };
  }
  return { text: utf8Prefix(text, room) + TRUNCATION_MARKER, truncated: true };
}

/**
 * Bound `text` to `maxChars` Unicode code points, ending a cut text in the
 * truncation marker (counted inside the bound).
 */
export function boundChars(text: string, maxChars: number): IBoundedText {
  // A string of at most maxChars UTF-16 units has at most maxChars code points.
  if (text.length <= maxChars) {
    return { text, truncated: false };
  }
  const points = Array.from(text);
  if (points.length <= maxChars) {
    return { text, truncated: false };
  }
  const marker = Array.from(TRUNCATION_MARKER);
  if (maxChars < marker.length) {
    // Even the marker does not fit: keep as much of it as the bound allows.
    return {
      text: marker.slice(0, Math.max(0, maxChars)).join(''),
      truncated: true
    };
  }
  const room = maxChars - marker.length;
  return {
    text: points.slice(0, room).join('') + TRUNCATION_MARKER,
    truncated: true
  };
}
