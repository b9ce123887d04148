/**
 * The proposal store for every kind of action Propose mode reviews: what
 * each holds (a run every cell it lists, an insert none, a kernel action the
 * notebook's kernel), and that every kind goes through the same lifecycle.
 */
import { normalizeError } from '../../src/common/errors';
import {
  type ICreateProposal,
  isProposalKind,
  PROPOSAL_KINDS,
  type ProposalKind,
  ProposalStore
} from '../../src/propose/store';

/** A request of one kind, as the tools make it. */
function request(
  kind: ProposalKind,
  overrides: Partial<ICreateProposal> = {}
): ICreateProposal & { applied: number } {
  const base: Record<ProposalKind, Partial<ICreateProposal>> = {
    update: { cellId: 'c1', original: 'x = 1', proposed: 'x = 2' },
    insert: {
      cellId: 'c1',
      cellIds: [],
      proposed: 'print(1)',
      cellType: 'code',
      position: 'below'
    },
    delete: { cellId: 'c1', original: 'x = 1' },
    run: {
      cellId: 'c1',
      cellIds: ['c1', 'c2'],
      cells: [
        { cellId: 'c1', source: 'x = 1', sourceHash: 'sha256:a' },
        { cellId: 'c2', source: 'y = 2', sourceHash: 'sha256:b' }
      ],
      kernelName: 'Python 3 (ipykernel)'
    },
    kernel: {
      cellId: 'c1',
      cellIds: [],
      action: 'restart',
      kernelName: 'Python 3 (ipykernel)'
    }
  };
  const options = {
    kind,
    notebookKey: 'nb-1',
    notebookPath: 'a.ipynb',
    cellId: 'c1',
    applied: 0,
    apply: () => {
      options.applied++;
    },
    ...base[kind],
    ...overrides
  } as ICreateProposal & { applied: number };
  return options;
}

function refusal(make: () => unknown): Record<string, unknown> | null {
  try {
    make();
  } catch (error) {
    return normalizeError(error);
  }
  return null;
}

describe('ProposalStore: every kind', () => {
  let store: ProposalStore;
  beforeEach(() => {
    store = new ProposalStore();
  });
  afterEach(() => {
    store.dispose();
  });

  it('knows the five kinds, in the settings order', () => {
    expect(PROPOSAL_KINDS).toEqual([
      'update',
      'insert',
      'delete',
      'run',
      'kernel'
    ]);
    expect(isProposalKind('run')).toBe(true);
    expect(isProposalKind('save')).toBe(false);
  });

  it('keeps what each kind shows the human', () => {
    const run = store.create(request('run')).proposal;
    expect(run).toMatchObject({
      kind: 'run',
      cellId: 'c1',
      cellIds: ['c1', 'c2'],
      kernelName: 'Python 3 (ipykernel)',
      action: null,
      cellType: null
    });
    expect(run.cells.map(cell => cell.source)).toEqual(['x = 1', 'y = 2']);
    const insert = store.create(request('insert')).proposal;
    expect(insert).toMatchObject({
      kind: 'insert',
      cellIds: [],
      proposed: 'print(1)',
      original: '',
      cellType: 'code',
      position: 'below'
    });
    const kernel = store.create(
      request('kernel', { notebookKey: 'nb-2' })
    ).proposal;
    expect(kernel).toMatchObject({ kind: 'kernel', action: 'restart' });
    const update = store.create(
      request('update', { notebookKey: 'nb-3' })
    ).proposal;
    // a proposal made without a kind is an update holding its cell
    expect(update).toMatchObject({ kind: 'update', cellIds: ['c1'] });
  });

  it('a run holds every cell it lists: an edit or another run of one of them is refused', () => {
    const { proposal } = store.create(request('run'));
    for (const second of [
      request('update', { cellId: 'c2' }),
      request('delete', { cellId: 'c2' }),
      request('run', { cellId: 'c2', cellIds: ['c2'] })
    ]) {
      expect(refusal(() => store.create(second))).toMatchObject({
        error: 'PROPOSAL_ALREADY_PENDING',
        cellId: 'c2',
        existingProposalId: proposal.id
      });
    }
    // a cell it does not list is free
    expect(
      refusal(() => store.create(request('update', { cellId: 'c3' })))
    ).toBeNull();
  });

  it('an insert holds no cell: two inserts next to one cell, and an edit of it, all wait', () => {
    store.create(request('insert'));
    store.create(request('insert', { proposed: 'print(2)' }));
    store.create(request('update'));
    expect(store.pending().map(p => p.kind)).toEqual([
      'insert',
      'insert',
      'update'
    ]);
  });

  it('one kernel action per notebook', () => {
    const { proposal } = store.create(request('kernel'));
    expect(
      refusal(() => store.create(request('kernel', { action: 'interrupt' })))
    ).toMatchObject({
      error: 'PROPOSAL_ALREADY_PENDING',
      cellId: null,
      existingProposalId: proposal.id
    });
    // it holds no cell, and another notebook has its own kernel
    expect(refusal(() => store.create(request('update')))).toBeNull();
    expect(
      refusal(() => store.create(request('kernel', { notebookKey: 'nb-2' })))
    ).toBeNull();
    store.deny(proposal.id);
    expect(refusal(() => store.create(request('kernel')))).toBeNull();
  });

  describe.each(PROPOSAL_KINDS)('%s', kind => {
    it('accepted: the re-check runs once, then it settles', async () => {
      const options = request(kind);
      const { proposal, outcome } = store.create(options);
      expect(options.applied).toBe(0);
      expect(store.accept(proposal.id)).toMatchObject({ kind: 'accepted' });
      expect(options.applied).toBe(1);
      await expect(outcome).resolves.toMatchObject({
        kind: 'accepted',
        proposal: { state: 'accepted', kind }
      });
      expect(store.accept(proposal.id)).toBeNull();
      expect(options.applied).toBe(1);
    });

    it('stale on accept: the re-check refused it, the error kept', async () => {
      const refused = new Error('changed');
      const { proposal, outcome } = store.create(
        request(kind, {
          apply: () => {
            throw refused;
          }
        })
      );
      store.accept(proposal.id);
      await expect(outcome).resolves.toMatchObject({
        kind: 'stale',
        error: refused,
        proposal: { state: 'stale' }
      });
    });

    it('denied, withdrawn, auto-denied: nothing applied', async () => {
      const denied = request(kind);
      const first = store.create(denied);
      store.deny(first.proposal.id, 'not now');
      await expect(first.outcome).resolves.toMatchObject({
        kind: 'denied',
        reason: 'not now'
      });
      const withdrawn = request(kind);
      const second = store.create(withdrawn);
      store.withdraw(second.proposal.id);
      await expect(second.outcome).resolves.toMatchObject({
        kind: 'withdrawn'
      });
      const auto = request(kind);
      const third = store.create(auto);
      store.autoDeny(third.proposal.id, 'notebook-closed');
      await expect(third.outcome).resolves.toMatchObject({
        kind: 'denied',
        proposal: { state: 'auto-denied', cause: 'notebook-closed' }
      });
      expect(denied.applied + withdrawn.applied + auto.applied).toBe(0);
      expect(store.pending()).toEqual([]);
    });
  });
});
