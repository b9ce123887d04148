import { cleanBound, stripAnsi } from '../../../src/jupyter/outputs/ansi';
import { boundUtf8 } from '../../../src/common/text';

const ESC = '\u001b';

describe('stripAnsi', () => {
  it.each([
    [
      'colours',
      `${ESC}[31mred${ESC}[0m and ${ESC}[1;32mbold${ESC}[m`,
      'red and bold'
    ],
    ['256 and true colour', `${ESC}[38;5;196ma${ESC}[38;2;255;0;0mb`, 'ab'],
    ['cursor moves and erase', `x${ESC}[2K${ESC}[1A${ESC}[?25ly`, 'xy'],
    ['OSC title ended by BEL', `${ESC}]0;title\u0007text`, 'text'],
    [
      'OSC 8 hyperlink ended by ST',
      `${ESC}]8;;https://example.org${ESC}\\link${ESC}]8;;${ESC}\\`,
      'link'
    ],
    ['charset selection', `${ESC}(Babc`, 'abc'],
    ['two-character sequences', `${ESC}7a${ESC}8b${ESC}c`, 'ab'],
    ['8-bit CSI', '\u009b31mred', 'red'],
    ['a sequence cut off at the end', `done${ESC}[38;5`, 'done'],
    ['a lone ESC at the end', `done${ESC}`, 'done'],
    ['no escapes at all', 'plain text\nwith lines', 'plain text\nwith lines']
  ])('removes %s', (_, input, expected) => {
    expect(stripAnsi(input)).toBe(expected);
  });

  it('keeps the byte that ends a malformed CSI', () => {
    expect(stripAnsi(`a${ESC}[12\nb`)).toBe('a\nb');
  });

  it('ends an unterminated OSC at the end of its line, keeping the rest', () => {
    expect(stripAnsi(`${ESC}]0;never closed\nkept`)).toBe('\nkept');
  });

  it('is linear on pathological input', () => {
    const input = `${ESC}]`.repeat(200_000) + `${ESC}[`.repeat(200_000);
    const start = Date.now();
    expect(stripAnsi(input)).toBe('');
    expect(Date.now() - start).toBeLessThan(2000);
  });
});

describe('cleanBound', () => {
  it('gives the same result as stripping the whole text first', () => {
    const text = `${ESC}[1m${'a'.repeat(5000)}${ESC}]8;;u${ESC}\\${'b'.repeat(9000)}`;
    expect(cleanBound(text, 10_000)).toEqual(
      cleanBound(stripAnsi(text), 10_000)
    );
  });

  it('strips a prefix exactly as it strips the whole text, at every cut', () => {
    // Sequences of every kind, one of them an OSC whose payload spans lines
    // before its terminator, so a cut inside it must not keep those lines.
    const text =
      `${ESC}[1mbold${ESC}[0m ${'a'.repeat(40)}\n` +
      `${ESC}]0;a title\nover two lines\u0007after title ` +
      `${ESC}]8;;https://example.org${ESC}\\link${ESC}]8;;${ESC}\\ ` +
      `${ESC}P1$r0m${ESC}\\dcs \u009b31m8-bit ${ESC}(Bcharset ${ESC}7saved ` +
      `${ESC}]0;never closed\nkept ${'b'.repeat(40)}`;
    const whole = stripAnsi(text);
    for (let maxBytes = 1; maxBytes < whole.length + 2; maxBytes++) {
      expect(cleanBound(text, maxBytes)).toEqual(boundUtf8(whole, maxBytes));
    }
  });
});
