import { YNotebook, type ISharedCell } from '@jupyter/ydoc';
import type { JupyterFrontEnd } from '@jupyterlab/application';
import type * as nbformat from '@jupyterlab/nbformat';
import type {
  NotebookActions as NotebookActionsType,
  NotebookPanel,
  NotebookTracker as NotebookTrackerType
} from '@jupyterlab/notebook';
import type { NBTestUtils as NBTestUtilsType } from '@jupyterlab/notebook/lib/testutils';
import type { Contents } from '@jupyterlab/services';
import { CommandRegistry } from '@lumino/commands';
import { Widget } from '@lumino/widgets';

import type * as CommandsModule from '../../src/access/commands';
import type * as NotebookFileModule from '../../src/access/notebook-file';
import type * as ServiceModule from '../../src/access/service';
import type * as WriterModule from '../../src/access/writer';
import type { IAgentAccess } from '../../src/tokens';
import { ACCESS_METADATA_KEY, type AgentAccess } from '../../src/access/model';
import { FakeBus, FakeContents } from './fakes';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

// Loaded once the console is quieted: @jupyterlab/apputils warns on import.
const { addAccessCommands, CELL_ACCESS_SHORTCUT, CommandIDs, selectedCells } =
  jest.requireActual<typeof CommandsModule>('../../src/access/commands');
const {
  cycleCellsAccess,
  NotebookAccessWriter,
  setCellsAccess,
  setSharedNotebookAccess
} = jest.requireActual<typeof WriterModule>('../../src/access/writer');
const { AgentAccessService } = jest.requireActual<typeof ServiceModule>(
  '../../src/access/service'
);
const { TAB_SAVE_WAIT_MS } = jest.requireActual<typeof NotebookFileModule>(
  '../../src/access/notebook-file'
);
type NotebookAccessWriter = WriterModule.NotebookAccessWriter;

function code(id: string, metadata: Record<string, unknown> = {}) {
  return {
    id,
    cell_type: 'code' as const,
    source: `# ${id}`,
    metadata: metadata as nbformat.ICodeCell['metadata'],
    outputs: [],
    execution_count: null
  };
}

const access = (cell: ISharedCell) => cell.getMetadata(ACCESS_METADATA_KEY);

/** Counts the document updates (one per transaction that changed something). */
function countUpdates(notebook: YNotebook): () => number {
  let updates = 0;
  notebook.ydoc.on('update', () => {
    updates++;
  });
  return () => updates;
}

