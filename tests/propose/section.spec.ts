/**
 * The Proposals tab's model and view over the real ProposalService and real
 * notebook panels followed through a real NotebookTracker: the pending
 * proposals of the current notebook only, oldest first; Accept, Deny with a
 * reason, Accept all in order with what did not apply reported; the run
 * allowances listed, dropped on an edit and taken back; the DOM contract.
 */
import type * as nbformat from '@jupyterlab/nbformat';
import type { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { nullTranslator } from '@jupyterlab/translation';
import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';

import { ToolError } from '../../src/common/errors';
import { sourceHash } from '../../src/common/hash';
import type * as ModelModule from '../../src/propose/section-model';
import type * as ViewModule from '../../src/propose/section';
import { ProposalService } from '../../src/propose/service';
import type { ProposalOutcome } from '../../src/propose/store';
import type { IProposals } from '../../src/tokens';
import { loadPanelKit } from '../panel-kit';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

// Loaded once the console is quieted: @jupyterlab/apputils warns on import.
const { ProposalsModel, pendingOf, proposalPreview } = jest.requireActual<
  typeof ModelModule
>('../../src/propose/section-model');
const { ProposalsPanel, kindText } = jest.requireActual<typeof ViewModule>(
  '../../src/propose/section'
);
const { NBTestUtils } = loadPanelKit();

/** The part of a notebook tracker the model follows, switched by the test. */
class FakeTracker {
  currentWidget: NotebookPanel | null = null;
  readonly currentChanged = new Signal<this, NotebookPanel | null>(this);
  set(panel: NotebookPanel | null): void {
    this.currentWidget = panel;
    this.currentChanged.emit(panel);
  }
}

const trans = nullTranslator.load('jupyterlite-webmcp');

/** Waits until `check` holds (the view renders after a timer and React). */
async function until(check: () => boolean, timeout = 2000): Promise<void> {
  const end = Date.now() + timeout;
  while (!check()) {
    if (Date.now() > end) {
      throw new Error('timed out');
    }
    await new Promise(resolve => setTimeout(resolve, 10));
  }
}

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

async function notebookPanel(cells: nbformat.ICodeCell[]) {
  const context = await NBTestUtils.createMockContext();
  context.model.fromJSON({
    cells,
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5
  });
  const panel = NBTestUtils.createNotebookPanel(context);
  Widget.attach(panel, document.body);
  return panel;
}

describe('the Proposals tab', () => {
  let first: NotebookPanel;
  let second: NotebookPanel;
  let tracker: FakeTracker;
  let service: ProposalService;
  let model: ModelModule.ProposalsModel;
  let controller: AbortController;
  /** The order in which accepted proposals were applied. */
  let applied: string[];

  /** Waits for the model's next (timer-scheduled) change. */
  const nextChange = () =>
    new Promise<void>(resolve => {
      const once = () => {
        model.changed.disconnect(once);
        resolve();
      };
      model.changed.connect(once);
    });

  /** Stages a proposal as a tool does; `fails` makes its re-check refuse. */
  const propose = (
    panel: NotebookPanel,
    request: Partial<IProposals.IRequest> & { cellId: string | null },
    fails = false
  ): Promise<ProposalOutcome> =>
    service.propose({
      panel,
      signal: controller.signal,
      apply: () => {
        if (fails) {
          throw new ToolError('STALE_CELL', 'The cell changed.', {
            cellId: request.cellId
          });
        }
        applied.push(`${request.kind ?? 'update'}:${request.cellId}`);
      },
      ...request
    });

  /** A run of cell `id` of `panel` as jupyter_run_cells stages it. */
  const runOf = (panel: NotebookPanel, id: string) => {
    const cell = panel.content.model!.sharedModel.cells.find(c => c.id === id)!;
    const source = cell.getSource();
    return {
      kind: 'run' as const,
      cellId: id,
      cellIds: [id],
      cells: [{ cellId: id, source, sourceHash: sourceHash('code', source) }],
      kernelName: 'Python 3'
    };
  };

  beforeEach(async () => {
    first = await notebookPanel([
      code('a', 'x = 1'),
      code('b', '\n  y = 2\nprint(y)'),
      code('c', 'z = 3')
    ]);
    second = await notebookPanel([code('q', 'q = 1')]);
    tracker = new FakeTracker();
    tracker.set(first);
    service = new ProposalService({ mode: 'propose' });
    controller = new AbortController();
    applied = [];
    model = new ProposalsModel({
      tracker: tracker as unknown as INotebookTracker,
      proposals: service
    });
  });

  afterEach(() => {
    model.dispose();
    service.dispose();
    for (const panel of [first, second]) {
      const context = panel.context;
      panel.dispose();
      context.dispose();
    }
  });

  it('lists the current notebook’s pending proposals, oldest first, and follows the tracker', async () => {
    expect(model.panel).toBe(first);
    expect(model.rows).toEqual([]);
    void propose(first, { cellId: 'b', original: 'y = 2', proposed: 'y = 20' });
    void propose(second, { cellId: 'q', original: 'q = 1', proposed: 'q = 2' });
    void propose(first, { kind: 'delete', cellId: 'a', original: 'x = 1' });
    const changed = nextChange();
    await changed;
    expect(model.rows.map(p => [p.kind, p.cellId])).toEqual([
      ['update', 'b'],
      ['delete', 'a']
    ]);
    expect(model.count).toBe(2);

    const switched = nextChange();
    tracker.set(second);
    await switched;
    expect(model.panel).toBe(second);
    expect(model.rows.map(p => p.cellId)).toEqual(['q']);
    expect(model.allowances()).toEqual([]);
    tracker.set(null);
    expect(model.rows).toEqual([]);
    expect(model.path).toBeNull();
  });

  it('orders by creation, whatever the order given', () => {
    const base = {
      notebookKey: 'k',
      kind: 'update'
    } as const;
    const rows = pendingOf(
      [
        { ...base, id: '2', createdAt: '2026-01-01T00:00:02Z' },
        { ...base, id: 'x', notebookKey: 'other', createdAt: '0' },
        { ...base, id: '1', createdAt: '2026-01-01T00:00:01Z' },
        { ...base, id: '3', createdAt: '2026-01-01T00:00:02Z' }
      ] as unknown as Parameters<typeof pendingOf>[0],
      'k'
    );
    expect(rows.map(p => p.id)).toEqual(['1', '2', '3']);
  });

  it('says each kind in words, with the first line of its source', () => {
    const proposal = (over: Record<string, unknown>) =>
      ({
        kind: 'update',
        proposed: '',
        original: '',
        cells: [],
        action: null,
        ...over
      }) as unknown as Parameters<typeof kindText>[0];
    const kinds = [
      proposal({ kind: 'update', proposed: '\nnew = 1\nmore' }),
      proposal({ kind: 'insert', proposed: 'inserted()' }),
      proposal({ kind: 'delete', original: 'gone = 1' }),
      proposal({
        kind: 'run',
        cells: [
          { cellId: 'a', source: 'run_me()', sourceHash: 'h' },
          { cellId: 'b', source: '', sourceHash: 'h' }
        ]
      }),
      proposal({ kind: 'kernel', action: 'restart' }),
      proposal({ kind: 'kernel', action: 'interrupt' })
    ];
    expect(kinds.map(p => kindText(p, trans))).toEqual([
      'Edit',
      'New cell',
      'Delete',
      'Run 2 cells',
      'Restart kernel',
      'Interrupt kernel'
    ]);
    expect(kinds.map(p => proposalPreview(p))).toEqual([
      'new = 1',
      'inserted()',
      'gone = 1',
      'run_me()',
      '',
      ''
    ]);
  });

  it('accepts and denies through the service; the reason reaches the agent', async () => {
    const edit = propose(first, {
      cellId: 'a',
      original: 'x = 1',
      proposed: 'x = 2'
    });
    const removal = propose(first, {
      kind: 'delete',
      cellId: 'c',
      original: 'z = 3'
    });
    const [p1, p2] = model.rows;
    expect(model.accept(p1.id)).toBe(true);
    expect(model.deny(p2.id, 'keep z')).toBe(true);
    expect((await edit).kind).toBe('accepted');
    expect(await removal).toMatchObject({ kind: 'denied', reason: 'keep z' });
    expect(applied).toEqual(['update:a']);
    expect(model.rows).toEqual([]);
    // no longer pending: nothing to decide
    expect(model.accept(p1.id)).toBe(false);
    expect(model.report).toBeNull();
  });

  it('accepts all, oldest first, and reports what did not apply', async () => {
    const outcomes = [
      propose(first, { cellId: 'a', proposed: 'x = 2' }),
      propose(first, { cellId: 'b', proposed: 'y = 3' }, true),
      propose(first, { kind: 'delete', cellId: 'c' })
    ];
    const report = model.acceptAll();
    expect(applied).toEqual(['update:a', 'delete:c']);
    expect(report.total).toBe(3);
    expect(report.applied).toBe(2);
    expect(
      report.notApplied.map(item => [item.proposal.cellId, item.code])
    ).toEqual([['b', 'STALE_CELL']]);
    expect((await Promise.all(outcomes)).map(o => o.kind)).toEqual([
      'accepted',
      'stale',
      'accepted'
    ]);
    expect(model.report).toBe(report);
    expect(model.rows).toEqual([]);
    model.clearReport();
    expect(model.report).toBeNull();
  });

  it('lists the allowances, drops one on an edit, and takes one back', async () => {
    const run1 = propose(first, runOf(first, 'a'));
    model.accept(model.rows[0].id, { allowAgain: true });
    await run1;
    const run2 = propose(first, runOf(first, 'c'));
    model.accept(model.rows[0].id, { allowAgain: true });
    await run2;
    // a plain accept allows nothing
    const run3 = propose(first, runOf(first, 'b'));
    model.accept(model.rows[0].id);
    await run3;
    expect(model.allowances().map(cell => [cell.cellId, cell.index])).toEqual([
      ['a', 0],
      ['c', 2]
    ]);
    expect(model.allowances()[0].preview).toBe('x = 1');
    // another notebook has none
    expect(service.allowances(second.context)).toEqual([]);

    // an edit of the cell ends its allowance, and the tab hears of it
    const changed = nextChange();
    first.content.model!.sharedModel.cells[2].setSource('z = 4');
    await changed;
    expect(model.allowances().map(cell => cell.cellId)).toEqual(['a']);

    const revoked = nextChange();
    expect(model.revoke('a')).toBe(true);
    await revoked;
    expect(model.allowances()).toEqual([]);
    expect(model.revoke('a')).toBe(false);
  });

  it('marks invisible and direction-changing characters in a row, with a warning counting the whole proposal', async () => {
    const view = new ProposalsPanel({
      model,
      translator: nullTranslator,
      openCell: async () => undefined
    });
    Widget.attach(view, document.body);
    const item = () =>
      view.node.querySelector<HTMLElement>('li.jp-AgentProposals-item');
    // the preview is the first line; the second line's character counts too
    const edit = propose(first, {
      cellId: 'a',
      proposed: 'ok = "\u202Eyes"\nz = "\u200B"'
    });
    await until(() => item() !== null);
    expect(item()!.querySelector('[role="note"]')!.textContent).toBe(
      'Warning: 2 invisible or direction-changing characters, shown marked'
    );
    const preview = item()!.querySelector('.jp-AgentProposals-preview')!;
    expect(preview.textContent).toBe('ok = "⟦U+202E⟧yes"');
    expect(
      [...preview.querySelectorAll<HTMLElement>('.jp-AgentInvisible')].map(
        mark => mark.dataset.codePoint
      )
    ).toEqual(['U+202E']);
    controller.abort();
    await edit;
    view.dispose();
  });

  it('renders the stable DOM: rows, buttons, accept all, allowances, the count in the title', async () => {
    const opened: string[] = [];
    const view = new ProposalsPanel({
      model,
      translator: nullTranslator,
      openCell: async (_path, cellId) => {
        opened.push(cellId);
      }
    });
    Widget.attach(view, document.body);
    expect(view.title.label).toBe('Proposals');
    expect(view.node.classList).toContain('jp-AgentProposals');
    const itemsOf = () => [
      ...view.node.querySelectorAll<HTMLElement>('li.jp-AgentProposals-item')
    ];

    const edit = propose(first, { cellId: 'a', proposed: 'x = 2\nmore' });
    const run = propose(first, runOf(first, 'b'));
    await until(() => itemsOf().length === 2);
    expect(view.title.label).toBe('Proposals (2)');
    const items = itemsOf();
    expect(items.map(li => li.dataset.proposalKind)).toEqual(['update', 'run']);
    expect(items.map(li => li.dataset.proposalId)).toEqual(
      model.rows.map(p => p.id)
    );
    expect(items[0].textContent).toContain('Edit');
    expect(items[0].textContent).toContain('x = 2');
    expect(items[1].textContent).toContain('Run 1 cell');
    expect(items[1].textContent).toContain('y = 2');
    expect(items[0].querySelector('.jp-mod-allowAgain')).toBeNull();
    expect(items[1].querySelector('.jp-mod-allowAgain')).not.toBeNull();
    expect(items.every(li => li.querySelector('.jp-mod-accept'))).toBe(true);
    expect(items.every(li => li.querySelector('.jp-mod-deny'))).toBe(true);
    // the cell button reveals the cell
    items[1]
      .querySelector<HTMLButtonElement>('.jp-AgentPanel-cellLink')!
      .click();
    expect(opened).toEqual(['b']);

    // accept the run, allowing it again: listed under the allowances
    items[1].querySelector<HTMLButtonElement>('.jp-mod-allowAgain')!.click();
    expect((await run).kind).toBe('accepted');
    await until(() => itemsOf().length === 1);
    expect(view.title.label).toBe('Proposals (1)');
    expect(view.node.querySelector('.jp-AgentProposals-acceptAll')).toBeNull();
    const allowance = view.node.querySelector<HTMLElement>(
      'li.jp-AgentProposals-allowance'
    )!;
    expect(allowance.dataset.cellId).toBe('b');
    expect(view.node.textContent).toContain('never saved in the file');
    allowance
      .querySelector<HTMLButtonElement>('.jp-AgentProposals-revoke')!
      .click();
    await until(
      () => !view.node.querySelector('li.jp-AgentProposals-allowance')
    );

    // deny with the row's reason
    const input = view.node.querySelector<HTMLInputElement>(
      '.jp-AgentProposals-reasonInput'
    )!;
    const setter = Object.getOwnPropertyDescriptor(
      HTMLInputElement.prototype,
      'value'
    )!.set!;
    setter.call(input, 'not now');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    view.node.querySelector<HTMLButtonElement>('.jp-mod-deny')!.click();
    expect(await edit).toMatchObject({ kind: 'denied', reason: 'not now' });
    await until(() => itemsOf().length === 0);
    expect(view.title.label).toBe('Proposals');
    expect(view.node.textContent).toContain('No proposal waits');

    // two or more: Accept all, and a proposal that did not apply is told
    const batch = [
      propose(first, { cellId: 'a', proposed: 'x = 5' }, true),
      propose(first, { cellId: 'c', proposed: 'z = 5' })
    ];
    await until(() => itemsOf().length === 2);
    view.node
      .querySelector<HTMLButtonElement>('.jp-AgentProposals-acceptAll')!
      .click();
    expect((await Promise.all(batch)).map(o => o.kind)).toEqual([
      'stale',
      'accepted'
    ]);
    await until(() =>
      Boolean(view.node.querySelector('.jp-AgentProposals-reportBody'))
    );
    const report = view.node.querySelector('.jp-AgentProposals-report')!;
    expect(report.getAttribute('role')).toBe('status');
    expect(report.textContent).toContain(
      '1 of 2 accepted: 1 proposal was not applied.'
    );
    expect(report.textContent).toContain(
      'Edit (cell 1): the cell changed while you reviewed it'
    );
    view.dispose();
  });
});
