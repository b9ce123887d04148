import { LIMITS } from '../../../src/limits';
import { boundedHtmlText, htmlToText } from '../../../src/jupyter/outputs/html';
import { TRUNCATION_MARKER } from '../../../src/common/text';

/** UTF-8 bytes, measured independently of the module under test. */
const bytes = (text: string): number => new TextEncoder().encode(text).length;

describe('htmlToText', () => {
  it('keeps a DataFrame table readable: rows on lines, cells tab-separated', () => {
    const html = `<div>
<style scoped>
    .dataframe tbody tr th:only-of-type { vertical-align: middle; }
</style>
<table border="1" class="dataframe">
  <thead>
    <tr style="text-align: right;">
      <th></th>
      <th>name</th>
      <th>score</th>
    </tr>
  </thead>
  <tbody>
    <tr>
      <th>0</th>
      <td>Ada &amp; Grace</td>
      <td>1.5</td>
    </tr>
    <tr>
      <th>1</th>
      <td>Linus</td>
      <td>2.0</td>
    </tr>
  </tbody>
</table>
<p>2 rows &times; 2 columns</p>
</div>`;
    expect(htmlToText(html)).toBe(
      '\tname\tscore\n0\tAda & Grace\t1.5\n1\tLinus\t2.0\n\n2 rows × 2 columns'
    );
  });

  it('drops scripts, styles and comments, and decodes entities', () => {
    const html =
      '<p>a&nbsp;b &lt;tag&gt; &#65;&#x42; &quot;q&quot;</p>' +
      '<script>alert("<p>no</p>")</script><!-- hidden --><style>p{}</style>' +
      '<p>end &unknown; &amp</p>';
    // `&amp` without `;` is one of HTML's legacy references: decoded.
    expect(htmlToText(html)).toBe('a b <tag> AB "q"\n\nend &unknown; &');
  });

  it('collapses whitespace but keeps pre text and br line breaks', () => {
    const html =
      '<p>  many \n  spaces  here </p><pre>\n  x = 1\n  y = 2\n</pre>line<br>next<br/><br>last';
    expect(htmlToText(html)).toBe(
      'many spaces here\n\n  x = 1\n  y = 2\n\nline\nnext\n\nlast'
    );
  });

  it('puts list items on their own lines', () => {
    expect(htmlToText('<ul><li>one</li><li>two <b>bold</b></li></ul>')).toBe(
      'one\ntwo bold'
    );
  });

  it('survives malformed HTML without losing text', () => {
    expect(htmlToText('a < b and c > d')).toBe('a < b and c > d');
    // A tag cut off by the end of the input is dropped, as a browser does.
    expect(htmlToText('<b>bold</b> then <i class="x')).toBe('bold then');
    expect(htmlToText('<p title="a > b">quoted</p>')).toBe('quoted');
    expect(htmlToText('<script>never closed')).toBe('');
    expect(htmlToText('</>text<!doctype html><?php ?>')).toBe('text');
  });

  it('puts every row of a table on its own line', () => {
    const row = '<tr><td>1</td><td>two</td></tr>';
    const text = htmlToText(`<table>${row.repeat(500)}</table>`);
    expect(text.split('\n')).toHaveLength(500);
    expect(text.split('\n').every(line => line === '1\ttwo')).toBe(true);
  });

  it('decodes numeric references, replacing invalid code points', () => {
    expect(htmlToText('&#128512; &#x1F600; &#0; &#xD800;')).toBe(
      '😀 😀 \ufffd \ufffd'
    );
  });

  it('drops noscript content even at the very start', () => {
    expect(htmlToText('<noscript>enable JavaScript</noscript>shown')).toBe(
      'shown'
    );
  });

  it('never runs scripts or event handlers', () => {
    const fired = jest.fn();
    (window as unknown as { fired: () => void }).fired = fired;
    const text = htmlToText(
      '<script>window.fired()</script><img src="x" onerror="window.fired()">' +
        '<p onclick="window.fired()">shown</p>'
    );
    expect(text).toBe('shown');
    expect(fired).not.toHaveBeenCalled();
  });
});

describe('boundedHtmlText', () => {
  const MAX = LIMITS.MAX_HTML_OUTPUT_BYTES;

  it('reduces, strips ANSI and bounds, marking a cut', () => {
    expect(boundedHtmlText('<p>\u001b[31mred\u001b[0m</p>', MAX)).toEqual({
      text: 'red',
      truncated: false
    });
    const long = boundedHtmlText(`<p>${'word '.repeat(5000)}</p>`, MAX);
    expect(long.truncated).toBe(true);
    expect(bytes(long.text)).toBeLessThanOrEqual(MAX);
    expect(long.text.endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it('parses only a bounded prefix of a huge table', () => {
    // A small bound keeps jsdom quick; the cap scales with the bound.
    const max = 256;
    const parse = jest.spyOn(DOMParser.prototype, 'parseFromString');
    const row = '<tr><td>1</td><td>two</td></tr>';
    const html = `<table>${row.repeat(100_000)}</table>`;
    const { text, truncated } = boundedHtmlText(html, max);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(parse.mock.calls[0][0]).toBe(`<body>${html.slice(0, 64 * max)}`);
    parse.mockRestore();
    expect(truncated).toBe(true);
    expect(bytes(text)).toBeLessThanOrEqual(max);
    expect(bytes(text)).toBeGreaterThan(max - 20);
    expect(text.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(text.startsWith('1\ttwo\n1\ttwo\n')).toBe(true);
  });

  it('never cuts the parsed HTML inside a surrogate pair', () => {
    const max = 64;
    const html = 'a' + '😀'.repeat(64 * max);
    const parse = jest.spyOn(DOMParser.prototype, 'parseFromString');
    boundedHtmlText(html, max);
    expect(parse.mock.calls[0][0]).toBe(`<body>${html.slice(0, 64 * max - 1)}`);
    parse.mockRestore();
  });

  it('marks text cut short by the parse cap even when it fits', () => {
    // An embedded library: megabytes of script, a line of text after it.
    const html = `<script>${'x'.repeat(1_000_000)}</script><p>caption</p>`;
    expect(boundedHtmlText(html, MAX)).toEqual({
      text: TRUNCATION_MARKER,
      truncated: true
    });
    const shown = boundedHtmlText(`<p>intro</p>${html}`, MAX);
    expect(shown).toEqual({
      text: `intro${TRUNCATION_MARKER}`,
      truncated: true
    });
  });
});
