/**
 * What the extension costs a page load, in JupyterLab, Notebook 7 and
 * JupyterLite: (a) the time from the app's `restored` to the last of our
 * tools registered on `document.modelContext`, and (b) the page's load time
 * (navigation start to `restored`) with the extension and without it, the
 * same app started by ui-tests/servers/start.py with
 * UI_TESTS_WITHOUT_EXTENSION=1 (lab and notebook link every labextension but
 * this one; lite serves the same site with it left out of
 * `federated_extensions`).
 *
 * Each load is a fresh browser context (empty HTTP cache, no service
 * worker), so every load downloads the extension; loads with and without
 * alternate, BENCH_LOADS (default 10) of each per app. BENCH_LOAD_APPS
 * (default "lab,notebook,lite") picks the apps; lite serves the site
 * start.py chooses (UI_TESTS_LITE_REBUILD=1 rebuilds it with this checkout's
 * build first). Prints medians and ratios, each ratio with its 95%
 * interval (a bootstrap of the loads), to .bench/load-results.md;
 * informational only: nothing fails on a timing.
 *
 * BENCH_LOAD_PROFILE=1 also samples the CPU of each counted load (Chrome's
 * profiler, every 100 µs, from the page's first script to the moment
 * `restored` resolves, ended by the page itself, so both variants are cut
 * alike and the tools registered after `restored` are not counted) and
 * reports, median per variant, the busy time (every sample but idle) and,
 * with the extension, the samples running our code: its own frames (self)
 * and with what they call (inclusive). It tells the extension's own
 * JavaScript apart from the work it leaves to the app and the browser;
 * profiling slows the page, so its load figures are not the plain run's.
 * BENCH_LOAD_PROFILE_DIR=folder keeps every load's profile there, the
 * uncounted first pair's too (`<app>-<with|without>-<n>.cpuprofile`, for
 * Chromium's DevTools or a script).
 *
 * BENCH_LOAD_EMPTY=1 adds a third variant, the empty extension
 * (scripts/build-empty-extension.mjs, built into the temporary folder
 * first, served by start.py with UI_TESTS_EXTENSION_BUILD): this package's
 * name, settings schemas and style sheet and no plugin, what any extension
 * shipping the same files costs the load. It tells that floor
 * (empty / without) apart from what our code adds to it (with / empty).
 *
 *   ./scripts/bench.sh load.bench.ts
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type Browser, test } from '@playwright/test';

import { IMPLEMENTED } from '../implemented';
import { median, ratioInterval } from './stats';

const UI_TESTS = path.resolve(__dirname, '..');
const REPO = path.resolve(UI_TESTS, '..');
const RESULTS = path.join(REPO, '.bench', 'load-results.md');

const LOADS = Number(process.env.BENCH_LOADS ?? 10);
const PROFILE = process.env.BENCH_LOAD_PROFILE === '1';
/**
 * Which variant loads first in the i-th pair: by default they take turns
 * (with, without; then without, with), so neither always follows the
 * other's teardown; BENCH_LOAD_ORDER=with-first or without-first keeps one
 * order, to see what the order alone does to the ratio.
 */
const ORDER = process.env.BENCH_LOAD_ORDER ?? 'alternate';
/** BENCH_LOAD_EMPTY=1: the empty extension as a third variant. */
const EMPTY = process.env.BENCH_LOAD_EMPTY === '1';
const EMPTY_BUILD = path.join(os.tmpdir(), 'jlwebmcp-empty-labextension');
const VARIANTS: readonly Variant[] = EMPTY
  ? ['with', 'without', 'empty']
  : ['with', 'without'];
if (!['alternate', 'with-first', 'without-first'].includes(ORDER)) {
  throw new Error(
    `BENCH_LOAD_ORDER is ${ORDER}: alternate, with-first or without-first`
  );
}
function orderOf(i: number): readonly Variant[] {
  if (ORDER === 'with-first') {
    return VARIANTS;
  }
  if (ORDER === 'without-first') {
    return ['without', ...VARIANTS.filter(v => v !== 'without')];
  }
  // each variant first in turn: with, without(, empty); without(, empty), with; ...
  const k = i % VARIANTS.length;
  return [...VARIANTS.slice(k), ...VARIANTS.slice(0, k)];
}
/** With BENCH_LOAD_PROFILE=1: a folder to keep each load's CPU profile in. */
const PROFILE_DIR = process.env.BENCH_LOAD_PROFILE_DIR;
let profileCount = 0;
type App = 'lab' | 'notebook' | 'lite';
const APPS = (process.env.BENCH_LOAD_APPS ?? 'lab,notebook,lite')
  .split(',')
  .filter((app): app is App => ['lab', 'notebook', 'lite'].includes(app));

