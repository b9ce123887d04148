/**
 * jupyter_insert_cell, jupyter_delete_cell and jupyter_run_cells in a
 * notebook in Propose mode, on a real NotebookPanel with the real proposal
 * service: the checks run before anything is shown, an insert exists only
 * once accepted (a denied one leaves no cell, no undo step, no journal), a
 * delete re-checks the hash on Accept, a run is shown with its code and
 * denied runs nothing, the `reviewed` setting and Direct mode leave the
 * tools as they were.
 */
import { YNotebook as YNotebookClass, type YNotebook } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';
import type {
  NotebookPanel,
  NotebookTracker as NotebookTrackerType
} from '@jupyterlab/notebook';
import type { NBTestUtils as NBTestUtilsType } from '@jupyterlab/notebook/lib/testutils';
import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';

import { normalizeError } from '../../src/common/errors';
import { sourceHash } from '../../src/common/hash';
import { deleteCell, insertCell } from '../../src/jupyter/edit';
import { type IJupyterEnvironment } from '../../src/jupyter/environment';
import { runCells } from '../../src/jupyter/kernel/execution';
import {
  type ILiveNotebook,
  NotebookResolver
} from '../../src/jupyter/notebook';
import { setNotebookMode } from '../../src/propose/notebook-mode';
import { ProposalService } from '../../src/propose/service';
import { agentEdits } from '../../src/revert/journal';
import { silenceKnownWarnings } from '../quiet';
import { FakeConnection } from './fake-connection';

silenceKnownWarnings();

function code(id: string, source: string): nbformat.ICodeCell {
  return {
    id,
    cell_type: 'code',
    source,
    metadata: {},
    outputs: [],
    execution_count: null
  };
}

const { NBTestUtils } = jest.requireActual<{
  NBTestUtils: typeof NBTestUtilsType;
}>('@jupyterlab/notebook/lib/testutils');
const { NotebookTracker } = jest.requireActual<{
  NotebookTracker: typeof NotebookTrackerType;
}>('@jupyterlab/notebook');

