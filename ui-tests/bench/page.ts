/**
 * What the benchmark does in the page: wait for the app and the tools,
 * write and open notebooks through the app, register the empty tool, and
 * time `document.modelContext.executeTool` calls with `performance.now()`.
 *
 * The functions handed to `page.evaluate` are serialized by Playwright, so
 * their bodies use nothing from this module but types.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { INotebookContent } from '@jupyterlab/nbformat';
import type { NotebookPanel } from '@jupyterlab/notebook';
import type { PartialJSONObject } from '@lumino/coreutils';
import type { Page } from '@playwright/test';

/** Where the benchmark's notebooks are written. */
export const DIR = 'bench';
/** The name of the empty tool. */
export const NOOP = 'bench_noop';
/** Calls made before timing starts, and calls timed, per scenario. */
export const WARMUPS = Number(process.env.BENCH_WARMUPS ?? 5);
export const REPS = Number(process.env.BENCH_REPS ?? 30);

/** How many calls to make (defaults: WARMUPS and REPS). */
export interface IRepetitions {
  warmups?: number;
  reps?: number;
}

/** What one in-page measurement returns. */
export interface IMeasured {
  times: number[];
  resultBytes: number;
  /** The last call's parsed result, to check what was measured. */
  last: unknown;
}

/** The in-page view of the WebMCP API (see ui-tests/webmcp-dom.d.ts). */
export interface IRegisteredTool {
  name: string;
}
/** `I`: the input of the tools the page registers. */
export interface IBenchModelContext<I = unknown> {
  getTools(): Promise<IRegisteredTool[]>;
  executeTool(
    tool: IRegisteredTool,
    input: Record<string, unknown>
  ): Promise<string | null>;
  registerTool(
    tool: {
      name: string;
      description: string;
      inputSchema: object;
      execute(input: I): Promise<unknown>;
    },
    options: { signal: AbortSignal }
  ): Promise<void>;
}
export interface IBenchWindow {
  jupyterapp?: JupyterFrontEnd;
  benchNoop?: AbortController;
  /** Resolves once the page is at rest (installed by appReady). */
  benchAtRest?: () => Promise<void>;
  /** Finding tools, checking results, opening notebooks (appReady). */
  benchHelpers?: IBenchHelpers;
}

/** The page's app, started and restored, with our tools registered. */
export async function appReady(page: Page): Promise<{ version: string }> {
  await page.waitForFunction(
    () => !!(window as unknown as IBenchWindow).jupyterapp,
    null,
    { timeout: 120_000 }
  );
  await page.evaluate(async () => {
    const app = (window as unknown as IBenchWindow).jupyterapp;
    await app?.started;
    await app?.restored;
  });
  await page.waitForFunction(
    async () => {
      const context = (
        document as unknown as { modelContext?: IBenchModelContext }
      ).modelContext;
      const names = (await context?.getTools())?.map(tool => tool.name) ?? [];
      return ['jupyter_get_cells', 'jupyter_update_cell'].every(name =>
        names.includes(name)
      );
    },
    null,
    { timeout: 120_000, polling: 200 }
  );
  const ready = await page.evaluate(() => {
    const win = window as unknown as IBenchWindow;
    // Two frames, then a task: the first frame draws what the last call
    // changed, the second is one of a page at rest, so each timed call
    // starts at the same point of Chromium's frame cycle. After one frame
    // only, a call on 1,000 cells had about 8 ms before the next frame was
    // due and paid that frame or not by chance (docs/benchmarks.md, "Each
    // call from a page at rest").
    win.benchAtRest = () =>
      new Promise<void>(resolve =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => setTimeout(resolve, 0))
        )
      );
    return { version: win.jupyterapp?.version ?? '?' };
  });
  await page.evaluate(defineBenchHelpers);
  return ready;
}

/** How JupyterLab lays out a notebook's cells (its windowingMode setting). */
export type WindowingMode = 'none' | 'contentVisibility' | 'full' | 'defer';

/**
 * Settings for the run, saved as the user's (in the server's throw-away
 * settings directory) and applied by reloading the page: autosave off, so no
 * save of a large notebook lands in a timing, and the notebook windowing
 * mode. Returns once the reloaded app is ready.
 */
