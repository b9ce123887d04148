/**
 * `jupyter_list_workspace` over a workspace of many notebooks, some large,
 * in JupyterLab: the first listing (which learns whether the owner hid each
 * notebook, so reads each notebook file once) and the steady state (every
 * notebook already judged at its modification time), against the contents
 * service's own listing of the same directories, measured in the same page
 * and the same run. Also counts how many times each notebook file was
 * downloaded during the first listing (the goal: never twice).
 *
 * The workspace: BENCH_WS_SIZES (default "20,500") notebooks each, one
 * scenario per size, in directories of at most 100 (the tool's row cap, so
 * one call per directory returns all of it); one in 50 has
 * BENCH_WS_LARGE_CELLS (5,000) cells, one in 10 is hidden from the agent.
 * The 20-notebook scenario takes a few seconds: run it alone with
 * BENCH_WS_SIZES=20.
 *
 * Informational only: nothing fails on a timing. Written to
 * .bench/workspace-results.md; see docs/benchmarks.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { JupyterFrontEnd } from '@jupyterlab/application';
import {
  expect,
  test,
  type APIRequestContext,
  type Page,
  type Request
} from '@playwright/test';

import {
  appReady,
  type IBenchModelContext,
  type IBenchWindow,
  type IRegisteredTool
} from './page';
import { median, percentile } from './stats';

const REPO = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(REPO, '.bench', 'workspace-results.md');

const SIZES = (process.env.BENCH_WS_SIZES ?? '20,500').split(',').map(Number);
const LARGE_CELLS = Number(process.env.BENCH_WS_LARGE_CELLS ?? 5000);
const REPS = Number(process.env.BENCH_REPS ?? 30);
const WARMUPS = Number(process.env.BENCH_WARMUPS ?? 3);
/** Notebooks per directory: the tool's row cap. */
const PER_DIR = 100;

/** A notebook of `n` cells, the owner's notebook access set when `hidden`. */
function notebookJson(n: number, hidden: boolean): object {
  const cells = [];
  for (let i = 0; i < n; i++) {
    const id = `cell-${String(i).padStart(5, '0')}`;
    cells.push(
      i % 5 === 4
        ? {
            id,
            cell_type: 'markdown',
            source: `## Step ${i}\n\nWhat the *previous* cells computed, and why.`,
            metadata: {}
          }
        : {
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
              }
            ]
          }
    );
  }
  return {
    cells,
    metadata: {
      kernelspec: {
        name: 'python3',
        display_name: 'Python 3 (ipykernel)',
        language: 'python'
      },
      ...(hidden
        ? { jupyterlite_webmcp: { version: 1, notebookAccess: 'none' } }
        : {})
    },
    nbformat: 4,
    nbformat_minor: 5
  };
}

interface IWorkspace {
  root: string;
  dirs: string[];
  notebooks: number;
  hidden: number;
  large: number;
  /** Bytes of notebook JSON written. */
  bytes: number;
}

/** Write the workspace through the server's contents API, 8 files at a time. */
async function writeWorkspace(
  request: APIRequestContext,
  count: number
): Promise<IWorkspace> {
  const root = `wsbench-${count}-${Date.now().toString(36)}`;
  const put = async (target: string, body: object) => {
    const response = await request.put(
      `/api/contents/${target.split('/').map(encodeURIComponent).join('/')}`,
      { data: body }
    );
    expect(response.ok(), `PUT ${target}: ${response.status()}`).toBe(true);
  };
  await put(root, { type: 'directory' });
  const dirs: string[] = [];
  for (let d = 0; d * PER_DIR < count; d++) {
    dirs.push(`${root}/dir-${d}`);
    await put(`${root}/dir-${d}`, { type: 'directory' });
  }
  const jobs: { target: string; content: object; size: number }[] = [];
  let hidden = 0;
  let large = 0;
  for (let i = 0; i < count; i++) {
    const isLarge = i % 50 === 25;
    const isHidden = i % 10 === 3;
    hidden += isHidden ? 1 : 0;
    large += isLarge ? 1 : 0;
    const content = notebookJson(isLarge ? LARGE_CELLS : 5, isHidden);
    jobs.push({
      target: `${dirs[Math.floor(i / PER_DIR)]}/nb-${String(i).padStart(4, '0')}.ipynb`,
      content,
      size: JSON.stringify(content).length
    });
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        await put(job.target, {
          type: 'notebook',
          format: 'json',
          content: job.content
        });
      }
    })
  );
  return {
    root,
    dirs,
    notebooks: count,
    hidden,
    large,
    bytes: jobs.reduce((sum, job) => sum + job.size, 0)
  };
}

