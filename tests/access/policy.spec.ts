import { YNotebook } from '@jupyter/ydoc';
import {
  ACCESS_METADATA_KEY,
  type AgentAccess,
  readCellAccess,
  readNotebookAccess,
  withCellAccess,
  withNotebookAccess
} from '../../src/access/model';
import {
  cellAccess,
  notebookAccess,
  storedCellAccess
} from '../../src/access/read';
import {
  assertCellAccessible,
  assertNotebookAccessible
} from '../../src/access/guard';
import {
  type AccessIntent,
  accessDecision,
  cellNotFoundError,
  isHidden,
  isRestriction,
  mayRead,
  mayWrite,
  noActiveNotebookError,
  notebookNotFoundError,
  partitionVisible
} from '../../src/access/policy';
import { normalizeError, ToolError } from '../../src/common/errors';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

/** What a call that throws reduces to, as an agent receives it. */
function thrownBy(call: () => void): string {
  try {
    call();
  } catch (error) {
    return JSON.stringify(normalizeError(error));
  }
  throw new Error('expected the call to throw');
}

const INTENTS: AccessIntent[] = ['read', 'write'];

describe('accessDecision', () => {
  it.each([
    ['write', 'read', 'allow'],
    ['write', 'write', 'allow'],
    ['read', 'read', 'allow'],
    ['read', 'write', 'denied'],
    ['none', 'read', 'hidden'],
    ['none', 'write', 'hidden']
  ] as const)('%s access, %s intent: %s', (access, intent, decision) => {
    expect(accessDecision(access, intent)).toBe(decision);
  });

  it('fails closed on a value outside the three', () => {
    const typo = 'READ' as AgentAccess;
    for (const intent of INTENTS) {
      expect(accessDecision(typo, intent)).toBe('hidden');
    }
  });
});

describe('cellNotFoundError', () => {
  it('is CELL_NOT_FOUND with the id in message and details', () => {
    expect(normalizeError(cellNotFoundError('abc'))).toEqual({
      error: 'CELL_NOT_FOUND',
      message: 'No cell with id "abc" in this notebook.',
      cellId: 'abc'
    });
  });
});

describe('assertCellAccessible', () => {
  it('allows write cells for both intents and read cells for reading', () => {
    for (const intent of INTENTS) {
      expect(() =>
        assertCellAccessible({ id: 'a', access: 'write' }, intent)
      ).not.toThrow();
    }
    expect(() =>
      assertCellAccessible({ id: 'a', access: 'read' }, 'read')
    ).not.toThrow();
  });

  it.each(INTENTS)(
    'hides a none cell exactly like an unknown id (%s intent)',
    intent => {
      const hidden = thrownBy(() =>
        assertCellAccessible({ id: 'cell-7', access: 'none' }, intent)
      );
      const unknown = thrownBy(() => {
        throw cellNotFoundError('cell-7');
      });
      expect(hidden).toBe(unknown);
      expect(JSON.parse(hidden)).toEqual({
        error: 'CELL_NOT_FOUND',
        message: 'No cell with id "cell-7" in this notebook.',
        cellId: 'cell-7'
      });
      expect(hidden).not.toMatch(/access|owner|hidden|none/i);
    }
  );

  it('stays identical for ids with quotes, unicode and huge lengths', () => {
    for (const id of ['a"b', 'ünï\u{1F600}', 'x'.repeat(5000), '']) {
      expect(
        thrownBy(() => assertCellAccessible({ id, access: 'none' }, 'read'))
      ).toBe(
        thrownBy(() => {
          throw cellNotFoundError(id);
        })
      );
    }
  });

  it('denies a write to a read cell with CELL_ACCESS_DENIED', () => {
    let thrown: unknown;
    try {
      assertCellAccessible({ id: 'c1', access: 'read' }, 'write');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolError);
    expect(normalizeError(thrown)).toEqual({
      error: 'CELL_ACCESS_DENIED',
      message:
        'The notebook owner made cell "c1" read-only for agents; it cannot be changed.',
      cellId: 'c1',
      access: 'read'
    });
  });

  it('guards cells built from real metadata', () => {
    const notebook = YNotebook.create();
    try {
      const cell = notebook.insertCell(0, { cell_type: 'code', source: '' });
      const check = (intent: AccessIntent) => () =>
        assertCellAccessible(
          {
            id: cell.getId(),
            access: readCellAccess(cell.getMetadata(ACCESS_METADATA_KEY)).access
          },
          intent
        );
      expect(check('write')).not.toThrow();

      cell.setMetadata(ACCESS_METADATA_KEY, withCellAccess(undefined, 'read')!);
      expect(check('read')).not.toThrow();
      expect(check('write')).toThrow(/read-only/);

      // A hand-edited typo hides the cell rather than opening it.
      cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'READ' });
      expect(thrownBy(check('read'))).toBe(
        thrownBy(() => {
          throw cellNotFoundError(cell.getId());
        })
      );
    } finally {
      notebook.dispose();
    }
  });
});

