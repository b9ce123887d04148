/**
 * The review store's read side on real notebook models: the notebook
 * jupyterlite-webmcp 0.1.1 annotated (tests/fixtures), read the way the
 * resolver reads a file, counted as the agent may see it; and metadata that
 * was edited by hand.
 */
import { YNotebook } from '@jupyter/ydoc';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import {
  REVIEW_METADATA_KEY,
  ReviewStore,
  agentVisibleCounts,
  agentVisibleThreads,
  readThreads,
  storedThreads
} from '../../src/review/storage';
import { setAccess } from '../jupyter/ymodel';
import { silenceKnownWarnings } from '../quiet';
import { fixtureContent, fromFile } from './fixture';

silenceKnownWarnings();

const HIDDEN_THREAD = '71b896f7-1cd5-4dae-bddc-4b3efc9493d9';
const CANARY = 'CANARY-THREAD-e1c0';

let model: YNotebook;

afterEach(() => {
  model?.dispose();
});

function cellAt(id: string) {
  const cell = model.cells.find(candidate => candidate.id === id);
  if (!cell) {
    throw new Error(`no cell ${id}`);
  }
  return cell;
}

describe('the notebook annotated by 0.1.1', () => {
  it('reads every stored thread exactly as 0.1.1 wrote it', () => {
    const stored = fixtureContent().metadata[REVIEW_METADATA_KEY] as {
      threads: unknown[];
    };
    // every field of the format is understood: nothing is lost or added
    expect(readThreads(stored)).toEqual(stored.threads);
    model = fromFile();
    expect(storedThreads(model).map(thread => thread.id)).toEqual(
      stored.threads.map(thread => (thread as { id: string }).id)
    );
  });

  it('counts only agent-visible threads: not the one on the hidden cell', () => {
    model = fromFile();
    // five stored (four open); one open thread is on rv-code-2 ("none")
    expect(storedThreads(model)).toHaveLength(5);
    expect(agentVisibleCounts(model)).toEqual({
      openThreads: 3,
      totalThreads: 4
    });
    const visible = agentVisibleThreads(model);
    expect(visible.map(thread => thread.id)).not.toContain(HIDDEN_THREAD);
    expect(JSON.stringify(visible)).not.toContain(CANARY);
    expect(JSON.stringify(visible)).not.toContain('rv-code-2');
    // the thread on the "read" cell is visible
    expect(visible.map(thread => thread.anchor.cellId)).toContain('rv-code-3');
  });

  it('follows the owner: hiding a cell drops its threads, showing it brings them back', () => {
    model = fromFile();
    setAccess(cellAt('rv-code-1'), 'none');
    // rv-code-1 held two open threads
    expect(agentVisibleCounts(model)).toEqual({
      openThreads: 1,
      totalThreads: 2
    });
    setAccess(cellAt('rv-code-4'), 'none');
    // rv-code-4 held the resolved one
    expect(agentVisibleCounts(model)).toEqual({
      openThreads: 1,
      totalThreads: 1
    });
    setAccess(cellAt('rv-code-2'), 'write');
    setAccess(cellAt('rv-code-1'), 'read');
    expect(agentVisibleCounts(model)).toEqual({
      openThreads: 4,
      totalThreads: 4
    });
  });

  it('an access value it does not understand hides, as none does', () => {
    model = fromFile();
    for (const value of [
      { version: 1, access: 'Hidden' },
      { access: 42 },
      'none',
      null
    ]) {
      cellAt('rv-code-4').setMetadata(ACCESS_METADATA_KEY, value);
      expect(agentVisibleCounts(model)).toEqual({
        openThreads: 3,
        totalThreads: 3
      });
    }
  });

  it('a thread whose cell was deleted is still visible (its anchor is orphaned)', () => {
    model = fromFile();
    model.deleteCell(model.cells.findIndex(cell => cell.id === 'rv-code-4'));
    expect(agentVisibleCounts(model)).toEqual({
      openThreads: 3,
      totalThreads: 4
    });
  });

  it('the store counts the same', () => {
    model = fromFile();
    const store = new ReviewStore();
    expect(store.counts(model)).toEqual({ openThreads: 3, totalThreads: 4 });
    expect(store.threads(model)).toEqual(agentVisibleThreads(model));
  });
});