describe('setCellsAccess and cycleCellsAccess (YNotebook)', () => {
  let notebook: YNotebook;

  beforeEach(() => {
    notebook = YNotebook.create();
  });

  afterEach(() => {
    notebook.dispose();
  });

  it('cycles a selection write → read → none → write', () => {
    const cells = notebook.insertCells(0, [code('a'), code('b'), code('c')]);
    const selection = cells.slice(0, 2);
    const seen: AgentAccess[] = [];
    for (let i = 0; i < 3; i++) {
      const change = cycleCellsAccess(notebook, selection, selection[0]);
      expect(change?.changed).toBe(2);
      seen.push(change!.access);
      expect(access(cells[0])).toEqual(access(cells[1]));
    }
    expect(seen).toEqual(['read', 'none', 'write']);
    // the unselected cell is never touched
    expect(access(cells[2])).toBeUndefined();
  });

  it('stores read and none with the version, write as absence', () => {
    const [cell] = notebook.insertCells(0, [code('a')]);
    cycleCellsAccess(notebook, [cell], cell);
    expect(access(cell)).toEqual({ version: 1, access: 'read' });
    cycleCellsAccess(notebook, [cell], cell);
    expect(access(cell)).toEqual({ version: 1, access: 'none' });
    cycleCellsAccess(notebook, [cell], cell);
    // the key is gone, not {version: 1}
    expect(access(cell)).toBeUndefined();
    expect(Object.keys(cell.getMetadata())).not.toContain(ACCESS_METADATA_KEY);
  });

  it('keeps the other fields under the key, and other metadata keys', () => {
    const history = [
      { at: '2026-01-01T00:00:00.000Z', actor: 'agent', action: 'edited' }
    ];
    const [cell] = notebook.insertCells(0, [
      code('a', {
        tags: ['keep'],
        [ACCESS_METADATA_KEY]: { version: 1, access: 'none', history }
      })
    ]);
    const change = cycleCellsAccess(notebook, [cell], cell);
    expect(change).toEqual({ access: 'write', changed: 1 });
    // write is absence, but the history stays under the key
    expect(access(cell)).toEqual({ version: 1, history });
    expect(cell.getMetadata('tags')).toEqual(['keep']);
  });

  it('gives a mixed selection the next access of the active cell', () => {
    const cells = notebook.insertCells(0, [
      code('a', { [ACCESS_METADATA_KEY]: { version: 1, access: 'none' } }),
      code('b', { [ACCESS_METADATA_KEY]: { version: 1, access: 'read' } }),
      code('c')
    ]);
    // active: b (read) → everything none
    expect(cycleCellsAccess(notebook, cells, cells[1])).toEqual({
      access: 'none',
      changed: 2
    });
    expect(cells.map(access)).toEqual([
      { version: 1, access: 'none' },
      { version: 1, access: 'none' },
      { version: 1, access: 'none' }
    ]);
    // then they cycle together
    expect(cycleCellsAccess(notebook, cells, cells[2])?.access).toBe('write');
    expect(cells.map(access)).toEqual([undefined, undefined, undefined]);
  });

  it('repairs an invalid value to none, never widening it', () => {
    const cells = notebook.insertCells(0, [
      code('typo', { [ACCESS_METADATA_KEY]: { version: 1, access: 'READ' } }),
      code('string', { [ACCESS_METADATA_KEY]: 'write' }),
      code('null', { [ACCESS_METADATA_KEY]: { access: null } })
    ]);
    for (const cell of cells) {
      expect(cycleCellsAccess(notebook, [cell], cell)).toEqual({
        access: 'none',
        changed: 1
      });
      expect(access(cell)).toEqual({ version: 1, access: 'none' });
    }
    // the next step continues the cycle
    expect(cycleCellsAccess(notebook, [cells[0]], cells[0])?.access).toBe(
      'write'
    );
  });

  it('an invalid active cell makes the whole selection none', () => {
    const cells = notebook.insertCells(0, [
      code('a'),
      code('typo', { [ACCESS_METADATA_KEY]: { access: 'Write' } })
    ]);
    expect(cycleCellsAccess(notebook, cells, cells[1])?.access).toBe('none');
    expect(cells.map(access)).toEqual([
      { version: 1, access: 'none' },
      { version: 1, access: 'none' }
    ]);
  });

  it('writes many cells in one transaction', () => {
    const cells = notebook.insertCells(
      0,
      Array.from({ length: 10 }, (_, i) => code(`c${i}`))
    );
    const updates = countUpdates(notebook);
    expect(setCellsAccess(notebook, cells, 'read')).toBe(10);
    expect(updates()).toBe(1);
    expect(cells.map(access)).toEqual(
      cells.map(() => ({ version: 1, access: 'read' }))
    );
  });

  it('writes nothing when nothing changes', () => {
    const cells = notebook.insertCells(0, [
      code('a', { [ACCESS_METADATA_KEY]: { version: 1, access: 'read' } }),
      code('b')
    ]);
    const updates = countUpdates(notebook);
    expect(setCellsAccess(notebook, [cells[0]], 'read')).toBe(0);
    expect(setCellsAccess(notebook, [cells[1]], 'write')).toBe(0);
    expect(updates()).toBe(0);
    // only the cell that changes is written
    expect(setCellsAccess(notebook, cells, 'read')).toBe(1);
    expect(updates()).toBe(1);
  });

  it('takes the first cell as anchor when there is no active cell', () => {
    const cells = notebook.insertCells(0, [code('a'), code('b')]);
    expect(cycleCellsAccess(notebook, cells)?.access).toBe('read');
    expect(cycleCellsAccess(notebook, [])).toBeNull();
  });

  it('is undone in one step, its own', () => {
    const cells = notebook.insertCells(0, [code('a'), code('b')]);
    notebook.undoManager.clear();
    // two quick steps, and an edit right after: three undo steps
    setCellsAccess(notebook, cells, 'read');
    setCellsAccess(notebook, cells, 'none');
    notebook.transact(() => cells[0].setSource('edited'));
    notebook.undo();
    expect(cells[0].getSource()).toBe('# a');
    expect(cells.map(access)).toEqual([
      { version: 1, access: 'none' },
      { version: 1, access: 'none' }
    ]);
    notebook.undo();
    expect(cells.map(access)).toEqual([
      { version: 1, access: 'read' },
      { version: 1, access: 'read' }
    ]);
    notebook.undo();
    expect(cells.map(access)).toEqual([undefined, undefined]);
  });
});

