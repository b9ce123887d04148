/**
 * NotebookResolver.resolveLive with a notebook that is not open: a write
 * whose answer is already known from the file (an unknown or hidden cell, a
 * read-only one, a stale hash, an unknown thread) answers it without opening
 * the notebook, and concurrent writes share one opening. The app's document
 * manager is a stand-in that counts its openings and hands out a real
 * NotebookPanel loaded with the file.
 */
import type * as nbformat from '@jupyterlab/nbformat';
import type {
  NotebookPanel,
  NotebookTracker as NotebookTrackerType
} from '@jupyterlab/notebook';
import { Widget } from '@lumino/widgets';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { sourceHash } from '../../src/common/hash';
import { NO_CALL } from '../../src/jupyter/call';
import { deleteCell, insertCell, updateCell } from '../../src/jupyter/edit';
import { type IJupyterEnvironment } from '../../src/jupyter/environment';
import { runCells } from '../../src/jupyter/kernel/execution';
import { NotebookResolver } from '../../src/jupyter/notebook';
import { type IReviewServices } from '../../src/review/thread-tools';
import {
  createComment,
  replyComment
} from '../../src/review/thread-write-tools';
import { ReviewStore } from '../../src/review/storage';
import { disposePanel, failure, loadPanelKit } from '../panel-kit';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

const { NBTestUtils, NotebookTracker } = loadPanelKit();

function cell(
  id: string,
  source: string,
  access?: 'read' | 'none'
): nbformat.ICodeCell {
  return {
    id,
    cell_type: 'code',
    source,
    metadata: access ? { [ACCESS_METADATA_KEY]: { version: 1, access } } : {},
    outputs: [],
    execution_count: null
  };
}

const CONTENT: nbformat.INotebookContent = {
  cells: [
    cell('c1', 'x = 1'),
    cell('ro', 'y = 2', 'read'),
    cell('hid', 'z = 3', 'none')
  ],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5
};

describe('resolveLive with a notebook that is not open', () => {
  let tracker: NotebookTrackerType;
  let panel: NotebookPanel;
  let path: string;
  let opened: number;
  let resolver: NotebookResolver;
  let services: IReviewServices;
  let store: ReviewStore;

  beforeEach(async () => {
    tracker = new NotebookTracker({ namespace: 'notebook-spec' });
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON(CONTENT);
    panel = NBTestUtils.createNotebookPanel(context);
    path = context.localPath;
    opened = 0;
    const env = {
      tracker,
      multiDocument: true,
      contents: {
        get: async (file: string) => {
          if (file !== path) {
            throw { response: { status: 404 } };
          }
          return { type: 'notebook', content: CONTENT };
        }
      },
      docManager: {
        // every call opens again: sharing one opening is the resolver's job
        openOrReveal: () => {
          opened++;
          if (!panel.isAttached) {
            Widget.attach(panel, document.body);
            void tracker.add(panel);
          }
          return panel;
        }
      }
    } as unknown as IJupyterEnvironment;
    resolver = new NotebookResolver(env);
    store = new ReviewStore();
    services = { env, resolver, review: store };
  });

  afterEach(() => {
    store.dispose();
    disposePanel(panel, tracker);
  });

  const hash = (source: string) => sourceHash('code', source);

  it.each([
    [
      'jupyter_update_cell, an unknown id',
      () =>
        updateCell(resolver, {
          notebookPath: path,
          cellId: 'nope',
          source: 'x = 2',
          expectedSourceHash: hash('x = 1')
        }),
      'CELL_NOT_FOUND'
    ],
    [
      'jupyter_update_cell, a hidden cell',
      () =>
        updateCell(resolver, {
          notebookPath: path,
          cellId: 'hid',
          source: 'z = 4',
          expectedSourceHash: hash('z = 3')
        }),
      'CELL_NOT_FOUND'
    ],
    [
      'jupyter_update_cell, a read-only cell',
      () =>
        updateCell(resolver, {
          notebookPath: path,
          cellId: 'ro',
          source: 'y = 4',
          expectedSourceHash: hash('y = 2')
        }),
      'CELL_ACCESS_DENIED'
    ],
    [
      'jupyter_update_cell, a stale hash',
      () =>
        updateCell(resolver, {
          notebookPath: path,
          cellId: 'c1',
          source: 'x = 2',
          expectedSourceHash: hash('x = 0')
        }),
      'STALE_CELL'
    ],
    [
      'jupyter_delete_cell, an unknown id',
      () =>
        deleteCell(resolver, {
          notebookPath: path,
          cellId: 'nope',
          expectedSourceHash: hash('x = 1')
        }),
      'CELL_NOT_FOUND'
    ],
    [
      'jupyter_insert_cell, an unknown anchor',
      () =>
        insertCell(resolver, {
          notebookPath: path,
          referenceCellId: 'nope',
          source: 'new = 1'
        }),
      'CELL_NOT_FOUND'
    ],
    [
      'jupyter_insert_cell, a hidden anchor',
      () =>
        insertCell(resolver, {
          notebookPath: path,
          referenceCellId: 'hid',
          source: 'new = 1'
        }),
      'CELL_NOT_FOUND'
    ],
    [
      'jupyter_run_cells, an unknown id',
      () =>
        runCells(
          resolver,
          { notebookPath: path, cellIds: ['c1', 'nope'] },
          NO_CALL
        ),
      'CELL_NOT_FOUND'
    ],
    [
      'jupyter_run_cells, a read-only cell',
      () =>
        runCells(resolver, { notebookPath: path, cellIds: ['ro'] }, NO_CALL),
      'CELL_ACCESS_DENIED'
    ],
    [
      'jupyter_run_cells, a range past the end',
      () =>
        runCells(
          resolver,
          { notebookPath: path, startIndex: 3, endIndex: 5 },
          NO_CALL
        ),
      'CELL_NOT_FOUND'
    ],
    [
      'jupyter_create_comment, an unknown cell',
      () =>
        createComment(services, {
          notebookPath: path,
          anchor: { kind: 'cell', cellId: 'nope' },
          message: 'hi'
        }),
      'CELL_NOT_FOUND'
    ],
    [
      'jupyter_reply_comment, an unknown thread',
      () =>
        replyComment(services, {
          notebookPath: path,
          threadId: 'nope',
          message: 'hi'
        }),
      'COMMENT_NOT_FOUND'
    ]
  ])('%s answers without opening it', async (_title, call, code) => {
    expect(await failure(call())).toMatchObject({ error: code });
    expect(opened).toBe(0);
    expect(tracker.size).toBe(0);
  });

  it('opens it for a write that can be made', async () => {
    const result = await updateCell(resolver, {
      notebookPath: path,
      cellId: 'c1',
      source: 'x = 2',
      expectedSourceHash: hash('x = 1')
    });
    expect(result.cell).toMatchObject({ id: 'c1', source: 'x = 2' });
    expect(opened).toBe(1);
  });

  it('opens it once for concurrent writes, and each lands', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, n) =>
        insertCell(resolver, {
          notebookPath: path,
          referenceCellId: 'c1',
          source: `new = ${n}`,
          activate: false
        })
      )
    );
    expect(opened).toBe(1);
    const sources = panel.content.model!.sharedModel.cells.map(c =>
      c.getSource()
    );
    for (const [n, result] of results.entries()) {
      expect(sources.filter(s => s === `new = ${n}`)).toHaveLength(1);
      expect(result.cell.source).toBe(`new = ${n}`);
    }
    expect(sources).toHaveLength(CONTENT.cells.length + 5);
  });
});
