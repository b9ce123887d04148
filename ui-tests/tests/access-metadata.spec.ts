/**
 * Malformed access and history metadata, as hand edits or other tools leave
 * it: wrong types, unknown values, 10,000 history entries, unknown actors.
 * It never breaks a tool or the UI: access is read defensively (anything not
 * understood is `none`, marked invalid), history is bounded, and the next
 * write stores a clean value.
 */
import type { ICell, INotebookContent } from '@jupyterlab/nbformat';
import type { PartialJSONValue } from '@lumino/coreutils';

import { expect, shareInLab, test } from '../fixtures';
import type { JupyterApp } from '../jupyter';
import { codeCell, notebookOf } from '../notebook-content';

const KEY = 'jupyterlite_webmcp';
const MAX_HISTORY = 20;

interface IHistoryEntry {
  at: string;
  actor: string;
  action: string;
  tool?: string;
}

interface ICellRead {
  id: string;
  sourceHash: string;
  lastEditedBy?: string | null;
  lastEditedAt?: string | null;
}

interface ICellAccessRead {
  cellId: string;
  access: string;
  history: IHistoryEntry[];
}

/** 10,000 entries, oldest first; most are malformed or have unknown actors. */
function hugeHistory(): PartialJSONValue[] {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const entries: PartialJSONValue[] = [];
  for (let i = 0; i < 10_000; i++) {
    const at = new Date(start + i * 120_000).toISOString();
    switch (i % 5) {
      case 0:
        entries.push({ at, actor: 'human', action: 'edited' });
        break;
      case 1:
        entries.push({ at, actor: 'robot', action: 'edited' });
        break;
      case 2:
        entries.push({ at: i, actor: 'agent', action: 'ran' });
        break;
      case 3:
        entries.push(`entry ${i}`);
        break;
      default:
        entries.push({ at, actor: 'agent', action: 'teleported', tool: 5 });
    }
  }
  return entries;
}

/** A code cell whose agent metadata value is `meta`, whatever its type. */
function code(id: string, source: string, meta?: PartialJSONValue): ICell {
  return codeCell(id, source, {
    metadata: meta === undefined ? {} : { [KEY]: meta }
  });
}

/** A notebook whose agent metadata value is `meta`, whatever its type. */
function notebookWith(
  cells: ICell[],
  meta?: PartialJSONValue
): INotebookContent {
  return notebookOf(cells, meta === undefined ? {} : { [KEY]: meta });
}

/** The cells whose access value is not understood: all read as `none`. */
const INVALID = ['num-access', 'case-access', 'null-key', 'str-key'];

function oddNotebook(): INotebookContent {
  return notebookWith([
    code('plain', 'a = 1'),
    code('num-access', 'b = 2', { version: 1, access: 5 }),
    code('case-access', 'c = 3', { version: 1, access: 'Read' }),
    code('null-key', 'd = 4', null),
    code('str-key', 'e = 5', 'garbage'),
    code('huge', 'f = 6', { version: 1, history: hugeHistory() }),
    code('hist-str', 'g = 7', { version: 1, history: 'yesterday' }),
    code('future', 'h = 8', {
      version: 99,
      access: 'read',
      extra: { kept: true }
    })
  ]);
}

/** A cell's stored metadata value, from the live model. */
async function stored(jupyter: JupyterApp, id: string): Promise<unknown> {
  return jupyter.page.evaluate(
    ([cellId, key]) => {
      const panel = window.uiTests.findNotebook(null);
      const cell = panel?.model?.sharedModel.cells.find(c => c.id === cellId);
      return cell ? (cell.getMetadata(key) ?? null) : 'no such cell';
    },
    [id, KEY] as const
  );
}

function isCleanEntry(entry: unknown): boolean {
  const value = entry as IHistoryEntry;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof value.at === 'string' &&
    !Number.isNaN(Date.parse(value.at)) &&
    ['human', 'agent'].includes(value.actor) &&
    ['inserted', 'edited', 'ran', 'deleted'].includes(value.action) &&
    (value.tool === undefined || typeof value.tool === 'string')
  );
}