/** What the page measured. */
interface IMeasured {
  /** The first listing of each directory, one after another, in ms. */
  first: number;
  /** Per rep: every directory listed by the tool, in ms. */
  steady: number[];
  /** Per rep: every directory listed by the contents service, in ms. */
  baseline: number[];
  /** Entries the tool returned for each directory (first call). */
  listed: number[];
  /** Whether a steady-state listing returned what the first did. */
  stable: boolean;
}

/** Lists `dirs` in the page; `benchFirstDone` is called after the first. */
async function measure(page: Page, dirs: string[]): Promise<IMeasured> {
  return page.evaluate(
    async ([targets, warmups, reps]) => {
      const context = (
        document as unknown as { modelContext: IBenchModelContext }
      ).modelContext;
      const helpers = (window as unknown as IBenchWindow).benchHelpers!;
      const app = (window as unknown as { jupyterapp: JupyterFrontEnd })
        .jupyterapp;
      // looked up afresh before each timed section: a re-registration
      // (the extension's tools are registered again when they change)
      // invalidates the handle
      let tool: IRegisteredTool | undefined;
      const lookUp = async () => {
        tool = await helpers.tool('jupyter_list_workspace');
      };
      const list = async (dir: string) => {
        const out = await context.executeTool(tool!, {
          path: dir,
          recursive: true,
          limit: 100
        });
        helpers.check(out);
        const envelope = JSON.parse(out!) as { content: { text: string }[] };
        return (
          JSON.parse(envelope.content[0].text) as {
            entries: { path: string }[];
          }
        ).entries.map(entry => entry.path);
      };
      const frame = () =>
        new Promise<void>(resolve =>
          requestAnimationFrame(() => setTimeout(resolve, 0))
        );
      await lookUp();
      await frame();
      const started = performance.now();
      const firstListings: string[][] = [];
      for (const dir of targets) {
        firstListings.push(await list(dir));
      }
      const first = performance.now() - started;
      await (
        window as unknown as { benchFirstDone(): Promise<void> }
      ).benchFirstDone();
      const steady: number[] = [];
      const baseline: number[] = [];
      let stable = true;
      for (let i = 0; i < warmups + reps; i++) {
        await lookUp();
        await frame();
        let start = performance.now();
        for (const [k, dir] of targets.entries()) {
          const listed = await list(dir);
          stable &&= listed.join('\n') === firstListings[k].join('\n');
        }
        const tool = performance.now() - start;
        await frame();
        start = performance.now();
        for (const dir of targets) {
          await app.serviceManager.contents.get(dir, { content: true });
        }
        const own = performance.now() - start;
        if (i >= warmups) {
          steady.push(tool);
          baseline.push(own);
        }
      }
      return {
        first,
        steady,
        baseline,
        listed: firstListings.map(entries => entries.length),
        stable
      };
    },
    [dirs, WARMUPS, REPS] as const
  );
}

const ms = (value: number) =>
  value >= 100 ? value.toFixed(0) : value.toFixed(1);

