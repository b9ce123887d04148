import type { Contents } from '@jupyterlab/services';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import {
  MAX_FILE_WRITE_ATTEMPTS,
  NotebookAccessRelay,
  type ITabAccessHost,
  readFileNotebookAccess,
  readNotebookFileAccess,
  withFileNotebookAccess,
  writeNotebookFileAccess
} from '../../src/access/notebook-file';
import { FakeBus, FakeContents } from './fakes';

/** A notebook with everything a real file carries, in an unusual key order. */
function richNotebook(access?: unknown): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    language_info: { name: 'python', version: '3.12.1' },
    kernelspec: { name: 'python3', display_name: 'Python 3', language: 'py' },
    jupyterlite_webmcp_review: { version: 1, threads: [{ id: 't1' }] },
    custom: { nested: [1, 2, { deep: null }], unicode: 'é😀' }
  };
  if (access !== undefined) {
    metadata[ACCESS_METADATA_KEY] = access;
  }
  return {
    nbformat_minor: 5,
    cells: [
      {
        id: 'c1',
        cell_type: 'code',
        execution_count: 3,
        metadata: {
          [ACCESS_METADATA_KEY]: { version: 1, access: 'read' },
          tags: ['x']
        },
        outputs: [
          {
            output_type: 'stream',
            name: 'stdout',
            text: ['line 1\n', 'line 2\n']
          }
        ],
        source: ['print(1)\n', 'print(2)']
      },
      { id: 'm1', cell_type: 'markdown', metadata: {}, source: '# Title' }
    ],
    metadata,
    nbformat: 4,
    extra_top_level: { kept: true }
  };
}

const KEY = ACCESS_METADATA_KEY;

describe('readFileNotebookAccess', () => {
  it.each([
    ['no metadata key', richNotebook(), { access: 'write', valid: true }],
    [
      'read',
      richNotebook({ version: 1, notebookAccess: 'read' }),
      { access: 'read', valid: true }
    ],
    [
      'a typo',
      richNotebook({ version: 1, notebookAccess: 'Hidden' }),
      { access: 'none', valid: false, raw: 'Hidden' }
    ],
    [
      'a non-object key',
      richNotebook(7),
      { access: 'none', valid: false, raw: 7 }
    ],
    ['no metadata at all', { cells: [] }, { access: 'write', valid: true }]
  ])('%s', (_, content, reading) => {
    expect(readFileNotebookAccess(content)).toEqual(reading);
  });
});