describe('Propose mode: inserts, deletes and runs wait for the human', () => {
  let panel: NotebookPanel;
  let tracker: NotebookTrackerType;
  let resolver: NotebookResolver;
  let service: ProposalService;

  const model = () => panel.content.model!.sharedModel as YNotebook;
  const ids = () => model().cells.map(c => c.id);
  const cellOf = (id: string) => model().cells.find(c => c.id === id)!;
  const hashOf = (id: string) => sourceHash('code', cellOf(id).getSource());
  const call = (controller = new AbortController()) => ({
    signal: controller.signal,
    reportCell: () => undefined
  });
  /** Until the service has a pending proposal (the call made its checks). */
  async function staged() {
    for (let i = 0; i < 50 && service.pending().length === 0; i++) {
      await new Promise(resolve => setTimeout(resolve, 0));
    }
    const [proposal] = service.pending();
    if (!proposal) {
      throw new Error('nothing was proposed');
    }
    return proposal;
  }
  async function failure(promise: Promise<unknown>) {
    try {
      await promise;
    } catch (error) {
      return normalizeError(error);
    }
    throw new Error('expected a failure');
  }

  beforeEach(async () => {
    tracker = new NotebookTracker({ namespace: 'propose-actions-spec' });
    resolver = new NotebookResolver({
      tracker,
      multiDocument: true
    } as unknown as IJupyterEnvironment);
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({
      cells: [code('c1', 'x = 1'), code('c2', 'y = 2')],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    });
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    await tracker.add(panel);
    model().undoManager.clear();
    panel.content.activeCellIndex = 0;
    service = new ProposalService({ mode: 'direct' });
    setNotebookMode(model(), 'propose');
  });

  afterEach(() => {
    service.dispose();
    const context = panel.context;
    panel.dispose();
    context.dispose();
    tracker.dispose();
  });

  describe('insert', () => {
    const insert = (source = 'print(1)', controller?: AbortController) =>
      insertCell(
        resolver,
        { referenceCellId: 'c1', position: 'below', source, activate: false },
        call(controller),
        service
      );

    it('shows where the cell would go; denied, nothing was ever inserted: no cell, no undo step, no journal', async () => {
      const result = insert();
      const proposal = await staged();
      expect(proposal).toMatchObject({
        kind: 'insert',
        cellId: 'c1',
        position: 'below',
        cellType: 'code',
        proposed: 'print(1)',
        cellIds: []
      });
      expect(ids()).toEqual(['c1', 'c2']);
      service.deny(proposal.id, 'not this one');
      await expect(result).resolves.toEqual({
        status: 'denied',
        code: 'PROPOSAL_DENIED',
        proposalId: proposal.id,
        cellId: null,
        reason: 'not this one'
      });
      expect(ids()).toEqual(['c1', 'c2']);
      expect(model().undoManager.canUndo()).toBe(false);
      expect(agentEdits(model())).toEqual([]);
    });

    it('accepted: inserted at the place shown, even after the human added a cell above it', async () => {
      const result = insert();
      const proposal = await staged();
      model().insertCell(0, { cell_type: 'code', source: 'human()' });
      service.accept(proposal.id);
      const answer = await result;
      expect(answer).toMatchObject({
        status: 'accepted',
        proposalId: proposal.id,
        cell: { source: 'print(1)', index: 2 }
      });
      expect(ids()[1]).toBe('c1');
      expect(agentEdits(model()).map(edit => edit.kind)).toEqual(['insert']);
    });

    it('a doomed insert fails at once and is never shown', async () => {
      expect(
        await failure(
          insertCell(
            resolver,
            { referenceCellId: 'nope', source: 'x' },
            call(),
            service
          )
        )
      ).toMatchObject({ error: 'CELL_NOT_FOUND' });
      expect(
        await failure(
          insertCell(
            resolver,
            { cellType: 'sql', source: 'x' },
            call(),
            service
          )
        )
      ).toMatchObject({ error: 'INVALID_CELL_TYPE' });
      expect(service.store.settled()).toEqual([]);
    });

    it('the cell it goes next to deleted: auto-denied, nothing inserted', async () => {
      const result = insert();
      await staged();
      model().deleteCell(0);
      await expect(result).resolves.toMatchObject({
        status: 'denied',
        reason: expect.stringContaining('deleted')
      });
      expect(ids()).toEqual(['c2']);
    });

    it('an aborted call withdraws it and answers ABORTED', async () => {
      const controller = new AbortController();
      const result = insert('x', controller);
      await staged();
      controller.abort();
      expect(await failure(result)).toMatchObject({ error: 'ABORTED' });
      expect(ids()).toEqual(['c1', 'c2']);
    });

    it('not reviewed by the setting, or in Direct mode: inserted at once', async () => {
      service.setReviewed(['update', 'delete', 'run', 'kernel']);
      await expect(insert('a = 1')).resolves.toMatchObject({
        cell: { source: 'a = 1' }
      });
      service.setReviewed(['insert']);
      setNotebookMode(model(), 'direct');
      await expect(insert('b = 1')).resolves.not.toHaveProperty('status');
      expect(model().cells.length).toBe(4);
      expect(service.store.settled()).toEqual([]);
    });
  });

  describe('delete', () => {
    const remove = (hash = hashOf('c2')) =>
      deleteCell(
        resolver,
        { cellId: 'c2', expectedSourceHash: hash },
        call(),
        service
      );

    it('marked, deleted only on Accept', async () => {
      const result = remove();
      const proposal = await staged();
      expect(proposal).toMatchObject({
        kind: 'delete',
        cellId: 'c2',
        cellIds: ['c2'],
        original: 'y = 2'
      });
      expect(ids()).toEqual(['c1', 'c2']);
      service.accept(proposal.id);
      await expect(result).resolves.toMatchObject({
        status: 'accepted',
        proposalId: proposal.id,
        deletedCellId: 'c2'
      });
      expect(ids()).toEqual(['c1']);
    });

    it('a human edit during review wins: STALE_CELL on Accept, the cell kept', async () => {
      const result = remove();
      const proposal = await staged();
      cellOf('c2').setSource('y = 3  # mine');
      service.accept(proposal.id);
      expect(await failure(result)).toMatchObject({
        error: 'STALE_CELL',
        cellId: 'c2'
      });
      expect(cellOf('c2').getSource()).toBe('y = 3  # mine');
      expect(service.store.get(proposal.id)?.state).toBe('stale');
    });

    it('a stale hash fails at once, shown to nobody', async () => {
      expect(await failure(remove(sourceHash('code', 'old')))).toMatchObject({
        error: 'STALE_CELL'
      });
      expect(service.pending()).toEqual([]);
    });

    it('denied: the cell stays, the answer names it', async () => {
      const result = remove();
      const proposal = await staged();
      service.deny(proposal.id, null);
      await expect(result).resolves.toEqual({
        status: 'denied',
        code: 'PROPOSAL_DENIED',
        proposalId: proposal.id,
        cellId: 'c2',
        reason: null
      });
      expect(ids()).toEqual(['c1', 'c2']);
    });

    it('one pending proposal per cell, across kinds', async () => {
      const first = remove();
      const proposal = await staged();
      expect(await failure(remove())).toMatchObject({
        error: 'PROPOSAL_ALREADY_PENDING',
        existingProposalId: proposal.id
      });
      service.deny(proposal.id, null);
      await first;
    });
  });

  describe('run', () => {
    it('with no kernel: KERNEL_UNAVAILABLE at once, nothing shown', async () => {
      expect(
        await failure(runCells(resolver, { cellIds: ['c1'] }, call(), service))
      ).toMatchObject({ error: 'KERNEL_UNAVAILABLE' });
      expect(service.store.settled()).toEqual([]);
      expect(service.pending()).toEqual([]);
    });
  });
});

