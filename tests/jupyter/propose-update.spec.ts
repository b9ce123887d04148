/**
 * jupyter_update_cell in Propose mode, on a live shared model: the checks
 * run before anything is staged, and each way a proposal ends gives the
 * answer the spec names. The proposals service is the store behind a
 * minimal `IProposals`; the browser tests cover the real service.
 */
import { YNotebook } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';
import { Signal } from '@lumino/signaling';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import {
  noActiveNotebookError,
  notebookNotFoundError
} from '../../src/access/policy';
import { normalizeError } from '../../src/common/errors';
import { sourceHash } from '../../src/common/hash';
import { updateCell } from '../../src/jupyter/edit';
import type { NotebookResolver } from '../../src/jupyter/notebook';
import { LIMITS } from '../../src/limits';
import { setNotebookMode } from '../../src/propose/notebook-mode';
import { ProposalService } from '../../src/propose/service';
import { PROPOSAL_KINDS, ProposalStore } from '../../src/propose/store';
import type { IProposals, ProposeMode } from '../../src/tokens';
import { proposalPanel } from '../propose-panel';
import { silenceKnownWarnings } from '../quiet';

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

class FakeProposals implements IProposals {
  constructor(public mode: ProposeMode) {}
  store = new ProposalStore();
  requests: IProposals.IRequest[] = [];
  hasNotebook = true;
  modeChanged = new Signal<this, ProposeMode>(this);
  changed = new Signal<this, never>(this);
  /** Every notebook in the one mode: the service's own rule is tested apart. */
  modeOf(): ProposeMode {
    return this.mode;
  }
  reviewed = PROPOSAL_KINDS;
  reviews(): boolean {
    return this.mode === 'propose';
  }
  notebookKey(): string {
    return 'nb';
  }
  allowances(): IProposals.IAllowance[] {
    return [];
  }
  isAllowed(): boolean {
    return false;
  }
  revokeAllowance(): boolean {
    return false;
  }
  allowancesChanged = new Signal<this, string>(this);
  setMode(mode: ProposeMode): boolean {
    this.mode = mode;
    return true;
  }
  pending() {
    return this.store.pending();
  }
  async propose(request: IProposals.IRequest) {
    this.requests.push(request);
    const { proposal, outcome } = this.store.create({
      ...request,
      notebookKey: 'nb',
      notebookPath: 'work/a.ipynb'
    });
    request.signal.addEventListener('abort', () =>
      this.store.withdraw(proposal.id)
    );
    return outcome;
  }
  accept(id: string) {
    return this.store.accept(id);
  }
  deny(id: string, reason: string | null) {
    return this.store.deny(id, reason);
  }
  /** The id of the one pending proposal. */
  get only(): string {
    const [proposal] = this.store.pending();
    return proposal.id;
  }
}

/**
 * The resolver with a panel around its notebook: the parts of a panel's
 * context the real service watches while a proposal waits.
 */
function withFakePanel(
  resolver: NotebookResolver,
  notebook: YNotebook
): NotebookResolver {
  const panel = proposalPanel(notebook);
  return {
    resolveLive: async () => ({
      ...(await resolver.resolveLive(null, 'write')),
      panel
    })
  } as unknown as NotebookResolver;
}

/** The real service, notebooks in Direct mode unless they store a mode. */
function directService(): ProposalService {
  return new ProposalService({ mode: 'direct' });
}

