/**
 * What the person is told when an Accept does not apply (the re-check on
 * Accept refused it): a sentence true for the kind of proposal and the
 * reason, never a silent no-op.
 */
import { YNotebook } from '@jupyter/ydoc';
import { Notification } from '@jupyterlab/apputils';
import type { INotebookTracker } from '@jupyterlab/notebook';
import { Signal } from '@lumino/signaling';

import { ToolError } from '../../src/common/errors';
import { ProposalBlocks } from '../../src/propose/blocks';
import { ProposalService } from '../../src/propose/service';
import type {
  IProposal,
  ProposalKind,
  ProposalOutcome
} from '../../src/propose/store';
import { proposalPanel } from '../propose-panel';

function stale(
  kind: ProposalKind,
  code: ConstructorParameters<typeof ToolError>[0],
  action: IProposal['action'] = null
): ProposalOutcome {
  return {
    kind: 'stale',
    error: new ToolError(code, 'refused'),
    proposal: { id: 'p', kind, action } as IProposal
  };
}

describe('ProposalBlocks: an Accept that did not apply', () => {
  const tracker = {
    widgetAdded: new Signal({}),
    currentWidget: null,
    forEach: () => undefined
  } as unknown as INotebookTracker;
  let service: ProposalService;
  let blocks: ProposalBlocks;
  let warning: jest.SpyInstance;
  const tell = (outcome: ProposalOutcome | null) => {
    (
      blocks as unknown as {
        _tellIfNotApplied(outcome: ProposalOutcome | null): void;
      }
    )._tellIfNotApplied(outcome);
    const calls = warning.mock.calls.map(call => call[0] as string);
    warning.mockClear();
    return calls;
  };

  beforeEach(() => {
    service = new ProposalService();
    blocks = new ProposalBlocks({ service, tracker });
    warning = jest
      .spyOn(Notification, 'warning')
      .mockImplementation(() => 'id');
  });

  afterEach(() => {
    warning.mockRestore();
    blocks.dispose();
    service.dispose();
  });

  it('says nothing when the Accept applied, or nothing was pending', () => {
    expect(tell(null)).toEqual([]);
    expect(
      tell({ kind: 'accepted', proposal: { kind: 'delete' } as IProposal })
    ).toEqual([]);
  });

  it.each([
    [
      'update',
      'STALE_CELL',
      "The agent's change was not applied. The cell changed while you reviewed the change; your version was kept."
    ],
    [
      'delete',
      'STALE_CELL',
      "The agent's delete was not applied. The cell changed while you reviewed it; it was not deleted."
    ],
    [
      'delete',
      'CELL_ACCESS_DENIED',
      "The agent's delete was not applied. The cell is now read-only for the agent."
    ],
    [
      'insert',
      'CELL_NOT_FOUND',
      "The agent's new cell was not inserted. The cell it was to go next to is now hidden from the agent, or gone."
    ],
    [
      'insert',
      'NOTEBOOK_ACCESS_DENIED',
      "The agent's new cell was not inserted. The notebook is now read-only for the agent."
    ],
    [
      'run',
      'NOTEBOOK_NOT_FOUND',
      "The agent's code was not run. The notebook is now hidden from the agent."
    ],
    [
      'run',
      'INTERNAL_ERROR',
      "The agent's code was not run. The code could not be run."
    ]
  ] as const)('%s refused with %s', (kind, code, message) => {
    expect(tell(stale(kind, code))).toEqual([message]);
  });

  it('a kernel action names the action that did not happen', () => {
    expect(tell(stale('kernel', 'NOTEBOOK_ACCESS_DENIED', 'restart'))).toEqual([
      'The kernel was not restarted. The notebook is now read-only for the agent.'
    ]);
    expect(tell(stale('kernel', 'INTERNAL_ERROR', 'interrupt'))).toEqual([
      'The kernel was not interrupted. The kernel action could not be done.'
    ]);
  });
});

describe('ProposalBlocks loaded after proposals came', () => {
  // The blocks load once the page is idle; an agent's proposal can come
  // first (seen in Notebook 7: a proposal far down a fully windowed notebook
  // was shown without being brought into view). Each is shown, and the
  // newest is brought into view and focused, as on arrival.
  it('shows every pending proposal, and focuses the newest', () => {
    const notebook = YNotebook.create({ disableDocumentWideUndoRedo: true });
    notebook.insertCells(0, [
      { id: 'a', cell_type: 'code', source: 'x = 1', metadata: {} },
      { id: 'b', cell_type: 'code', source: 'y = 2', metadata: {} }
    ]);
    const panel = proposalPanel(notebook);
    const service = new ProposalService({ mode: 'propose' });
    for (const cellId of ['a', 'b']) {
      void service.propose({
        kind: 'delete',
        panel,
        cellId,
        original: '',
        signal: new AbortController().signal,
        apply: () => undefined
      });
    }
    const shown = jest.spyOn(
      ProposalBlocks.prototype as unknown as {
        _show(proposal: IProposal, focus: boolean): void;
      },
      '_show'
    );
    const tracker = {
      widgetAdded: new Signal({}),
      currentWidget: null,
      forEach: () => undefined
    } as unknown as INotebookTracker;
    const blocks = new ProposalBlocks({ service, tracker });
    expect(
      shown.mock.calls.map(([proposal, focus]) => [proposal.cellId, focus])
    ).toEqual([
      ['a', false],
      ['b', true]
    ]);
    shown.mockRestore();
    blocks.dispose();
    service.dispose();
    notebook.dispose();
  });
});