describe('setSharedNotebookAccess (YNotebook)', () => {
  let notebook: YNotebook;

  beforeEach(() => {
    notebook = YNotebook.create();
  });

  afterEach(() => {
    notebook.dispose();
  });

  const stored = () => notebook.getMetadata(ACCESS_METADATA_KEY);

  it('writes the notebook metadata, write as absence', () => {
    expect(setSharedNotebookAccess(notebook, 'read')).toBe(true);
    expect(stored()).toEqual({ version: 1, notebookAccess: 'read' });
    expect(setSharedNotebookAccess(notebook, 'none')).toBe(true);
    expect(stored()).toEqual({ version: 1, notebookAccess: 'none' });
    expect(setSharedNotebookAccess(notebook, 'write')).toBe(true);
    expect(stored()).toBeUndefined();
  });

  it('does not write when nothing changes', () => {
    const updates = countUpdates(notebook);
    expect(setSharedNotebookAccess(notebook, 'write')).toBe(false);
    notebook.setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      notebookAccess: 'read'
    });
    const after = updates();
    expect(setSharedNotebookAccess(notebook, 'read')).toBe(false);
    expect(updates()).toBe(after);
  });

  it('keeps other fields under the key and other metadata', () => {
    notebook.setMetadata('kernelspec', {
      name: 'python3',
      display_name: 'Python 3'
    });
    notebook.setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      notebookAccess: 'none',
      later: { x: 1 }
    });
    setSharedNotebookAccess(notebook, 'write');
    expect(stored()).toEqual({ version: 1, later: { x: 1 } });
    expect(notebook.getMetadata('kernelspec')).toEqual({
      name: 'python3',
      display_name: 'Python 3'
    });
  });
});

// ---------------------------------------------------------------------------
// The commands, with a real NotebookPanel (JupyterLab's test utilities)

interface IPanelKit {
  NBTestUtils: typeof NBTestUtilsType;
  NotebookActions: typeof NotebookActionsType;
  NotebookTracker: typeof NotebookTrackerType;
}

function loadPanelKit(): IPanelKit {
  const { NBTestUtils } = jest.requireActual<{
    NBTestUtils: typeof NBTestUtilsType;
  }>('@jupyterlab/notebook/lib/testutils');
  const { NotebookActions, NotebookTracker } = jest.requireActual<{
    NotebookActions: typeof NotebookActionsType;
    NotebookTracker: typeof NotebookTrackerType;
  }>('@jupyterlab/notebook');
  return { NBTestUtils, NotebookActions, NotebookTracker };
}

