/**
 * Reliability row (d): 1,000 calls in flight at once from one page, mixed
 * reads and writes (reads of cells, context, workspace, access, comments and
 * exports; cell updates, many of which lose to each other and answer
 * STALE_CELL; inserts, focus moves, comments and runs). Every call must
 * resolve with the result envelope (never INTERNAL_ERROR), the page must see
 * no unhandled rejection, and its heap, measured after a garbage collection,
 * must come back within 10% of where it was before once the notebook is
 * reset (the cells the burst inserted are what a notebook that grew holds,
 * about 70 KB a rendered cell in JupyterLab; the figure prints both).
 *
 * Moving the person's active cell keeps memory in JupyterLab itself, and
 * without bound: every move builds a cell toolbar that JupyterLab's toolbar
 * factory keeps connected until the cell is disposed (40-90 KB a move, the
 * same with this extension disabled; docs/reliability.md, "What focus moves
 * keep"). So jupyter_focus_cell joins the first burst, where every answer is
 * checked, and the heap rule is checked on a second burst of the same mix
 * without focus moves; what focus moves keep, the tool's and the app's own,
 * is printed beside it.
 *
 * The same toolbar is built again whenever a cell is inserted or deleted
 * above the active cell (JupyterLab announces the active cell again when its
 * index shifts), so the edits themselves, and the reset that deletes the
 * inserted cells, keep memory however they are made. The heap rule is
 * therefore on what the calls leave beyond what the same edits leave: after
 * the second burst the page makes the same edits directly (the inserts and
 * the winning updates on the shared model, the runs with JupyterLab's own
 * `CodeCell.execute`, no tool call), is reset the same way, and the growth
 * of that control is taken from the burst's. Both growths, and how often
 * each announced the active cell again, are printed.
 *
 * Counts: 1,000 in flight with RELIABILITY_SCALE=full, 300 in CI.
 */
import { createHash } from 'node:crypto';

import fc from 'fast-check';

