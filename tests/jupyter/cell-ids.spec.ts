/**
 * Ids for cells of notebooks without them (nbformat < 4.5): derived from the
 * file, the same on every read, unique within the notebook, and the same in
 * a closed read (the resolver) and in the notebook JupyterLab opens (the
 * widget extension, on a real document context loading the file).
 */
import { readFileSync } from 'fs';
import * as path from 'path';

import type * as nbformat from '@jupyterlab/nbformat';
import type {
  INotebookModel,
  NotebookModelFactory as NotebookModelFactoryType,
  NotebookPanel,
  NotebookTracker as NotebookTrackerType
} from '@jupyterlab/notebook';
import type { SessionContextDialogs as SessionContextDialogsType } from '@jupyterlab/apputils';
import type {
  Context as ContextType,
  DocumentRegistry
} from '@jupyterlab/docregistry';
import type { ServiceManagerMock as ServiceManagerMockType } from '@jupyterlab/services/lib/testutils';

import {
  baseCellId,
  stableCellIds,
  withStableCellIds
} from '../../src/jupyter/cell-ids';
import { StableCellIdsExtension } from '../../src/jupyter/cell-ids-plugin';
import { type IJupyterEnvironment } from '../../src/jupyter/environment';
import { notebookRevision } from '../../src/jupyter/model-index';
import { NotebookResolver } from '../../src/jupyter/notebook';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

/** The nbformat 4.2 notebook of the browser tests, as Jupyter wrote it. */
function legacy(): nbformat.INotebookContent {
  return JSON.parse(
    readFileSync(
      path.resolve(
        __dirname,
        '../../ui-tests/fixtures/legacy-nbformat-4.2.ipynb'
      ),
      'utf-8'
    )
  ) as nbformat.INotebookContent;
}

const cell = (
  cell_type: string,
  source: string | string[],
  id?: string
): nbformat.ICell =>
  ({
    cell_type,
    source,
    metadata: {},
    ...(id === undefined ? {} : { id })
  }) as nbformat.ICell;

const ID_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

describe('stableCellIds', () => {
  it('gives the same ids on every read of the same file', () => {
    const first = stableCellIds(legacy().cells);
    const second = stableCellIds(legacy().cells);
    expect(second).toEqual(first);
    expect(first).toHaveLength(6);
    // nbformat 4.5's rule for an id
    first.forEach(id => expect(id).toMatch(ID_PATTERN));
  });

  it('tells identical cells apart by their order, the first keeping the plain id', () => {
    const ids = stableCellIds(legacy().cells);
    expect(new Set(ids).size).toBe(ids.length);
    // cells 3 and 4 are the same code with the same output
    const base = baseCellId('code', 'print(total / len(rain))');
    expect(ids.slice(3, 5)).toEqual([base, `${base}-1`]);

    const three = stableCellIds([
      cell('code', 'x'),
      cell('code', 'x'),
      cell('code', 'x')
    ]);
    expect(three).toEqual([
      baseCellId('code', 'x'),
      `${baseCellId('code', 'x')}-1`,
      `${baseCellId('code', 'x')}-2`
    ]);
  });

  it('follows the content, not the position: a cell added elsewhere moves no id', () => {
    const before = stableCellIds(legacy().cells);
    const cells = legacy().cells;
    cells.splice(1, 0, cell('code', 'import statistics'));
    cells.pop();
    const after = stableCellIds(cells);
    expect(after.slice(0, 1)).toEqual(before.slice(0, 1));
    expect(after.slice(2)).toEqual(before.slice(1, 5));
  });

  it('depends on the type, and reads a source stored as lines like one string', () => {
    const [asCode, asMarkdown, asRaw, asLines] = stableCellIds([
      cell('code', 'a\nb'),
      cell('markdown', 'a\nb'),
      cell('raw', 'a\nb'),
      cell('code', ['a\n', 'b'])
    ]);
    expect(new Set([asCode, asMarkdown, asRaw]).size).toBe(3);
    // the same content again: the next of its kind
    expect(asLines).toBe(`${asCode}-1`);
  });

  it('keeps the ids cells have, and never derives one equal to them', () => {
    const base = baseCellId('code', 'x');
    const ids = stableCellIds([
      cell('code', 'x'),
      cell('code', 'y', base),
      cell('code', 'x'),
      cell('code', 'z', `${base}-1`)
    ]);
    expect(ids[1]).toBe(base);
    expect(ids[3]).toBe(`${base}-1`);
    expect(new Set(ids).size).toBe(4);
    expect(ids[0]).toBe(`${base}-2`);
    expect(ids[2]).toBe(`${base}-3`);
  });
});

