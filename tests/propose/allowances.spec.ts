/**
 * The proposal service's rules that are not about one tool: which kinds a
 * notebook in Propose mode reviews (the `reviewed` setting), and the cells
 * the human allowed to run again while their code is unchanged, kept in the
 * page and never in the file.
 */
import { YNotebook } from '@jupyter/ydoc';
import type { DocumentRegistry } from '@jupyterlab/docregistry';
import type { INotebookModel, NotebookPanel } from '@jupyterlab/notebook';
import { Signal } from '@lumino/signaling';

import { sourceHash } from '../../src/common/hash';
import { setNotebookMode } from '../../src/propose/notebook-mode';
import { ProposalService } from '../../src/propose/service';

type Context = DocumentRegistry.IContext<INotebookModel>;

function notebookWith(...sources: string[]): YNotebook {
  const model = YNotebook.create();
  model.insertCells(
    0,
    sources.map((source, i) => ({
      id: `c${i + 1}`,
      cell_type: 'code' as const,
      source,
      metadata: {},
      outputs: [],
      execution_count: null
    }))
  );
  return model;
}

/** What the service reads of a document context. */
function contextOf(model: YNotebook): Context {
  return {
    path: 'a.ipynb',
    model: {
      isDisposed: false,
      sharedModel: model,
      cells: { changed: new Signal({}) }
    },
    disposed: new Signal({}),
    pathChanged: new Signal({})
  } as unknown as Context;
}

describe('ProposalService: the kinds reviewed', () => {
  it('a notebook in Propose mode reviews every kind by default; Direct mode none', () => {
    const service = new ProposalService({ mode: 'direct' });
    const model = notebookWith('x = 1');
    const kinds = ['update', 'insert', 'delete', 'run', 'kernel'] as const;
    expect(kinds.map(kind => service.reviews(model, kind))).toEqual([
      false,
      false,
      false,
      false,
      false
    ]);
    setNotebookMode(model, 'propose');
    expect(kinds.every(kind => service.reviews(model, kind))).toBe(true);
    expect(service.reviewed).toEqual(kinds);
    service.dispose();
    model.dispose();
  });

  it('the setting narrows what Propose mode reviews, and announces the change', () => {
    const service = new ProposalService({ mode: 'propose' });
    const model = notebookWith('x = 1');
    let announced = 0;
    service.modeChanged.connect(() => announced++);
    service.setReviewed(['update', 'delete']);
    expect(announced).toBe(1);
    expect(service.reviews(model, 'update')).toBe(true);
    expect(service.reviews(model, 'run')).toBe(false);
    expect(service.reviews(model, 'insert')).toBe(false);
    // the same set again is no change
    service.setReviewed(['delete', 'update']);
    expect(announced).toBe(1);
    service.dispose();
    model.dispose();
  });
});

describe('ProposalService: allowed to run again while unchanged', () => {
  let service: ProposalService;
  let model: YNotebook;
  let context: Context;
  const hash = (source: string) => sourceHash('code', source);

  beforeEach(() => {
    service = new ProposalService({ mode: 'propose' });
    model = notebookWith('x = 1', 'y = 2');
    context = contextOf(model);
  });
  afterEach(() => {
    service.dispose();
    model.dispose();
  });

  /** Stage a run of cells as the tool does, and settle it. */
  async function run(
    cellIds: string[],
    decide: (id: string) => void
  ): Promise<void> {
    const cells = cellIds.map(cellId => {
      const source = model.cells.find(c => c.id === cellId)!.getSource();
      return { cellId, source, sourceHash: hash(source) };
    });
    const outcome = service.propose({
      kind: 'run',
      panel: { context } as unknown as NotebookPanel,
      cellId: cellIds[0],
      cellIds,
      cells,
      signal: new AbortController().signal,
      apply: () => undefined
    });
    decide(service.pending()[0].id);
    await outcome;
  }

  it('Accept alone allows nothing; Accept with allow-again allows each cell with the hash shown', async () => {
    await run(['c1'], id => service.accept(id));
    expect(service.allowances(context)).toEqual([]);
    expect(
      service.isAllowed(context, [{ cellId: 'c1', sourceHash: hash('x = 1') }])
    ).toBe(false);
    const changes: string[] = [];
    service.allowancesChanged.connect((_, key) => changes.push(key));
    await run(['c1', 'c2'], id => service.accept(id, { allowAgain: true }));
    expect(changes).toHaveLength(1);
    expect(service.allowances(context)).toEqual([
      { cellId: 'c1', sourceHash: hash('x = 1') },
      { cellId: 'c2', sourceHash: hash('y = 2') }
    ]);
    expect(
      service.isAllowed(context, [{ cellId: 'c2', sourceHash: hash('y = 2') }])
    ).toBe(true);
    // a cell not allowed, or other code, needs a review
    expect(
      service.isAllowed(context, [
        { cellId: 'c2', sourceHash: hash('y = 2') },
        { cellId: 'c3', sourceHash: hash('z') }
      ])
    ).toBe(false);
    expect(
      service.isAllowed(context, [{ cellId: 'c2', sourceHash: hash('y = 3') }])
    ).toBe(false);
    expect(service.isAllowed(context, [])).toBe(false);
  });

  it('a denied run allows nothing, whatever was asked', async () => {
    await run(['c1'], id => service.deny(id, null));
    expect(service.allowances(context)).toEqual([]);
  });

  it('an edit of the cell takes its allowance back; so does the human', async () => {
    await run(['c1', 'c2'], id => service.accept(id, { allowAgain: true }));
    const changes: string[] = [];
    service.allowancesChanged.connect((_, key) => changes.push(key));
    model.cells[0].setSource('x = 100');
    expect(
      service.isAllowed(context, [
        { cellId: 'c1', sourceHash: hash('x = 100') }
      ])
    ).toBe(false);
    expect(service.allowances(context)).toEqual([
      { cellId: 'c2', sourceHash: hash('y = 2') }
    ]);
    expect(changes).toHaveLength(1);
    expect(service.revokeAllowance(context, 'c2')).toBe(true);
    expect(service.revokeAllowance(context, 'c2')).toBe(false);
    expect(service.allowances(context)).toEqual([]);
  });

  it('kept in the page: nothing is written to the notebook', async () => {
    const before = JSON.stringify(model.toJSON());
    await run(['c1'], id => service.accept(id, { allowAgain: true }));
    expect(service.allowances(context)).toHaveLength(1);
    expect(JSON.stringify(model.toJSON())).toBe(before);
    // a new page (a new service) knows of none
    const reloaded = new ProposalService({ mode: 'propose' });
    expect(reloaded.allowances(context)).toEqual([]);
    reloaded.dispose();
  });
});
