/**
 * Where the time of a call goes on a large notebook. Opt-in, since profiling
 * skews timings:
 *
 *   BENCH_PROFILE=1 ./scripts/bench.sh -g profile
 *
 * For jupyter_get_cells (20 cells) and jupyter_update_cell on one notebook
 * (BENCH_PROFILE_CELLS, default 5,000) it measures:
 *
 * - the median of `document.modelContext.executeTool` calls, as the latency
 *   benchmark does;
 * - the median of calling the tool's own `execute` function directly (caught
 *   by wrapping `registerTool` before the app loads): the extension's work,
 *   without Chromium's WebMCP dispatch;
 * - a CPU profile (Chrome's sampling profiler, through CDP) of direct calls,
 *   read over the samples with the extension's code on the stack: the
 *   extension's work and what JupyterLab does synchronously in reaction to
 *   it (a change to the notebook runs JupyterLab's listeners inside the
 *   write), not the frames rendered between calls.
 *
 * Writes .bench/profile.md and .bench/profile-*.cpuprofile (open those in
 * Chrome DevTools' Performance panel).
 */
import fs from 'node:fs';
import path from 'node:path';

import { test, type CDPSession, type Page } from '@playwright/test';

import {
  DIR,
  NOOP,
  configureApp,
  createNotebook,
  measureCalls,
  measureUpdate,
  openNotebook,
  registerNoop,
  type WindowingMode
} from './page';
import { median } from './stats';

const REPO = path.resolve(__dirname, '..', '..');
const OUT = path.join(REPO, '.bench');
const SIZE = Number(process.env.BENCH_PROFILE_CELLS ?? 5000);
const CALLS = Number(process.env.BENCH_PROFILE_CALLS ?? 60);
const WINDOWING = (process.env.BENCH_WINDOWING ?? 'none') as WindowingMode;

/** The parts of a V8 CPU profile read here. */
interface ICallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface IProfileNode {
  id: number;
  callFrame: ICallFrame;
  parent?: number;
  children?: number[];
}
interface IProfile {
  nodes: IProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

type Execute = (input: Record<string, unknown>) => Promise<{
  isError?: boolean;
  structuredContent?: { cell?: { sourceHash?: string } };
}>;
interface IProfileWindow {
  benchExecute?: Record<string, Execute>;
}

/**
 * Before any app script: keep each tool's `execute` as it is registered, and
 * register it unchanged.
 */
async function catchExecutes(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const context = (
      document as unknown as {
        modelContext?: {
          registerTool(tool: { name: string; execute: Execute }): unknown;
        };
      }
    ).modelContext;
    if (!context) {
      return;
    }
    const caught: Record<string, Execute> = {};
    (window as unknown as IProfileWindow).benchExecute = caught;
    const register = context.registerTool.bind(context);
    context.registerTool = (...args: Parameters<typeof register>) => {
      caught[args[0].name] = args[0].execute;
      return register(...args);
    };
  });
}

/**
 * Call a tool's own `execute` `warmups + reps` times, `update` giving each
 * call's input from the previous result. With `frames`, the page gets a frame
 * before each call (as between an agent's calls); without, the calls run
 * back to back. Returns the timings of the last `reps` calls.
 */
