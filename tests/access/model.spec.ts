import { YNotebook } from '@jupyter/ydoc';
import {
  ACCESS_METADATA_KEY,
  ACCESS_METADATA_VERSION,
  appendHistory,
  type IHistoryEntry,
  isAgentAccess,
  lastEdited,
  nextAccess,
  readCellAccess,
  readHistory,
  readNotebookAccess,
  withCellAccess,
  withHistory,
  withNotebookAccess
} from '../../src/access/model';
import { LIMITS } from '../../src/limits';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

/** An ISO timestamp `seconds` after T0. */
const at = (seconds: number): string =>
  new Date(T0 + seconds * 1000).toISOString();

const entry = (
  seconds: number,
  actor: IHistoryEntry['actor'] = 'human',
  action: IHistoryEntry['action'] = 'edited',
  tool?: string
): IHistoryEntry =>
  tool === undefined
    ? { at: at(seconds), actor, action }
    : { at: at(seconds), actor, action, tool };

describe('ACCESS_METADATA_KEY', () => {
  it('is the file-format name, with a version', () => {
    expect(ACCESS_METADATA_KEY).toBe('jupyterlite_webmcp');
    expect(ACCESS_METADATA_VERSION).toBe(1);
  });
});

describe('readCellAccess', () => {
  it('reads an absent key as write, valid', () => {
    expect(readCellAccess(undefined)).toEqual({ access: 'write', valid: true });
  });

  it('reads an object without access as write, valid', () => {
    expect(readCellAccess({ version: 1 })).toEqual({
      access: 'write',
      valid: true
    });
    expect(readCellAccess({ version: 1, history: [] })).toEqual({
      access: 'write',
      valid: true
    });
  });

  it.each(['write', 'read', 'none'] as const)('reads %s as itself', access => {
    expect(readCellAccess({ version: 1, access })).toEqual({
      access,
      valid: true
    });
  });

  it('reads a value stored without a version or with a later one', () => {
    expect(readCellAccess({ access: 'read' })).toEqual({
      access: 'read',
      valid: true
    });
    expect(readCellAccess({ version: 7, access: 'read' })).toEqual({
      access: 'read',
      valid: true
    });
  });

  it.each([
    ['an upper-case typo', 'READ'],
    ['a misspelling', 'raed'],
    ['padding', ' read'],
    ['null', null],
    ['a number', 0],
    ['a boolean', false],
    ['an array', ['read']],
    ['an object', { access: 'read' }],
    ['an empty string', '']
  ])('reads %s inside the object as none, invalid', (_label, raw) => {
    expect(readCellAccess({ version: 1, access: raw })).toEqual({
      access: 'none',
      valid: false,
      raw
    });
  });

  it.each([
    ['a string', 'read'],
    ['null', null],
    ['a number', 1],
    ['an array', [{ access: 'write' }]],
    ['true', true]
  ])('reads a key holding %s as none, invalid', (_label, raw) => {
    expect(readCellAccess(raw)).toEqual({ access: 'none', valid: false, raw });
  });

  it('does not read notebookAccess as cell access', () => {
    expect(readCellAccess({ version: 1, notebookAccess: 'none' })).toEqual({
      access: 'write',
      valid: true
    });
  });
});

describe('readNotebookAccess', () => {
  it('reads absence as write and a recognised value as itself', () => {
    expect(readNotebookAccess(undefined)).toEqual({
      access: 'write',
      valid: true
    });
    expect(readNotebookAccess({ version: 1 })).toEqual({
      access: 'write',
      valid: true
    });
    expect(readNotebookAccess({ version: 1, notebookAccess: 'read' })).toEqual({
      access: 'read',
      valid: true
    });
    expect(readNotebookAccess({ version: 1, notebookAccess: 'none' })).toEqual({
      access: 'none',
      valid: true
    });
  });

  it('reads anything else as none, invalid', () => {
    expect(readNotebookAccess({ notebookAccess: 'READ' })).toEqual({
      access: 'none',
      valid: false,
      raw: 'READ'
    });
    expect(readNotebookAccess({ notebookAccess: null })).toEqual({
      access: 'none',
      valid: false,
      raw: null
    });
    expect(readNotebookAccess('none')).toEqual({
      access: 'none',
      valid: false,
      raw: 'none'
    });
  });

  it('does not read cell access as notebook access', () => {
    expect(readNotebookAccess({ version: 1, access: 'none' })).toEqual({
      access: 'write',
      valid: true
    });
  });
});

