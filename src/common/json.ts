/**
 * JSON values: whether one is an object, and the size of JSON-escaped text,
 * measured without serializing. Pure.
 */

/** Whether a value is a JSON object (not null, not an array). */
export function isPlainObject(
  value: unknown
): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