describe('withFileNotebookAccess', () => {
  it('changes nothing but the access field of the notebook metadata', () => {
    const before = richNotebook();
    const snapshot = JSON.stringify(before);
    const next = withFileNotebookAccess(before, 'none')!;
    // the input is not changed
    expect(JSON.stringify(before)).toBe(snapshot);
    // the same keys, in the same order, with the same values
    expect(Object.keys(next)).toEqual(Object.keys(before));
    for (const key of Object.keys(before)) {
      if (key !== 'metadata') {
        expect(next[key]).toBe(before[key]);
      }
    }
    const metadata = next.metadata as Record<string, unknown>;
    const original = before.metadata as Record<string, unknown>;
    expect(Object.keys(metadata)).toEqual([...Object.keys(original), KEY]);
    for (const key of Object.keys(original)) {
      expect(metadata[key]).toBe(original[key]);
    }
    expect(metadata[KEY]).toEqual({ version: 1, notebookAccess: 'none' });
    // the cells' own access is not the notebook's
    expect(JSON.stringify(next.cells)).toBe(JSON.stringify(before.cells));
  });

  it('deletes the key when write leaves nothing under it', () => {
    const before = richNotebook({ version: 1, notebookAccess: 'read' });
    const next = withFileNotebookAccess(before, 'write')!;
    expect(next.metadata).not.toHaveProperty(KEY);
    expect(JSON.stringify(next)).toBe(JSON.stringify(richNotebook()));
  });

  it('keeps other fields under the key, and a later version', () => {
    const before = richNotebook({ version: 3, notebookAccess: 'none', x: 1 });
    const next = withFileNotebookAccess(before, 'write')!;
    expect((next.metadata as Record<string, unknown>)[KEY]).toEqual({
      version: 3,
      x: 1
    });
  });

  it('returns null when the file already says so', () => {
    expect(withFileNotebookAccess(richNotebook(), 'write')).toBeNull();
    expect(
      withFileNotebookAccess(
        richNotebook({ version: 1, notebookAccess: 'read' }),
        'read'
      )
    ).toBeNull();
  });

  it('repairs an invalid value', () => {
    const next = withFileNotebookAccess(
      richNotebook({ notebookAccess: 'READ' }),
      'none'
    )!;
    expect((next.metadata as Record<string, unknown>)[KEY]).toEqual({
      version: 1,
      notebookAccess: 'none'
    });
  });

  it('adds metadata to a notebook that has none', () => {
    const next = withFileNotebookAccess({ cells: [], nbformat: 4 }, 'read');
    expect(next).toEqual({
      cells: [],
      nbformat: 4,
      metadata: { [KEY]: { version: 1, notebookAccess: 'read' } }
    });
  });

  it('refuses what is not notebook JSON', () => {
    expect(() => withFileNotebookAccess('text', 'read')).toThrow(
      'not a notebook'
    );
    expect(() => withFileNotebookAccess({ metadata: {} }, 'read')).toThrow(
      'not a notebook'
    );
    expect(() =>
      withFileNotebookAccess({ cells: [], metadata: [] }, 'read')
    ).toThrow('metadata is not an object');
  });
});

describe('writeNotebookFileAccess', () => {
  let contents: FakeContents;
  const manager = () => contents as unknown as Contents.IManager;

  beforeEach(() => {
    contents = new FakeContents();
  });

  it('writes the file with only the metadata field changed', async () => {
    contents.addNotebook('dir/nb.ipynb', richNotebook());
    const result = await writeNotebookFileAccess(
      manager(),
      'dir/nb.ipynb',
      'read'
    );
    expect(result).toEqual({
      path: 'dir/nb.ipynb',
      previous: { access: 'write', valid: true },
      access: 'read',
      changed: true
    });
    const expected = richNotebook({ version: 1, notebookAccess: 'read' });
    expect(contents.text('dir/nb.ipynb')).toBe(JSON.stringify(expected));
    expect(await readNotebookFileAccess(manager(), 'dir/nb.ipynb')).toEqual({
      access: 'read',
      valid: true
    });
  });

  it('chooses the access from what the file says (a cycle step)', async () => {
    contents.addNotebook(
      'nb.ipynb',
      richNotebook({ version: 1, notebookAccess: 'read' })
    );
    const seen: unknown[] = [];
    const result = await writeNotebookFileAccess(
      manager(),
      'nb.ipynb',
      previous => {
        seen.push(previous);
        return 'none';
      }
    );
    expect(seen).toEqual([{ access: 'read', valid: true }]);
    expect(result.access).toBe('none');
    expect(contents.notebook('nb.ipynb').metadata).toMatchObject({
      [KEY]: { version: 1, notebookAccess: 'none' }
    });
  });

  it('does not save when nothing changes', async () => {
    contents.addNotebook('nb.ipynb', richNotebook());
    const result = await writeNotebookFileAccess(
      manager(),
      'nb.ipynb',
      'write'
    );
    expect(result.changed).toBe(false);
    expect(contents.saves).toEqual([]);
  });

  it('starts over when the file changes between read and save', async () => {
    contents.addNotebook('nb.ipynb', richNotebook());
    let reads = 0;
    contents.beforeGet = (path, content) => {
      // a collaborator saves once, right after the first full read
      if (!content && reads++ === 0) {
        const changed = richNotebook();
        (changed.cells as unknown[]).push({
          id: 'new',
          cell_type: 'raw',
          metadata: {},
          source: 'added'
        });
        contents.addNotebook(path, changed);
      }
    };
    await writeNotebookFileAccess(manager(), 'nb.ipynb', 'none');
    const saved = contents.notebook('nb.ipynb');
    // the collaborator's cell survived, and the access was written
    expect((saved.cells as { id: string }[]).map(cell => cell.id)).toEqual([
      'c1',
      'm1',
      'new'
    ]);
    expect(saved.metadata).toMatchObject({
      [KEY]: { version: 1, notebookAccess: 'none' }
    });
    expect(contents.saves).toEqual(['nb.ipynb']);
  });

  it('gives up when the file keeps changing', async () => {
    contents.addNotebook('nb.ipynb', richNotebook());
    contents.beforeGet = (path, content) => {
      if (!content) {
        contents.addNotebook(path, richNotebook());
      }
    };
    await expect(
      writeNotebookFileAccess(manager(), 'nb.ipynb', 'none')
    ).rejects.toThrow('kept changing');
    expect(contents.saves).toEqual([]);
    expect(MAX_FILE_WRITE_ATTEMPTS).toBe(3);
  });

  it('fails on a missing file or one that is not a notebook', async () => {
    await expect(
      writeNotebookFileAccess(manager(), 'missing.ipynb', 'read')
    ).rejects.toThrow('not found');
    contents.setText('broken.ipynb', '{"cells": 3}');
    await expect(
      writeNotebookFileAccess(manager(), 'broken.ipynb', 'read')
    ).rejects.toThrow('not a notebook');
    expect(contents.saves).toEqual([]);
  });
});

