/**
 * The characters our UI marks instead of obeying: each listed code point,
 * the tag range, and none of the ordinary characters around them; the
 * pieces put together again are the text, and the revealed text holds none.
 */
import fc from 'fast-check';

import {
  countInvisibles,
  describeInvisible,
  hasInvisibles,
  revealText,
  splitInvisibles
} from '../../src/common/invisible';

const LISTED = [
  ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e],
  ...[0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c],
  ...[0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064],
  ...[0xfeff, 0x00ad, 0x180e, 0x115f, 0x1160, 0x3164],
  ...[0xe0000, 0xe0001, 0xe0041, 0xe0061, 0xe007f]
];

/** Characters that look alike or sit next to the listed ones, not marked. */
const ORDINARY = [
  0x20, 0xa0, 0x2000, 0x200a, 0x2010, 0x2028, 0x202f, 0x2065, 0x206a, 0x0645,
  0x05d0, 0x1161, 0x3163, 0x3165, 0xdffff, 0xe0080, 0x1f600
];

describe('invisible and direction-changing characters', () => {
  it.each(LISTED.map(cp => [cp.toString(16)]))('marks U+%s', hex => {
    const char = String.fromCodePoint(parseInt(hex, 16));
    const found = describeInvisible(char);
    expect(found).not.toBeNull();
    expect(found!.label).toBe(`U+${hex.toUpperCase().padStart(4, '0')}`);
    expect(found!.name).not.toBe('');
    expect(hasInvisibles(`a${char}b`)).toBe(true);
    expect(countInvisibles(`a${char}b${char}`)).toBe(2);
  });

  it.each(ORDINARY.map(cp => [cp.toString(16)]))('leaves U+%s alone', hex => {
    const char = String.fromCodePoint(parseInt(hex, 16));
    expect(describeInvisible(char)).toBeNull();
    expect(countInvisibles(`a${char}b`)).toBe(0);
    expect(revealText(`a${char}b`)).toBe(`a${char}b`);
  });

  it('names the Trojan Source characters in order, the code kept between them', () => {
    const source =
      'if access_level != "none\u202E \u2066# Check if admin\u2069 \u2066":';
    expect(countInvisibles(source)).toBe(4);
    expect(revealText(source)).toBe(
      'if access_level != "none⟦U+202E⟧ ⟦U+2066⟧# Check if admin⟦U+2069⟧ ⟦U+2066⟧":'
    );
    const pieces = splitInvisibles(source);
    expect(
      pieces.map(piece => (typeof piece === 'string' ? piece : piece.name))
    ).toEqual([
      'if access_level != "none',
      'RIGHT-TO-LEFT OVERRIDE',
      ' ',
      'LEFT-TO-RIGHT ISOLATE',
      '# Check if admin',
      'POP DIRECTIONAL ISOLATE',
      ' ',
      'LEFT-TO-RIGHT ISOLATE',
      '":'
    ]);
  });

  it('names tag characters by the letter they smuggle', () => {
    const hidden = [...'run rm'].map(c =>
      String.fromCodePoint(0xe0000 + c.charCodeAt(0))
    );
    const text = `ok${hidden.join('')}`;
    expect(countInvisibles(text)).toBe(6);
    expect(
      splitInvisibles(text)
        .slice(1)
        .map(piece => (typeof piece === 'string' ? piece : piece.name))
    ).toEqual([
      'TAG "r"',
      'TAG "u"',
      'TAG "n"',
      'TAG " "',
      'TAG "r"',
      'TAG "m"'
    ]);
  });

  it('puts the text together again and reveals every character (property)', () => {
    const marked = fc.constantFrom(
      ...LISTED.map(cp => String.fromCodePoint(cp))
    );
    const text = fc
      .array(fc.oneof(fc.string({ unit: 'grapheme' }), marked), {
        maxLength: 20
      })
      .map(parts => parts.join(''));
    fc.assert(
      fc.property(text, value => {
        const pieces = splitInvisibles(value);
        expect(
          pieces
            .map(piece => (typeof piece === 'string' ? piece : piece.char))
            .join('')
        ).toBe(value);
        expect(pieces.filter(piece => typeof piece !== 'string').length).toBe(
          countInvisibles(value)
        );
        expect(countInvisibles(revealText(value))).toBe(0);
      }),
      { seed: 20261205, numRuns: 300 }
    );
  });
});