export async function configureApp(
  page: Page,
  windowingMode: WindowingMode
): Promise<{ version: string }> {
  await appReady(page);
  await page.evaluate(async mode => {
    const app = (window as unknown as IBenchWindow).jupyterapp;
    if (!app) {
      throw new Error('no app');
    }
    const settings = app.serviceManager.settings;
    await settings.save(
      '@jupyterlab/docmanager-extension:plugin',
      JSON.stringify({ autosave: false })
    );
    await settings.save(
      '@jupyterlab/notebook-extension:tracker',
      JSON.stringify({ windowingMode: mode })
    );
  }, windowingMode);
  await page.reload();
  return appReady(page);
}

/** Register the empty tool: the cost of a WebMCP call that does nothing. */
export async function registerNoop(page: Page): Promise<void> {
  await page.evaluate(async name => {
    const context = (
      document as unknown as { modelContext: IBenchModelContext }
    ).modelContext;
    const controller = new AbortController();
    (window as unknown as IBenchWindow).benchNoop = controller;
    await context.registerTool(
      {
        name,
        description: 'Benchmark baseline: does nothing and returns {}.',
        inputSchema: { type: 'object', properties: {} },
        // the same envelope shape as the extension's tools, minimal
        execute: async () => ({
          content: [{ type: 'text', text: '{}' }],
          structuredContent: {}
        })
      },
      { signal: controller.signal }
    );
  }, NOOP);
}

/** Unregister the empty tool (aborting its signal is the only way). */
export async function unregisterNoop(page: Page): Promise<void> {
  await page.evaluate(() =>
    (window as unknown as IBenchWindow).benchNoop?.abort()
  );
}

/**
 * A notebook of `n` cells written through the contents API: four code cells
 * with a stream and a result output, then a markdown cell, repeated. Cell
 * `i` has the id `cell-` + `i` in five digits. `metadata` is added to the
 * notebook's own (e.g. review threads).
 */
export async function createNotebook(
  page: Page,
  notebookPath: string,
  n: number,
  metadata: PartialJSONObject = {}
): Promise<void> {
  await page.evaluate(
    async ([dir, target, size, extra]) => {
      const app = (window as unknown as IBenchWindow).jupyterapp;
      if (!app) {
        throw new Error('no app');
      }
      const contents = app.serviceManager.contents;
      await contents.save(dir, { type: 'directory' });
      const cells: INotebookContent['cells'] = [];
      for (let i = 0; i < size; i++) {
        const id = `cell-${String(i).padStart(5, '0')}`;
        if (i % 5 === 4) {
          cells.push({
            id,
            cell_type: 'markdown',
            source: `## Step ${i}\n\nWhat the *previous* cells computed, and why.`,
            metadata: {}
          });
        } else {
          cells.push({
            id,
            cell_type: 'code',
            source: `value_${i} = sum(range(${i}))\nprint("value", value_${i})\nvalue_${i} * 2`,
            metadata: {},
            execution_count: i + 1,
            outputs: [
              {
                output_type: 'stream',
                name: 'stdout',
                text: `value ${(i * (i - 1)) / 2}\n`
              },
              {
                output_type: 'execute_result',
                execution_count: i + 1,
                data: { 'text/plain': String(i * (i - 1)) },
                metadata: {}
              }
            ]
          });
        }
      }
      const content: INotebookContent = {
        cells,
        metadata: {
          kernelspec: {
            name: 'python3',
            display_name: 'Python 3 (ipykernel)',
            language: 'python'
          },
          language_info: { name: 'python' },
          ...extra
        },
        nbformat: 4,
        nbformat_minor: 5
      };
      await contents.save(target, {
        type: 'notebook',
        format: 'json',
        content
      });
    },
    [DIR, notebookPath, n, metadata] as const
  );
}

/** How an opened notebook came up. */
export interface IOpened {
  /** From docmanager:open to the last cell built and the page quiet. */
  openMs: number;
  /** Cells still waiting for JupyterLab to build them when the wait ended. */
  placeholders: number;
  windowingMode: string;
}

