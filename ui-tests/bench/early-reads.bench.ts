/**
 * Reads during the first seconds: `jupyter_open_notebook`, then, at fixed
 * moments after it answered (1 s and 4 s by default), rounds of
 * `jupyter_get_cell_access` and a 20-cell `jupyter_get_cells` in the middle
 * of the notebook beside the empty tool, each timed around
 * `document.modelContext.executeTool`, the calls of a round one task apart
 * as an agent's come. Runs in JupyterLab's default windowing
 * (`contentVisibility`), where the notebook's cells are still being built on
 * idle time while the reads come in. Each size opens in a fresh page, so
 * every notebook is the first one the page opens.
 *
 *   ./scripts/bench.sh -g "reads during the first seconds"
 *   BENCH_EARLY_SIZES=1000 BENCH_EARLY_ROUNDS=20 ./scripts/bench.sh -g "first seconds"
 *
 * Beside each call's time around `executeTool` it records the time the
 * tool's own `execute` took, from its start to its promise settling (an
 * init script wraps every `registerTool` of the page): what is left is
 * WebMCP's dispatch and delivery, and whatever the page runs meanwhile.
 * And it counts the cells JupyterLab built while each call ran (its
 * placeholders before and after), with the medians of the calls during
 * which it built none. Those calls can still wait behind the frames and
 * layouts the building leaves, which no placeholder counts, so they are not
 * the read's own cost either (docs/benchmarks.md).
 *
 * Knobs: BENCH_EARLY_SIZES (50,1000,5000), BENCH_EARLY_MOMENTS (seconds after
 * the open answered, 1,4), BENCH_EARLY_ROUNDS (calls of each tool per
 * moment, 10), BENCH_EARLY_ORDER (`rounds`, or `blocks` of one tool),
 * BENCH_WINDOWING (contentVisibility here). Informational: it fails only
 * when a call fails. Writes .bench/early-reads-<windowing>-<order>.md;
 * docs/benchmarks.md explains it.
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
const list = (value: string) => value.split(',').map(Number);
const SIZES = list(process.env.BENCH_EARLY_SIZES ?? '50,1000,5000');
const MOMENTS = list(process.env.BENCH_EARLY_MOMENTS ?? '1,4');
const ROUNDS = Number(process.env.BENCH_EARLY_ROUNDS ?? 10);
/**
 * `rounds`: one call of each tool per round, each round starting with the
 * next tool, so a burst of the page's own work lands on all three alike; `blocks`: every call of one tool, then of
 * the next (how the slowdown was first measured, see docs/benchmarks.md).
 */
const ORDER = process.env.BENCH_EARLY_ORDER === 'blocks' ? 'blocks' : 'rounds';
const WINDOWING = (process.env.BENCH_WINDOWING ??
  'contentVisibility') as WindowingMode;
const RESULTS = path.join(
  REPO,
  '.bench',
  `early-reads-${WINDOWING}-${ORDER}.md`
);

/** The calls of one moment: each tool's times, and the notebook's state. */
interface IMoment {
  /** Seconds after the open answered that the rounds were due to start. */
  due: number;
  /** Milliseconds after the open answered that they did start. */
  startedAt: number;
  /** Cells JupyterLab still had to build at the start and at the end. */
  placeholdersBefore: number;
  placeholdersAfter: number;
  access: number[];
  cells: number[];
  empty: number[];
  /** The same calls' time inside their own `execute`. */
  ownAccess: number[];
  ownCells: number[];
  ownEmpty: number[];
  /** How many cells JupyterLab built while each of the same calls ran. */
  builtAccess: number[];
  builtCells: number[];
  builtEmpty: number[];
}

/** What the init script keeps in the page. */
interface IOwnWindow {
  /** Time inside `execute` of the last call of each tool, by name. */
  benchOwn?: Record<string, number>;
}

