import {
  boundChars,
  boundUtf8,
  TRUNCATION_MARKER,
  utf8Length,
  utf8Prefix
} from '../../src/common/text';

const encoded = (text: string): number => new TextEncoder().encode(text).length;

/** 1-, 2-, 3- and 4-byte characters. */
const ONE = 'a';
const TWO = 'é';
const THREE = '中';
const FOUR = '😀';

describe('utf8Length', () => {
  it.each([
    ['', 0],
    [ONE, 1],
    [TWO, 2],
    [THREE, 3],
    [FOUR, 4],
    ['\u007f\u0080\u07ff\u0800\uffff', 1 + 2 + 2 + 3 + 3],
    ['👩‍💻', 11]
  ])('measures %j as %i bytes', (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
    expect(utf8Length(text)).toBe(encoded(text));
  });

  it.each([
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate', '\udc00'],
    ['a high surrogate at the end', 'x\ud83d'],
    ['reversed halves', '\ude00\ud83d'],
    ['two high surrogates then a low one', '\ud83d\ud83d\ude00']
  ])('counts %s like TextEncoder (3 bytes of U+FFFD)', (_, text) => {
    expect(utf8Length(text)).toBe(encoded(text));
  });
});

describe('utf8Prefix', () => {
  it.each([
    [TWO, 2],
    [THREE, 3],
    [FOUR, 4]
  ])('never splits %j', (char, size) => {
    const text = 'ab' + char + 'cd';
    // The character straddles the cut one byte before its end.
    expect(utf8Prefix(text, 2 + size - 1)).toBe('ab');
    // And fits exactly at its end.
    expect(utf8Prefix(text, 2 + size)).toBe('ab' + char);
  });

  it('returns the text when it fits and nothing for no room', () => {
    expect(utf8Prefix('hello', 5)).toBe('hello');
    expect(utf8Prefix('hello', 100)).toBe('hello');
    expect(utf8Prefix('hello', 0)).toBe('');
    expect(utf8Prefix('hello', -3)).toBe('');
  });

  it('keeps every prefix within the bound and maximal', () => {
    const text = `${ONE}${TWO}${THREE}${FOUR}\ud800${FOUR}${TWO}`.repeat(5);
    for (let max = 0; max <= encoded(text); max++) {
      const prefix = utf8Prefix(text, max);
      expect(text.startsWith(prefix)).toBe(true);
      expect(encoded(prefix)).toBeLessThanOrEqual(max);
      if (prefix.length < text.length) {
        const code = text.codePointAt(prefix.length) ?? 0;
        const next = String.fromCodePoint(code);
        expect(encoded(prefix + next)).toBeGreaterThan(max);
      }
    }
  });
});

describe('boundUtf8', () => {
  const marker = encoded(TRUNCATION_MARKER);

  it('leaves text within the bound untouched', () => {
    expect(boundUtf8('abc', 3)).toEqual({ text: 'abc', truncated: false });
    expect(boundUtf8(FOUR, 4)).toEqual({ text: FOUR, truncated: false });
  });

  it('cuts and appends the marker inside the bound', () => {
    const result = boundUtf8('x'.repeat(100), 50);
    expect(result.truncated).toBe(true);
    expect(result.text).toBe('x'.repeat(50 - marker) + TRUNCATION_MARKER);
    expect(encoded(result.text)).toBe(50);
  });

  it('does not split a 4-byte character at the cut', () => {
    const text = 'ab' + FOUR.repeat(10);
    // Room for "ab" and one byte short of the second emoji.
    const result = boundUtf8(text, marker + 2 + 4 + 3);
    expect(result.text).toBe('ab' + FOUR + TRUNCATION_MARKER);
    expect(encoded(result.text)).toBeLessThanOrEqual(marker + 9);
  });

  it('keeps a prefix of the marker when the bound is smaller than it', () => {
    const result = boundUtf8('abcdefghijklmnopqrstuvwxyz', 3);
    expect(result.truncated).toBe(true);
    expect(encoded(result.text)).toBeLessThanOrEqual(3);
    expect(TRUNCATION_MARKER.startsWith(result.text)).toBe(true);
  });
});

describe('boundChars', () => {
  const markerChars = Array.from(TRUNCATION_MARKER).length;

  it('counts code points, not UTF-16 units', () => {
    expect(boundChars(FOUR.repeat(5), 5)).toEqual({
      text: FOUR.repeat(5),
      truncated: false
    });
  });

  it('cuts to maxChars code points, marker included', () => {
    const result = boundChars(FOUR.repeat(600), 500);
    expect(result.truncated).toBe(true);
    expect(Array.from(result.text)).toHaveLength(500);
    expect(result.text).toBe(
      FOUR.repeat(500 - markerChars) + TRUNCATION_MARKER
    );
  });

  it('stays within a bound smaller than the marker', () => {
    const result = boundChars('abcdefghijklmnopqrstuvwxyz', 5);
    expect(result.truncated).toBe(true);
    expect(Array.from(result.text).length).toBeLessThanOrEqual(5);
    expect(boundChars('abc', 0).text).toBe('');
  });
});