/**
 * Open a notebook through the app (docmanager:open, as a double click does)
 * and wait until it is loaded, every cell built, its kernel idle and the page
 * quiet. JupyterLab builds cells lazily, on idle time, except in windowing
 * mode "none"; headless Chromium gives little idle time, so a large notebook
 * in another mode may still be building when `maxWaitMs` runs out: the
 * timings then include that work, and `placeholders` says how much was left.
 */
export async function openNotebook(
  page: Page,
  notebookPath: string,
  n: number,
  options: { maxWaitMs?: number; kernel?: boolean } = {}
): Promise<IOpened> {
  const maxWaitMs = options.maxWaitMs ?? 15 * 60_000;
  return page.evaluate(
    async ([target, size, maxWait, withKernel]) => {
      const app = (window as unknown as IBenchWindow).jupyterapp;
      if (!app) {
        throw new Error('no app');
      }
      const started = performance.now();
      const panel = (await app.commands.execute('docmanager:open', {
        path: target,
        factory: 'Notebook',
        ...(withKernel ? {} : { kernel: { name: null } })
      })) as NotebookPanel;
      await panel.context.ready;
      await panel.sessionContext.ready;
      if (panel.content.model?.cells.length !== size) {
        throw new Error(`${target} did not load its ${size} cells`);
      }
      const deadline = Date.now() + maxWait;
      const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
      const placeholders = () =>
        panel.content.widgets.filter(cell => cell.isPlaceholder()).length;
      const loading = () =>
        panel.content.widgets.length !== size ||
        placeholders() > 0 ||
        (!!panel.sessionContext.session?.kernel &&
          panel.sessionContext.kernelDisplayStatus !== 'idle');
      // JupyterLab builds placeholders when the browser is idle, which
      // headless Chromium seldom is: ask the notebook to build them now, in
      // one go (its own idle-time routine, given unlimited time; skipped if a
      // later JupyterLab renames it), reaching the page it settles into
      const notebook = panel.content as unknown as {
        _runOnIdleTime?: (remainingMs: number) => Promise<void>;
      };
      // Not in "full" windowing: there each built cell stays in the page
      // until the next frame takes it out, so building all in one go keeps
      // thousands attached and every measurement lays them all out (a
      // 5,000-cell notebook took over 8 minutes, against 2-4 on idle time)
      const force =
        panel.content.notebookConfig.windowingMode !== 'full' &&
        !!notebook._runOnIdleTime;
      while (loading() && Date.now() < deadline) {
        if (placeholders() > 0 && force) {
          await notebook._runOnIdleTime!(Math.max(0, deadline - Date.now()));
        }
        await sleep(500);
      }
      // quiet: a second of timers firing on time (no long task in between)
      const quietDeadline = Date.now() + 60_000;
      let quiet = 0;
      while (quiet < 10 && Date.now() < quietDeadline) {
        const start = performance.now();
        await sleep(100);
        quiet = performance.now() - start < 150 ? quiet + 1 : 0;
      }
      return {
        openMs: performance.now() - started,
        placeholders: placeholders(),
        windowingMode: panel.content.notebookConfig.windowingMode
      };
    },
    [notebookPath, n, maxWaitMs, options.kernel ?? true] as const
  );
}

/** Close a notebook without saving (its changes were the benchmark's). */
export async function closeNotebook(
  page: Page,
  notebookPath: string
): Promise<void> {
  await page.evaluate(async target => {
    const app = (window as unknown as IBenchWindow).jupyterapp;
    for (const widget of app?.shell.widgets('main') ?? []) {
      const panel = widget as NotebookPanel;
      if (panel.context?.path === target) {
        if (panel.content.model) {
          panel.content.model.dirty = false;
        }
        await panel.sessionContext.shutdown();
        panel.dispose();
      }
    }
  }, notebookPath);
}

/** A range of 20 cells in the middle of a notebook of `n` cells. */
export interface IMiddleRange {
  notebookPath: string;
  startIndex: number;
  endIndex: number;
}

/**
 * What the benches do in the page beside their timed calls, as
 * `window.benchHelpers` (installed by appReady with `benchAtRest`).
 */