const PYTHON =
  process.env.UI_TESTS_PYTHON ??
  [path.join(REPO, '.venv', 'bin', 'python')].find(p => fs.existsSync(p)) ??
  'python3';

/** The page each app opens on, and the URL that answers once it is up. */
const PAGES: Record<App, { page: string; ready: string }> = {
  lab: { page: '/lab', ready: '/api' },
  notebook: { page: '/tree', ready: '/api' },
  lite: { page: '/lab/index.html', ready: '/lab/index.html' }
};

/**
 * The same app, with the extension, without it, or with the empty extension
 * (BENCH_LOAD_EMPTY=1).
 */
type Variant = 'with' | 'without' | 'empty';

interface IServer {
  url: string;
  child: ChildProcess;
}

function freePort(): number {
  const script = `
    const s = require('net').createServer();
    s.listen(0, '127.0.0.1', () => {
      process.stdout.write(String(s.address().port));
      s.close();
    });`;
  return Number(
    execFileSync(process.execPath, ['-e', script], { encoding: 'utf-8' })
  );
}

/** Start one app server with start.py and wait until it answers. */
async function startServer(app: App, variant: Variant): Promise<IServer> {
  const port = freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.UI_TESTS_WITHOUT_EXTENSION;
  delete env.UI_TESTS_EXTENSION_BUILD;
  if (variant !== 'with') {
    // the site the 'with' server chose (or just rebuilt) is up to date now
    delete env.UI_TESTS_LITE_REBUILD;
  }
  if (variant === 'without') {
    env.UI_TESTS_WITHOUT_EXTENSION = '1';
  } else if (variant === 'empty') {
    env.UI_TESTS_EXTENSION_BUILD = EMPTY_BUILD;
  }
  const child = spawn(PYTHON, ['servers/start.py', app, String(port)], {
    cwd: UI_TESTS,
    env,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit']
  });
  const url = `http://127.0.0.1:${port}`;
  // a Lite site rebuild takes a minute or two on 2 cores
  const deadline = Date.now() + 600_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`start.py ${app} exited with code ${child.exitCode}`);
    }
    try {
      const response = await fetch(url + PAGES[app].ready);
      if (response.ok) {
        return { url, child };
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      throw new Error(`start.py ${app} did not answer at ${url}`);
    }
    await new Promise(resolve => setTimeout(resolve, 500));
  }
}

/** Stop a server started here: SIGTERM to its process group, then wait. */
async function stopServer(server: IServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.pid === undefined) {
    return;
  }
  const exited = new Promise(resolve => server.child.once('exit', resolve));
  process.kill(-server.child.pid, 'SIGTERM');
  await Promise.race([
    exited,
    new Promise(resolve => setTimeout(resolve, 15_000))
  ]);
}

/** What one load measured, in milliseconds since navigation start. */
interface ILoad {
  restored: number;
  /** When the app object was created (`window.jupyterapp` set). */
  created: number;
  /**
   * When the last of the extension's files requested before the app was
   * created arrived (null without the extension): the app waits for them.
   */
  filesBeforeApp: number | null;
  /** When the first and the last of our tools' registrations settled (with only). */
  firstTool: number | null;
  lastTool: number | null;
  /** Bytes the page received for the extension's files (with only). */
  extensionBytes: number;
  /**
   * Of those, the bytes of the files that had arrived when the last tool
   * was registered: what the start downloaded (docs/architecture.md, "A
   * small start"); and how many of those files were the later chunk's.
   */
  startBytes: number;
  laterBeforeTools: number;
  /** With BENCH_LOAD_PROFILE=1: CPU time until `restored`, in ms. */
  cpu?: ICpuShare;
}

