import { ToolError } from '../../src/common/errors';
import { TRUNCATION_MARKER } from '../../src/common/text';
import {
  autoDenyReason,
  boundReason,
  type ICreateProposal,
  MAX_DENY_REASON_BYTES,
  ProposalStore
} from '../../src/propose/store';

const bytes = (text: string): number => new TextEncoder().encode(text).length;

function request(
  overrides: Partial<ICreateProposal> = {}
): ICreateProposal & { applied: number } {
  const options = {
    notebookKey: 'nb-1',
    notebookPath: 'dir/a.ipynb',
    cellId: 'cell-1',
    original: 'x = 1',
    proposed: 'x = 2',
    applied: 0,
    apply: () => {
      options.applied++;
    },
    ...overrides
  };
  return options;
}

describe('ProposalStore', () => {
  let store: ProposalStore;
  beforeEach(() => {
    store = new ProposalStore();
  });
  afterEach(() => {
    store.dispose();
  });

  it('stages a pending proposal and announces it', () => {
    const seen: string[] = [];
    store.changed.connect((_, p) => seen.push(p.state));
    const { proposal } = store.create(request());
    expect(proposal).toMatchObject({
      state: 'pending',
      cellId: 'cell-1',
      notebookPath: 'dir/a.ipynb',
      original: 'x = 1',
      proposed: 'x = 2',
      reason: null,
      cause: null
    });
    expect(store.pending()).toEqual([proposal]);
    expect(store.pendingFor('nb-1', 'cell-1')).toBe(proposal);
    expect(seen).toEqual(['pending']);
  });

  it('accept applies the edit once and settles as accepted', async () => {
    const options = request();
    const { proposal, outcome } = store.create(options);
    const result = store.accept(proposal.id);
    expect(result?.kind).toBe('accepted');
    expect(options.applied).toBe(1);
    await expect(outcome).resolves.toMatchObject({
      kind: 'accepted',
      proposal: { id: proposal.id, state: 'accepted' }
    });
    expect(store.pending()).toEqual([]);
    expect(store.get(proposal.id)?.state).toBe('accepted');
    // settled: a second decision does nothing
    expect(store.accept(proposal.id)).toBeNull();
    expect(store.deny(proposal.id, 'late')).toBeNull();
    expect(options.applied).toBe(1);
  });

  it('what the apply of an Accept sets off does not end it (a delete removes its own cell)', async () => {
    let id = '';
    const { proposal, outcome } = store.create(
      request({
        kind: 'delete',
        apply: () => {
          // the watchers hear of the cell going, inside the apply
          expect(store.autoDeny(id, 'cell-deleted')).toBeNull();
          expect(store.withdraw(id)).toBeNull();
          expect(store.hide(id)).toBeNull();
          expect(store.deny(id, 'late')).toBeNull();
          expect(store.accept(id)).toBeNull();
        }
      })
    );
    id = proposal.id;
    expect(store.accept(id)?.kind).toBe('accepted');
    await expect(outcome).resolves.toMatchObject({
      kind: 'accepted',
      proposal: { state: 'accepted' }
    });
  });

  it('accept after a human edit: stale, not applied, the error kept', async () => {
    const stale = new ToolError(
      'STALE_CELL',
      'Cell changed since it was read.'
    );
    const { proposal, outcome } = store.create(
      request({
        apply: () => {
          throw stale;
        }
      })
    );
    expect(store.accept(proposal.id)?.kind).toBe('stale');
    const settled = await outcome;
    expect(settled).toMatchObject({ kind: 'stale', error: stale });
    expect(store.get(proposal.id)?.state).toBe('stale');
    expect(store.settled().map(p => p.state)).toEqual(['stale']);
  });

  it('deny settles with the reason', async () => {
    const { proposal, outcome } = store.create(request());
    store.deny(proposal.id, 'use a constant');
    await expect(outcome).resolves.toMatchObject({
      kind: 'denied',
      reason: 'use a constant',
      proposal: { state: 'denied', reason: 'use a constant' }
    });
  });

  it.each([[null], [''], ['   \n\t']])(
    'deny with a blank reason (%j) gives null',
    async reason => {
      const { proposal, outcome } = store.create(request());
      store.deny(proposal.id, reason);
      await expect(outcome).resolves.toMatchObject({
        kind: 'denied',
        reason: null
      });
    }
  );

  it('withdraw (the call aborted) settles as withdrawn, nothing applied', async () => {
    const options = request();
    const { proposal, outcome } = store.create(options);
    store.withdraw(proposal.id);
    await expect(outcome).resolves.toMatchObject({ kind: 'withdrawn' });
    expect(store.get(proposal.id)?.state).toBe('withdrawn');
    expect(store.pending()).toEqual([]);
    expect(options.applied).toBe(0);
  });

  it.each([
    ['cell-deleted', null, 'the cell was deleted'],
    ['notebook-closed', null, 'the notebook was closed'],
    ['notebook-renamed', 'dir/b.ipynb', 'renamed to "dir/b.ipynb"'],
    ['notebook-moved', 'other/a.ipynb', 'moved to "other/a.ipynb"']
  ] as const)('auto-deny for %s says which', async (cause, detail, words) => {
    const { proposal, outcome } = store.create(request());
    store.autoDeny(proposal.id, cause, detail);
    const settled = await outcome;
    expect(settled.kind).toBe('denied');
    expect(settled.kind === 'denied' && settled.reason).toContain(words);
    expect(store.get(proposal.id)).toMatchObject({
      state: 'auto-denied',
      cause
    });
  });

  it('one pending proposal per cell: a second is refused with the first id', () => {
    const { proposal } = store.create(request());
    let thrown: unknown = null;
    try {
      store.create(request({ proposed: 'x = 3' }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolError);
    expect(thrown).toMatchObject({
      code: 'PROPOSAL_ALREADY_PENDING',
      details: { cellId: 'cell-1', existingProposalId: proposal.id }
    });
    // other cells, and the same cell id in another notebook, are free
    expect(() => store.create(request({ cellId: 'cell-2' }))).not.toThrow();
    expect(() => store.create(request({ notebookKey: 'nb-2' }))).not.toThrow();
    expect(store.pending()).toHaveLength(3);
    // once settled, the cell takes a new proposal
    store.deny(proposal.id);
    expect(() => store.create(request())).not.toThrow();
  });

  it('dispose withdraws what is pending, so no call waits forever', async () => {
    const { outcome } = store.create(request());
    store.dispose();
    await expect(outcome).resolves.toMatchObject({ kind: 'withdrawn' });
    expect(() => store.create(request())).toThrow();
  });

  it('remembers a bounded number of settled proposals', () => {
    for (let i = 0; i < 60; i++) {
      const { proposal } = store.create(request({ cellId: `c${i}` }));
      store.deny(proposal.id);
    }
    expect(store.settled()).toHaveLength(50);
    expect(store.settled()[0].cellId).toBe('c10');
  });
});

describe('boundReason', () => {
  it('keeps a reason within the bound as it is', () => {
    const reason = 'é'.repeat(MAX_DENY_REASON_BYTES / 2);
    expect(bytes(reason)).toBe(MAX_DENY_REASON_BYTES);
    expect(boundReason(reason)).toBe(reason);
  });

  it.each([
    ['1-byte', 'a'],
    ['2-byte', 'é'],
    ['3-byte', '中'],
    ['4-byte', '😀']
  ])(
    'cuts %s text to the bound in UTF-8 bytes, on a character boundary',
    (_, char) => {
      // one byte over the bound, shifted so that the cut falls inside a character
      const reason = 'a' + char.repeat(MAX_DENY_REASON_BYTES);
      const cut = boundReason(reason)!;
      expect(bytes(cut)).toBeLessThanOrEqual(MAX_DENY_REASON_BYTES);
      expect(bytes(cut)).toBeGreaterThan(MAX_DENY_REASON_BYTES - 4);
      expect(cut.endsWith(TRUNCATION_MARKER)).toBe(true);
      const kept = cut.slice(0, -TRUNCATION_MARKER.length);
      expect(reason.startsWith(kept)).toBe(true);
      // no lone surrogate: the text round-trips through UTF-8
      expect(new TextDecoder().decode(new TextEncoder().encode(kept))).toBe(
        kept
      );
    }
  );

  it('is null for a missing or blank reason', () => {
    expect(boundReason(null)).toBeNull();
    expect(boundReason(undefined)).toBeNull();
    expect(boundReason(' \n ')).toBeNull();
  });

  it('the store applies it on deny', async () => {
    const store = new ProposalStore();
    const { proposal, outcome } = store.create(request());
    store.deny(proposal.id, '中'.repeat(1000));
    const settled = await outcome;
    expect(
      settled.kind === 'denied' && bytes(settled.reason!)
    ).toBeLessThanOrEqual(MAX_DENY_REASON_BYTES);
    store.dispose();
  });
});

describe('autoDenyReason', () => {
  it('says which cause, without a detail too', () => {
    expect(autoDenyReason('notebook-renamed')).toContain('renamed');
    expect(autoDenyReason('notebook-moved')).toContain('moved');
  });
});