describe('the access commands', () => {
  const { NBTestUtils, NotebookTracker } = loadPanelKit();
  let panel: NotebookPanel;
  let tracker: NotebookTrackerType;
  let commands: CommandRegistry;
  let contents: FakeContents;
  let service: ServiceModule.AgentAccessService;
  let dispose: () => void;

  const shared = () => panel.content.model!.sharedModel as YNotebook;
  const cellAccess = () => shared().cells.map(access);

  beforeEach(async () => {
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({
      cells: [code('a'), code('b'), code('c')],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    });
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    tracker = new NotebookTracker({ namespace: 'access-commands-spec' });
    await tracker.add(panel);
    commands = new CommandRegistry();
    contents = new FakeContents();
    const app = {
      commands,
      contextMenuHitTest: () => undefined
    } as unknown as JupyterFrontEnd;
    service = new AgentAccessService({
      tracker,
      contents: contents as unknown as Contents.IManager
    });
    const disposable = addAccessCommands(app, { tracker, access: service });
    dispose = () => {
      disposable.dispose();
      service.dispose();
    };
  });

  afterEach(() => {
    dispose();
    const context = panel.context;
    panel.dispose();
    context.dispose();
    tracker.dispose();
  });

  it('describes their arguments', async () => {
    const set = await commands.describedBy(CommandIDs.setNotebookAccess);
    expect(set.args).toMatchObject({
      properties: {
        path: { type: 'string' },
        access: { enum: ['write', 'read', 'none'] }
      },
      required: ['access']
    });
    const cycle = await commands.describedBy(CommandIDs.cycleNotebookAccess);
    expect(Object.keys(cycle.args?.properties ?? {})).toEqual([
      'path',
      'fileBrowser'
    ]);
    expect(commands.label(CommandIDs.cycleCellAccess)).toBe(
      'Cycle Agent Access'
    );
    expect(commands.label(CommandIDs.cycleNotebookAccess)).toBe(
      'Cycle Agent Access for Notebook'
    );
    expect(
      commands.label(CommandIDs.setNotebookAccess, { access: 'none' })
    ).toBe('Set Agent Access for Notebook: hidden');
  });

  it('cycles the selected cells of the current notebook', async () => {
    const notebook = panel.content;
    notebook.activeCellIndex = 1;
    notebook.extendContiguousSelectionTo(2);
    expect(selectedCells(notebook).cells.map(cell => cell.id)).toEqual([
      'b',
      'c'
    ]);
    await commands.execute(CommandIDs.cycleCellAccess);
    expect(cellAccess()).toEqual([
      undefined,
      { version: 1, access: 'read' },
      { version: 1, access: 'read' }
    ]);
    await commands.execute(CommandIDs.cycleCellAccess);
    await commands.execute(CommandIDs.cycleCellAccess);
    expect(cellAccess()).toEqual([undefined, undefined, undefined]);
  });

  it('cycles the active cell alone when nothing else is selected', async () => {
    panel.content.activeCellIndex = 0;
    panel.content.deselectAll();
    const result = await commands.execute(CommandIDs.cycleCellAccess);
    expect(result).toEqual({ access: 'read', changed: 1 });
    expect(cellAccess()).toEqual([
      { version: 1, access: 'read' },
      undefined,
      undefined
    ]);
  });

  it('is in command mode only, on a key no default uses', () => {
    expect(CELL_ACCESS_SHORTCUT.selector).toContain('jp-mod-commandMode');
    expect(CELL_ACCESS_SHORTCUT.keys).toEqual(['Shift G']);
  });

  it('sets and cycles the open notebook through its live model', async () => {
    const path = panel.context.path;
    await commands.execute(CommandIDs.setNotebookAccess, {
      path,
      access: 'read'
    });
    expect(shared().getMetadata(ACCESS_METADATA_KEY)).toEqual({
      version: 1,
      notebookAccess: 'read'
    });
    // no path: the current notebook
    await commands.execute(CommandIDs.cycleNotebookAccess);
    expect(shared().getMetadata(ACCESS_METADATA_KEY)).toEqual({
      version: 1,
      notebookAccess: 'none'
    });
    await commands.execute(CommandIDs.cycleNotebookAccess, { path });
    expect(shared().getMetadata(ACCESS_METADATA_KEY)).toBeUndefined();
    // the file was never written behind the open notebook
    expect(contents.saves).toEqual([]);
  });

  it('writes a notebook that is not open straight to its file', async () => {
    contents.addNotebook('closed.ipynb', {
      cells: [code('x')],
      metadata: { kernelspec: { name: 'python3', display_name: 'Python 3' } },
      nbformat: 4,
      nbformat_minor: 5
    });
    await commands.execute(CommandIDs.cycleNotebookAccess, {
      path: 'closed.ipynb'
    });
    expect(contents.notebook('closed.ipynb').metadata).toEqual({
      kernelspec: { name: 'python3', display_name: 'Python 3' },
      [ACCESS_METADATA_KEY]: { version: 1, notebookAccess: 'read' }
    });
    await commands.execute(CommandIDs.setNotebookAccess, {
      path: 'closed.ipynb',
      access: 'read'
    });
    // unchanged: not saved again
    expect(contents.saves).toEqual(['closed.ipynb']);
    // the open notebook is untouched
    expect(shared().getMetadata(ACCESS_METADATA_KEY)).toBeUndefined();
  });

  it('sets given cells, or the selected ones, to one access', async () => {
    const set = await commands.describedBy(CommandIDs.setCellAccess);
    expect(set.args).toMatchObject({
      properties: {
        cellIds: { type: 'array', items: { type: 'string' } },
        access: { enum: ['write', 'read', 'none'] }
      },
      required: ['access']
    });
    expect(commands.label(CommandIDs.setCellAccess, { access: 'read' })).toBe(
      'Set Agent Access: read-only'
    );
    const result = await commands.execute(CommandIDs.setCellAccess, {
      cellIds: ['c', 'a'],
      access: 'none'
    });
    expect(result).toEqual({ access: 'none', changed: 2 });
    expect(cellAccess()).toEqual([
      { version: 1, access: 'none' },
      undefined,
      { version: 1, access: 'none' }
    ]);
    // no ids: the selected cells
    panel.content.activeCellIndex = 1;
    panel.content.deselectAll();
    await commands.execute(CommandIDs.setCellAccess, { access: 'read' });
    expect(cellAccess()[1]).toEqual({ version: 1, access: 'read' });
    // write is stored as absence; an unknown id changes nothing and says so
    await expect(
      commands.execute(CommandIDs.setCellAccess, {
        cellIds: ['a', 'nope'],
        access: 'write'
      })
    ).rejects.toThrow('No cell with id "nope"');
    expect(cellAccess()[0]).toEqual({ version: 1, access: 'none' });
    await commands.execute(CommandIDs.setCellAccess, {
      cellIds: ['a', 'b', 'c'],
      access: 'write'
    });
    expect(cellAccess()).toEqual([undefined, undefined, undefined]);
    expect(
      commands.isEnabled(CommandIDs.setCellAccess, { access: 'READ' })
    ).toBe(false);
  });

  it('announces every access change of an open notebook, whoever made it', async () => {
    const heard: IAgentAccess.IChange[] = [];
    service.changed.connect((_, change) => heard.push(change));
    await panel.context.ready;
    await Promise.resolve();
    const path = panel.context.localPath;
    // through a command
    await commands.execute(CommandIDs.setCellAccess, {
      cellIds: ['b'],
      access: 'read'
    });
    // a hand edit of the metadata (or an undo, or a collaborator)
    shared().cells[2].setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      access: 'none'
    });
    // history under the key is not an access change
    shared().cells[2].setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      access: 'none',
      history: []
    });
    // a cell inserted later is watched too
    shared().insertCell(0, { id: 'z', cell_type: 'code', source: '' });
    shared().cells[0].setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      access: 'read'
    });
    await commands.execute(CommandIDs.setNotebookAccess, {
      path,
      access: 'read'
    });
    expect(heard).toEqual([
      { path, scope: 'cells', cellIds: ['b'] },
      { path, scope: 'cells', cellIds: ['c'] },
      { path, scope: 'cells', cellIds: ['z'] },
      { path, scope: 'notebook', cellIds: [] }
    ]);
    // one rule finds the panel by its local path and by its drive path
    expect(service.findPanel(path)).toBe(panel);
    expect(service.findPanel(panel.context.path)).toBe(panel);
    expect(service.findPanel('elsewhere.ipynb')).toBeNull();
  });

  it('refuses an access outside the three', async () => {
    expect(
      commands.isEnabled(CommandIDs.setNotebookAccess, { access: 'READ' })
    ).toBe(false);
    await expect(
      commands.execute(CommandIDs.setNotebookAccess, { access: 'READ' })
    ).rejects.toThrow('Unknown agent access');
  });
});