async function measureDirect(
  page: Page,
  tool: string,
  input: Record<string, unknown>,
  options: { warmups: number; reps: number; frames: boolean }
): Promise<number[]> {
  return page.evaluate(
    async ([name, first, { warmups, reps, frames }]) => {
      const execute = (window as unknown as IProfileWindow).benchExecute?.[
        name
      ];
      if (!execute) {
        throw new Error(`the execute of ${name} was not caught`);
      }
      const sources = [
        'result = compute(alpha=0.3)\nresult',
        'result = compute(alpha=0.4)\nresult'
      ];
      let args = { ...first };
      const times: number[] = [];
      for (let i = 0; i < warmups + reps; i++) {
        if (frames) {
          await new Promise<void>(resolve =>
            requestAnimationFrame(() => setTimeout(resolve, 0))
          );
        }
        if ('expectedSourceHash' in args) {
          args = { ...args, source: sources[i % 2] };
        }
        const start = performance.now();
        const result = await execute(args);
        const elapsed = performance.now() - start;
        if (result.isError) {
          throw new Error(`${name} failed: ${JSON.stringify(result)}`);
        }
        const hash = result.structuredContent?.cell?.sourceHash;
        if (hash && 'expectedSourceHash' in args) {
          args = { ...args, expectedSourceHash: hash };
        }
        if (i >= warmups) {
          times.push(elapsed);
        }
      }
      return times;
    },
    [tool, input, options] as const
  );
}

/** The hash of a cell, read through the tool. */
async function readHash(
  page: Page,
  notebookPath: string,
  cellId: string
): Promise<string> {
  return page.evaluate(
    async ([target, id]) => {
      const execute = (window as unknown as IProfileWindow).benchExecute
        ?.jupyter_get_cells;
      const result = (await execute?.({
        notebookPath: target,
        cellIds: [id],
        includeSource: false
      })) as { structuredContent?: { cells?: { sourceHash: string }[] } };
      return result.structuredContent?.cells?.[0]?.sourceHash ?? '';
    },
    [notebookPath, cellId] as const
  );
}

/** A frame's name: function, then the script's file and line. */
function frameName(frame: ICallFrame): string {
  const file = frame.url ? frame.url.split('/').pop()?.split('?')[0] : '';
  const where = file ? ` ${file}:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'}${where}`;
}

/** Where the extension's scripts are served from. */
const OURS = '/jupyterlite-webmcp/';

/**
 * Self and total milliseconds per function, the heaviest first, over the
 * samples taken while the extension's code (or anything it called) was on
 * the stack: the work of the calls themselves, not the frames between them.
 */
function aggregate(profile: IProfile): {
  sampledMs: number;
  inCallsMs: number;
  self: [string, number][];
  total: [string, number][];
} {
  const byId = new Map(profile.nodes.map(node => [node.id, node]));
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      const found = byId.get(child);
      if (found) {
        found.parent = node.id;
      }
    }
  }
  const stackOf = (id: number): IProfileNode[] => {
    const stack: IProfileNode[] = [];
    let node = byId.get(id);
    while (node) {
      stack.push(node);
      node = node.parent === undefined ? undefined : byId.get(node.parent);
    }
    return stack;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let sampledMs = 0;
  let inCallsMs = 0;
  profile.samples.forEach((id, i) => {
    // a sample lasts until the next one
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    sampledMs += ms;
    const stack = stackOf(id);
    if (!stack.some(node => node.callFrame.url.includes(OURS))) {
      return;
    }
    inCallsMs += ms;
    const leaf = frameName(stack[0].callFrame);
    self.set(leaf, (self.get(leaf) ?? 0) + ms);
    const seen = new Set<string>();
    for (const node of stack) {
      const name = frameName(node.callFrame);
      if (!seen.has(name)) {
        seen.add(name);
        total.set(name, (total.get(name) ?? 0) + ms);
      }
    }
  });
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  return { sampledMs, inCallsMs, self: top(self, 25), total: top(total, 50) };
}