interface ICpuShare {
  /** Every sample but idle. */
  busy: number;
  /** Samples whose running frame is the extension's code. */
  oursSelf: number;
  /** Samples with the extension's code anywhere on the stack. */
  oursInclusive: number;
  /**
   * Busy time by where the running frame is: the script's file name, or
   * the profiler's own name for native work ("(program)", "(garbage
   * collector)").
   */
  byPlace: Record<string, number>;
}

interface IProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface IProfile {
  nodes: IProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Where a CPU profile's time went: busy, and in the extension's code. */
function cpuShare(profile: IProfile): ICpuShare {
  const ours = (node: IProfileNode) =>
    /\/jupyterlite-webmcp\//.test(node.callFrame.url);
  const byId = new Map(profile.nodes.map(node => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parent.set(child, node.id);
    }
  }
  const share: ICpuShare = {
    busy: 0,
    oursSelf: 0,
    oursInclusive: 0,
    byPlace: {}
  };
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, index) => {
    // a sample's time is the delta to the next one
    const micros = deltas[index + 1] ?? 0;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') {
      return;
    }
    share.busy += micros / 1000;
    const place =
      node.callFrame.url.split('/').pop()?.split('?')[0] ||
      node.callFrame.functionName ||
      '(anonymous)';
    share.byPlace[place] = (share.byPlace[place] ?? 0) + micros / 1000;
    if (ours(node)) {
      share.oursSelf += micros / 1000;
    }
    for (
      let at: number | undefined = id;
      at !== undefined;
      at = parent.get(at)
    ) {
      if (ours(byId.get(at)!)) {
        share.oursInclusive += micros / 1000;
        break;
      }
    }
  });
  return share;
}

/**
 * Runs before the page's scripts: notes when `window.jupyterapp` (exposed
 * by every app here) is restored, and when each `registerTool` call on
 * `document.modelContext` settles.
 */
function instrument(): void {
  const bench = {
    restored: undefined as number | undefined,
    created: undefined as number | undefined,
    registered: [] as { name: string; at: number }[]
  };
  (window as unknown as { __loadBench: typeof bench }).__loadBench = bench;
  let app: { restored: Promise<void> } | undefined;
  Object.defineProperty(window, 'jupyterapp', {
    configurable: true,
    get: () => app,
    set: value => {
      app = value;
      bench.created ??= performance.now();
      void value.restored.then(() => {
        bench.restored = performance.now();
        if (
          (window as unknown as { __benchProfile?: boolean }).__benchProfile
        ) {
          // the CPU profile ends here, in both variants alike
          console.profileEnd('load');
        }
      });
    }
  });
  const context = (
    document as unknown as {
      modelContext?: {
        registerTool(tool: { name: string }, options?: unknown): unknown;
      };
    }
  ).modelContext;
  if (context && typeof context.registerTool === 'function') {
    const register = context.registerTool.bind(context);
    context.registerTool = (tool, options) => {
      const handle = register(tool, options);
      const done = () =>
        bench.registered.push({ name: tool.name, at: performance.now() });
      Promise.resolve(handle).then(done, done);
      return handle;
    };
  }
}