/** A thread as 0.1.1 writes it, with `patch` applied. */
function thread(
  id: string,
  patch: Record<string, unknown> = {}
): Record<string, unknown> {
  return {
    id,
    status: 'open',
    createdAt: '2026-12-01T19:11:43.795Z',
    updatedAt: '2026-12-01T19:11:43.808Z',
    anchor: { kind: 'cell', cellId: 'c1' },
    messages: [
      {
        id: `${id}-m1`,
        author: { kind: 'human', name: 'Ada' },
        createdAt: '2026-12-01T19:11:43.795Z',
        body: 'Look here.'
      }
    ],
    ...patch
  };
}

describe('metadata edited by hand', () => {
  it('a value that holds no thread list counts nothing, never throws', () => {
    for (const value of [
      undefined,
      null,
      'threads',
      42,
      [],
      [thread('t1')],
      {},
      { threads: null },
      { threads: 'x' },
      { threads: { t1: thread('t1') } }
    ]) {
      expect(readThreads(value)).toEqual([]);
    }
  });

  it('skips threads it cannot understand and keeps the rest', () => {
    const threads = readThreads({
      version: 1,
      threads: [
        null,
        7,
        'thread',
        [],
        {},
        thread('ok-1'),
        thread('', {}),
        thread('no-status', { status: undefined }),
        thread('bad-status', { status: 'closed' }),
        thread('no-created', { createdAt: 5 }),
        thread('no-anchor', { anchor: undefined }),
        thread('bad-kind', { anchor: { kind: 'line', cellId: 'c1' } }),
        thread('no-cell', { anchor: { kind: 'cell', cellId: '' } }),
        thread('cell-not-text', { anchor: { kind: 'cell', cellId: 3 } }),
        thread('ok-2', { status: 'resolved' }),
        // a repeated id: only the first is the thread
        thread('ok-1', { status: 'resolved' })
      ]
    });
    expect(threads.map(t => [t.id, t.status])).toEqual([
      ['ok-1', 'open'],
      ['ok-2', 'resolved']
    ]);
  });

  it('keeps a thread with bad details: drops the bad message or field', () => {
    const [read] = readThreads({
      threads: [
        thread('t1', {
          updatedAt: undefined,
          anchor: {
            kind: 'source-range',
            cellId: 'c1',
            sourceRange: { start: { line: -1, column: 0 }, end: {} },
            selectedText: 'x',
            prefix: 7,
            outputIndex: 'first'
          },
          messages: [
            null,
            { id: 'm0', body: 'no author', createdAt: 'then' },
            {
              id: 'm1',
              author: { kind: 'agent', name: 'Browser agent' },
              createdAt: '2026-12-01T19:11:43.808Z',
              body: 'kept'
            }
          ]
        })
      ]
    });
    expect(read).toEqual({
      id: 't1',
      status: 'open',
      createdAt: '2026-12-01T19:11:43.795Z',
      updatedAt: '2026-12-01T19:11:43.795Z',
      anchor: { kind: 'source-range', cellId: 'c1', selectedText: 'x' },
      messages: [
        {
          id: 'm1',
          author: { kind: 'agent', name: 'Browser agent' },
          createdAt: '2026-12-01T19:11:43.808Z',
          body: 'kept'
        }
      ]
    });
  });

  it('counts a live model whose threads are edited by hand', () => {
    model = YNotebook.create();
    model.insertCells(0, [
      { id: 'c1', cell_type: 'code', source: '', metadata: {} },
      { id: 'c2', cell_type: 'markdown', source: '', metadata: {} }
    ]);
    expect(agentVisibleCounts(model)).toEqual({
      openThreads: 0,
      totalThreads: 0
    });
    model.setMetadata(REVIEW_METADATA_KEY, {
      version: 1,
      threads: [
        thread('t1'),
        thread('t2', { anchor: { kind: 'cell', cellId: 'c2' } }),
        thread('t3', { status: 'bogus' })
      ]
    } as never);
    expect(agentVisibleCounts(model)).toEqual({
      openThreads: 2,
      totalThreads: 2
    });
    setAccess(model.cells[1], 'none');
    expect(agentVisibleCounts(model)).toEqual({
      openThreads: 1,
      totalThreads: 1
    });
    model.setMetadata(REVIEW_METADATA_KEY, 'garbage' as never);
    expect(agentVisibleCounts(model)).toEqual({
      openThreads: 0,
      totalThreads: 0
    });
  });
});