/** Profile `run`, save the profile, and report its heaviest functions. */
async function profiled(
  cdp: CDPSession,
  name: string,
  calls: number,
  run: () => Promise<unknown>
): Promise<string> {
  await cdp.send('Profiler.start');
  await run();
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: IProfile;
  };
  fs.writeFileSync(
    path.join(OUT, `profile-${name}.cpuprofile`),
    JSON.stringify(profile)
  );
  const { sampledMs, inCallsMs, self, total } = aggregate(profile);
  const list = (rows: [string, number][]) =>
    rows
      .map(
        ([fn, ms]) =>
          `| \`${fn}\` | ${ms.toFixed(1)} | ${(ms / calls).toFixed(2)} |`
      )
      .join('\n');
  return [
    `### CPU profile of ${calls} direct calls (profile-${name}.cpuprofile)`,
    '',
    `${sampledMs.toFixed(0)} ms sampled, ${inCallsMs.toFixed(0)} ms of them (${(inCallsMs / calls).toFixed(2)} ms per call) ` +
      "with the extension's code on the stack; the tables count only those.",
    '',
    '| heaviest by self time | ms | ms per call |',
    '| --- | ---: | ---: |',
    list(self),
    '',
    '| heaviest by total time (on the stack) | ms | ms per call |',
    '| --- | ---: | ---: |',
    list(total),
    ''
  ].join('\n');
}

test('profile: where a call on a large notebook spends its time', async ({
  page
}) => {
  fs.mkdirSync(OUT, { recursive: true });
  await catchExecutes(page);
  await page.goto(`/lab/workspaces/profile-${Date.now().toString(36)}`);
  await configureApp(page, WINDOWING);
  const notebookPath = `${DIR}/profile-${SIZE}.ipynb`;
  await createNotebook(page, notebookPath, SIZE);
  const opened = await openNotebook(page, notebookPath, SIZE);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });

  const startIndex = Math.max(0, Math.floor(SIZE / 2) - 10);
  const read = { notebookPath, startIndex, endIndex: startIndex + 20 };
  const cellId = `cell-${String(Math.floor(SIZE / 10) * 5).padStart(5, '0')}`;
  const reps = { warmups: 5, reps: CALLS };

  await registerNoop(page);
  const [emptyTool, readTool] = (
    await measureCalls(
      page,
      [
        { tool: NOOP, input: {} },
        { tool: 'jupyter_get_cells', input: read }
      ],
      reps
    )
  ).map(measured => measured.times);
  const readDirect = await measureDirect(page, 'jupyter_get_cells', read, {
    ...reps,
    frames: true
  });
  const readProfile = await profiled(cdp, 'get-cells', CALLS, () =>
    measureDirect(page, 'jupyter_get_cells', read, {
      warmups: 0,
      reps: CALLS,
      frames: true
    })
  );

  const writeTool = (await measureUpdate(page, notebookPath, cellId, reps))
    .times;
  const update = async () => ({
    notebookPath,
    cellId,
    source: '',
    expectedSourceHash: await readHash(page, notebookPath, cellId)
  });
  const writeDirect = await measureDirect(
    page,
    'jupyter_update_cell',
    await update(),
    { ...reps, frames: true }
  );
  const writeInput = await update();
  const writeProfile = await profiled(cdp, 'update-cell', CALLS, () =>
    measureDirect(page, 'jupyter_update_cell', writeInput, {
      warmups: 0,
      reps: CALLS,
      frames: true
    })
  );

  const ms = (times: number[]) => `${median(times).toFixed(2)} ms`;
  const report = [
    `# Where the time goes: a ${SIZE.toLocaleString('en-US')}-cell notebook`,
    '',
    `Windowing mode ${opened.windowingMode}; opened and settled in ${(opened.openMs / 1000).toFixed(0)} s` +
      (opened.placeholders
        ? ` with ${opened.placeholders} cells still to be built by JupyterLab.`
        : '.'),
    '',
    '| call | executeTool median | direct execute median |',
    '| --- | ---: | ---: |',
    `| empty registered tool | ${ms(emptyTool)} | |`,
    `| jupyter_get_cells, 20 cells | ${ms(readTool)} | ${ms(readDirect)} |`,
    `| jupyter_update_cell | ${ms(writeTool)} | ${ms(writeDirect)} |`,
    '',
    '## jupyter_get_cells, 20 cells',
    '',
    readProfile,
    '## jupyter_update_cell',
    '',
    writeProfile
  ].join('\n');
  fs.writeFileSync(path.join(OUT, 'profile.md'), report);
  console.log(report);
});