describe('notebook errors', () => {
  it('NOTEBOOK_NOT_FOUND names the path in message and details', () => {
    expect(normalizeError(notebookNotFoundError('a/b.ipynb'))).toEqual({
      error: 'NOTEBOOK_NOT_FOUND',
      message: 'No notebook found at "a/b.ipynb".',
      path: 'a/b.ipynb'
    });
  });

  it('NO_ACTIVE_NOTEBOOK has no details', () => {
    expect(normalizeError(noActiveNotebookError())).toEqual({
      error: 'NO_ACTIVE_NOTEBOOK',
      message:
        'No notebook is open. Pass notebookPath, or open one with jupyter_open_notebook.'
    });
  });
});

describe('assertNotebookAccessible', () => {
  it('allows write notebooks and reading read notebooks', () => {
    for (const byPath of [true, false]) {
      for (const intent of INTENTS) {
        expect(() =>
          assertNotebookAccessible(
            { path: 'n.ipynb', access: 'write' },
            intent,
            byPath
          )
        ).not.toThrow();
      }
      expect(() =>
        assertNotebookAccessible(
          { path: 'n.ipynb', access: 'read' },
          'read',
          byPath
        )
      ).not.toThrow();
    }
  });

  it.each(INTENTS)(
    'hides a none notebook addressed by path like a missing path (%s)',
    intent => {
      const hidden = thrownBy(() =>
        assertNotebookAccessible(
          { path: 'dir/secret.ipynb', access: 'none' },
          intent,
          true
        )
      );
      const missing = thrownBy(() => {
        throw notebookNotFoundError('dir/secret.ipynb');
      });
      expect(hidden).toBe(missing);
      expect(hidden).not.toMatch(/access|owner|hidden|none/i);
    }
  );

  it.each(INTENTS)(
    'hides a none current notebook like no notebook open (%s)',
    intent => {
      const hidden = thrownBy(() =>
        assertNotebookAccessible(
          { path: 'secret.ipynb', access: 'none' },
          intent,
          false
        )
      );
      const none = thrownBy(() => {
        throw noActiveNotebookError();
      });
      expect(hidden).toBe(none);
      expect(hidden).not.toContain('secret');
    }
  );

  it('denies a write to a read notebook with NOTEBOOK_ACCESS_DENIED', () => {
    for (const byPath of [true, false]) {
      const denied = JSON.parse(
        thrownBy(() =>
          assertNotebookAccessible(
            { path: 'n.ipynb', access: 'read' },
            'write',
            byPath
          )
        )
      );
      expect(denied).toEqual({
        error: 'NOTEBOOK_ACCESS_DENIED',
        message: expect.stringContaining('"n.ipynb"'),
        path: 'n.ipynb',
        access: 'read'
      });
    }
  });

  it('guards notebooks built from real metadata', () => {
    const notebook = YNotebook.create();
    try {
      const check = (byPath: boolean) => () =>
        assertNotebookAccessible(
          {
            path: 'x.ipynb',
            access: readNotebookAccess(
              notebook.getMetadata(ACCESS_METADATA_KEY)
            ).access
          },
          'read',
          byPath
        );
      expect(check(true)).not.toThrow();
      notebook.setMetadata(
        ACCESS_METADATA_KEY,
        withNotebookAccess(undefined, 'none')!
      );
      expect(thrownBy(check(true))).toBe(
        thrownBy(() => {
          throw notebookNotFoundError('x.ipynb');
        })
      );
      expect(thrownBy(check(false))).toBe(
        thrownBy(() => {
          throw noActiveNotebookError();
        })
      );
    } finally {
      notebook.dispose();
    }
  });
});