describe('NotebookAccessWriter.cycle', () => {
  it('gives every notebook the next access of the first', async () => {
    const contents = new FakeContents();
    const empty = {
      cells: [],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    };
    contents.addNotebook('a.ipynb', {
      ...empty,
      metadata: {
        [ACCESS_METADATA_KEY]: { version: 1, notebookAccess: 'read' }
      }
    });
    contents.addNotebook('b.ipynb', empty);
    const tracker = {
      find: () => undefined
    } as unknown as NotebookTrackerType;
    const writer = new NotebookAccessWriter({
      tracker,
      contents: contents as unknown as Contents.IManager
    });
    const changes = await writer.cycle(['a.ipynb', 'b.ipynb']);
    expect(changes.map(change => [change.path, change.access])).toEqual([
      ['a.ipynb', 'none'],
      ['b.ipynb', 'none']
    ]);
    expect(
      changes.every(change => change.where === 'file' && change.changed)
    ).toBe(true);
    expect(await writer.read('b.ipynb')).toEqual({
      access: 'none',
      valid: true
    });
    writer.dispose();
  });
});

// ---------------------------------------------------------------------------
// Across tabs: Notebook 7 has the file browser and each notebook in its own
// tab, each its own app. A BroadcastChannel between them, faked here.

describe('NotebookAccessWriter across tabs', () => {
  const { NBTestUtils, NotebookTracker } = loadPanelKit();
  let panel: NotebookPanel;
  let notebookTab: NotebookAccessWriter;
  let treeTab: NotebookAccessWriter;
  let tracker: NotebookTrackerType;
  let contents: FakeContents;
  let save: jest.SpyInstance;

  const live = () =>
    panel.content.model!.sharedModel.getMetadata(ACCESS_METADATA_KEY);

  beforeEach(async () => {
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({
      cells: [code('a')],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    });
    context.model.dirty = false;
    panel = NBTestUtils.createNotebookPanel(context);
    save = jest.spyOn(context, 'save').mockResolvedValue(undefined);
    tracker = new NotebookTracker({ namespace: 'access-tabs-spec' });
    await tracker.add(panel);
    contents = new FakeContents();
    const bus = new FakeBus();
    // the notebook's tab: it has the notebook open
    notebookTab = new NotebookAccessWriter({
      tracker,
      contents: contents as unknown as Contents.IManager,
      channel: bus.channel()
    });
    // the file browser's tab: no notebook open
    treeTab = new NotebookAccessWriter({
      tracker: { find: () => undefined } as unknown as NotebookTrackerType,
      contents: contents as unknown as Contents.IManager,
      channel: bus.channel(),
      tabTimeoutMs: 2000
    });
  });

  afterEach(() => {
    notebookTab.dispose();
    treeTab.dispose();
    const context = panel.context;
    panel.dispose();
    context.dispose();
    tracker.dispose();
  });

  it('writes a notebook open in another tab through that tab’s live model', async () => {
    const path = panel.context.path;
    expect(await treeTab.read(path)).toEqual({ access: 'write', valid: true });
    const [change] = await treeTab.cycle([path]);
    expect(change).toEqual({
      path,
      previous: { access: 'write', valid: true },
      access: 'read',
      changed: true,
      where: 'tab',
      saved: true
    });
    expect(live()).toEqual({ version: 1, notebookAccess: 'read' });
    // that tab saved it (it had no unsaved edits); the file browser's tab
    // never wrote the file behind it
    expect(save).toHaveBeenCalledTimes(1);
    expect(contents.saves).toEqual([]);
  });

  it('says saved only once that tab’s save has completed', async () => {
    let finish: () => void = () => undefined;
    save.mockImplementation(
      () => new Promise<void>(resolve => (finish = resolve))
    );
    let answered = false;
    const pending = treeTab.cycle([panel.context.path]).then(changes => {
      answered = true;
      return changes;
    });
    while (save.mock.calls.length === 0) {
      await new Promise(resolve => setTimeout(resolve, 5));
    }
    // the save has not completed: no answer yet
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    finish();
    const [change] = await pending;
    expect(change).toMatchObject({ where: 'tab', changed: true, saved: true });
  });

  it('says not saved when that tab’s save fails, and warns there', async () => {
    save.mockRejectedValue(new Error('disk full'));
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const [change] = await treeTab.cycle([panel.context.path]);
      expect(change).toMatchObject({
        where: 'tab',
        changed: true,
        saved: false
      });
      expect(live()).toEqual({ version: 1, notebookAccess: 'read' });
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('could not save'),
        expect.any(Error)
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('answers not saved (yet) when that tab’s save outlasts its wait', async () => {
    save.mockImplementation(() => new Promise<void>(() => undefined));
    const started = Date.now();
    const [change] = await treeTab.cycle([panel.context.path]);
    expect(change).toMatchObject({ where: 'tab', changed: true, saved: false });
    // answered after the save's wait, before the tree tab gives up
    expect(Date.now() - started).toBeGreaterThanOrEqual(TAB_SAVE_WAIT_MS - 50);
    expect(contents.saves).toEqual([]);
  });

  it('does not save a notebook with unsaved edits behind its owner', async () => {
    panel.context.model.dirty = true;
    const [change] = await treeTab.cycle([panel.context.path]);
    expect(change).toMatchObject({ where: 'tab', saved: false });
    expect(live()).toEqual({ version: 1, notebookAccess: 'read' });
    expect(save).not.toHaveBeenCalled();
  });

  it('writes the file when no tab has the notebook open', async () => {
    contents.addNotebook('closed.ipynb', {
      cells: [],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    });
    const change = await treeTab.write('closed.ipynb', 'none');
    expect(change).toMatchObject({ where: 'file', changed: true });
    expect(contents.saves).toEqual(['closed.ipynb']);
    expect(live()).toBeUndefined();
  });

  it('answers nothing after it is disposed', async () => {
    notebookTab.dispose();
    await expect(treeTab.read(panel.context.path)).rejects.toThrow('not found');
  });
});
