/**
 * Reliability row (d): 1,000 calls in flight at once from one page, mixed
 * reads and writes (reads of cells, context, workspace, access, comments and
 * exports; cell updates, many of which lose to each other and answer
 * STALE_CELL; inserts, focus moves, comments and runs). Every call must
 * resolve with the result envelope (never INTERNAL_ERROR), and every answer
 * must be true: each insert, update and comment that answered success is in
 * the notebook once, each that answered an error is not. The first burst
 * also writes into a notebook that is not open when it starts (inserts and
 * updates; the first of them opens it, in Notebook 7 each is refused as
 * another tab's). The page must see
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
/** Cells of the notebook that is not open when the first burst starts. */
const CLOSED_CELLS = 5;

function sourceHash(cellType: string, source: string): string {
  const hex = createHash('sha256')
    .update(`${cellType}\n${source}`, 'utf8')
    .digest('hex');
  return `sha256:${hex.slice(0, 16)}`;
}

const source = (i: number) => `v${i} = ${i}`;

/**
 * The mixed calls: three in four read, one in four writes; with `closed`,
 * some of the writes go into that notebook, not open when the burst starts.
 */
function mixedCalls(
  path: string,
  dir: string,
  options: { focus: boolean; closed?: string }
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
    }),
    ...(options.closed ? closedWrites(options.closed) : [])
  ];
  return fc.oneof(
    { arbitrary: fc.oneof(...read), weight: 3 },
    { arbitrary: fc.oneof(...write), weight: 1 }
  );
}

/**
 * Writes into the notebook that is not open: inserts that make their cell
 * active (the scroll that lost to another one used to fail the call) and
 * updates that race each other.
 */
function closedWrites(closed: string): fc.Arbitrary<ICall>[] {
  const cell = fc.integer({ min: 0, max: CLOSED_CELLS - 1 });
  return [
    cell.map(i => ({
      tool: 'jupyter_insert_cell',
      input: {
        notebookPath: closed,
        referenceCellId: `closed-${i}`,
        source: 'inserted = 1'
      }
    })),
    cell.map(i => ({
      tool: 'jupyter_update_cell',
      input: {
        notebookPath: closed,
        cellId: `closed-${i}`,
        source: `c${i} = 0`,
        expectedSourceHash: sourceHash('code', closedSource(i))
      }
    }))
  ];
}

const closedSource = (i: number) => `c${i} = ${i}`;

/**
 * The calls with a source or message of their own (`tag` and the call's
 * place), so that each write can be found in the notebook afterwards.
 */
function distinct(calls: ICall[], tag: string): ICall[] {
  return calls.map(({ tool, input }, n) => {
    const mark = `${tag}${n}`;
    if (tool === 'jupyter_insert_cell') {
      return { tool, input: { ...input, source: `inserted_${mark} = 1` } };
    }
    if (tool === 'jupyter_update_cell') {
      return { tool, input: { ...input, source: `${input.source} # ${mark}` } };
    }
    if (tool === 'jupyter_create_comment') {
      return { tool, input: { ...input, message: `load test ${mark}` } };
    }
    return { tool, input };
  });
}

/** What a notebook holds, for checking the writes against it. */
interface IHeld {
  cells: { id: string; source: string }[];
  /** Its metadata as JSON (the review threads live there). */
  metadata: string;
}

/**
 * Whether each write's answer is true of the notebooks: an insert that
 * answered success holds its cell once, under the id it answered; an
 * update's source is there; a comment's message is there once. A write
 * that answered an error left none of it. Reads, runs and focus moves are
 * not checked here. Returns the untrue answers and how many were checked.
 */
