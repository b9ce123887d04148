/**
 * Latency of the cell tools on notebooks of 50, 1,000 and 5,000 cells, timed
 * inside the page with `performance.now()` around real
 * `document.modelContext.executeTool` calls, against an empty tool
 * registered in the same page and measured the same way.
 *
 * Informational only: nothing here fails on a timing (the machines are
 * shared and noisy). The test fails only when a call itself fails. The
 * table is printed and written to .bench/results-<windowing mode>.md;
 * docs/benchmarks.md explains how to read it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import {
  DIR,
  NOOP,
  REPS,
  WARMUPS,
  configureApp,
  closeNotebook,
  createNotebook,
  measureCalls,
  measureUpdate,
  openNotebook,
  registerNoop,
  unregisterNoop,
  type ICall,
  type IMeasured,
  type IOpened,
  type WindowingMode
} from './page';
import {
  measureEditByHand,
  measureInsertDelete,
  measureInsertDeleteByHand,
  registerByHand,
  unregisterByHand
} from './by-hand';
import {
  EMPTY_TOOL,
  byHandTable,
  GOAL_RATIO,
  isReference,
  latencyTable,
  overheadTable,
  scaling,
  scalingTable,
  summarize,
  type ISample
} from './stats';

const REPO = path.resolve(__dirname, '..', '..');

/**
 * The same change made on the shared model directly, the way a human's edit
 * lands: through an empty tool of the benchmark (so timed exactly like the
 * tools, the frame Chromium may render inside the call included), and its
 * model call alone (see by-hand.ts).
 */
const HUMAN_EDIT = 'reference: the same edit by hand, through an empty tool';
const HUMAN_EDIT_SYNC = 'reference: the same edit by hand, model call alone';
const UPDATE = 'jupyter_update_cell (hash from the last result)';
const INSERT = 'jupyter_insert_cell (below the middle cell, not activated)';
const HUMAN_INSERT =
  'reference: the same insertion by hand, through an empty tool';
const HUMAN_INSERT_SYNC =
  'reference: the same insertion by hand, model call alone';
const DELETE = 'jupyter_delete_cell (the inserted cell)';
const HUMAN_DELETE =
  'reference: the same deletion by hand, through an empty tool';
const HUMAN_DELETE_SYNC =
  'reference: the same deletion by hand, model call alone';
const PAIRS = [
  {
    label: 'update',
    tool: UPDATE,
    byHand: HUMAN_EDIT,
    byHandSync: HUMAN_EDIT_SYNC
  },
  {
    label: 'insert',
    tool: INSERT,
    byHand: HUMAN_INSERT,
    byHandSync: HUMAN_INSERT_SYNC
  },
  {
    label: 'delete',
    tool: DELETE,
    byHand: HUMAN_DELETE,
    byHandSync: HUMAN_DELETE_SYNC
  }
];

const SIZES = (process.env.BENCH_SIZES ?? '50,1000,5000')
  .split(',')
  .map(Number);
/**
 * "none" builds every cell when the notebook opens, so the timings see a
 * settled page; JupyterLab's default, "contentVisibility", builds them on
 * idle time, which headless Chromium gives little of: a 5,000-cell notebook
 * is still building many minutes later (see docs/benchmarks.md).
 */
const WINDOWING = (process.env.BENCH_WINDOWING ?? 'none') as WindowingMode;

/** One table per windowing mode. */
const RESULTS = path.join(REPO, '.bench', `results-${WINDOWING}.md`);

/** The payload of jupyter_get_cells, as far as the checks need it. */
interface ICellsPayload {
  cells: { outputs?: unknown[] }[];
  truncated: boolean;
}