describe('updateCell in Propose mode', () => {
  let notebook: YNotebook;
  let proposals: FakeProposals;
  const resolver = {
    resolveLive: async () => ({
      path: 'work/a.ipynb',
      panel: null,
      model: notebook,
      dirty: true,
      release() {
        /* live */
      }
    })
  } as unknown as NotebookResolver;
  const cell = (index = 0) => notebook.cells[index];
  const call = (controller = new AbortController()) => ({
    signal: controller.signal,
    reportCell: () => undefined
  });
  const update = (
    source: string,
    hash = sourceHash('code', 'x = 1'),
    controller?: AbortController
  ) =>
    updateCell(
      resolver,
      { cellId: 'c1', source, expectedSourceHash: hash },
      call(controller),
      proposals
    );
  const flush = () => new Promise(resolve => setTimeout(resolve, 0));

  beforeEach(() => {
    notebook = YNotebook.create({ disableDocumentWideUndoRedo: true });
    notebook.insertCells(0, [code('c1', 'x = 1'), code('c2', 'y = 2')]);
    notebook.cells.forEach(c => c.undoManager?.clear());
    proposals = new FakeProposals('propose');
  });

  afterEach(() => {
    proposals.store.dispose();
    notebook.dispose();
  });

  it('a doomed write fails at once and stages nothing', async () => {
    const stale = await update('x = 2', sourceHash('code', 'x = 0')).catch(
      normalizeError
    );
    expect(stale).toMatchObject({ error: 'STALE_CELL', cellId: 'c1' });
    const big = 'a'.repeat(LIMITS.MAX_CELL_SOURCE_WRITE_BYTES + 1);
    expect(await update(big).catch(normalizeError)).toMatchObject({
      error: 'INVALID_ARGUMENT'
    });
    cell(0).setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'read' });
    expect(await update('x = 2').catch(normalizeError)).toMatchObject({
      error: 'CELL_ACCESS_DENIED'
    });
    expect(proposals.requests).toEqual([]);
  });

  it('shows the owner the real text where the agent kept a withheld secret', async () => {
    const secret = 'db_password = "correct-horse-42"';
    cell(0).setSource(secret);
    const result = updateCell(
      resolver,
      {
        cellId: 'c1',
        source: 'db_password = "[secret withheld: assigned secret]"\nconnect()',
        expectedSourceHash: sourceHash('code', secret)
      },
      call(),
      proposals
    );
    await flush();
    expect(proposals.requests[0]).toMatchObject({
      original: secret,
      proposed: `${secret}\nconnect()`
    });
    proposals.accept(proposals.only);
    const accepted = await result;
    expect(cell(0).getSource()).toBe(`${secret}\nconnect()`);
    expect(JSON.stringify(accepted)).not.toContain('correct-horse-42');
  });

  it('waits; accept writes one undo step attributed to the agent', async () => {
    const result = update('x = 2');
    await flush();
    expect(cell(0).getSource()).toBe('x = 1');
    expect(proposals.requests[0]).toMatchObject({
      cellId: 'c1',
      original: 'x = 1',
      proposed: 'x = 2'
    });
    const id = proposals.only;
    proposals.accept(id);
    expect(await result).toMatchObject({
      status: 'accepted',
      proposalId: id,
      cell: { id: 'c1', source: 'x = 2' }
    });
    const history = (
      cell(0).getMetadata(ACCESS_METADATA_KEY) as {
        history: { actor: string; action: string; tool: string }[];
      }
    ).history;
    expect(history.at(-1)).toMatchObject({
      actor: 'agent',
      action: 'edited',
      tool: 'jupyter_update_cell'
    });
    expect(cell(0).undo()).toBe(true);
    expect(cell(0).getSource()).toBe('x = 1');
  });

  it('accept after a human edit: STALE_CELL, the human text kept', async () => {
    const result = update('x = 2');
    await flush();
    cell(0).updateSource(5, 5, '0');
    proposals.accept(proposals.only);
    expect(await result.catch(normalizeError)).toMatchObject({
      error: 'STALE_CELL',
      currentSourceHash: sourceHash('code', 'x = 10')
    });
    expect(cell(0).getSource()).toBe('x = 10');
    expect(proposals.store.settled()[0].state).toBe('stale');
  });

  it('accept after the owner made the cell read-only: CELL_ACCESS_DENIED, nothing written', async () => {
    const result = update('x = 2');
    await flush();
    cell(0).setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'read' });
    proposals.accept(proposals.only);
    expect(await result.catch(normalizeError)).toMatchObject({
      error: 'CELL_ACCESS_DENIED',
      cellId: 'c1'
    });
    expect(cell(0).getSource()).toBe('x = 1');
    expect(proposals.store.settled()[0].state).toBe('stale');
  });

  it('accept after the owner hid the cell: answered as a missing cell, nothing written', async () => {
    const result = update('x = 2');
    await flush();
    cell(0).setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'none' });
    proposals.accept(proposals.only);
    const hidden = await result.catch(normalizeError);
    expect(hidden).toMatchObject({ error: 'CELL_NOT_FOUND', cellId: 'c1' });
    expect(JSON.stringify(hidden)).not.toContain('x = 1');
    expect(cell(0).getSource()).toBe('x = 1');
  });

  it('deny answers PROPOSAL_DENIED, not an error', async () => {
    const result = update('x = 2');
    await flush();
    const id = proposals.only;
    proposals.deny(id, 'no');
    expect(await result).toEqual({
      status: 'denied',
      code: 'PROPOSAL_DENIED',
      proposalId: id,
      cellId: 'c1',
      reason: 'no'
    });
    expect(cell(0).getSource()).toBe('x = 1');
  });

  it('an aborted call withdraws its proposal and answers ABORTED', async () => {
    const controller = new AbortController();
    const result = update('x = 2', undefined, controller);
    await flush();
    controller.abort();
    expect(await result.catch(normalizeError)).toMatchObject({
      error: 'ABORTED'
    });
    expect(proposals.pending()).toEqual([]);
    expect(cell(0).getSource()).toBe('x = 1');
  });

  it("the edited notebook's own mode decides, not the current one's", async () => {
    const service = directService();
    const withPanel = withFakePanel(resolver, notebook);
    try {
      setNotebookMode(notebook, 'propose');
      const edited = updateCell(
        withPanel,
        {
          cellId: 'c1',
          source: 'x = 2',
          expectedSourceHash: sourceHash('code', 'x = 1')
        },
        call(),
        service
      );
      await flush();
      expect(service.pending().map(p => p.cellId)).toEqual(['c1']);
      expect(cell(0).getSource()).toBe('x = 1');
      service.deny(service.pending()[0].id, null);
      expect(await edited).toMatchObject({ status: 'denied' });
      setNotebookMode(notebook, 'direct');
      service.setDefaultMode('propose');
      const direct = await updateCell(
        resolver,
        {
          cellId: 'c1',
          source: 'x = 3',
          expectedSourceHash: sourceHash('code', 'x = 1')
        },
        call(),
        service
      );
      expect(direct).not.toHaveProperty('status');
      expect(cell(0).getSource()).toBe('x = 3');
    } finally {
      service.dispose();
    }
  });

  describe('the owner changes access while a proposal waits (real service)', () => {
    let service: ProposalService;
    const waiting = (notebookPath: string | null) =>
      updateCell(
        withFakePanel(resolver, notebook),
        {
          notebookPath,
          cellId: 'c1',
          source: 'x = 2',
          expectedSourceHash: sourceHash('code', 'x = 1')
        },
        call(),
        service
      ).catch(normalizeError);
    const staged = async () => {
      await flush();
      expect(service.pending().map(p => p.cellId)).toEqual(['c1']);
    };
    const settledUntouched = () => {
      expect(service.pending()).toEqual([]);
      expect(cell(0).getSource()).toBe('x = 1');
    };

    beforeEach(() => {
      service = new ProposalService({ mode: 'propose' });
    });
    afterEach(() => service.dispose());

    it('the notebook hidden: answered as a hidden notebook, by path and as the current one', async () => {
      const byPath = waiting('work/a.ipynb');
      await staged();
      notebook.setMetadata(ACCESS_METADATA_KEY, {
        version: 1,
        notebookAccess: 'none'
      });
      const answer = await byPath;
      expect(answer).toEqual(
        normalizeError(notebookNotFoundError('work/a.ipynb'))
      );
      settledUntouched();

      notebook.setMetadata(ACCESS_METADATA_KEY, { version: 1 });
      const current = waiting(null);
      await staged();
      notebook.setMetadata(ACCESS_METADATA_KEY, {
        version: 1,
        notebookAccess: 'none'
      });
      expect(await current).toEqual(normalizeError(noActiveNotebookError()));
      settledUntouched();
    });

    it('the notebook made read-only: auto-denied, the reason says so', async () => {
      const result = waiting('work/a.ipynb');
      await staged();
      notebook.setMetadata(ACCESS_METADATA_KEY, {
        version: 1,
        notebookAccess: 'read'
      });
      expect(await result).toMatchObject({
        status: 'denied',
        code: 'PROPOSAL_DENIED',
        cellId: 'c1',
        reason: expect.stringMatching(/made the notebook read-only/)
      });
      settledUntouched();
    });

    it('the cell hidden reads as deleted; the cell made read-only is auto-denied', async () => {
      const hidden = waiting(null);
      await staged();
      cell(0).setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'none' });
      expect(await hidden).toMatchObject({
        status: 'denied',
        reason: 'Auto-denied: the cell was deleted before the human decided.'
      });
      settledUntouched();

      cell(0).setMetadata(ACCESS_METADATA_KEY, { version: 1 });
      const readOnly = waiting(null);
      await staged();
      cell(0).setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'read' });
      expect(await readOnly).toMatchObject({
        status: 'denied',
        reason: expect.stringMatching(/made the cell read-only/)
      });
      settledUntouched();
    });

    it('an unrelated change (another cell, other metadata) leaves it waiting', async () => {
      const result = waiting(null);
      await staged();
      cell(1).setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'none' });
      notebook.setMetadata('other', { x: 1 });
      await flush();
      expect(service.pending()).toHaveLength(1);
      // still the human's to decide
      service.deny(service.pending()[0].id, 'no');
      expect(await result).toMatchObject({ status: 'denied', reason: 'no' });
    });
  });

  it('an already-aborted call in Propose mode answers ABORTED before any other check', async () => {
    const controller = new AbortController();
    controller.abort();
    const withFile = {
      ...resolver,
      resolveNotebook: async () => ({
        path: 'work/a.ipynb',
        panel: null,
        model: notebook,
        dirty: false,
        release() {
          /* live */
        }
      })
    } as unknown as NotebookResolver;
    // a stale hash: the one check that would answer otherwise
    const staleUpdate = () =>
      updateCell(
        withFile,
        {
          cellId: 'c1',
          source: 'x = 2',
          expectedSourceHash: sourceHash('code', 'x = 0')
        },
        call(controller),
        proposals
      ).catch(normalizeError);
    expect(await staleUpdate()).toMatchObject({ error: 'ABORTED' });
    expect(proposals.pending()).toEqual([]);
    // in Direct mode the signal is not the call's business: the check answers
    proposals.mode = 'direct';
    expect(await staleUpdate()).toMatchObject({ error: 'STALE_CELL' });
  });

  it('in Direct mode writes at once, as without the service', async () => {
    proposals.mode = 'direct';
    const result = await update('x = 2');
    expect(result).not.toHaveProperty('status');
    expect(cell(0).getSource()).toBe('x = 2');
    expect(proposals.requests).toEqual([]);
  });
});