async function loadOnce(
  browser: Browser,
  app: App,
  url: string,
  variant: Variant
): Promise<ILoad> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const cdp = PROFILE ? await context.newCDPSession(page) : null;
    let profiled: Promise<IProfile> | null = null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      profiled = new Promise(resolve =>
        cdp.once('Profiler.consoleProfileFinished', event =>
          resolve(event.profile)
        )
      );
      // from the page's first script to `restored` (instrument ends it): a
      // window that does not depend on when the test sees `restored`, nor
      // on the tools registered after it
      await page.addInitScript(() => {
        (window as unknown as { __benchProfile: boolean }).__benchProfile =
          true;
        console.profile('load');
      });
    }
    await page.addInitScript(instrument);
    await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
    await page.waitForFunction(
      expected => {
        const bench = (
          window as unknown as {
            __loadBench?: {
              restored?: number;
              registered: { name: string }[];
            };
          }
        ).__loadBench;
        if (bench?.restored === undefined) {
          return false;
        }
        const names = new Set(bench.registered.map(entry => entry.name));
        return expected.every(name => names.has(name));
      },
      variant === 'with' ? IMPLEMENTED : [],
      { timeout: 120_000, polling: 20 }
    );
    let cpu: ICpuShare | undefined;
    if (profiled) {
      const profile = await profiled;
      cpu = cpuShare(profile);
      if (PROFILE_DIR) {
        fs.mkdirSync(PROFILE_DIR, { recursive: true });
        fs.writeFileSync(
          path.join(
            PROFILE_DIR,
            `${app}-${variant}-${++profileCount}.cpuprofile`
          ),
          JSON.stringify(profile)
        );
      }
    }
    const measured = await page.evaluate(tools => {
      const bench = (
        window as unknown as {
          __loadBench: {
            restored: number;
            created: number;
            registered: { name: string; at: number }[];
          };
        }
      ).__loadBench;
      const ours = bench.registered.filter(entry => tools.includes(entry.name));
      const lastTool = ours.length
        ? Math.max(...ours.map(entry => entry.at))
        : null;
      const files = performance
        .getEntriesByType('resource')
        .filter(entry =>
          /\/jupyterlite-webmcp\//.test(entry.name)
        ) as PerformanceResourceTiming[];
      const size = (list: PerformanceResourceTiming[]) =>
        list.reduce((sum, entry) => sum + entry.encodedBodySize, 0);
      const beforeTools = files.filter(
        entry => lastTool !== null && entry.responseEnd <= lastTool
      );
      const beforeApp = files.filter(entry => entry.startTime < bench.created);
      return {
        restored: bench.restored,
        created: bench.created,
        filesBeforeApp: beforeApp.length
          ? Math.max(...beforeApp.map(entry => entry.responseEnd))
          : null,
        firstTool: ours.length
          ? Math.min(...ours.map(entry => entry.at))
          : null,
        lastTool,
        extensionBytes: size(files),
        startBytes: size(beforeTools),
        laterBeforeTools: beforeTools.filter(entry =>
          /\/later\.[0-9a-f]+\.js/.test(entry.name)
        ).length
      };
    }, IMPLEMENTED as string[]);
    return { ...measured, cpu };
  } finally {
    await context.close();
  }
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

/**
 * The ratio of the two variants' median loads and its 95% interval (the
 * percentile bootstrap of ratioInterval): "1.031 (1.012-1.049)".
 */
function ratioOf(a: ILoad[], b: ILoad[]): string {
  const times = (loads: ILoad[]) => loads.map(load => load.restored);
  const [low, high] = ratioInterval(times(a), times(b));
  const ratio = median(times(a)) / median(times(b));
  return `${ratio.toFixed(3)} (${low.toFixed(3)}-${high.toFixed(3)})`;
}