describe('isAgentAccess', () => {
  it('accepts exactly the three values', () => {
    expect(['write', 'read', 'none'].every(isAgentAccess)).toBe(true);
    expect(['Write', 'READ', '', 'hidden', null, 1].some(isAgentAccess)).toBe(
      false
    );
  });
});

describe('nextAccess', () => {
  it('cycles write → read → none → write', () => {
    expect(nextAccess('write')).toBe('read');
    expect(nextAccess('read')).toBe('none');
    expect(nextAccess('none')).toBe('write');
  });

  it('repairs an invalid value to a valid none, never widening', () => {
    const reading = readCellAccess({ access: 'READ' });
    const next = nextAccess(reading.access, reading.valid);
    expect(next).toBe('none');
    const written = withCellAccess({ access: 'READ' }, next);
    expect(readCellAccess(written)).toEqual({ access: 'none', valid: true });
    // The next step continues the cycle.
    const again = readCellAccess(written);
    expect(nextAccess(again.access, again.valid)).toBe('write');
  });
});

describe('withCellAccess', () => {
  it('stores write as absence and deletes an otherwise empty key', () => {
    expect(withCellAccess(undefined, 'write')).toBeUndefined();
    expect(withCellAccess({ version: 1, access: 'read' }, 'write')).toBe(
      undefined
    );
    expect(
      withCellAccess({ version: 1, access: 'none', history: [] }, 'write')
    ).toBeUndefined();
  });

  it('writes a restriction with the version', () => {
    expect(withCellAccess(undefined, 'read')).toEqual({
      version: ACCESS_METADATA_VERSION,
      access: 'read'
    });
    expect(withCellAccess({ version: 1, access: 'read' }, 'none')).toEqual({
      version: 1,
      access: 'none'
    });
  });

  it('keeps the history and unknown fields', () => {
    const history = [entry(0)];
    const stored = { version: 1, access: 'none', history, note: 'kept' };
    expect(withCellAccess(stored, 'write')).toEqual({
      version: 1,
      history,
      note: 'kept'
    });
    expect(withCellAccess(stored, 'read')).toEqual({
      version: 1,
      access: 'read',
      history,
      note: 'kept'
    });
  });

  it('never mutates the stored value', () => {
    const stored = { version: 1, access: 'read', history: [entry(0)] };
    const copy = JSON.parse(JSON.stringify(stored));
    withCellAccess(stored, 'write');
    withCellAccess(stored, 'none');
    expect(stored).toEqual(copy);
  });

  it('returns the stored value itself when nothing changes', () => {
    const stored = { version: 1, access: 'read' };
    expect(withCellAccess(stored, 'read')).toBe(stored);
    const reordered = { access: 'none', version: 1 };
    expect(withCellAccess(reordered, 'none')).toBe(reordered);
  });

  it('adds a missing version, so the value is rewritten', () => {
    const stored = { access: 'read' };
    const next = withCellAccess(stored, 'read');
    expect(next).not.toBe(stored);
    expect(next).toEqual({ version: 1, access: 'read' });
  });

  it('keeps a later version number', () => {
    expect(withCellAccess({ version: 3, access: 'read' }, 'none')).toEqual({
      version: 3,
      access: 'none'
    });
  });

  it('replaces a stored value that is not an object', () => {
    expect(withCellAccess('garbage', 'read')).toEqual({
      version: 1,
      access: 'read'
    });
    expect(withCellAccess(null, 'write')).toBeUndefined();
    expect(withCellAccess([1, 2], 'none')).toEqual({
      version: 1,
      access: 'none'
    });
  });
});