/**
 * A notebook open in a panel reduced to what runCells and the proposal
 * service read of it, with a fake kernel connection that records what it is
 * sent (a real kernel's runs are in ui-tests/tests/propose-actions.spec.ts).
 */
function runDouble(cells: nbformat.ICell[]) {
  const model = YNotebookClass.create();
  model.insertCells(0, cells);
  const kernel = new FakeConnection('idle');
  const cellsChanged = new Signal({});
  const context = {
    path: 'run.ipynb',
    localPath: 'run.ipynb',
    model: {
      isDisposed: false,
      cells: { changed: cellsChanged },
      sharedModel: model
    },
    disposed: new Signal({}),
    pathChanged: new Signal({})
  };
  const live = {
    path: 'run.ipynb',
    model,
    dirty: false,
    release: () => undefined,
    panel: {
      sessionContext: {
        session: { kernel: kernel.connection },
        isDisposed: false,
        kernelDisplayStatus: 'idle',
        kernelDisplayName: 'Python 3 (ipykernel)'
      },
      content: {
        widgets: model.cells.map(cell => ({ model: { id: cell.id } })),
        activeCell: null
      },
      context,
      isDisposed: false
    }
  } as unknown as ILiveNotebook;
  const resolver = {
    resolveLive: () => Promise.resolve(live)
  } as unknown as NotebookResolver;
  return { model, kernel, resolver, context };
}

describe('Propose mode: a run waits for the human', () => {
  let service: ProposalService;
  beforeEach(() => {
    service = new ProposalService({ mode: 'propose' });
  });
  afterEach(() => {
    service.dispose();
  });

  it('lists every code cell it would run, with its source and hash, and the kernel; denied, nothing is sent to the kernel', async () => {
    const run = runDouble([
      code('c1', 'x = 1'),
      { id: 'm1', cell_type: 'markdown', source: '# t', metadata: {} },
      code('c2', ''),
      code('c3', 'print(x)')
    ]);
    const result = runCells(
      run.resolver,
      { cellIds: ['c1', 'm1', 'c2', 'c3'] },
      { signal: new AbortController().signal, reportCell: () => undefined },
      service
    );
    for (let i = 0; i < 50 && service.pending().length === 0; i++) {
      await new Promise(resolve => setTimeout(resolve, 0));
    }
    const [proposal] = service.pending();
    expect(proposal).toMatchObject({
      kind: 'run',
      cellId: 'c1',
      // the empty cell and the markdown cell send nothing to the kernel
      cellIds: ['c1', 'c3'],
      kernelName: 'Python 3 (ipykernel)',
      cells: [
        {
          cellId: 'c1',
          source: 'x = 1',
          sourceHash: sourceHash('code', 'x = 1')
        },
        {
          cellId: 'c3',
          source: 'print(x)',
          sourceHash: sourceHash('code', 'print(x)')
        }
      ]
    });
    service.deny(proposal.id, 'not on my kernel');
    await expect(result).resolves.toEqual({
      status: 'denied',
      code: 'PROPOSAL_DENIED',
      proposalId: proposal.id,
      cellIds: ['c1', 'c3'],
      reason: 'not on my kernel'
    });
    expect(run.kernel.sent).not.toContain('execute_request');
    run.model.dispose();
  });

  it('a cell of a pending run takes no other proposal', async () => {
    const run = runDouble([code('c1', 'x = 1')]);
    const first = runCells(
      run.resolver,
      { cellIds: ['c1'] },
      { signal: new AbortController().signal, reportCell: () => undefined },
      service
    );
    for (let i = 0; i < 50 && service.pending().length === 0; i++) {
      await new Promise(resolve => setTimeout(resolve, 0));
    }
    const second = await runCells(
      run.resolver,
      { cellIds: ['c1'] },
      { signal: new AbortController().signal, reportCell: () => undefined },
      service
    ).catch(normalizeError);
    expect(second).toMatchObject({
      error: 'PROPOSAL_ALREADY_PENDING',
      cellId: 'c1'
    });
    service.deny(service.pending()[0].id, null);
    await first;
    run.model.dispose();
  });
});