test('page load with and without the extension', async ({ browser }) => {
  test.setTimeout(60 * 60_000);
  const rows: string[] = [];
  const emptyRows: string[] = [];
  const cpuRows: string[] = [];
  const placeRows: string[] = [];
  if (EMPTY) {
    execFileSync(
      process.execPath,
      [path.join(REPO, 'scripts', 'build-empty-extension.mjs'), EMPTY_BUILD],
      { stdio: 'inherit' }
    );
  }
  for (const app of APPS) {
    const servers: Partial<Record<Variant, IServer>> = {};
    try {
      for (const variant of VARIANTS) {
        servers[variant] = await startServer(app, variant);
      }
      const loads: Record<Variant, ILoad[]> = {
        with: [],
        without: [],
        empty: []
      };
      // one load of each first, not counted: the servers' own first answers
      for (const variant of VARIANTS) {
        await loadOnce(
          browser,
          app,
          servers[variant]!.url + PAGES[app].page,
          variant
        );
      }
      for (let i = 0; i < LOADS; i++) {
        for (const variant of orderOf(i)) {
          loads[variant].push(
            await loadOnce(
              browser,
              app,
              servers[variant]!.url + PAGES[app].page,
              variant
            )
          );
        }
      }
      const withLoad = median(loads.with.map(load => load.restored));
      const withoutLoad = median(loads.without.map(load => load.restored));
      const toTools = median(
        loads.with.map(load => (load.lastTool ?? NaN) - load.restored)
      );
      const tools = median(loads.with.map(load => load.lastTool ?? NaN));
      const spread = median(
        loads.with.map(load => (load.lastTool ?? NaN) - (load.firstTool ?? NaN))
      );
      const bytes = median(loads.with.map(load => load.extensionBytes));
      const startBytes = median(loads.with.map(load => load.startBytes));
      const laterEarly = loads.with.filter(
        load => load.laterBeforeTools > 0
      ).length;
      rows.push(
        `| ${app} | ${ms(withoutLoad)} | ${ms(withLoad)} | ` +
          `${ratioOf(loads.with, loads.without)} | ${ms(tools)} | ` +
          `${ms(toTools)} | ${ms(spread)} | ${(bytes / 1000).toFixed(1)} KB | ` +
          `${(startBytes / 1000).toFixed(1)} KB | ${laterEarly} of ${LOADS} |`
      );
      console.log(rows[rows.length - 1]);
      if (EMPTY) {
        const emptyLoad = median(loads.empty.map(load => load.restored));
        const created = (variant: Variant) =>
          ms(median(loads[variant].map(load => load.created)));
        const files = (variant: Variant) =>
          ms(median(loads[variant].map(load => load.filesBeforeApp ?? NaN)));
        emptyRows.push(
          `| ${app} | ${ms(withoutLoad)} | ${ms(emptyLoad)} | ${ms(withLoad)} | ` +
            `${ratioOf(loads.empty, loads.without)} | ` +
            `${ratioOf(loads.with, loads.empty)} | ` +
            `${ratioOf(loads.with, loads.without)} | ` +
            `${created('without')} / ${created('empty')} / ${created('with')} | ` +
            `${files('empty')} / ${files('with')} |`
        );
        console.log(emptyRows[emptyRows.length - 1]);
      }
      if (PROFILE) {
        const of = (
          variant: Variant,
          key: Exclude<keyof ICpuShare, 'byPlace'>
        ) => median(loads[variant].map(load => load.cpu?.[key] ?? NaN));
        // where the extra busy time is: the places that differ most
        const places = new Set(
          loads.with.flatMap(load => Object.keys(load.cpu?.byPlace ?? {}))
        );
        const at = (variant: Variant, place: string) =>
          median(loads[variant].map(load => load.cpu?.byPlace[place] ?? 0));
        const differences = [...places]
          .map(place => ({
            place,
            more: at('with', place) - at('without', place)
          }))
          .sort((a, b) => b.more - a.more)
          .slice(0, 8);
        placeRows.push(
          `| ${app} | ${differences
            .map(({ place, more }) => `${place} ${ms(more)}`)
            .join(', ')} |`
        );
        cpuRows.push(
          `| ${app} | ${ms(of('without', 'busy'))} | ${ms(of('with', 'busy'))} | ` +
            `${ms(of('with', 'busy') - of('without', 'busy'))} | ` +
            `${ms(of('with', 'oursSelf'))} | ${ms(of('with', 'oursInclusive'))} |`
        );
        console.log(cpuRows[cpuRows.length - 1]);
      }
    } finally {
      for (const server of Object.values(servers)) {
        await stopServer(server);
      }
    }
  }
  const report = [
    `Page load, median of ${LOADS} loads each (fresh browser context per load,`,
    `the variants taking turns, order ${ORDER}); times from navigation start.`,
    '',
    '| app | load without | load with | ratio (95% interval) | last tool registered | restored → last tool | first → last tool | extension bytes fetched | of them before the last tool | loads with the later chunk before the last tool |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...(EMPTY
      ? [
          'With the empty extension (BENCH_LOAD_EMPTY=1: our name, settings schemas and style sheet, no plugin), the same loads:',
          '',
          '| app | load without | load empty | load with | empty / without | with / empty | with / without | app created: without / empty / with | our files before it arrived: empty / with |',
          '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
          ...emptyRows,
          ''
        ]
      : []),
    ...(PROFILE
      ? [
          'CPU until `restored` (BENCH_LOAD_PROFILE=1), median per variant:',
          '',
          '| app | busy without | busy with | difference | our code, self | our code, inclusive |',
          '| --- | --- | --- | --- | --- | --- |',
          ...cpuRows,
          '',
          "Where the difference is (median busy time with minus without, by the running frame's file):",
          '',
          '| app | the eight places with the most more |',
          '| --- | --- |',
          ...placeRows,
          ''
        ]
      : [])
  ].join('\n');
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, report);
  console.log(`\n${report}\nWritten to ${path.relative(REPO, RESULTS)}.`);
});