describe('withNotebookAccess', () => {
  it('stores write as absence and keeps other fields', () => {
    expect(withNotebookAccess(undefined, 'write')).toBeUndefined();
    expect(withNotebookAccess(undefined, 'none')).toEqual({
      version: 1,
      notebookAccess: 'none'
    });
    expect(
      withNotebookAccess({ version: 1, notebookAccess: 'read' }, 'write')
    ).toBeUndefined();
    expect(
      withNotebookAccess({ version: 1, notebookAccess: 'read', x: 1 }, 'write')
    ).toEqual({ version: 1, x: 1 });
  });

  it('returns the stored value itself when nothing changes', () => {
    const stored = { version: 1, notebookAccess: 'none' };
    expect(withNotebookAccess(stored, 'none')).toBe(stored);
  });

  it('repairs an invalid notebook value', () => {
    expect(
      withNotebookAccess({ version: 1, notebookAccess: 'NONE' }, 'none')
    ).toEqual({ version: 1, notebookAccess: 'none' });
  });
});

describe('readHistory', () => {
  it('returns nothing for absent or malformed values, without throwing', () => {
    for (const value of [
      undefined,
      null,
      'history',
      42,
      [],
      { version: 1 },
      { history: null },
      { history: 'oops' },
      { history: { 0: entry(0) } },
      { history: 12 }
    ]) {
      expect(readHistory(value)).toEqual([]);
    }
  });

  it('keeps valid entries and drops malformed ones', () => {
    const history = [
      entry(0, 'human', 'inserted'),
      { at: at(1), actor: 'robot', action: 'edited' },
      { at: at(2), actor: 'agent', action: 'renamed' },
      { at: 'not a date', actor: 'human', action: 'edited' },
      { at: 12345, actor: 'human', action: 'edited' },
      { actor: 'human', action: 'edited' },
      { at: at(3), actor: 'HUMAN', action: 'edited' },
      { at: at(4), actor: 'human', action: null },
      null,
      'entry',
      7,
      [at(5), 'human', 'edited'],
      entry(6, 'agent', 'ran', 'jupyter_run_cells')
    ];
    expect(readHistory({ version: 1, history })).toEqual([
      entry(0, 'human', 'inserted'),
      entry(6, 'agent', 'ran', 'jupyter_run_cells')
    ]);
  });

  it('drops a malformed tool but keeps the entry', () => {
    const history = [
      { at: at(0), actor: 'agent', action: 'edited', tool: 42 },
      { at: at(1), actor: 'agent', action: 'edited', tool: '' },
      { at: at(2), actor: 'agent', action: 'edited', tool: 'x'.repeat(500) },
      { at: at(3), actor: 'agent', action: 'edited', extra: 'dropped' }
    ];
    expect(readHistory({ history })).toEqual([
      entry(0, 'agent'),
      entry(1, 'agent'),
      entry(2, 'agent'),
      entry(3, 'agent')
    ]);
  });

  it('normalizes parsable timestamps to ISO 8601', () => {
    expect(
      readHistory({
        history: [{ at: '2026-01-01', actor: 'human', action: 'edited' }]
      })
    ).toEqual([entry(0)]);
  });

  it('puts entries back in chronological order', () => {
    const history = [entry(30), entry(10, 'agent'), entry(20, 'human', 'ran')];
    expect(readHistory({ history })).toEqual([
      entry(10, 'agent'),
      entry(20, 'human', 'ran'),
      entry(30)
    ]);
  });

  it('keeps the most recent 20 of 10,000 entries, quickly', () => {
    const history: unknown[] = [];
    for (let i = 0; i < 10000; i++) {
      history.push(i % 7 === 5 ? { at: 'bad' } : entry(i * 120));
    }
    const started = Date.now();
    const read = readHistory({ version: 1, history });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(read).toHaveLength(LIMITS.MAX_CELL_HISTORY_ENTRIES);
    expect(read[read.length - 1]).toEqual(entry(9999 * 120));
    // Every seventh entry is malformed and dropped before the bound.
    const expected = history
      .map((_, i) => i)
      .filter(i => i % 7 !== 5)
      .slice(-20)
      .map(i => entry(i * 120));
    expect(read).toEqual(expected);
  });
});