export interface IBenchHelpers {
  /** The registered tool of that name; throws when there is none. */
  tool(name: string): Promise<IRegisteredTool>;
  /** Throws when a call's result is an error envelope. */
  check(out: string | null): void;
  /**
   * Opens the notebook with `jupyter_open_notebook`: how long the call took,
   * when it answered, and how many of its panel's cells JupyterLab has still
   * to build (-1 when no panel shows it).
   */
  open(
    target: string
  ): Promise<{ openMs: number; openedAt: number; placeholders(): number }>;
  /** The 20 cells in the middle of the notebook of `n` cells. */
  middle(target: string, n: number): IMiddleRange;
}

/**
 * Defines `window.benchHelpers` (IBenchHelpers). Runs in the page, so it
 * uses nothing from this module but types.
 */
function defineBenchHelpers(): void {
  const context = () =>
    (document as unknown as { modelContext: IBenchModelContext }).modelContext;
  const helpers: IBenchHelpers = {
    async tool(name) {
      const found = (await context().getTools()).find(t => t.name === name);
      if (!found) {
        throw new Error(`${name} is not registered`);
      }
      return found;
    },
    check(out) {
      const envelope = JSON.parse(out ?? '{}') as { isError?: boolean };
      if (envelope.isError) {
        throw new Error(`call failed: ${out}`);
      }
    },
    async open(target) {
      const open = await helpers.tool('jupyter_open_notebook');
      const started = performance.now();
      helpers.check(await context().executeTool(open, { path: target }));
      const openedAt = performance.now();
      const app = (window as unknown as IBenchWindow).jupyterapp;
      const panel = [...(app?.shell.widgets('main') ?? [])].find(
        widget => (widget as NotebookPanel).context?.path === target
      ) as NotebookPanel | undefined;
      return {
        openMs: openedAt - started,
        openedAt,
        placeholders: () =>
          panel
            ? panel.content.widgets.filter(cell => cell.isPlaceholder()).length
            : -1
      };
    },
    middle(target, n) {
      const startIndex = Math.max(0, Math.floor(n / 2) - 10);
      return { notebookPath: target, startIndex, endIndex: startIndex + 20 };
    }
  };
  (window as unknown as IBenchWindow).benchHelpers = helpers;
}

/** One tool call to time: a tool and its input. */
export interface ICall {
  tool: string;
  input: Record<string, unknown>;
}

/**
 * Time `warmups + reps` rounds of `calls`, interleaved (one call of each per
 * round, so a burst of load on the shared machine hits every scenario
 * alike), each `executeTool` call timed on its own. Before each call the page
 * comes to rest (`benchAtRest`, see appReady), as it would between an
 * agent's calls. Fails on an error result.
 */
export async function measureCalls(
  page: Page,
  calls: ICall[],
  options: IRepetitions = {}
): Promise<IMeasured[]> {
  return page.evaluate(
    async ([list, warmups, reps]) => {
      const context = (
        document as unknown as { modelContext: IBenchModelContext }
      ).modelContext;
      const { tool } = (window as unknown as IBenchWindow).benchHelpers!;
      const registered = await Promise.all(list.map(call => tool(call.tool)));
      const atRest = (window as unknown as IBenchWindow).benchAtRest!;
      const times: number[][] = list.map(() => []);
      const texts: string[] = list.map(() => '');
      for (let round = 0; round < warmups + reps; round++) {
        for (let k = 0; k < list.length; k++) {
          await atRest();
          const start = performance.now();
          const out = await context.executeTool(registered[k], list[k].input);
          const elapsed = performance.now() - start;
          texts[k] = out ?? '';
          if (round >= warmups) {
            times[k].push(elapsed);
          }
        }
      }
      return list.map((call, k) => {
        const envelope = JSON.parse(texts[k]) as {
          isError?: boolean;
          content?: { text: string }[];
        };
        if (envelope.isError) {
          throw new Error(
            `${call.tool} failed: ${envelope.content?.[0]?.text}`
          );
        }
        return {
          times: times[k],
          resultBytes: new TextEncoder().encode(texts[k]).length,
          last: envelope.content?.[0]?.text
            ? (JSON.parse(envelope.content[0].text) as unknown)
            : null
        };
      });
    },
    [calls, options.warmups ?? WARMUPS, options.reps ?? REPS] as const
  );
}

