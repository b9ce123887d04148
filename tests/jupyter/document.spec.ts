import { changedOnDisk } from '../../src/jupyter/document';

describe('changedOnDisk (the check before an agent save)', () => {
  const t0 = '2026-12-02T06:00:00.000Z';
  const later = (ms: number) => new Date(Date.parse(t0) + ms).toISOString();

  it('compares hashes when both sides have one', () => {
    expect(changedOnDisk({ hash: 'a' }, { hash: 'a' }, 500)).toBe(false);
    expect(changedOnDisk({ hash: 'a' }, { hash: 'b' }, 500)).toBe(true);
    // a hash decides even when the times say otherwise
    expect(
      changedOnDisk(
        { hash: 'a', last_modified: t0 },
        { hash: 'a', last_modified: later(60_000) },
        500
      )
    ).toBe(false);
  });

  it('else takes a file newer on disk by more than the margin as changed', () => {
    expect(
      changedOnDisk({ last_modified: t0 }, { last_modified: later(500) }, 500)
    ).toBe(false);
    expect(
      changedOnDisk({ last_modified: t0 }, { last_modified: later(501) }, 500)
    ).toBe(true);
    expect(
      changedOnDisk(
        { hash: null, last_modified: t0 },
        { hash: 'b', last_modified: later(-10_000) },
        500
      )
    ).toBe(false);
  });

  it('knows of no change when the page has no version of the file', () => {
    expect(changedOnDisk(null, { hash: 'b' }, 500)).toBe(false);
    expect(changedOnDisk({}, { last_modified: t0 }, 500)).toBe(false);
  });
});