describe('appendHistory', () => {
  it('appends a first entry', () => {
    expect(appendHistory([], entry(0))).toEqual([entry(0)]);
  });

  it('coalesces the same actor and action inside the window', () => {
    const first = entry(0, 'agent', 'edited', 'jupyter_update_cell');
    const second = entry(59, 'agent', 'edited', 'jupyter_insert_cell');
    expect(appendHistory([first], second)).toEqual([second]);
  });

  it('coalesces at exactly the window', () => {
    const seconds = LIMITS.HISTORY_COALESCE_WINDOW_MS / 1000;
    expect(appendHistory([entry(0)], entry(seconds))).toEqual([entry(seconds)]);
  });

  it('keeps the tool of the newer entry, even when it has none', () => {
    const first = entry(0, 'agent', 'ran', 'jupyter_run_cells');
    const second = entry(10, 'agent', 'ran');
    expect(appendHistory([first], second)).toEqual([second]);
  });

  it('does not coalesce outside the window', () => {
    const seconds = LIMITS.HISTORY_COALESCE_WINDOW_MS / 1000 + 1;
    expect(appendHistory([entry(0)], entry(seconds))).toEqual([
      entry(0),
      entry(seconds)
    ]);
  });

  it('slides the window with each coalesced entry', () => {
    let history: IHistoryEntry[] = [];
    for (let s = 0; s <= 300; s += 50) {
      history = appendHistory(history, entry(s));
    }
    expect(history).toEqual([entry(300)]);
  });

  it('does not coalesce across actors or actions', () => {
    const history = [entry(0, 'human', 'edited')];
    const byAgent = appendHistory(history, entry(1, 'agent', 'edited'));
    expect(byAgent).toHaveLength(2);
    const ran = appendHistory(history, entry(1, 'human', 'ran'));
    expect(ran).toHaveLength(2);
  });

  it('only looks at the last entry', () => {
    const history = [entry(0, 'human'), entry(1, 'agent')];
    expect(appendHistory(history, entry(2, 'human'))).toEqual([
      entry(0, 'human'),
      entry(1, 'agent'),
      entry(2, 'human')
    ]);
  });

  it('keeps the later timestamp when the new entry is slightly older', () => {
    // Clocks of collaborating browsers may disagree a little.
    const latest = entry(30, 'human');
    expect(appendHistory([latest], entry(20, 'human'))).toEqual([latest]);
  });

  it('keeps at most the last 20 entries', () => {
    let history: IHistoryEntry[] = [];
    for (let i = 0; i < 45; i++) {
      history = appendHistory(history, entry(i * 120));
    }
    expect(history).toHaveLength(LIMITS.MAX_CELL_HISTORY_ENTRIES);
    expect(history[0]).toEqual(entry(25 * 120));
    expect(history[19]).toEqual(entry(44 * 120));
  });

  it('ignores a malformed new entry and never mutates its input', () => {
    const history = [entry(0)];
    const copy = JSON.parse(JSON.stringify(history));
    const bad = { at: 'yesterday', actor: 'human', action: 'edited' } as const;
    expect(appendHistory(history, bad)).toEqual([entry(0)]);
    appendHistory(history, entry(10));
    appendHistory(history, entry(1000, 'agent'));
    expect(history).toEqual(copy);
  });
});

