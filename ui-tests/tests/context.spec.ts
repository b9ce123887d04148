/**
 * jupyter_get_context through native WebMCP: the live state of the
 * workspace, unsaved edits and the human's selection included.
 */
import { expect, test } from '../fixtures';

interface IContext {
  workspace: { currentDirectory: string; openDocuments: string[] };
  notebook: {
    path: string;
    name: string;
    dirty: boolean;
    revision: string;
    cellCount: number;
  } | null;
  kernel: { name: string | null; status: string } | null;
  focus: {
    activeCellId: string | null;
    activeCellIndex: number | null;
    activeCellType: string | null;
    selectedCellIds: string[];
    hiddenSelectedCellCount: number;
    hiddenActiveCell: boolean;
    cursor: { line: number; column: number } | null;
    textSelection: {
      start: { line: number; column: number };
      end: { line: number; column: number };
      text: string;
      truncated?: boolean;
    } | null;
  } | null;
  review: { openThreads: number; totalThreads: number } | null;
}

const KERNEL_STATUSES = [
  'idle',
  'busy',
  'starting',
  'dead',
  'unavailable',
  'unknown'
];

test.describe('jupyter_get_context', () => {
  // each test works in its own notebooks: they share one app start-up
  test.use({ shareApp: true });

  test('with no notebook open, everything but the workspace is null', async ({
    jupyter,
    agent
  }) => {
    await jupyter.open();
    await agent.waitForTools(['jupyter_get_context']);
    const result = await agent.call<IContext>('jupyter_get_context');
    expect(result.isError).toBe(false);
    expect(result.structured).toEqual({
      workspace: {
        currentDirectory: expect.any(String),
        openDocuments: []
      },
      notebook: null,
      kernel: null,
      focus: null,
      review: null
    });
    expect(JSON.parse(result.text!)).toEqual(result.structured);
  });

  test('reports the live notebook, its kernel and the focus', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path);
    await human.selectCells(1, 2);
    const result = await agent.call<IContext>('jupyter_get_context');
    const context = result.structured!;
    expect(context.workspace.openDocuments).toContain(path);
    expect(context.notebook).toMatchObject({
      path,
      name: 'simple.ipynb',
      cellCount: 3,
      revision: expect.stringMatching(/^rev:[0-9a-f]{16}$/)
    });
    expect(KERNEL_STATUSES).toContain(context.kernel!.status);
    expect(context.kernel!.name).toBeTruthy();
    expect(context.focus).toMatchObject({
      activeCellType: 'code',
      hiddenSelectedCellCount: 0,
      hiddenActiveCell: false,
      textSelection: null
    });
    expect(context.focus!.selectedCellIds.sort()).toEqual(
      ['set-x', 'greet'].sort()
    );
    expect(['set-x', 'greet']).toContain(context.focus!.activeCellId);
    expect(context.review).toEqual({ openThreads: 0, totalThreads: 0 });
  });

  test('sees unsaved edits: dirty and a new revision @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path);
    await human.save();
    const before = (await agent.call<IContext>('jupyter_get_context'))
      .structured!.notebook!;
    expect(before.dirty).toBe(false);

    await human.typeInCell(1, '\nx + 1');
    const after = (await agent.call<IContext>('jupyter_get_context'))
      .structured!.notebook!;
    expect(after.dirty).toBe(true);
    expect(after.revision).not.toBe(before.revision);

    // The same content gives the same revision: it hashes content, not time.
    await human.setCellSource(1, 'x = 6 * 7\nx');
    const back = (await agent.call<IContext>('jupyter_get_context')).structured!
      .notebook!;
    expect(back.revision).toBe(before.revision);
  });

  test('returns the exact text the human selected, and the cursor @shell', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path);
    // "6 * 7" in "x = 6 * 7\nx"
    await human.selectText(1, 4, 9);
    const focus = (await agent.call<IContext>('jupyter_get_context'))
      .structured!.focus!;
    expect(focus.activeCellId).toBe('set-x');
    expect(focus.textSelection).toEqual({
      start: { line: 0, column: 4 },
      end: { line: 0, column: 9 },
      text: '6 * 7'
    });
    expect(focus.cursor).not.toBeNull();
  });

  test('bounds the selected text to 4 KiB of UTF-8 @rule', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.addFixture('simple.ipynb');
    await human.openNotebook(path);
    const long = 'é'.repeat(5000); // 10,000 bytes of UTF-8
    await human.setCellSource(1, long);
    await human.selectText(1, 0, long.length);
    const selection = (await agent.call<IContext>('jupyter_get_context'))
      .structured!.focus!.textSelection!;
    expect(selection.truncated).toBe(true);
    expect(new TextEncoder().encode(selection.text).length).toBeLessThanOrEqual(
      4096
    );
    expect(selection.text.endsWith('…[truncated]')).toBe(true);
    expect(selection.text.startsWith('éééé')).toBe(true);
  });
});