/**
 * The agent's edit loop on one cell: read its hash with jupyter_get_cells
 * (not timed), then jupyter_update_cell with that hash, alternating two
 * sources, each write's hash taken from the previous write's result. Only
 * the update calls are timed.
 */
export async function measureUpdate(
  page: Page,
  notebookPath: string,
  cellId: string,
  options: IRepetitions = {}
): Promise<IMeasured> {
  return page.evaluate(
    async ([target, id, warmups, reps]) => {
      const context = (
        document as unknown as { modelContext: IBenchModelContext }
      ).modelContext;
      const { tool: find } = (window as unknown as IBenchWindow).benchHelpers!;
      const parse = (out: string | null) => {
        const envelope = JSON.parse(out ?? '{}') as {
          isError?: boolean;
          content?: { text: string }[];
        };
        const payload = JSON.parse(envelope.content?.[0]?.text ?? '{}');
        if (envelope.isError) {
          throw new Error(`call failed: ${JSON.stringify(payload)}`);
        }
        return payload as {
          cells?: { sourceHash: string }[];
          cell?: { sourceHash: string };
        };
      };
      const read = parse(
        await context.executeTool(await find('jupyter_get_cells'), {
          notebookPath: target,
          cellIds: [id],
          includeSource: false
        })
      );
      let hash = read.cells?.[0]?.sourceHash ?? '';
      const update = await find('jupyter_update_cell');
      const sources = [
        'result = compute(alpha=0.1)\nresult',
        'result = compute(alpha=0.2)\nresult'
      ];
      const atRest = (window as unknown as IBenchWindow).benchAtRest!;
      const times: number[] = [];
      let text = '';
      for (let i = 0; i < warmups + reps; i++) {
        await atRest();
        const start = performance.now();
        const out = await context.executeTool(update, {
          notebookPath: target,
          cellId: id,
          source: sources[i % 2],
          expectedSourceHash: hash
        });
        const elapsed = performance.now() - start;
        text = out ?? '';
        hash = parse(out).cell?.sourceHash ?? '';
        if (i >= warmups) {
          times.push(elapsed);
        }
      }
      return {
        times,
        resultBytes: new TextEncoder().encode(text).length,
        last: parse(text)
      };
    },
    [
      notebookPath,
      cellId,
      options.warmups ?? WARMUPS,
      options.reps ?? REPS
    ] as const
  );
}

/**
 * The reference for `measureUpdate`: the same source replacements made
 * directly on the open notebook's shared model, the way a human's or a
 * collaborator's edit lands, timed synchronously (JupyterLab's listeners
 * and the editor's update run inside `setSource`). What an edit costs
 * JupyterLab itself on a notebook of this size; `jupyter_update_cell` can
 * only add to it.
 */
export async function measureHumanEdit(
  page: Page,
  notebookPath: string,
  cellId: string,
  options: IRepetitions = {}
): Promise<IMeasured> {
  return page.evaluate(
    async ([target, id, warmups, reps]) => {
      const app = (window as unknown as IBenchWindow).jupyterapp;
      const panel = [...(app?.shell.widgets('main') ?? [])].find(
        widget => (widget as NotebookPanel).context?.path === target
      ) as NotebookPanel | undefined;
      const cell = panel?.content.model?.sharedModel.cells.find(
        c => c.id === id
      );
      if (!cell) {
        throw new Error(`no open cell ${id} in ${target}`);
      }
      const sources = [
        'result = compute(alpha=0.5)\nresult',
        'result = compute(alpha=0.6)\nresult'
      ];
      const atRest = (window as unknown as IBenchWindow).benchAtRest!;
      const times: number[] = [];
      for (let i = 0; i < warmups + reps; i++) {
        await atRest();
        const start = performance.now();
        cell.setSource(sources[i % 2]);
        const elapsed = performance.now() - start;
        if (i >= warmups) {
          times.push(elapsed);
        }
      }
      return { times, resultBytes: 0, last: null };
    },
    [
      notebookPath,
      cellId,
      options.warmups ?? WARMUPS,
      options.reps ?? REPS
    ] as const
  );
}