import { expect, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';
import { codeCell, markdownCell, notebookOf } from '../notebook-content';
import {
  type IAnswer,
  type ICall,
  callMany,
  envelopeProblem,
  errorCode,
  rejections,
  watchRejections
} from '../reliability/calls';
import { SEED, recordFigure, scaled, since } from '../reliability/figures';

const IN_FLIGHT = scaled(1000, 300);
const CELLS = 20;

function sourceHash(cellType: string, source: string): string {
  const hex = createHash('sha256')
    .update(`${cellType}\n${source}`, 'utf8')
    .digest('hex');
  return `sha256:${hex.slice(0, 16)}`;
}

const source = (i: number) => `v${i} = ${i}`;

/** The mixed calls: three in four read, one in four writes. */
function mixedCalls(
  path: string,
  dir: string,
  options: { focus: boolean }
): fc.Arbitrary<ICall> {
  const cell = fc.integer({ min: 0, max: CELLS - 1 });
  const id = cell.map(i => `load-${i}`);
  const read: fc.Arbitrary<ICall>[] = [
    fc.record({
      tool: fc.constant('jupyter_get_cells'),
      input: fc.record({
        notebookPath: fc.constant(path),
        startIndex: fc.integer({ min: 0, max: 10 }),
        includeOutputs: fc.boolean()
      })
    }),
    fc.constant({ tool: 'jupyter_get_context', input: {} }),
    fc.constant({ tool: 'jupyter_list_workspace', input: { path: dir } }),
    fc.constant({ tool: 'jupyter_get_cell_access', input: {} }),
    fc.constant({ tool: 'jupyter_list_comments', input: { status: 'all' } }),
    fc.constant({ tool: 'jupyter_export_notebook', input: {} }),
    fc.constant({ tool: 'jupyter_get_output_selection', input: {} })
  ];
  const write: fc.Arbitrary<ICall>[] = [
    // the hash of the cell's first source: the first update of a cell wins,
    // the others answer STALE_CELL
    fc.tuple(cell, fc.integer({ min: 0, max: 999 })).map(([i, n]) => ({
      tool: 'jupyter_update_cell',
      input: {
        cellId: `load-${i}`,
        source: `v${i} = ${n}`,
        expectedSourceHash: sourceHash('code', source(i))
      }
    })),
    fc.record({
      tool: fc.constant('jupyter_insert_cell'),
      input: fc.record({
        referenceCellId: id,
        source: fc.constant('inserted = 1'),
        activate: fc.constant(false)
      })
    }),
    ...(options.focus
      ? [
          fc.record({
            tool: fc.constant('jupyter_focus_cell'),
            input: fc.record({ cellId: id })
          })
        ]
      : []),
    fc.record({
      tool: fc.constant('jupyter_create_comment'),
      input: fc.record({
        anchor: fc.record({ kind: fc.constant('cell'), cellId: id }),
        message: fc.constant('load test')
      })
    }),
    fc.record({
      tool: fc.constant('jupyter_run_cells'),
      input: fc.constant({ cellIds: ['load-run'] })
    })
  ];
  return fc.oneof(
    { arbitrary: fc.oneof(...read), weight: 3 },
    { arbitrary: fc.oneof(...write), weight: 1 }
  );
}

interface IHeap {
  heapBefore: number;
  heapWithContent: number;
  heapAfter: number;
  inserted: number;
  /** How often the notebook announced its active cell (a toolbar built each time). */
  activeCellChanges: number;
}

interface IBurst extends IHeap {
  answers: IAnswer[];
  seconds: number;
}

/** The edits a burst made, to make again without a tool call. */
interface IEdits {
  inserts: string[];
  updates: [string, string][];
  runs: number;
}

test('mixed calls all in flight at once: every answer an envelope, heap back', async ({
  jupyter,
  agent,
  human
}) => {
  test.setTimeout(jupyter.kind === 'lite' ? 600_000 : 300_000);
  await jupyter.open();
  const cells = [
    markdownCell('load-intro', '# Load'),
    codeCell('load-run', 'x = 1'),
    ...Array.from({ length: CELLS }, (_, i) => codeCell(`load-${i}`, source(i)))
  ];
  const keep = cells.map(cell => cell.id as string);
  const path = await jupyter.createNotebook('load.ipynb', notebookOf(cells));
  await human.openNotebook(path);
  await agent.waitForTools(IMPLEMENTED);
  await watchRejections(jupyter.page);
  const cdp = await jupyter.context.newCDPSession(jupyter.page);
  /**
   * The heap once garbage collection frees no more: a collection can leave
   * garbage that only the next one finds (DOM and JavaScript objects that
   * hold each other, weak callbacks), after a burst several megabytes.
   */
  const heap = async () => {
    let used = Infinity;
    for (let round = 0; round < 8; round++) {
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      if (used - usedSize < 64 * 1024) {
        return Math.min(used, usedSize);
      }
      used = usedSize;
    }
    return used;
  };
  /** The notebook back to its cells and sources (threads stay: they are few). */
  const reset = () =>
    jupyter.page.evaluate(
      ([docPath, ids, sources]) => {
        const shared = window.uiTests.findNotebook(docPath)!.model!.sharedModel;
        let removed = 0;
        for (let i = shared.cells.length - 1; i >= 0; i--) {
          const at = ids.indexOf(shared.cells[i].id);
          if (at < 0) {
            shared.deleteCell(i);
            removed++;
          } else if (shared.cells[i].getSource() !== sources[at]) {
            shared.cells[i].setSource(sources[at]);
          }
        }
        return removed;
      },
      [path, keep, cells.map(cell => cell.source as string)] as const
    );
  // counts the notebook's active-cell announcements
  await jupyter.page.evaluate(docPath => {
    const holder = window as unknown as { reliabActiveCell?: number };
    holder.reliabActiveCell = 0;
    window.uiTests
      .findNotebook(docPath)!
      .content.activeCellChanged.connect(() => {
        holder.reliabActiveCell!++;
      });
  }, path);
  const activeCellChanges = () =>
    jupyter.page.evaluate(
      () => (window as unknown as { reliabActiveCell: number }).reliabActiveCell
    );
  /**
   * The heap around `edit`: before, with what it added once the kernel runs
   * it queued finish, and after the notebook is reset (the cells it inserted
   * go, as the person would delete them).
   */
  const measured = async (edit: () => Promise<void>): Promise<IHeap> => {
    const heapBefore = await heap();
    const changesBefore = await activeCellChanges();
    await edit();
    await jupyter.waitForNotebook(path);
    const heapWithContent = await heap();
    const inserted = await reset();
    const heapAfter = await heap();
    return {
      heapBefore,
      heapWithContent,
      heapAfter,
      inserted,
      activeCellChanges: (await activeCellChanges()) - changesBefore
    };
  };
  const burst = async (calls: ICall[]): Promise<IBurst> => {
    // a first, smaller burst warms up what is made once (code loaded
    // lazily, caches filled); the heap is measured from after it
    const warm = await callMany(jupyter.page, calls.slice(0, 100), {
      concurrent: true
    });
    expect(warm.map(envelopeProblem).filter(Boolean)).toEqual([]);
    await jupyter.waitForNotebook(path);
    await reset();
    let answers: IAnswer[] = [];
    let seconds = 0;
    const figures = await measured(async () => {
      const started = Date.now();
      answers = await callMany(jupyter.page, calls, { concurrent: true });
      seconds = since(started);
    });
    return { answers, seconds, ...figures };
  };
  /** The edits the calls that answered ok made. */
  const editsOf = (calls: ICall[], answers: IAnswer[]): IEdits => {
    const edits: IEdits = { inserts: [], updates: [], runs: 0 };
    calls.forEach(({ tool, input }, n) => {
      if (answers[n].result?.isError !== false) {
        return;
      }
      if (tool === 'jupyter_insert_cell') {
        edits.inserts.push(input.referenceCellId as string);
      } else if (tool === 'jupyter_update_cell') {
        edits.updates.push([input.cellId as string, input.source as string]);
      } else if (tool === 'jupyter_run_cells') {
        edits.runs++;
      }
    });
    return edits;
  };
  /**
   * The same edits with no tool call: each insert and update one undo step
   * on the shared model (as the tools make them), the runs by JupyterLab's
   * own CodeCell.execute (the run command without moving the active cell),
   * one after the other.
   */
  const editDirectly = (edits: IEdits) =>
    jupyter.page.evaluate(
      async ([docPath, { inserts, updates, runs }]) => {
        type Step = { undoManager?: { stopCapturing(): void } | null };
        const panel = window.uiTests.findNotebook(docPath)!;
        const shared = panel.model!.sharedModel;
        const step = (on: Step, write: () => void) => {
          on.undoManager?.stopCapturing();
          write();
          on.undoManager?.stopCapturing();
        };
        for (const ref of inserts) {
          const at = shared.cells.findIndex(cell => cell.id === ref);
          step(shared as Step, () =>
            shared.transact(() =>
              shared.insertCell(at + 1, {
                cell_type: 'code',
                source: 'inserted = 1',
                metadata: {}
              })
            )
          );
        }
        for (const [id, source] of updates) {
          const cell = shared.cells.find(c => c.id === id)!;
          const own = cell as Step;
          step(own.undoManager ? own : (shared as Step), () =>
            cell.transact(() => cell.setSource(source))
          );
        }
        const widget = panel.content.widgets.find(
          cell => cell.model.id === 'load-run'
        )!;
        // CodeCell.execute, reached through the widget's class
        const execute = (
          widget.constructor as unknown as {
            execute(cell: unknown, context: unknown): Promise<unknown>;
          }
        ).execute;
        // one after the other: a cell's new run cancels the future of the
        // one before, which then rejects
        for (let n = 0; n < runs; n++) {
          await execute(widget, panel.sessionContext);
        }
      },
      [path, edits] as const
    );
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
  const heapNote = (b: IHeap) =>
    `heap ${mb(b.heapBefore)} before, ${mb(b.heapWithContent)} with the ` +
    `${b.inserted} inserted cells, ${mb(b.heapAfter)} once they are deleted ` +
    `(${((b.heapAfter / b.heapBefore - 1) * 100).toFixed(1)}%, ` +
    `${b.activeCellChanges} active-cell announcements)`;

  const withFocus = fc.sample(mixedCalls(path, jupyter.dir, { focus: true }), {
    numRuns: IN_FLIGHT,
    seed: SEED
  });
  const withoutFocus = fc.sample(
    mixedCalls(path, jupyter.dir, { focus: false }),
    { numRuns: IN_FLIGHT, seed: SEED + 1 }
  );
  const first = await burst(withFocus);
  const second = await burst(withoutFocus);
  const control = await measured(() =>
    editDirectly(editsOf(withoutFocus, second.answers))
  );

  // what a focus move keeps: 50 jupyter_focus_cell calls, then 50 of the
  // app's own active-cell moves with no extension call at all
  const perMove = async (move: () => Promise<unknown>) => {
    const before = await heap();
    await move();
    return (await heap()) - before;
  };
  const focusCalls = Array.from({ length: 50 }, (_, i) => ({
    tool: 'jupyter_focus_cell',
    input: { cellId: `load-${i % CELLS}` }
  }));
  const toolKeeps = await perMove(() => callMany(jupyter.page, focusCalls));
  const appKeeps = await perMove(() =>
    jupyter.page.evaluate(async docPath => {
      const app = window.uiTests.app();
      const panel = window.uiTests.findNotebook(docPath)!;
      for (let i = 0; i < 50; i++) {
        app.shell.activateById(panel.id);
        panel.content.activeCellIndex = 2 + (i % 20);
        panel.content.deselectAll();
        await panel.content.scrollToItem(2 + (i % 20), 'smart');
      }
    }, path)
  );
  await cdp.detach();

  const problems: string[] = [];
  const codes = new Map<string, number>();
  const check = (calls: ICall[], answers: IAnswer[]) =>
    answers.forEach((answer, n) => {
      const problem = envelopeProblem(answer);
      if (problem) {
        problems.push(
          `${calls[n].tool} ${JSON.stringify(calls[n].input)}: ${problem}`
        );
      }
      const code = errorCode(answer) ?? 'ok';
      codes.set(code, (codes.get(code) ?? 0) + 1);
    });
  check(withFocus, first.answers);
  check(withoutFocus, second.answers);
  const unhandled = await rejections(jupyter.page);
  const pageErrors = jupyter.console.filter(
    e => e.type === 'pageerror' && !jupyter.isKnownNoise(e)
  );
  // what the calls left beyond what the same edits left, against the heap
  // before the burst
  const grown = (b: IHeap) => b.heapAfter - b.heapBefore;
  const growth = (grown(second) - grown(control)) / second.heapBefore;
  const ms = [...first.answers, ...second.answers]
    .map(a => a.ms)
    .sort((a, b) => a - b);
  recordFigure(test.info(), {
    row: 'concurrent calls',
    app: jupyter.kind,
    count: first.answers.length + second.answers.length,
    unit: `calls, ${IN_FLIGHT} in flight at a time`,
    failures:
      problems.length +
      unhandled.length +
      pageErrors.length +
      (growth > 0.1 ? 1 : 0),
    seconds: first.seconds + second.seconds,
    notes:
      `without focus moves: ${heapNote(second)}; the same edits without ` +
      `tool calls: ${heapNote(control)}; the calls' own: ` +
      `${((grown(second) - grown(control)) / 1024).toFixed(0)} KB ` +
      `(${(growth * 100).toFixed(1)}%); with focus moves: ${heapNote(first)}; ` +
      `a focus move keeps ${(toolKeeps / 50 / 1024).toFixed(0)} KB through ` +
      `jupyter_focus_cell, ${(appKeeps / 50 / 1024).toFixed(0)} KB as the app's own ` +
      `move; median answer ${ms[ms.length >> 1].toFixed(0)} ms, last ` +
      `${ms[ms.length - 1].toFixed(0)} ms; answers ${JSON.stringify(Object.fromEntries(codes))}`
  });
  expect(problems.slice(0, 20)).toEqual([]);
  expect(unhandled).toEqual([]);
  expect(pageErrors).toEqual([]);
  expect(first.answers).toHaveLength(IN_FLIGHT);
  expect(second.answers).toHaveLength(IN_FLIGHT);
  expect(growth).toBeLessThanOrEqual(0.1);
});
