/**
 * The real service around a proposal whose Accept changes what it watches:
 * a delete's Accept removes the very cell it holds, which must settle as
 * accepted, not as auto-denied by the cell going away; the same removal by
 * the human while it waits still auto-denies.
 */
import { YNotebook } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';
import { Signal } from '@lumino/signaling';

import { ProposalService } from '../../src/propose/service';
import type { IProposals } from '../../src/tokens';
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

describe('ProposalService while a proposal applies', () => {
  let notebook: YNotebook;
  let cellsChanged: Signal<object, void>;
  let panel: IProposals.IRequest['panel'];
  let service: ProposalService;

  beforeEach(() => {
    notebook = YNotebook.create({ disableDocumentWideUndoRedo: true });
    notebook.insertCells(0, [code('a', 'x = 1'), code('b', 'y = 2')]);
    cellsChanged = new Signal<object, void>({});
    // the parts of a panel's context the service watches
    panel = proposalPanel(notebook, cellsChanged);
    service = new ProposalService({ mode: 'propose' });
  });

  afterEach(() => {
    service.dispose();
    notebook.dispose();
  });

  const deleteA = () => {
    notebook.deleteCell(0);
    // the notebook model announces it, as JupyterLab's does
    cellsChanged.emit();
  };

  it('a delete accepted: its own removal of the cell does not auto-deny it', async () => {
    const outcome = service.propose({
      kind: 'delete',
      panel,
      cellId: 'a',
      original: 'x = 1',
      signal: new AbortController().signal,
      apply: deleteA
    });
    const [pending] = service.pending();
    expect(pending.kind).toBe('delete');
    expect(service.accept(pending.id)).toMatchObject({ kind: 'accepted' });
    expect(await outcome).toMatchObject({
      kind: 'accepted',
      proposal: { state: 'accepted' }
    });
    expect(notebook.cells.map(cell => cell.id)).toEqual(['b']);
  });

  it('the cell removed by someone else while it waits: auto-denied', async () => {
    const outcome = service.propose({
      kind: 'delete',
      panel,
      cellId: 'a',
      original: 'x = 1',
      signal: new AbortController().signal,
      apply: () => undefined
    });
    deleteA();
    expect(await outcome).toMatchObject({
      kind: 'denied',
      reason: 'Auto-denied: the cell was deleted before the human decided.'
    });
  });
});