test('cell tools: latency by notebook size', async ({ page, browser }) => {
  await page.goto(`/lab/workspaces/bench-${Date.now().toString(36)}`);
  const { version } = await configureApp(page, WINDOWING);
  await registerNoop(page);
  await registerByHand(page);

  const samples: ISample[] = [];
  const openings: ({ size: number } & IOpened)[] = [];
  for (const size of SIZES) {
    const notebookPath = `${DIR}/cells-${size}.ipynb`;
    await test.step(`${size} cells`, async () => {
      await createNotebook(page, notebookPath, size);
      const opened = await openNotebook(page, notebookPath, size);
      openings.push({ size, ...opened });

      const reads: { scenario: string; expected: number; count: number }[] = [];
      const calls: ICall[] = [{ tool: NOOP, input: {} }];
      for (const count of [20, 100]) {
        for (const includeOutputs of [false, true]) {
          // a range in the middle of the notebook
          const startIndex = Math.max(0, Math.floor(size / 2 - count / 2));
          calls.push({
            tool: 'jupyter_get_cells',
            input: {
              notebookPath,
              startIndex,
              endIndex: startIndex + count,
              includeOutputs
            }
          });
          reads.push({
            scenario: `jupyter_get_cells, ${count} cells, ${includeOutputs ? 'with' : 'no'} outputs`,
            expected: Math.min(count, size),
            count
          });
        }
      }
      const [empty, ...measured] = await measureCalls(page, calls);
      samples.push({
        scenario: EMPTY_TOOL,
        notebookCells: size,
        times: empty.times,
        resultBytes: empty.resultBytes
      });
      measured.forEach((result, k) => {
        const { scenario, expected, count } = reads[k];
        const payload = result.last as ICellsPayload;
        expect(payload.cells).toHaveLength(expected);
        expect(payload.truncated).toBe(false);
        if (scenario.includes('with outputs')) {
          expect(payload.cells.some(cell => cell.outputs?.length)).toBe(true);
        }
        samples.push({
          scenario,
          notebookCells: size,
          times: result.times,
          resultBytes: result.resultBytes,
          note: expected < count ? `only ${expected} exist` : undefined
        });
      });

      // a code cell in the middle (index ≡ 0 mod 5 is always code)
      const middle = Math.floor(size / 10) * 5;
      const cellId = `cell-${String(middle).padStart(5, '0')}`;
      const update = await measureUpdate(page, notebookPath, cellId);
      samples.push({
        scenario: UPDATE,
        notebookCells: size,
        times: update.times,
        resultBytes: update.resultBytes
      });
      const sample = (scenario: string, measured: IMeasured) =>
        samples.push({
          scenario,
          notebookCells: size,
          times: measured.times,
          resultBytes: measured.resultBytes
        });
      const human = await measureEditByHand(page, notebookPath, cellId);
      sample(HUMAN_EDIT, human.tool);
      sample(HUMAN_EDIT_SYNC, human.sync);

      const written = await measureInsertDelete(page, notebookPath, cellId);
      sample(INSERT, written.insert);
      sample(DELETE, written.delete);
      expect(
        (written.delete.last as { deletedCellId?: string } | null)
          ?.deletedCellId
      ).toBeTruthy();
      const byHand = await measureInsertDeleteByHand(
        page,
        notebookPath,
        cellId
      );
      sample(HUMAN_INSERT, byHand.insert.tool);
      sample(HUMAN_INSERT_SYNC, byHand.insert.sync);
      sample(HUMAN_DELETE, byHand.delete.tool);
      sample(HUMAN_DELETE_SYNC, byHand.delete.sync);

      await closeNotebook(page, notebookPath);
    });
  }

  await unregisterNoop(page);
  await unregisterByHand(page);

  const rows = summarize(samples);
  const scalings = scaling(rows, SIZES);
  const missed = scalings.filter(s => !isReference(s.scenario) && !s.met);
  const report = [
    '# Benchmark: cell tool latency',
    '',
    `${new Date().toISOString()}: JupyterLab ${version}, Chromium ${browser.version()} (headless, --enable-features=WebMCP), ` +
      `${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map(value => value.toFixed(2))
        .join(' ')}. ` +
      `${WARMUPS} warm-up + ${REPS} timed calls per row, in the page, around document.modelContext.executeTool.`,
    '',
    '## Latency',
    '',
    latencyTable(rows),
    '',
    `## Scaling (goal: the largest notebook at most ${GOAL_RATIO}× the smallest; informational)`,
    '',
    scalingTable(scalings, SIZES),
    '',
    '## jupyter_update_cell against the same edit made by hand',
    '',
    'What the tool adds to what JupyterLab spends on the edit itself (the',
    "reference row: the same source replacements on the notebook's shared",
    'model, as a human or collaborator edit lands):',
    '',
    overheadTable(rows, SIZES, UPDATE, HUMAN_EDIT),
    '',
    '## Update, insert and delete against the same change made by hand',
    '',
    'The tool against the same change made directly on the shared model:',
    'through an empty tool timed like the tools (the frame Chromium may',
    'render inside the call included: the reference), and its model call',
    'alone (what the change costs before anything is drawn):',
    '',
    byHandTable(rows, SIZES, PAIRS),
    '',
    `Notebooks (windowing mode ${WINDOWING}): ` +
      openings
        .map(
          o =>
            `${o.size.toLocaleString('en-US')} cells opened and settled in ${(o.openMs / 1000).toFixed(0)} s` +
            (o.placeholders
              ? ` (${o.placeholders} cells still being built by JupyterLab during the timings)`
              : '')
        )
        .join('; ') +
      '.',
    '',
    missed.length
      ? `Goal missed by: ${missed.map(s => `${s.scenario} (${s.ratio.toFixed(2)}×)`).join('; ')}.`
      : `Goal met by every tool scenario.`,
    ''
  ].join('\n');
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, report);
  console.log(`\n${report}\nWritten to ${path.relative(REPO, RESULTS)}.`);
});
