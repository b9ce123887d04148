/**
 * ANSI escape sequences taken out of output text, and the strip-then-bound
 * step every output field goes through. Pure: no JupyterLab import.
 *
 * `strip-ansi` removes every complete sequence. What it leaves behind is a
 * sequence it cannot match: one cut off at the end of a text (a stream
 * flushed mid-sequence, or the prefix `cleanBound` strips), a malformed CSI,
 * or a string sequence (OSC, DCS, …) that is never terminated. A terminal
 * shows none of these, and a stray ESC in a tool result is noise to an agent,
 * so `stripAnsi` removes them too, with the one pattern below.
 */
import stripAnsiLib from 'strip-ansi';
import { boundUtf8, type IBoundedText, utf8Length } from '../../common/text';

/** ESC and the 8-bit C1 controls that start or end a sequence. */
const INTRODUCER = /[\u001b\u0090\u0098\u009b-\u009f]/;

/** The start of a string sequence: OSC, DCS, SOS, PM, APC, screen title. */
const STRING_START = String.raw`(?:\u001b[\]PX^_k]|[\u0090\u0098\u009d-\u009f])`;

/**
 * What strip-ansi leaves: a CSI without its final byte (ended at the first
 * byte that cannot belong to it, which is kept); a string sequence without
 * its terminator, ended at the end of its line (so one stray OSC never
 * swallows the rest of an output), at the next ESC, or by BEL, CAN or SUB;
 * an ESC with no valid sequence after it; a stray 8-bit ST.
 */
const LEFTOVER = new RegExp(
  [
    String.raw`(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*`,
    String.raw`${STRING_START}[^\n\u0007\u0018\u001a\u001b\u0080-\u009f]*[\u0007\u0018\u001a]?`,
    String.raw`\u001b[\u0020-\u002f]*`,
    String.raw`\u009c`
  ].join('|'),
  'g'
);

/**
 * A string sequence still open at the end of a cut prefix, with perhaps the
 * ESC of its `ESC \` terminator: given the whole text, strip-ansi may find
 * the terminator further on and remove all of it, lines included.
 */
const OPEN_AT_END = new RegExp(
  String.raw`${STRING_START}[^\u0018\u001a\u001b\u0080-\u009f]*\u001b?$`
);

/** Remove what strip-ansi left (see `LEFTOVER`). */
function dropLeftovers(text: string): string {
  return INTRODUCER.test(text) ? text.replace(LEFTOVER, '') : text;
}

/**
 * Remove ANSI escape sequences: CSI (colours, cursor moves, erase), OSC
 * (titles, hyperlinks), the other string sequences, two- and three-character
 * ESC sequences, their 8-bit C1 forms, and any of them cut short or
 * malformed. Linear in the length of the text.
 */
export function stripAnsi(text: string): string {
  return dropLeftovers(stripAnsiLib(text));
}

/**
 * Strip ANSI sequences, then bound to `maxBytes` of UTF-8, with the same
 * result as `boundUtf8(stripAnsi(text), maxBytes)`.
 *
 * Stripping only removes characters, so once a stripped prefix overflows the
 * bound, the rest of a huge text is never looked at. Only the end of a
 * prefix can strip differently from the whole text: a sequence cut there.
 * A cut CSI or ESC sequence is dropped either way; a string sequence still
 * open there is left out of the prefix's text (`OPEN_AT_END`), since the
 * whole text may close it much later.
 */
export function cleanBound(text: string, maxBytes: number): IBoundedText {
  for (let take = maxBytes + 64; ; take *= 2) {
    if (take >= text.length) {
      return boundUtf8(stripAnsi(text), maxBytes);
    }
    const stripped = stripAnsiLib(text.slice(0, take));
    const clean = dropLeftovers(stripped.replace(OPEN_AT_END, ''));
    if (utf8Length(clean) > maxBytes) {
      return boundUtf8(clean, maxBytes);
    }
  }
}