/**
 * Wraps `document.modelContext.registerTool` before the app loads, so every
 * tool's `execute` notes how long it took to settle (a microtask added).
 */
function recordOwnTime(): void {
  const context = (
    document as unknown as {
      modelContext?: {
        registerTool(
          tool: {
            name: string;
            execute: (...args: unknown[]) => unknown;
          },
          o?: object
        ): unknown;
      };
    }
  ).modelContext;
  if (!context) {
    return;
  }
  const own: Record<string, number> = {};
  (window as unknown as IOwnWindow).benchOwn = own;
  const register = context.registerTool.bind(context);
  context.registerTool = (tool, options) => {
    const execute = tool.execute;
    tool.execute = (...args: unknown[]) => {
      const start = performance.now();
      return Promise.resolve(execute.apply(tool, args)).then(
        (value: unknown) => {
          own[tool.name] = performance.now() - start;
          return value;
        }
      );
    };
    return register(tool, options);
  };
}

test('reads during the first seconds: reads while the notebook is built', async ({
  page
}) => {
  test.setTimeout(60 * 60_000);
  await page.addInitScript(recordOwnTime);
  const rows: string[][] = [];
  const details: string[] = [];
  for (const size of SIZES) {
    // a fresh page for each size: its notebook is the first the page opens
    await page.goto(`/lab/workspaces/early-${Date.now().toString(36)}`);
    await configureApp(page, WINDOWING);
    await registerNoop(page);
    const notebookPath = `${DIR}/early-${size}.ipynb`;
    await createNotebook(page, notebookPath, size);
    const moments: IMoment[] = await page.evaluate(
      async ([target, n, due, rounds, noop, order]) => {
        const bench = (window as unknown as IBenchWindow).benchHelpers!;
        const context = (
          document as unknown as { modelContext: IBenchModelContext }
        ).modelContext;
        const task = () => new Promise<void>(r => setTimeout(r, 0));
        // the tools first: nothing but the reads between the open and them
        const access = await bench.tool('jupyter_get_cell_access');
        const cells = await bench.tool('jupyter_get_cells');
        const empty = await bench.tool(noop);
        const { openedAt: opened, placeholders } = await bench.open(target);
        const range = bench.middle(target, n);
        const own = (window as unknown as IOwnWindow).benchOwn ?? {};
        const timed = async (
          tool: IRegisteredTool,
          args: object,
          total: number[],
          inside: number[],
          built: number[]
        ) => {
          await task();
          delete own[tool.name];
          const left = placeholders();
          const start = performance.now();
          const out = await context.executeTool(
            tool,
            args as Record<string, unknown>
          );
          total.push(performance.now() - start);
          built.push(left - placeholders());
          inside.push(own[tool.name] ?? NaN);
          bench.check(out);
        };
        const result: IMoment[] = [];
        for (const seconds of due) {
          while (performance.now() - opened < seconds * 1000) {
            await new Promise(r =>
              setTimeout(
                r,
                Math.max(0, opened + seconds * 1000 - performance.now())
              )
            );
          }
          const moment: IMoment = {
            due: seconds,
            startedAt: performance.now() - opened,
            placeholdersBefore: placeholders(),
            placeholdersAfter: 0,
            access: [],
            cells: [],
            empty: [],
            ownAccess: [],
            ownCells: [],
            ownEmpty: [],
            builtAccess: [],
            builtCells: [],
            builtEmpty: []
          };
          const steps = [
            () =>
              timed(
                access,
                range,
                moment.access,
                moment.ownAccess,
                moment.builtAccess
              ),
            () =>
              timed(
                cells,
                range,
                moment.cells,
                moment.ownCells,
                moment.builtCells
              ),
            () =>
              timed(empty, {}, moment.empty, moment.ownEmpty, moment.builtEmpty)
          ];
          if (order === 'blocks') {
            for (const step of steps) {
              for (let i = 0; i < rounds; i++) {
                await step();
              }
            }
          } else {
            // each round starts with the next tool, so no tool always
            // follows the same one
            for (let i = 0; i < rounds; i++) {
              for (let k = 0; k < steps.length; k++) {
                await steps[(i + k) % steps.length]();
              }
            }
          }
          moment.placeholdersAfter = placeholders();
          result.push(moment);
        }
        return result;
      },
      [notebookPath, size, MOMENTS, ROUNDS, NOOP, ORDER] as const
    );
    expect(moments).toHaveLength(MOMENTS.length);
    for (const moment of moments) {
      const empty = median(moment.empty);
      const access = median(moment.access);
      const cells = median(moment.cells);
      rows.push([
        size.toLocaleString('en-US'),
        `${moment.due} s (${(moment.startedAt / 1000).toFixed(1)} s)`,
        `${moment.placeholdersBefore} → ${moment.placeholdersAfter}`,
        empty.toFixed(2),
        access.toFixed(2),
        `${(access / empty).toFixed(1)}×`,
        cells.toFixed(2),
        `${(cells / empty).toFixed(1)}×`,
        [moment.ownEmpty, moment.ownAccess, moment.ownCells]
          .map(values => median(values).toFixed(2))
          .join(' / '),
        [moment.empty, moment.access, moment.cells]
          .map(values => values.filter(t => t > 5).length)
          .join(' / '),
        [moment.builtEmpty, moment.builtAccess, moment.builtCells]
          .map(built => built.filter(n => n > 0).length)
          .join(' / '),
        ...quiet(moment)
      ]);
      details.push(
        `${size} cells, ${moment.due} s (inside execute, access ${moment.ownAccess.map(t => t.toFixed(1)).join(' ')}; cells ${moment.ownCells.map(t => t.toFixed(1)).join(' ')}): access ${moment.access.map(t => t.toFixed(1)).join(' ')}; cells ${moment.cells.map(t => t.toFixed(1)).join(' ')}; empty ${moment.empty.map(t => t.toFixed(1)).join(' ')}`
      );
    }
    await closeNotebook(page, notebookPath);
  }
  const report = [
    '# Benchmark: reads during the first seconds after a notebook opens',
    '',
    `${new Date().toISOString()}, windowing mode ${WINDOWING}, calls in ${ORDER}, ${ROUNDS} rounds per moment of jupyter_get_cell_access (20 cells), jupyter_get_cells (20 cells) and the empty tool; medians in ms, ratio to the empty tool.`,
    '',
    '| notebook cells | due (started) | cells still to build | empty tool | get_cell_access | ratio | get_cells | ratio | inside execute: empty / access / cells | calls over 5 ms: empty / access / cells | calls during which cells were built: empty / access / cells | the other calls: empty / access / cells | their ratio: access | their ratio: cells |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(row => `| ${row.join(' | ')} |`),
    '',
    'Every call, in ms:',
    '',
    ...details.map(line => `- ${line}`),
    ''
  ].join('\n');
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, report);
  console.log(report);
  console.log(`Written to ${path.relative(REPO, RESULTS)}.`);
});

/**
 * The medians of the calls during which JupyterLab built no cell, and the
 * reads' ratios to the empty tool's ("-" where every call met some).
 */
function quiet(moment: IMoment): string[] {
  const without = (times: number[], built: number[]) =>
    times.filter((_, i) => built[i] === 0);
  const empty = without(moment.empty, moment.builtEmpty);
  const access = without(moment.access, moment.builtAccess);
  const cells = without(moment.cells, moment.builtCells);
  const show = (times: number[]) =>
    times.length ? median(times).toFixed(2) : '-';
  const ratio = (times: number[]) =>
    times.length && empty.length
      ? `${(median(times) / median(empty)).toFixed(1)}×`
      : '-';
  return [
    [empty, access, cells].map(show).join(' / '),
    ratio(access),
    ratio(cells)
  ];
}