test('jupyter_list_workspace: first and steady-state listing of many notebooks', async ({
  page,
  request,
  browser
}) => {
  await page.goto(`/lab/workspaces/wsbench-${Date.now().toString(36)}`);
  const { version } = await appReady(page);
  const listToolReady = () =>
    page.waitForFunction(
      async () =>
        !!(await (window as unknown as IBenchWindow).benchHelpers
          ?.tool('jupyter_list_workspace')
          .catch(() => null)),
      null,
      { timeout: 120_000, polling: 200 }
    );
  // the page says when the first listing is done (survives reloads)
  let onFirstDone = () => undefined as void;
  await page.exposeFunction('benchFirstDone', () => onFirstDone());
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const count of SIZES) {
    await test.step(`${count} notebooks`, async () => {
      const workspace = await writeWorkspace(request, count);
      // a fresh page: nothing judged yet
      await page.reload();
      await appReady(page);
      await listToolReady();
      // notebook downloads: GETs of an .ipynb with its content
      const downloads = new Map<string, number>();
      let steadyDownloads = 0;
      let firstDone = false;
      const onRequest = (req: Request) => {
        const url = new URL(req.url());
        const match = /\/api\/contents\/(.+\.ipynb)$/.exec(url.pathname);
        if (
          req.method() === 'GET' &&
          match &&
          url.searchParams.get('content') !== '0'
        ) {
          const file = decodeURIComponent(match[1]);
          if (firstDone) {
            steadyDownloads++;
          } else {
            downloads.set(file, (downloads.get(file) ?? 0) + 1);
          }
        }
      };
      page.on('request', onRequest);
      onFirstDone = () => {
        firstDone = true;
      };
      const measured = await measure(page, workspace.dirs);
      page.off('request', onRequest);
      const visible = workspace.notebooks - workspace.hidden;
      expect(measured.listed.reduce((a, b) => a + b, 0)).toBe(visible);
      expect(measured.stable).toBe(true);
      const perFile = [...downloads.values()];
      const steady = median(measured.steady);
      const own = median(measured.baseline);
      rows.push([
        `${count} (${workspace.large} of ${LARGE_CELLS.toLocaleString('en-US')} cells, ${workspace.hidden} hidden)`,
        String(workspace.dirs.length),
        `${(workspace.bytes / 1024 / 1024).toFixed(1)}`,
        ms(measured.first),
        `${ms(steady)} (p95 ${ms(percentile(measured.steady, 95))})`,
        ms(own),
        `${(steady / own).toFixed(2)}×`,
        `${downloads.size} files, ${perFile.reduce((a, b) => a + b, 0)} GETs, max ${Math.max(0, ...perFile)} per file`,
        String(steadyDownloads)
      ]);
      notes.push(
        `${count} notebooks: first call per directory listed ${measured.listed.join(', ')} entries.`
      );
      // the next scenario gets a fresh page; this one's files stay
      // (the server's directory is removed when it stops)
    });
  }
  const header = [
    'notebooks',
    'directories',
    'MiB of notebooks',
    'first call ms (all directories)',
    'steady state ms, median (all directories)',
    'contents service listing ms, median',
    'steady / contents service (goal ≤ 2×)',
    'downloads during the first call',
    'downloads in all steady-state calls'
  ];
  const table = [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map(row => `| ${row.join(' | ')} |`)
  ].join('\n');
  const report = [
    '# Benchmark: jupyter_list_workspace',
    '',
    `${new Date().toISOString()}: JupyterLab ${version}, Chromium ${browser.version()} (headless, --enable-features=WebMCP), ` +
      `${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map(value => value.toFixed(2))
        .join(' ')}. ` +
      `One jupyter_list_workspace call (recursive, limit 100) per directory; ${WARMUPS} warm-up + ${REPS} timed rounds, ` +
      'each round the tool over every directory, then contents.get(dir, {content: true}) over every directory.',
    '',
    table,
    '',
    ...notes,
    ''
  ].join('\n');
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, report);
  console.log(`\n${report}\nWritten to ${path.relative(REPO, RESULTS)}.`);
});