function untrue(
  calls: ICall[],
  answers: IAnswer[],
  held: Record<string, IHeld>,
  current: string
): { problems: string[]; checked: number; intoClosed: number } {
  const problems: string[] = [];
  let checked = 0;
  let intoClosed = 0;
  calls.forEach(({ tool, input }, n) => {
    const path = (input.notebookPath as string | undefined) ?? current;
    const notebook = held[path];
    const ok = answers[n].result?.isError === false;
    let found: number;
    if (tool === 'jupyter_insert_cell') {
      const cells = notebook.cells.filter(c => c.source === input.source);
      const id = ok
        ? (answers[n].result!.structured as { cell: { id: string } }).cell.id
        : null;
      found = cells.length;
      if (ok && cells.length === 1 && cells[0].id !== id) {
        problems.push(
          `${tool} #${n}: answered ${id}, the cell is ${cells[0].id}`
        );
      }
    } else if (tool === 'jupyter_update_cell') {
      const cell = notebook.cells.find(c => c.id === input.cellId);
      found = cell?.source === input.source ? 1 : 0;
    } else if (tool === 'jupyter_create_comment') {
      found = notebook.metadata.split(JSON.stringify(input.message)).length - 1;
    } else {
      return;
    }
    checked++;
    if (path !== current) {
      intoClosed++;
    }
    if (found !== (ok ? 1 : 0)) {
      problems.push(
        `${tool} ${JSON.stringify(input)} answered ` +
          `${errorCode(answers[n]) ?? 'ok'}, found ${found} time(s) in ${path}`
      );
    }
  });
  return { problems, checked, intoClosed };
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
  calls: ICall[];
  answers: IAnswer[];
  seconds: number;
  truth: ReturnType<typeof untrue>;
}

/** The edits a burst made, to make again without a tool call. */
interface IEdits {
  /** Reference cell and source of each insert. */
  inserts: [string, string][];
  updates: [string, string][];
  runs: number;
}