test.describe('malformed agent metadata', () => {
  // each test works in its own notebooks and leaves the app as it found
  // it: in JupyterLab they share the worker's app start-up
  test.use(shareInLab);

  test('cells: not understood reads as hidden, history is bounded, the next write cleans it @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.createNotebook('odd.ipynb', oddNotebook());
    await human.openNotebook(path, { kernel: false });

    // the UI: every cell renders, the four invalid ones carry the marker
    const notebook = await jupyter.notebook();
    await expect(notebook.locator('.jp-Cell')).toHaveCount(8);
    for (const index of [1, 2, 3, 4]) {
      await expect(
        (await jupyter.cell(index)).locator('.jp-AgentAccessMarker')
      ).toHaveAttribute('aria-label', /^Invalid agent access value/);
    }
    await expect(
      (await jupyter.cell(7)).locator('.jp-AgentAccessMarker')
    ).toHaveAttribute('aria-label', 'Read-only for agent');

    // the tools: invalid values hide the cell, as none does
    const range = await agent.call<{
      cells: ICellRead[];
      hiddenCellCount: number;
    }>('jupyter_get_cells', {});
    expect(range.isError).toBe(false);
    expect(range.structured!.cells.map(cell => cell.id)).toEqual([
      'plain',
      'huge',
      'hist-str',
      'future'
    ]);
    expect(range.structured!.hiddenCellCount).toBe(4);
    for (const id of INVALID) {
      const byId = await agent.call('jupyter_get_cells', { cellIds: [id] });
      expect(byId.structured).toMatchObject({ error: 'CELL_NOT_FOUND' });
    }

    // history: bounded, only well-formed entries with known actors
    const access = await agent.call<{ cells: ICellAccessRead[] }>(
      'jupyter_get_cell_access',
      { cellIds: ['huge', 'hist-str', 'future'] }
    );
    expect(access.isError).toBe(false);
    const [huge, histStr, future] = access.structured!.cells;
    expect([huge.cellId, histStr.cellId, future.cellId]).toEqual([
      'huge',
      'hist-str',
      'future'
    ]);
    expect(huge.history.length).toBeLessThanOrEqual(MAX_HISTORY);
    expect(huge.history.length).toBeGreaterThan(0);
    expect(huge.history.every(isCleanEntry)).toBe(true);
    expect(huge.history.every(entry => entry.actor === 'human')).toBe(true);
    expect(histStr.history).toEqual([]);
    expect(future.access).toBe('read');
    const hugeCell = range.structured!.cells[1];
    expect(hugeCell.lastEditedBy).toBe('human');

    // the next write stores a clean, bounded history, access untouched
    for (const cell of range.structured!.cells.slice(1, 3)) {
      const updated = await agent.call('jupyter_update_cell', {
        cellId: cell.id,
        source: `${cell.id} = 0`,
        expectedSourceHash: cell.sourceHash
      });
      expect(updated.isError).toBe(false);
    }
    for (const id of ['huge', 'hist-str']) {
      const value = (await stored(jupyter, id)) as {
        access?: unknown;
        history: unknown[];
      };
      expect(Array.isArray(value.history)).toBe(true);
      expect(value.history.length).toBeLessThanOrEqual(MAX_HISTORY);
      expect(value.history.every(isCleanEntry)).toBe(true);
      expect(value.history.at(-1)).toMatchObject({
        actor: 'agent',
        action: 'edited',
        tool: 'jupyter_update_cell'
      });
      expect(value.access).toBeUndefined();
    }
    // a later version's fields are kept as they were
    expect(await stored(jupyter, 'future')).toEqual({
      version: 99,
      access: 'read',
      extra: { kept: true }
    });
    // the invalid values were not widened by anything the agent did
    expect(await stored(jupyter, 'num-access')).toEqual({
      version: 1,
      access: 5
    });

    // the human's cycle still works on an invalid cell: a valid none
    await human.selectCells(3);
    await human.command('jupyterlite-webmcp:cycle-cell-access');
    expect(await stored(jupyter, 'null-key')).toEqual({
      version: 1,
      access: 'none'
    });
    await expect(
      (await jupyter.cell(3)).locator('.jp-AgentAccessMarker')
    ).toHaveAttribute('aria-label', 'Hidden from agent');
    expect(jupyter.consoleErrors()).toEqual([]);
  });

  test('notebooks: an access value not understood hides the whole notebook @rule', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    const odd = await jupyter.createNotebook(
      'number.ipynb',
      notebookWith([code('a', 'a = 1')], { version: 1, notebookAccess: 42 })
    );
    const text = await jupyter.createNotebook(
      'string.ipynb',
      notebookWith([code('a', 'a = 1')], 'garbage')
    );
    const later = await jupyter.createNotebook(
      'later.ipynb',
      notebookWith([code('a', 'a = 1')], {
        version: 7,
        notebookAccess: 'read',
        other: [1, 2]
      })
    );
    jupyter.expectConsoleErrorsFor(/\/api\/contents\/.*\/absent\.ipynb/);

    const listing = await agent.call<{ entries: { name: string }[] }>(
      'jupyter_list_workspace',
      { path: jupyter.dir }
    );
    expect(listing.structured!.entries.map(entry => entry.name)).toEqual([
      'later.ipynb'
    ]);
    const absent = await agent.call('jupyter_get_cells', {
      notebookPath: jupyter.path('absent.ipynb')
    });
    for (const hidden of [odd, text]) {
      const read = await agent.call('jupyter_get_cells', {
        notebookPath: hidden
      });
      expect(read.structured).toMatchObject({ error: 'NOTEBOOK_NOT_FOUND' });
      expect(read.text!.replaceAll(hidden, jupyter.path('absent.ipynb'))).toBe(
        absent.text
      );
    }
    const readable = await agent.call<{ cells: { id: string }[] }>(
      'jupyter_get_cells',
      { notebookPath: later }
    );
    expect(readable.structured!.cells.map(cell => cell.id)).toEqual(['a']);
    expect(jupyter.consoleErrors()).toEqual([]);
  });
});
