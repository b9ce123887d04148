import {
  REVISION_CHUNK,
  chunkDigest,
  revisionFromChunks,
  revisionOf,
  sourceHash
} from '../../src/common/hash';

// Vectors pinned from `printf 'TYPE\nSOURCE' | sha256sum | cut -c1-16`, an
// implementation independent of the one under test. A hash read in one
// session guards a write in another (another tab, another browser, a newer
// version of the extension), so any change of algorithm, encoding or layout
// must fail here rather than turn every hash an agent holds into STALE_CELL.
const VECTORS: { type: string; source: string; hash: string }[] = [
  { type: 'code', source: 'print(1)', hash: 'sha256:e1f73808d954be2b' },
  { type: 'markdown', source: 'print(1)', hash: 'sha256:5cba1c114fdddd1c' },
  { type: 'markdown', source: '# Title', hash: 'sha256:1b0c16dd8dceb4e5' },
  { type: 'code', source: '', hash: 'sha256:b57b236c9bcd2a61' },
  // UTF-8, not UTF-16: é (2 bytes), € (3 bytes), 😀 (4 bytes, a surrogate pair)
  { type: 'code', source: 'x = "é€😀"', hash: 'sha256:296334d9d2e9ff00' }
];

describe('sourceHash', () => {
  it('matches the pinned vectors', () => {
    for (const { type, source, hash } of VECTORS) {
      expect(sourceHash(type, source)).toBe(hash);
    }
  });

  it('is "sha256:" and 16 lowercase hex digits', () => {
    for (const { type, source } of VECTORS) {
      expect(sourceHash(type, source)).toMatch(/^sha256:[0-9a-f]{16}$/);
    }
  });

  it('is deterministic across calls', () => {
    const source = 'import numpy as np\nnp.arange(10)\n';
    const first = sourceHash('code', source);
    for (let i = 0; i < 5; i++) {
      expect(sourceHash('code', source)).toBe(first);
      // a copy built differently is the same string, so the same hash
      expect(sourceHash('code', [...source].join(''))).toBe(first);
    }
  });

  it('depends on the cell type: same source, different type, different hash', () => {
    const source = '# Results';
    const hashes = ['code', 'markdown', 'raw'].map(type =>
      sourceHash(type, source)
    );
    expect(new Set(hashes).size).toBe(3);
  });

  it('depends on the source, down to one character or a trailing newline', () => {
    const base = sourceHash('code', 'x = 1');
    expect(sourceHash('code', 'x = 2')).not.toBe(base);
    expect(sourceHash('code', 'x = 1\n')).not.toBe(base);
    expect(sourceHash('code', ' x = 1')).not.toBe(base);
    expect(sourceHash('code', 'X = 1')).not.toBe(base);
  });

  it('hashes long sources without cutting them', () => {
    const long = 'a'.repeat(300 * 1024);
    expect(sourceHash('code', long)).not.toBe(
      sourceHash('code', `${long.slice(0, -1)}b`)
    );
  });
});

describe('revisionOf', () => {
  const a = { id: 'a', sourceHash: sourceHash('code', 'print(1)') };
  const b = { id: 'b', sourceHash: sourceHash('markdown', '# Title') };

  it('matches a pinned vector', () => {
    // one chunk, whose digest is hashed again:
    // printf 'c1:sha256:e1f73808d954be2b;' | sha256sum | cut -c1-16
    //   -> ef9a1db561bdd3c9
    // printf ef9a1db561bdd3c9 | sha256sum | cut -c1-16
    expect(
      revisionOf([{ id: 'c1', sourceHash: 'sha256:e1f73808d954be2b' }])
    ).toBe('rev:99be75220243603e');
    // no visible cell: the hash of the empty string
    expect(revisionOf([])).toBe('rev:e3b0c44298fc1c14');
  });

  it('is deterministic and accepts any iterable', () => {
    function* parts() {
      yield a;
      yield b;
    }
    expect(revisionOf([a, b])).toBe(revisionOf([a, b]));
    expect(revisionOf(parts())).toBe(revisionOf([a, b]));
    expect(revisionOf([a, b])).toMatch(/^rev:[0-9a-f]{16}$/);
  });

  it('depends on the order of the cells', () => {
    expect(revisionOf([a, b])).not.toBe(revisionOf([b, a]));
  });

  it('depends on ids and on source hashes', () => {
    const base = revisionOf([a, b]);
    expect(revisionOf([{ ...a, id: 'z' }, b])).not.toBe(base);
    expect(
      revisionOf([a, { ...b, sourceHash: sourceHash('markdown', '# Other') }])
    ).not.toBe(base);
    expect(revisionOf([a])).not.toBe(base);
    expect(revisionOf([a, b, a])).not.toBe(base);
  });
});

describe('revision chunks', () => {
  const parts = (count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => ({
      id: `c${from + i}`,
      sourceHash: sourceHash('code', `x = ${from + i}`)
    }));

  it('digests cells in chunks of REVISION_CHUNK, then the chunk digests', () => {
    const cells = parts(2 * REVISION_CHUNK + 1);
    expect(revisionOf(cells)).toBe(
      revisionFromChunks([
        chunkDigest(cells.slice(0, REVISION_CHUNK)),
        chunkDigest(cells.slice(REVISION_CHUNK, 2 * REVISION_CHUNK)),
        chunkDigest(cells.slice(2 * REVISION_CHUNK))
      ])
    );
  });

  it('changes when a cell moves across a chunk boundary', () => {
    const cells = parts(REVISION_CHUNK + 1);
    const moved = [...cells.slice(1, REVISION_CHUNK), cells[0], cells.at(-1)!];
    expect(revisionOf(moved)).not.toBe(revisionOf(cells));
  });
});