describe('withHistory', () => {
  it('writes the history with the version, keeping access', () => {
    expect(withHistory(undefined, [entry(0)])).toEqual({
      version: 1,
      history: [entry(0)]
    });
    expect(withHistory({ version: 1, access: 'read' }, [entry(0)])).toEqual({
      version: 1,
      access: 'read',
      history: [entry(0)]
    });
  });

  it('deletes the field, then the key, when the history is empty', () => {
    expect(withHistory({ version: 1, history: [entry(0)] }, [])).toBe(
      undefined
    );
    expect(
      withHistory({ version: 1, access: 'none', history: [entry(0)] }, [])
    ).toEqual({ version: 1, access: 'none' });
    expect(withHistory(undefined, [])).toBeUndefined();
  });

  it('fixes a malformed stored history on write', () => {
    const stored = { version: 1, access: 'read', history: 'broken' };
    expect(withHistory(stored, [entry(0)])).toEqual({
      version: 1,
      access: 'read',
      history: [entry(0)]
    });
  });

  it('sanitizes and bounds the entries it writes', () => {
    const entries = [
      ...Array.from({ length: 30 }, (_, i) => entry(i * 120)),
      { at: 'bad', actor: 'human', action: 'edited' } as IHistoryEntry
    ];
    const written = withHistory(undefined, entries);
    expect(readHistory(written)).toHaveLength(20);
    expect((written as { history: unknown[] }).history).toHaveLength(20);
  });

  it('keeps an invalid access as it is, still enforced as none', () => {
    const written = withHistory({ version: 1, access: 'READ' }, [entry(0)]);
    expect(written).toEqual({
      version: 1,
      access: 'READ',
      history: [entry(0)]
    });
    expect(readCellAccess(written).access).toBe('none');
  });

  it('never widens a malformed stored value when recording history', () => {
    for (const stored of ['read', null, 42, ['x']]) {
      const written = withHistory(stored, [entry(0)]);
      expect(readCellAccess(written)).toEqual({ access: 'none', valid: true });
      expect(readHistory(written)).toEqual([entry(0)]);
    }
  });

  it('returns the stored value itself when nothing changes', () => {
    const stored = { version: 1, access: 'read', history: [entry(0)] };
    expect(withHistory(stored, [entry(0)])).toBe(stored);
  });
});

describe('lastEdited', () => {
  it('is null without history or with only runs and deletions', () => {
    expect(lastEdited([])).toBeNull();
    expect(
      lastEdited([entry(0, 'agent', 'ran'), entry(1, 'human', 'deleted')])
    ).toBeNull();
  });

  it('takes the most recent insert or edit, ignoring later runs', () => {
    expect(
      lastEdited([
        entry(0, 'agent', 'inserted', 'jupyter_insert_cell'),
        entry(100, 'human', 'edited'),
        entry(200, 'agent', 'ran', 'jupyter_run_cells')
      ])
    ).toEqual({ lastEditedBy: 'human', lastEditedAt: at(100) });
    expect(lastEdited([entry(5, 'agent', 'inserted')])).toEqual({
      lastEditedBy: 'agent',
      lastEditedAt: at(5)
    });
  });

  it('does not depend on the order of the entries', () => {
    expect(
      lastEdited([entry(300, 'agent'), entry(100, 'human', 'inserted')])
    ).toEqual({ lastEditedBy: 'agent', lastEditedAt: at(300) });
  });
});

