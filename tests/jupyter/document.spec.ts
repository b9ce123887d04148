import { Signal } from '@lumino/signaling';

import {
  caughtUpWithFile,
  changedOnDisk,
  type IFileStamp
} from '../../src/jupyter/document';

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

describe("caughtUpWithFile (a collaborative save waiting for the server's own write)", () => {
  /**
   * A page whose stamp of the file changes as the collaborative provider's
   * news arrives, and a file the server writes.
   */
  function setUp(page: string, file: string | null) {
    const owner = {};
    const fileChanged = new Signal<object, IFileStamp>(owner);
    const state = { page: { hash: page } as IFileStamp, file, reads: 0 };
    return {
      state,
      /** The page hears of the file's stamp `hash`. */
      hear(hash: string) {
        state.page = { hash };
        fileChanged.emit(state.page);
      },
      wait(waitMs: number) {
        return caughtUpWithFile({
          fileChanged,
          pageStamp: () => state.page,
          diskStamp: async () => {
            state.reads++;
            return state.file === null ? null : { hash: state.file };
          },
          disk: { hash: file ?? '' },
          marginMs: 500,
          waitMs
        });
      }
    };
  }

  it('answers true once the page hears of the write, without waiting it out', async () => {
    const page = setUp('h1', 'h2');
    const started = Date.now();
    const waiting = page.wait(10_000);
    setTimeout(() => page.hear('h2'), 20);
    await expect(waiting).resolves.toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(page.state.reads).toBe(1);
  });

  it('follows a server that writes again meanwhile', async () => {
    const page = setUp('h1', 'h2');
    const waiting = page.wait(10_000);
    setTimeout(() => {
      page.state.file = 'h3';
      page.hear('h2');
      setTimeout(() => page.hear('h3'), 20);
    }, 20);
    await expect(waiting).resolves.toBe(true);
    expect(page.state.reads).toBe(2);
  });

  it('answers false when the page never hears of it: a change from elsewhere', async () => {
    const page = setUp('h1', 'h2');
    await expect(page.wait(50)).resolves.toBe(false);
    // read once more at the end
    expect(page.state.reads).toBe(1);
  });

  it('answers false when what the page hears is not the file', async () => {
    const page = setUp('h1', 'h2');
    const waiting = page.wait(100);
    setTimeout(() => page.hear('h1b'), 10);
    await expect(waiting).resolves.toBe(false);
  });

  it('answers true when the stamps already match, or the file is gone', async () => {
    const same = setUp('h2', 'h2');
    await expect(same.wait(10_000)).resolves.toBe(true);
    expect(same.state.reads).toBe(0);
    const gone = setUp('h1', 'h2');
    const waiting = gone.wait(10_000);
    setTimeout(() => {
      gone.state.file = null;
      gone.hear('h1c');
    }, 10);
    await expect(waiting).resolves.toBe(true);
  });
});