test('mixed calls all in flight at once: every answer an envelope and true, heap back @rule', async ({
  jupyter,
  agent,
  human
}) => {
  test.setTimeout(300_000);
  await jupyter.open();
  const cells = [
    markdownCell('load-intro', '# Load'),
    codeCell('load-run', 'x = 1'),
    ...Array.from({ length: CELLS }, (_, i) => codeCell(`load-${i}`, source(i)))
  ];
  const keep = cells.map(cell => cell.id as string);
  const path = await jupyter.createNotebook('load.ipynb', notebookOf(cells));
  const closed = await jupyter.createNotebook(
    'load-closed.ipynb',
    notebookOf(
      Array.from({ length: CLOSED_CELLS }, (_, i) =>
        codeCell(`closed-${i}`, closedSource(i))
      )
    )
  );
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
  /**
   * The notebook back to its cells and sources (threads stay: they are few),
   * and the other one closed again, its edits dropped.
   */
  const reset = () =>
    jupyter.page.evaluate(
      async ([docPath, ids, sources, closedPath]) => {
        const other = window.uiTests.findNotebook(closedPath);
        if (other) {
          // closed as the person closes a tab, its edits dropped (the
          // kernel keeps running, as it does then), once its kernel is up:
          // a session disposed while it starts rejects in JupyterLab,
          // unhandled, and so does a kernel shut down in JupyterLite
          await other.sessionContext.ready;
          // and once its cells are all rendered: JupyterLab 4.6.6 renders a
          // notebook's cells at idle time, awaiting each one, and does not
          // look again whether the notebook is still open, so one closed
          // meanwhile throws at its next cell ("Cannot read properties of
          // null (reading 'insertWidget')", unhandled). Seen once in lite
          // under load; a person closing a long notebook just opened meets
          // it too, and it is not what this test measures.
          await window.uiTests.cellsRendered(
            closedPath,
            other.content.widgets.length - 1,
            120_000
          );
          other.model!.dirty = false;
          other.close();
        }
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
      [path, keep, cells.map(cell => cell.source as string), closed] as const
    );
  /** What each notebook holds: its live model when open, else its file. */
  const held = () =>
    jupyter.page.evaluate(
      async paths => {
        const out: Record<string, IHeld> = {};
        for (const docPath of paths) {
          const shared =
            window.uiTests.findNotebook(docPath)?.model?.sharedModel;
          if (shared) {
            out[docPath] = {
              cells: shared.cells.map(c => ({
                id: c.id,
                source: c.getSource()
              })),
              metadata: JSON.stringify(shared.getMetadata())
            };
            continue;
          }
          const file = await window.uiTests
            .app()
            .serviceManager.contents.get(docPath, { content: true });
          const content = file.content as {
            cells: { id: string; source: string | string[] }[];
            metadata: unknown;
          };
          out[docPath] = {
            cells: content.cells.map(c => ({
              id: c.id,
              source: Array.isArray(c.source) ? c.source.join('') : c.source
            })),
            metadata: JSON.stringify(content.metadata)
          };
        }
        return out;
      },
      [path, closed]
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
  const burst = async (drawn: ICall[], tag: string): Promise<IBurst> => {
    // a first, smaller burst warms up what is made once (code loaded
    // lazily, caches filled); the heap is measured from after it
    const warm = await callMany(
      jupyter.page,
      distinct(drawn.slice(0, 100), `${tag}w`),
      { concurrent: true }
    );
    expect(warm.map(envelopeProblem).filter(Boolean)).toEqual([]);
    await jupyter.waitForNotebook(path);
    await reset();
    const calls = distinct(drawn, tag);
    let answers: IAnswer[] = [];
    let seconds = 0;
    let truth: IBurst['truth'] = { problems: [], checked: 0, intoClosed: 0 };
    const figures = await measured(async () => {
      const started = Date.now();
      answers = await callMany(jupyter.page, calls, { concurrent: true });
      seconds = since(started);
      truth = untrue(calls, answers, await held(), path);
    });
    return { calls, answers, seconds, truth, ...figures };
  };
  /** The edits the calls that answered ok made. */
  const editsOf = (calls: ICall[], answers: IAnswer[]): IEdits => {
    const edits: IEdits = { inserts: [], updates: [], runs: 0 };
    calls.forEach(({ tool, input }, n) => {
      if (answers[n].result?.isError !== false) {
        return;
      }
      if (tool === 'jupyter_insert_cell') {
        edits.inserts.push([
          input.referenceCellId as string,
          input.source as string
        ]);
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
        for (const [ref, source] of inserts) {
          const at = shared.cells.findIndex(cell => cell.id === ref);
          step(shared as Step, () =>
            shared.transact(() =>
              shared.insertCell(at + 1, {
                cell_type: 'code',
                source,
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

  const withFocus = fc.sample(
    mixedCalls(path, jupyter.dir, { focus: true, closed }),
    { numRuns: IN_FLIGHT, seed: SEED }
  );
  const withoutFocus = fc.sample(
    mixedCalls(path, jupyter.dir, { focus: false }),
    { numRuns: IN_FLIGHT, seed: SEED + 1 }
  );
  const first = await burst(withFocus, 'a');
  const second = await burst(withoutFocus, 'b');
  const control = await measured(() =>
    editDirectly(editsOf(second.calls, second.answers))
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
  check(first.calls, first.answers);
  check(second.calls, second.answers);
  const untrueAnswers = [...first.truth.problems, ...second.truth.problems];
  const checkedWrites = first.truth.checked + second.truth.checked;
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
      untrueAnswers.length +
      unhandled.length +
      pageErrors.length +
      (growth > 0.1 ? 1 : 0),
    seconds: first.seconds + second.seconds,
    notes:
      `${checkedWrites} writes checked against the notebooks ` +
      `(${first.truth.intoClosed} into the notebook not open at the start), ` +
      `${untrueAnswers.length} untrue; ` +
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
  expect(untrueAnswers.slice(0, 20)).toEqual([]);
  expect(unhandled).toEqual([]);
  expect(pageErrors).toEqual([]);
  expect(first.answers).toHaveLength(IN_FLIGHT);
  expect(second.answers).toHaveLength(IN_FLIGHT);
  expect(growth).toBeLessThanOrEqual(0.1);
});