describe('through real cell metadata (YNotebook)', () => {
  let notebook: YNotebook;

  beforeEach(() => {
    notebook = YNotebook.create();
  });

  afterEach(() => {
    notebook.dispose();
  });

  /** Write the value a `with*` function returned, as a plugin would. */
  function write(
    set: (value: NonNullable<ReturnType<typeof withCellAccess>>) => void,
    remove: () => void,
    current: unknown,
    next: ReturnType<typeof withCellAccess>
  ): void {
    if (next === current) {
      return;
    }
    if (next === undefined) {
      remove();
    } else {
      set(next);
    }
  }

  it('round-trips cell access and history, writing the version', () => {
    const cell = notebook.insertCell(0, {
      cell_type: 'code',
      source: 'x = 1'
    });
    const set = (value: NonNullable<ReturnType<typeof withCellAccess>>) =>
      cell.setMetadata(ACCESS_METADATA_KEY, value);
    const remove = () => cell.deleteMetadata(ACCESS_METADATA_KEY);
    const stored = () => cell.getMetadata(ACCESS_METADATA_KEY);

    expect(stored()).toBeUndefined();
    expect(readCellAccess(stored())).toEqual({ access: 'write', valid: true });

    write(set, remove, stored(), withCellAccess(stored(), 'read'));
    expect(stored()).toEqual({
      version: ACCESS_METADATA_VERSION,
      access: 'read'
    });
    expect(readCellAccess(stored())).toEqual({ access: 'read', valid: true });

    const history = appendHistory(
      readHistory(stored()),
      entry(0, 'agent', 'edited', 'jupyter_update_cell')
    );
    write(set, remove, stored(), withHistory(stored(), history));
    expect(stored()).toEqual({
      version: 1,
      access: 'read',
      history: [entry(0, 'agent', 'edited', 'jupyter_update_cell')]
    });
    expect(lastEdited(readHistory(stored()))).toEqual({
      lastEditedBy: 'agent',
      lastEditedAt: at(0)
    });

    write(set, remove, stored(), withCellAccess(stored(), 'write'));
    expect(stored()).toEqual({
      version: 1,
      history: [entry(0, 'agent', 'edited', 'jupyter_update_cell')]
    });

    write(set, remove, stored(), withHistory(stored(), []));
    expect(stored()).toBeUndefined();
    expect(ACCESS_METADATA_KEY in cell.getMetadata()).toBe(false);
  });

  it('skips the write when nothing changed', () => {
    const cell = notebook.insertCell(0, { cell_type: 'markdown', source: '' });
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'none' });
    let changes = 0;
    cell.changed.connect(() => changes++);
    const set = (value: NonNullable<ReturnType<typeof withCellAccess>>) =>
      cell.setMetadata(ACCESS_METADATA_KEY, value);
    const remove = () => cell.deleteMetadata(ACCESS_METADATA_KEY);
    const current = cell.getMetadata(ACCESS_METADATA_KEY);
    expect(withCellAccess(current, 'none')).toBe(current);
    write(set, remove, current, withCellAccess(current, 'none'));
    expect(changes).toBe(0);
    // A real change does reach the model.
    write(set, remove, current, withCellAccess(current, 'read'));
    expect(changes).toBeGreaterThan(0);
    expect(readCellAccess(cell.getMetadata(ACCESS_METADATA_KEY)).access).toBe(
      'read'
    );
  });

  it('reads a hand-edited typo from the file as none, invalid', () => {
    notebook.fromJSON({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {
        [ACCESS_METADATA_KEY]: { version: 1, notebookAccess: 'Read' }
      },
      cells: [
        {
          cell_type: 'code',
          id: 'typo',
          source: 'secret = 1',
          metadata: { [ACCESS_METADATA_KEY]: { version: 1, access: 'READ' } },
          outputs: [],
          execution_count: null
        }
      ]
    });
    const cell = notebook.getCell(0);
    expect(readCellAccess(cell.getMetadata(ACCESS_METADATA_KEY))).toEqual({
      access: 'none',
      valid: false,
      raw: 'READ'
    });
    expect(
      readNotebookAccess(notebook.getMetadata(ACCESS_METADATA_KEY))
    ).toEqual({ access: 'none', valid: false, raw: 'Read' });
  });

  it('round-trips notebook access through notebook metadata', () => {
    const stored = () => notebook.getMetadata(ACCESS_METADATA_KEY);
    const next = withNotebookAccess(stored(), 'none');
    expect(next).toBeDefined();
    notebook.setMetadata(ACCESS_METADATA_KEY, next!);
    expect(stored()).toEqual({ version: 1, notebookAccess: 'none' });
    expect(readNotebookAccess(stored())).toEqual({
      access: 'none',
      valid: true
    });
    expect(notebook.toJSON().metadata[ACCESS_METADATA_KEY]).toEqual({
      version: 1,
      notebookAccess: 'none'
    });

    expect(withNotebookAccess(stored(), 'write')).toBeUndefined();
    notebook.deleteMetadata(ACCESS_METADATA_KEY);
    expect(readNotebookAccess(stored())).toEqual({
      access: 'write',
      valid: true
    });
  });
});
