import { YNotebook } from '@jupyter/ydoc';

import {
  AnnouncedRestrictions,
  applyAnnounced,
  parseAnnouncement,
  restricted,
  type AnnouncementMessage
} from '../../src/access/announced';
import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { cellAccess, notebookAccess } from '../../src/access/read';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

function restrictions(
  tab: string,
  path: string,
  notebook: 'read' | 'none' | null,
  cells: Record<string, 'read' | 'none'> = {}
): AnnouncementMessage {
  return { type: 'restrictions', tab, path, notebook, cells };
}

/** A standalone notebook as a file read gives, cells with the given access. */
function fileModel(
  notebook: string | null,
  cells: Record<string, string | null>
): YNotebook {
  const model = YNotebook.create();
  model.fromJSON({
    nbformat: 4,
    nbformat_minor: 5,
    metadata:
      notebook === null
        ? {}
        : { [ACCESS_METADATA_KEY]: { version: 1, notebookAccess: notebook } },
    cells: Object.entries(cells).map(([id, access]) => ({
      id,
      cell_type: 'code',
      source: id,
      outputs: [],
      execution_count: null,
      metadata:
        access === null ? {} : { [ACCESS_METADATA_KEY]: { version: 1, access } }
    }))
  });
  return model;
}

describe('parseAnnouncement', () => {
  it('reads a restriction; a value it does not understand restricts fully', () => {
    expect(
      parseAnnouncement({
        type: 'restrictions',
        tab: 't',
        path: 'a.ipynb',
        notebook: 'NONE',
        cells: { c1: 'read', c2: 42 }
      })
    ).toEqual(restrictions('t', 'a.ipynb', 'none', { c1: 'read', c2: 'none' }));
  });

  it('refuses what is not a message', () => {
    for (const data of [
      null,
      'restrictions',
      { type: 'restrictions', path: 'a.ipynb' },
      { type: 'restrictions', tab: 't' },
      { type: 'drop', tab: 't', path: 3 },
      { type: 'widen', tab: 't', path: 'a.ipynb' }
    ]) {
      expect(parseAnnouncement(data)).toBeNull();
    }
    expect(parseAnnouncement({ type: 'drop', tab: 't', path: null })).toEqual({
      type: 'drop',
      tab: 't',
      path: null
    });
  });
});

describe('restricted', () => {
  it('takes the announced access only where it is narrower', () => {
    expect(restricted('write', 'none')).toBe('none');
    expect(restricted('read', 'none')).toBe('none');
    expect(restricted('write', 'read')).toBe('read');
    expect(restricted('none', 'write')).toBe('none');
    expect(restricted('none', 'read')).toBe('none');
    expect(restricted('read', 'write')).toBe('read');
    expect(restricted('read', null)).toBe('read');
  });
});

describe('AnnouncedRestrictions', () => {
  it('keeps each tab’s latest announcement and the narrowest of them', () => {
    const map = new AnnouncedRestrictions();
    map.receive(restrictions('t1', 'a.ipynb', 'read', { c1: 'read' }));
    map.receive(
      restrictions('t2', 'a.ipynb', null, { c1: 'none', c2: 'read' })
    );
    const merged = map.announced('a.ipynb')!;
    expect(merged.notebook).toBe('read');
    expect(Object.fromEntries(merged.cells)).toEqual({
      c1: 'none',
      c2: 'read'
    });
    // a tab's newer announcement replaces its older one
    map.receive(restrictions('t1', 'a.ipynb', 'none'));
    expect(map.announced('a.ipynb')!.notebook).toBe('none');
    expect(map.announced('b.ipynb')).toBeNull();
  });

  it('drops a tab’s announcement when it saves, reverts or goes away', () => {
    const map = new AnnouncedRestrictions();
    map.receive(restrictions('t1', 'a.ipynb', 'none'));
    map.receive(restrictions('t1', 'b.ipynb', 'none'));
    map.receive(restrictions('t2', 'b.ipynb', 'read'));
    expect(map.receive({ type: 'drop', tab: 't1', path: 'a.ipynb' })).toBe(
      true
    );
    expect(map.announced('a.ipynb')).toBeNull();
    map.receive({ type: 'drop', tab: 't1', path: null });
    expect(map.announced('b.ipynb')!.notebook).toBe('read');
    map.receive({ type: 'drop', tab: 't2', path: null });
    expect(map.announced('b.ipynb')).toBeNull();
  });
});

describe('applyAnnounced', () => {
  it('narrows a file read, never widens it', () => {
    const model = fileModel('read', { c1: null, c2: 'none', c3: 'read' });
    const narrowed = applyAnnounced(model, {
      notebook: 'none',
      cells: new Map([
        ['c1', 'none'],
        ['c3', 'none']
      ] as const)
    });
    expect(narrowed).toBe(3);
    expect(notebookAccess(model)).toBe('none');
    expect(model.cells.map(cell => cellAccess(cell))).toEqual([
      'none',
      'none',
      'none'
    ]);
  });

  it('leaves what the file restricts more as it is', () => {
    const model = fileModel('none', { c1: 'none', c2: 'read' });
    // an announcement can only say write by leaving a cell out, and even a
    // forged one widens nothing
    const narrowed = applyAnnounced(model, {
      notebook: 'write',
      cells: new Map([
        ['c1', 'write'],
        ['c2', 'read'],
        ['gone', 'none']
      ] as const)
    });
    expect(narrowed).toBe(0);
    expect(notebookAccess(model)).toBe('none');
    expect(model.cells.map(cell => cellAccess(cell))).toEqual(['none', 'read']);
    expect(applyAnnounced(model, null)).toBe(0);
  });
});