describe('NotebookAccessRelay', () => {
  const reading = { access: 'read' as const, valid: true };
  let bus: FakeBus;
  let relays: NotebookAccessRelay[];

  /** A tab whose open notebooks are `open`. */
  function tab(open: string[], timeoutMs = 2000) {
    const writes: [string, string][] = [];
    const host: ITabAccessHost = {
      read: async path => (open.includes(path) ? reading : null),
      write: async (path, access) => {
        if (!open.includes(path)) {
          return null;
        }
        writes.push([path, access]);
        return { previous: reading, changed: true, saved: true };
      }
    };
    const relay = new NotebookAccessRelay({
      host,
      channel: bus.channel(),
      timeoutMs
    });
    relays.push(relay);
    return { relay, writes };
  }

  beforeEach(() => {
    bus = new FakeBus();
    relays = [];
  });

  afterEach(() => {
    relays.forEach(relay => relay.dispose());
  });

  it('asks the other tabs, and the one with the notebook answers', async () => {
    const tree = tab([]);
    const notebook = tab(['a.ipynb']);
    tab(['other.ipynb']);
    expect(await tree.relay.read('a.ipynb')).toEqual(reading);
    expect(await tree.relay.write('a.ipynb', 'none')).toEqual({
      previous: reading,
      changed: true,
      saved: true
    });
    expect(notebook.writes).toEqual([['a.ipynb', 'none']]);
  });

  it('hears nothing back when no tab has the notebook open', async () => {
    const tree = tab([], 50);
    tab(['other.ipynb']);
    expect(await tree.relay.read('a.ipynb')).toBeNull();
  });

  it('never answers its own questions', async () => {
    const alone = tab(['a.ipynb'], 50);
    expect(await alone.relay.read('a.ipynb')).toBeNull();
    expect(alone.writes).toEqual([]);
  });

  it('stops answering once disposed', async () => {
    const tree = tab([], 50);
    const notebook = tab(['a.ipynb']);
    notebook.relay.dispose();
    expect(notebook.relay.isDisposed).toBe(true);
    expect(await tree.relay.read('a.ipynb')).toBeNull();
    expect(await notebook.relay.read('a.ipynb')).toBeNull();
  });
});