describe('partitionVisible', () => {
  it('omits none cells, counts them, and keeps order', () => {
    const cells: { id: string; access: AgentAccess }[] = [
      { id: 'a', access: 'write' },
      { id: 'b', access: 'none' },
      { id: 'c', access: 'read' },
      { id: 'd', access: 'none' },
      { id: 'e', access: 'write' }
    ];
    const { visible, hiddenCount } = partitionVisible(cells, c => c.access);
    expect(visible.map(c => c.id)).toEqual(['a', 'c', 'e']);
    expect(hiddenCount).toBe(2);
  });

  it('handles empty and all-hidden inputs', () => {
    expect(partitionVisible([], () => 'none')).toEqual({
      visible: [],
      hiddenCount: 0
    });
    expect(partitionVisible([1, 2, 3], () => 'none')).toEqual({
      visible: [],
      hiddenCount: 3
    });
  });

  it('hides a value outside the three', () => {
    expect(partitionVisible(['x'], () => 'READ' as AgentAccess)).toEqual({
      visible: [],
      hiddenCount: 1
    });
  });
});

describe('the predicates every layer decides with', () => {
  const table: [AgentAccess | null | undefined, boolean, boolean, boolean][] = [
    // access, hidden, may read, may write
    ['write', false, true, true],
    ['read', false, true, false],
    ['none', true, false, false],
    [null, true, false, false],
    [undefined, true, false, false]
  ];
  it.each(table)('%s: hidden %s, read %s, write %s', (access, h, r, w) => {
    expect(isHidden(access)).toBe(h);
    expect(mayRead(access)).toBe(r);
    expect(mayWrite(access)).toBe(w);
  });

  it('treats a value outside the three (at run time) as hidden', () => {
    const odd = 'WRITE' as unknown as AgentAccess;
    expect(isHidden(odd)).toBe(true);
    expect(mayRead(odd)).toBe(false);
  });

  it('an access not yet known hides a notebook from every guard', () => {
    expect(
      thrownBy(() =>
        assertNotebookAccessible(
          { path: 'a.ipynb', access: null },
          'read',
          true
        )
      )
    ).toBe(
      thrownBy(() => {
        throw notebookNotFoundError('a.ipynb');
      })
    );
    expect(
      thrownBy(() =>
        assertNotebookAccessible(
          { path: 'a.ipynb', access: null },
          'read',
          false
        )
      )
    ).toBe(
      thrownBy(() => {
        throw noActiveNotebookError();
      })
    );
  });

  it('a restriction never widens', () => {
    expect(isRestriction('write', 'read')).toBe(true);
    expect(isRestriction('write', 'none')).toBe(true);
    expect(isRestriction('read', 'none')).toBe(true);
    expect(isRestriction('read', 'read')).toBe(true);
    expect(isRestriction('read', 'write')).toBe(false);
    expect(isRestriction('none', 'read')).toBe(false);
    expect(isRestriction(null, 'write')).toBe(false);
  });
});

describe('the access readers', () => {
  it('read a cell and a notebook, and follow a cell metadata change', () => {
    const notebook = YNotebook.create();
    notebook.insertCell(0, { cell_type: 'code', source: 'x' });
    const cell = notebook.cells[0];
    expect(cellAccess(cell)).toBe('write');
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'none' });
    expect(cellAccess(cell)).toBe('none');
    expect(storedCellAccess(cell)).toBe('none');
    expect(notebookAccess(notebook)).toBe('write');
    notebook.setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      notebookAccess: 'read'
    });
    expect(notebookAccess(notebook)).toBe('read');
    notebook.dispose();
  });
});
