/**
 * Characters that change how text looks without being seen: bidirectional
 * controls (the "Trojan Source" attack, CVE-2021-42574, makes code read
 * differently from what it is), zero-width and other invisible characters,
 * and Unicode tag characters (which smuggle words to a model unseen).
 * Wherever our UI shows text an agent wrote or a notebook holds, each is
 * drawn as a visible mark that names its code point, never obeyed.
 * Pure: no JupyterLab import.
 *
 * Written here rather than taken from a library: the set is the issue's
 * list (a few dozen code points and one range), and the libraries that mark
 * such characters do it inside an editor (CodeMirror's special-character
 * extension), not for plain DOM text.
 */

/** One such character, as the UI names it. */
export interface IInvisibleChar {
  /** The character itself (two UTF-16 units for a tag character). */
  readonly char: string;
  readonly codePoint: number;
  /** `U+202E` */
  readonly label: string;
  /** `RIGHT-TO-LEFT OVERRIDE` */
  readonly name: string;
  readonly kind: 'direction' | 'invisible' | 'tag';
}

const NAMES: Record<number, [string, IInvisibleChar['kind']]> = {
  0x202a: ['LEFT-TO-RIGHT EMBEDDING', 'direction'],
  0x202b: ['RIGHT-TO-LEFT EMBEDDING', 'direction'],
  0x202c: ['POP DIRECTIONAL FORMATTING', 'direction'],
  0x202d: ['LEFT-TO-RIGHT OVERRIDE', 'direction'],
  0x202e: ['RIGHT-TO-LEFT OVERRIDE', 'direction'],
  0x2066: ['LEFT-TO-RIGHT ISOLATE', 'direction'],
  0x2067: ['RIGHT-TO-LEFT ISOLATE', 'direction'],
  0x2068: ['FIRST STRONG ISOLATE', 'direction'],
  0x2069: ['POP DIRECTIONAL ISOLATE', 'direction'],
  0x200e: ['LEFT-TO-RIGHT MARK', 'direction'],
  0x200f: ['RIGHT-TO-LEFT MARK', 'direction'],
  0x061c: ['ARABIC LETTER MARK', 'direction'],
  0x200b: ['ZERO WIDTH SPACE', 'invisible'],
  0x200c: ['ZERO WIDTH NON-JOINER', 'invisible'],
  0x200d: ['ZERO WIDTH JOINER', 'invisible'],
  0x2060: ['WORD JOINER', 'invisible'],
  0x2061: ['FUNCTION APPLICATION', 'invisible'],
  0x2062: ['INVISIBLE TIMES', 'invisible'],
  0x2063: ['INVISIBLE SEPARATOR', 'invisible'],
  0x2064: ['INVISIBLE PLUS', 'invisible'],
  0xfeff: ['ZERO WIDTH NO-BREAK SPACE', 'invisible'],
  0x00ad: ['SOFT HYPHEN', 'invisible'],
  0x180e: ['MONGOLIAN VOWEL SEPARATOR', 'invisible'],
  0x115f: ['HANGUL CHOSEONG FILLER', 'invisible'],
  0x1160: ['HANGUL JUNGSEONG FILLER', 'invisible'],
  0x3164: ['HANGUL FILLER', 'invisible']
};

const TAG_FIRST = 0xe0000;
const TAG_LAST = 0xe007f;

/**
 * A quick test for any of them: the listed code points, and a high
 * surrogate of plane 14 for the tags (checked exactly by `describe`).
 */
const ANY =
  /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060-\u2064\uFEFF\u00AD\u180E\u115F\u1160\u3164]|\uDB40[\uDC00-\uDC7F]/;
const ALL = new RegExp(ANY.source, 'g');

/** Whether a text holds any such character. */
export function hasInvisibles(text: string): boolean {
  return ANY.test(text);
}

/** The name of one such character, or null for any other. */
export function describeInvisible(char: string): IInvisibleChar | null {
  const codePoint = char.codePointAt(0);
  if (codePoint === undefined || String.fromCodePoint(codePoint) !== char) {
    return null;
  }
  const label = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  if (codePoint >= TAG_FIRST && codePoint <= TAG_LAST) {
    const ascii = codePoint - TAG_FIRST;
    const name =
      ascii === 0x01
        ? 'LANGUAGE TAG'
        : ascii === 0x7f
          ? 'CANCEL TAG'
          : ascii >= 0x20 && ascii < 0x7f
            ? `TAG ${JSON.stringify(String.fromCharCode(ascii))}`
            : 'TAG';
    return { char, codePoint, label, name, kind: 'tag' };
  }
  const known = NAMES[codePoint];
  return known
    ? { char, codePoint, label, name: known[0], kind: known[1] }
    : null;
}

/** How many such characters a text holds. */
export function countInvisibles(text: string): number {
  if (!ANY.test(text)) {
    return 0;
  }
  let count = 0;
  for (const match of text.matchAll(ALL)) {
    if (describeInvisible(match[0])) {
      count++;
    }
  }
  return count;
}

/** A piece of text to show: plain text, or one character to mark. */
export type RevealedPiece = string | IInvisibleChar;

/**
 * The text cut into plain runs and the characters to mark, in order: joined
 * back (each mark as its `char`), it is the text.
 */
export function splitInvisibles(text: string): RevealedPiece[] {
  if (!ANY.test(text)) {
    return text === '' ? [] : [text];
  }
  const pieces: RevealedPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(ALL)) {
    const found = describeInvisible(match[0]);
    if (!found) {
      continue;
    }
    const index = match.index ?? 0;
    if (index > last) {
      pieces.push(text.slice(last, index));
    }
    pieces.push(found);
    last = index + match[0].length;
  }
  if (last < text.length) {
    pieces.push(text.slice(last));
  }
  return pieces;
}

/** How a mark reads on screen and to a screen reader: `⟦U+202E⟧`. */
export function markText(char: IInvisibleChar): string {
  return `⟦${char.label}⟧`;
}

/**
 * The text for a place that takes plain text only (a tooltip, an
 * `aria-label`): every such character replaced by its mark.
 */
export function revealText(text: string): string {
  return splitInvisibles(text)
    .map(piece => (typeof piece === 'string' ? piece : markText(piece)))
    .join('');
}
