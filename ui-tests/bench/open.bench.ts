/**
 * Reads right after a notebook opens: `jupyter_open_notebook`, then at once
 * a 20-cell `jupyter_get_cells` in the middle of the notebook and the empty
 * tool, interleaved, each timed around `document.modelContext.executeTool`
 * with a frame between calls (as between an agent's calls), while
 * JupyterLab is still building and drawing the notebook's cells.
 *
 *   ./scripts/bench.sh -g "reads after open"
 *   BENCH_OPEN_SIZES=50 BENCH_OPEN_ROUNDS=60 ./scripts/bench.sh -g "reads after open"
 *
 * Informational: it fails only when a call fails. Writes
 * .bench/open-results-<windowing mode>.md; docs/benchmarks.md explains it.
 */
import fs from 'node:fs';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import {
  DIR,
  NOOP,
  closeNotebook,
  configureApp,
  createNotebook,
  registerNoop,
  type IBenchModelContext,
  type IBenchWindow,
  type IRegisteredTool,
  type WindowingMode
} from './page';
import { median } from './stats';

const REPO = path.resolve(__dirname, '..', '..');
const SIZES = (process.env.BENCH_OPEN_SIZES ?? '50,1000')
  .split(',')
  .map(Number);
const ROUNDS = Number(process.env.BENCH_OPEN_ROUNDS ?? 60);
const WINDOWING = (process.env.BENCH_WINDOWING ?? 'none') as WindowingMode;
const RESULTS = path.join(REPO, '.bench', `open-results-${WINDOWING}.md`);

/** One round after the open: both calls, when, and the notebook's state. */
interface IRound {
  /** Milliseconds since the open call answered. */
  at: number;
  read: number;
  empty: number;
  /** Cells not yet built by JupyterLab when the round started. */
  placeholders: number;
}

interface IOpenRun {
  openMs: number;
  rounds: IRound[];
}

test('reads after open: jupyter_get_cells while the notebook is first drawn', async ({
  page
}) => {
  await page.goto(`/lab/workspaces/open-${Date.now().toString(36)}`);
  await configureApp(page, WINDOWING);
  await registerNoop(page);
  const lines: string[] = [];
  const summary: string[][] = [];
  for (const size of SIZES) {
    const notebookPath = `${DIR}/open-${size}.ipynb`;
    await createNotebook(page, notebookPath, size);
    const run: IOpenRun = await page.evaluate(
      async ([target, n, rounds, noop]) => {
        const bench = (window as unknown as IBenchWindow).benchHelpers!;
        const context = (
          document as unknown as { modelContext: IBenchModelContext }
        ).modelContext;
        const frame = () =>
          new Promise<void>(resolve =>
            requestAnimationFrame(() => setTimeout(resolve, 0))
          );
        // the tools first: nothing but the reads between the open and them
        const read = await bench.tool('jupyter_get_cells');
        const empty = await bench.tool(noop);
        const {
          openMs,
          openedAt: opened,
          placeholders
        } = await bench.open(target);
        const input = bench.middle(target, n);
        const timed = async (tool: IRegisteredTool, args: object) => {
          await frame();
          const start = performance.now();
          const out = await context.executeTool(
            tool,
            args as Record<string, unknown>
          );
          const elapsed = performance.now() - start;
          bench.check(out);
          return elapsed;
        };
        const result: IRound[] = [];
        for (let i = 0; i < rounds; i++) {
          const at = performance.now() - opened;
          const building = placeholders();
          const readMs = await timed(read, input);
          const emptyMs = await timed(empty, {});
          result.push({
            at,
            read: readMs,
            empty: emptyMs,
            placeholders: building
          });
        }
        return { openMs, rounds: result };
      },
      [notebookPath, size, ROUNDS, NOOP] as const
    );
    expect(run.rounds).toHaveLength(ROUNDS);
    const ms = (values: number[]) =>
      values.length ? median(values).toFixed(2) : 'n/a';
    // the rounds that began while JupyterLab was still building cells,
    // and those after the last cell was built
    const building = run.rounds.filter(r => r.placeholders > 0);
    const built = run.rounds.filter(r => r.placeholders === 0);
    summary.push([
      size.toLocaleString('en-US'),
      (run.openMs / 1000).toFixed(1),
      String(building.length),
      ms(building.map(r => r.read)),
      ms(building.map(r => r.empty)),
      String(built.length),
      ms(built.map(r => r.read)),
      ms(built.map(r => r.empty)),
      built.length ? `${(built[0].at / 1000).toFixed(1)} s` : 'not yet'
    ]);
    lines.push(
      `### ${size.toLocaleString('en-US')} cells: every round`,
      '',
      '| ms after open | cells still to build | get_cells ms | empty tool ms |',
      '| ---: | ---: | ---: | ---: |',
      ...run.rounds.map(
        r =>
          `| ${r.at.toFixed(0)} | ${r.placeholders} | ${r.read.toFixed(1)} | ${r.empty.toFixed(1)} |`
      ),
      ''
    );
    await closeNotebook(page, notebookPath);
  }
  const report = [
    '# Benchmark: reads right after a notebook opens',
    '',
    `${new Date().toISOString()}, windowing mode ${WINDOWING}, ${ROUNDS} rounds of one jupyter_get_cells (20 cells) and one empty tool after jupyter_open_notebook answered.`,
    '',
    '| notebook cells | open s | rounds while cells were being built | get_cells median ms | empty tool median ms | rounds after | get_cells median ms | empty tool median ms | every cell built after |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...summary.map(row => `| ${row.join(' | ')} |`),
    '',
    ...lines
  ].join('\n');
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, report);
  console.log(report.split('\n### ')[0]);
  console.log(`Written to ${path.relative(REPO, RESULTS)}.`);
});
