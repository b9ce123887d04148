import type { YNotebook } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';
import type {
  NotebookActions as NotebookActionsType,
  NotebookPanel
} from '@jupyterlab/notebook';
import type { NBTestUtils as NBTestUtilsType } from '@jupyterlab/notebook/lib/testutils';
import { Widget } from '@lumino/widgets';

import {
  AccessMarkers,
  MARKER_CLASS,
  RESTRICTED_CELL_CLASS,
  TOOLBAR_ITEM_NAME,
  markerState
} from '../../src/access/markers';
import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

const { NBTestUtils } = jest.requireActual<{
  NBTestUtils: typeof NBTestUtilsType;
}>('@jupyterlab/notebook/lib/testutils');
const { NotebookActions } = jest.requireActual<{
  NotebookActions: typeof NotebookActionsType;
}>('@jupyterlab/notebook');

function code(id: string, access?: unknown): nbformat.ICodeCell {
  return {
    id,
    cell_type: 'code',
    source: `# ${id}`,
    metadata:
      access === undefined
        ? {}
        : { [ACCESS_METADATA_KEY]: { version: 1, access } as never },
    outputs: [],
    execution_count: null
  };
}

describe('markerState', () => {
  it('marks every access but write, and invalid values', () => {
    expect(markerState({ access: 'write', valid: true })).toBeNull();
    expect(markerState({ access: 'read', valid: true })).toBe('read');
    expect(markerState({ access: 'none', valid: true })).toBe('none');
    expect(markerState({ access: 'none', valid: false, raw: 'READ' })).toBe(
      'invalid'
    );
  });
});