describe('withStableCellIds', () => {
  it('gives every cell an id and upgrades to nbformat 4.5, leaving the input alone', () => {
    const content = legacy();
    const copy = JSON.stringify(content);
    const upgraded = withStableCellIds(content);
    expect(JSON.stringify(content)).toBe(copy);
    expect(upgraded.nbformat).toBe(4);
    expect(upgraded.nbformat_minor).toBe(5);
    expect(upgraded.cells.map(c => c.id)).toEqual(stableCellIds(content.cells));
    // everything else as it was
    expect(upgraded.cells.map(({ id, ...rest }) => rest)).toEqual(
      content.cells
    );
    expect(upgraded.metadata).toEqual(content.metadata);
  });

  it('returns a notebook that has its ids as it is', () => {
    const content: nbformat.INotebookContent = {
      cells: [cell('code', 'x', 'a'), cell('markdown', '# b', 'b')],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    };
    expect(withStableCellIds(content)).toBe(content);
  });

  it('fills in only the ids missing from a 4.5 notebook', () => {
    const content: nbformat.INotebookContent = {
      cells: [cell('code', 'x', 'a'), cell('code', 'y')],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    };
    expect(withStableCellIds(content).cells.map(c => c.id)).toEqual([
      'a',
      baseCellId('code', 'y')
    ]);
  });
});

/**
 * The notebook packages, loaded once the known warnings are silenced (an
 * import would load them first, and the clipboard's warning would print).
 */
function loadNotebookKit() {
  return {
    ...jest.requireActual<{
      NotebookModelFactory: typeof NotebookModelFactoryType;
      NotebookTracker: typeof NotebookTrackerType;
    }>('@jupyterlab/notebook'),
    ...jest.requireActual<{ Context: typeof ContextType }>(
      '@jupyterlab/docregistry'
    ),
    ...jest.requireActual<{
      SessionContextDialogs: typeof SessionContextDialogsType;
    }>('@jupyterlab/apputils'),
    ...jest.requireActual<{
      ServiceManagerMock: typeof ServiceManagerMockType;
    }>('@jupyterlab/services/lib/testutils')
  };
}

describe('a notebook without ids, closed and open', () => {
  const {
    Context,
    NotebookModelFactory,
    NotebookTracker,
    ServiceManagerMock,
    SessionContextDialogs
  } = loadNotebookKit();
  const FILE = 'work/rainfall.ipynb';
  let tracker: NotebookTrackerType;
  let resolver: NotebookResolver;

  beforeEach(() => {
    tracker = new NotebookTracker({ namespace: 'cell-ids-spec' });
    resolver = new NotebookResolver({
      tracker,
      multiDocument: true,
      contents: {
        get: async (file: string) => {
          if (file !== FILE) {
            throw { response: { status: 404 } };
          }
          return { type: 'notebook', content: legacy() };
        }
      }
    } as unknown as IJupyterEnvironment);
  });

  afterEach(() => {
    tracker.dispose();
  });

  /** The ids and revision of a read of the closed file. */
  async function closedRead(): Promise<{ ids: string[]; revision: string }> {
    const notebook = await resolver.resolveNotebook(FILE);
    try {
      return {
        ids: notebook.model.cells.map(c => c.id),
        revision: notebookRevision(notebook.model)
      };
    } finally {
      notebook.release();
    }
  }

  /**
   * A document context opening the file as JupyterLab opens a notebook: the
   * widget extensions run when its widget is made, then the context loads
   * the file into the model (`initialize`).
   */
  async function openedContext(
    extension: StableCellIdsExtension | null
  ): Promise<DocumentRegistry.IContext<INotebookModel>> {
    const manager = new ServiceManagerMock();
    await manager.contents.save(FILE, {
      type: 'notebook',
      format: 'json',
      content: legacy()
    });
    const context = new Context({
      sessionDialogs: new SessionContextDialogs(),
      manager,
      factory: new NotebookModelFactory({}),
      path: FILE,
      kernelPreference: { shouldStart: false, canStart: false }
    });
    extension?.createNew(null as unknown as NotebookPanel, context);
    await context.initialize(false);
    return context;
  }

  it('reads the same ids and revision from the closed file every time', async () => {
    const first = await closedRead();
    const second = await closedRead();
    expect(second).toEqual(first);
    expect(first.ids).toEqual(stableCellIds(legacy().cells));
  });

  it('gives the notebook JupyterLab opens the ids of the closed read, upgraded and clean', async () => {
    const { ids } = await closedRead();
    const context = await openedContext(new StableCellIdsExtension());
    try {
      const model = context.model;
      expect(model.sharedModel.cells.map(c => c.id)).toEqual(ids);
      expect(model.nbformatMinor).toBe(5);
      expect(model.dirty).toBe(false);
      // nothing to undo into other ids
      expect(model.sharedModel.canUndo()).toBe(false);
      // what a save writes
      const saved = model.toJSON() as nbformat.INotebookContent;
      expect(saved.nbformat_minor).toBe(5);
      expect(saved.cells.map(c => c.id)).toEqual(ids);
      // reloading from disk keeps them
      await context.revert();
      expect(model.sharedModel.cells.map(c => c.id)).toEqual(ids);
    } finally {
      context.dispose();
    }
  });

  it('control: without the extension, JupyterLab gives the cells random ids', async () => {
    const { ids } = await closedRead();
    const context = await openedContext(null);
    try {
      const opened = context.model.sharedModel.cells.map(c => c.id);
      expect(opened).toHaveLength(ids.length);
      expect(opened.filter(id => ids.includes(id))).toEqual([]);
    } finally {
      context.dispose();
    }
  });
});