describe('AccessMarkers on a real NotebookPanel', () => {
  let panel: NotebookPanel;
  let markers: AccessMarkers;
  let activations: number;

  const shared = () => panel.content.model!.sharedModel as YNotebook;
  /** What each cell widget shows: its marker's accessible name, or null. */
  const shown = () =>
    panel.content.widgets.map(widget => {
      const marker = widget.node.querySelector(`.${MARKER_CLASS}`);
      return marker ? marker.getAttribute('aria-label') : null;
    });
  const button = () =>
    panel.toolbar.node.querySelector(
      '.jp-AgentNotebookAccess-button'
    ) as HTMLButtonElement;

  async function open(cells: nbformat.ICell[], metadata = {}): Promise<void> {
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({ cells, metadata, nbformat: 4, nbformat_minor: 5 });
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    activations = 0;
    markers = new AccessMarkers({
      panel,
      onActivateNotebook: () => activations++
    });
  }

  afterEach(() => {
    const context = panel.context;
    if (!panel.isDisposed) {
      panel.dispose();
    }
    context.dispose();
  });

  it('marks the restricted cells already there', async () => {
    await open([code('a'), code('b', 'read'), code('c', 'none')]);
    expect(shown()).toEqual([null, 'Read-only for agent', 'Hidden from agent']);
    const marker = panel.content.widgets[1].node.querySelector(
      `.${MARKER_CLASS}`
    )!;
    expect(marker.getAttribute('role')).toBe('img');
    expect(marker.getAttribute('title')).toContain('Read-only for agent');
    expect(marker.textContent).toBe('read');
    expect(marker.querySelector('svg')).not.toBeNull();
    // in the prompt area: the input wrapper, beside the prompt
    expect(marker.parentElement!.classList).toContain('jp-Cell-inputWrapper');
    const cell = panel.content.widgets[2].node;
    expect(cell.classList).toContain(RESTRICTED_CELL_CLASS);
    expect(cell.dataset.agentAccess).toBe('none');
    expect(panel.content.widgets[0].node.classList).not.toContain(
      RESTRICTED_CELL_CLASS
    );
  });

  it('says when a value is invalid (treated as hidden)', async () => {
    await open([code('a', 'READ')]);
    expect(shown()).toEqual(['Invalid agent access value — treated as hidden']);
    expect(panel.content.widgets[0].node.dataset.agentAccess).toBe('invalid');
  });

  it('follows metadata changes live, and removes the marker at write', async () => {
    await open([code('a'), code('b')]);
    const cell = shared().cells[0];
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'read' });
    expect(shown()).toEqual(['Read-only for agent', null]);
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'none' });
    expect(shown()).toEqual(['Hidden from agent', null]);
    cell.deleteMetadata(ACCESS_METADATA_KEY);
    expect(shown()).toEqual([null, null]);
    expect(panel.content.widgets[0].node.dataset.agentAccess).toBeUndefined();
    // one marker at most, however many changes
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'read' });
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'READ' });
    expect(
      panel.content.widgets[0].node.querySelectorAll(`.${MARKER_CLASS}`)
    ).toHaveLength(1);
  });

  it("follows an undo (the notebook's own undo action)", async () => {
    await open([code('a')]);
    const cell = shared().cells[0];
    shared().undoManager.clear();
    shared().transact(() => {
      cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'none' });
    });
    expect(shown()).toEqual(['Hidden from agent']);
    panel.content.activeCellIndex = 0;
    NotebookActions.undo(panel.content);
    expect(shown()).toEqual([null]);
    NotebookActions.redo(panel.content);
    expect(shown()).toEqual(['Hidden from agent']);
  });

  it('follows cells moved, inserted and changed in type', async () => {
    await open([code('a', 'read'), code('b'), code('c', 'none')]);
    panel.content.activeCellIndex = 0;
    NotebookActions.moveDown(panel.content);
    expect(shared().cells.map(cell => cell.id)).toEqual(['b', 'a', 'c']);
    expect(shown()).toEqual([null, 'Read-only for agent', 'Hidden from agent']);
    shared().insertCell(0, {
      cell_type: 'code',
      source: '',
      metadata: { [ACCESS_METADATA_KEY]: { version: 1, access: 'none' } }
    });
    expect(shown()[0]).toBe('Hidden from agent');
    panel.content.activeCellIndex = 2;
    NotebookActions.changeCellType(panel.content, 'markdown');
    expect(panel.content.widgets[2].model.type).toBe('markdown');
    expect(shown()[2]).toBe('Read-only for agent');
  });

  it('lets go of deleted cells: it follows at most the cells there are', async () => {
    await open([code('a', 'read'), code('b')]);
    expect(markers.followedCells).toBe(2);
    // inserted and deleted, as an agent's burst and the person's cleanup do
    for (let round = 0; round < 50; round++) {
      shared().insertCell(1, { cell_type: 'code', source: `x = ${round}` });
      shared().insertCell(0, {
        cell_type: 'markdown',
        source: '',
        metadata: { [ACCESS_METADATA_KEY]: { version: 1, access: 'none' } }
      });
      expect(markers.followedCells).toBe(4);
      shared().deleteCell(2);
      shared().deleteCell(0);
    }
    expect(markers.followedCells).toBe(2);
    // several at once, in one transaction; then a move (a delete and an insert)
    shared().insertCells(1, [
      { cell_type: 'code', source: '1' },
      { cell_type: 'code', source: '2' }
    ]);
    shared().transact(() => {
      shared().deleteCellRange(1, 3);
    });
    panel.content.activeCellIndex = 0;
    NotebookActions.moveDown(panel.content);
    expect(shared().cells.map(cell => cell.id)).toEqual(['b', 'a']);
    expect(markers.followedCells).toBe(2);
    // the cells that stay are still followed
    shared().cells[0].setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      access: 'read'
    });
    expect(shown()).toEqual(['Read-only for agent', 'Read-only for agent']);
  });

  it('shows the notebook access in the toolbar, and cycles it when pressed', async () => {
    await open([code('a')]);
    expect([...panel.toolbar.names()].includes(TOOLBAR_ITEM_NAME)).toBe(true);
    expect(button().getAttribute('aria-label')).toBe('Agent: read and write');
    shared().setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      notebookAccess: 'read'
    });
    expect(button().textContent).toBe('Agent: read-only');
    expect(button().getAttribute('aria-label')).toBe('Agent: read-only');
    shared().setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      notebookAccess: 'none'
    });
    expect(button().textContent).toBe('Agent: hidden');
    shared().setMetadata(ACCESS_METADATA_KEY, { notebookAccess: 'HIDDEN' });
    expect(button().textContent).toBe('Agent: hidden');
    expect(button().getAttribute('aria-label')).toBe(
      'Agent: hidden (invalid access value)'
    );
    button().click();
    expect(activations).toBe(1);
    expect(button().type).toBe('button');
  });

  it('reads the notebook access the file was opened with', async () => {
    await open([code('a')], {
      [ACCESS_METADATA_KEY]: { version: 1, notebookAccess: 'read' }
    });
    expect(button().textContent).toBe('Agent: read-only');
  });

  it('is disposed with its panel, and stops following', async () => {
    await open([code('a')]);
    const cell = shared().cells[0];
    const node = panel.content.widgets[0].node;
    panel.dispose();
    expect(markers.isDisposed).toBe(true);
    cell.setMetadata(ACCESS_METADATA_KEY, { version: 1, access: 'read' });
    expect(node.querySelector(`.${MARKER_CLASS}`)).toBeNull();
  });
});
