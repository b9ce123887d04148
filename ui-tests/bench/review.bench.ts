/**
 * Latency of the comment read tools, `jupyter_list_comments` and
 * `jupyter_get_comment`, on a large reviewed notebook (500 threads on 5,000
 * cells) against a small one (5 threads on 50 cells), timed inside the page
 * with `performance.now()` around real `document.modelContext.executeTool`
 * calls, with an empty registered tool as the baseline. The goal: the large
 * notebook's median within 2× of the small one's, per scenario.
 *
 * Both notebooks are written through the contents API (threads in the
 * stored format of docs/review-format.md: cell, source-range and output
 * anchors, three messages each, one in four resolved) and open in the same
 * page; their calls are interleaved round by round, so a burst of load on
 * the shared machine hits both alike. The notebooks open in JupyterLab's
 * "full" windowing mode (`BENCH_REVIEW_WINDOWING`): the tools read the
 * model, not the rendered cells. Even so JupyterLab builds every cell once,
 * on idle time, to learn its height; the timings start only after that
 * (page.ts's openNotebook), since until then each idle slice of that work
 * (up to 50 ms) delays the next call and the figures measured JupyterLab.
 *
 * Informational only: nothing fails on a timing; the test fails only when a
 * call itself fails or returns something other than the notebook holds. The
 * table is printed and written to .bench/review-results.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { PartialJSONObject } from '@lumino/coreutils';
import { expect, test, type Page } from '@playwright/test';

import {
  DIR,
  NOOP,
  REPS,
  WARMUPS,
  configureApp,
  createNotebook,
  measureCalls,
  openNotebook,
  registerNoop,
  type ICall,
  type WindowingMode
} from './page';
import { median, percentile } from './stats';

const REPO = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(REPO, '.bench', 'review-results.md');
const WINDOWING = (process.env.BENCH_REVIEW_WINDOWING ??
  'full') as WindowingMode;
/** The goal: the large notebook's median at most this many times the small one's. */
const GOAL_RATIO = 2;

interface ISize {
  label: 'small' | 'large';
  cells: number;
  threads: number;
}
const SIZES: ISize[] = [
  { label: 'small', cells: 50, threads: 5 },
  { label: 'large', cells: 5000, threads: 500 }
];

/** The id of thread `k` of a notebook (stable, so calls can name it). */
function threadId(k: number): string {
  return `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;
}

/**
 * Writes the benchmark's notebook of `cells` cells (page.ts's createNotebook)
 * holding `threads` review threads spread evenly over its code cells.
 */
async function createReviewedNotebook(
  page: Page,
  notebookPath: string,
  size: ISize
): Promise<void> {
  const base = Date.parse('2026-12-01T10:00:00.000Z');
  const time = (ms: number) => new Date(base + ms).toISOString();
  const threads = [];
  const step = size.cells / size.threads;
  for (let k = 0; k < size.threads; k++) {
    // a code cell near k * step (index ≡ 4 mod 5 is markdown)
    let index = Math.floor(k * step);
    if (index % 5 === 4) {
      index -= 1;
    }
    const cellId = `cell-${String(index).padStart(5, '0')}`;
    const created = k * 60_000;
    let anchor: Record<string, unknown>;
    if (k % 3 === 1) {
      const prefix = `value_${index} = `;
      const selectedText = `sum(range(${index}))`;
      anchor = {
        kind: 'source-range',
        cellId,
        sourceRange: {
          start: { line: 0, column: prefix.length },
          end: { line: 0, column: prefix.length + selectedText.length }
        },
        selectedText,
        prefix,
        suffix: `\nprint("value", value_${index})\nvalue_${index} * 2`
      };
    } else if (k % 3 === 2) {
      anchor = {
        kind: 'output',
        cellId,
        outputIndex: 0,
        mimeType: 'text/plain'
      };
    } else {
      anchor = { kind: 'cell', cellId };
    }
    const messages = [0, 1, 2].map(m => ({
      id: `00000000-0000-4000-9000-${String(k).padStart(8, '0')}${String(m).padStart(4, '0')}`,
      author:
        m === 1
          ? { kind: 'human', name: 'Reviewer' }
          : { kind: 'agent', name: 'Browser agent' },
      createdAt: time(created + m * 1000),
      body: `Message ${m} of thread ${k}: the value of cell ${index} looks off; compare with the previous step.`
    }));
    threads.push({
      id: threadId(k),
      status: k % 4 === 3 ? 'resolved' : 'open',
      createdAt: time(created),
      updatedAt: time(created + 2000),
      anchor,
      messages
    });
  }
  await createNotebook(page, notebookPath, size.cells, {
    jupyterlite_webmcp_review: {
      threads,
      version: 1
    } as unknown as PartialJSONObject
  });
}

interface IScenario {
  name: string;
  call: (notebookPath: string, size: ISize) => ICall;
  /** Checks the last result against the notebook. */
  check: (result: unknown, size: ISize) => void;
}

interface IListResult {
  counts: { openThreads: number; totalThreads: number };
  threads: { threadId: string }[];
}
interface IGetResult {
  thread: { id: string; messages: unknown[] };
  anchorStatus: { state: string };
}

const SCENARIOS: IScenario[] = [
  {
    name: 'jupyter_list_comments, all statuses (50 newest)',
    call: notebookPath => ({
      tool: 'jupyter_list_comments',
      input: { notebookPath, status: 'all' }
    }),
    check: (result, size) => {
      const list = result as IListResult;
      expect(list.counts.totalThreads).toBe(size.threads);
      expect(list.threads).toHaveLength(Math.min(50, size.threads));
      expect(list.threads[0].threadId).toBe(threadId(size.threads - 1));
    }
  },
  {
    name: 'jupyter_list_comments, open, limit 5',
    call: notebookPath => ({
      tool: 'jupyter_list_comments',
      input: { notebookPath, status: 'open', limit: 5 }
    }),
    check: (result, size) => {
      // one thread in four is resolved (k ≡ 3 mod 4)
      const open = size.threads - Math.floor((size.threads + 1) / 4);
      const list = result as IListResult;
      expect(list.counts.openThreads).toBe(open);
      expect(list.threads).toHaveLength(Math.min(5, open));
    }
  },
  {
    name: 'jupyter_get_comment, a cell anchor in the middle',
    call: (notebookPath, size) => ({
      tool: 'jupyter_get_comment',
      input: { notebookPath, threadId: threadId(middle(size, 0)) }
    }),
    check: (result, size) => {
      const got = result as IGetResult;
      expect(got.thread.id).toBe(threadId(middle(size, 0)));
      expect(got.thread.messages).toHaveLength(3);
      expect(got.anchorStatus.state).toBe('exact');
    }
  },
  {
    name: 'jupyter_get_comment, a source-range anchor in the middle',
    call: (notebookPath, size) => ({
      tool: 'jupyter_get_comment',
      input: { notebookPath, threadId: threadId(middle(size, 1)) }
    }),
    check: (result, size) => {
      const got = result as IGetResult;
      expect(got.thread.id).toBe(threadId(middle(size, 1)));
      expect(got.anchorStatus.state).toBe('exact');
    }
  }
];

/** A thread near the middle whose number is ≡ `rest` mod 3 (its anchor kind). */
function middle(size: ISize, rest: number): number {
  const half = Math.floor(size.threads / 2);
  return half - (half % 3) + rest;
}

const ms = (value: number) => value.toFixed(2);

/** The parts of a V8 CPU profile read here. */
interface IProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self and total milliseconds per function over a CPU profile, the heaviest
 * first (`BENCH_REVIEW_PROFILE=1`; names are readable with the development
 * build, `npm run build`).
 */
function heaviest(profile: IProfile, n = 15): string[] {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parent.set(child, node.id);
    }
  }
  const byId = new Map(profile.nodes.map(node => [node.id, node]));
  const name = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    const file = frame.url.split('/').pop()?.split('?')[0] ?? '';
    return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const spent = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const leaf = name(id);
    self.set(leaf, (self.get(leaf) ?? 0) + spent);
    const seen = new Set<string>();
    for (
      let at: number | undefined = id;
      at !== undefined;
      at = parent.get(at)
    ) {
      const key = name(at);
      if (!seen.has(key)) {
        seen.add(key);
        total.set(key, (total.get(key) ?? 0) + spent);
      }
    }
  });
  const top = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, value]) => `  ${value.toFixed(1).padStart(8)} ms  ${key}`);
  return ['self:', ...top(self), 'total:', ...top(total)];
}

test('review tools: latency with 500 threads on 5,000 cells vs 5 on 50', async ({
  page,
  browser
}) => {
  await page.goto(`/lab/workspaces/bench-review-${Date.now().toString(36)}`);
  const { version } = await configureApp(page, WINDOWING);
  await registerNoop(page);

  const opened: Record<string, number> = {};
  for (const size of SIZES) {
    const notebookPath = `${DIR}/review-${size.label}.ipynb`;
    await createReviewedNotebook(page, notebookPath, size);
    // every cell built and the page quiet: until JupyterLab has built the
    // cells it keeps as placeholders (on idle time, even in "full"
    // windowing), that work delays the calls measured here
    const { openMs, placeholders } = await openNotebook(
      page,
      notebookPath,
      size.cells,
      { kernel: false }
    );
    if (placeholders > 0) {
      throw new Error(`${notebookPath}: ${placeholders} cells never built`);
    }
    opened[size.label] = openMs;
  }

  const calls: ICall[] = [{ tool: NOOP, input: {} }];
  const labels: { scenario: IScenario; size: ISize }[] = [];
  for (const scenario of SCENARIOS) {
    for (const size of SIZES) {
      calls.push(scenario.call(`${DIR}/review-${size.label}.ipynb`, size));
      labels.push({ scenario, size });
    }
  }
  const [empty, ...measured] = await measureCalls(page, calls);
  measured.forEach((result, k) =>
    labels[k].scenario.check(result.last, labels[k].size)
  );

  const rows = SCENARIOS.map(scenario => {
    const of = (label: string) => {
      const k = labels.findIndex(
        l => l.scenario === scenario && l.size.label === label
      );
      return measured[k];
    };
    const small = of('small');
    const large = of('large');
    const smallMedian = median(small.times);
    const largeMedian = median(large.times);
    return {
      name: scenario.name,
      smallMedian,
      smallP95: percentile(small.times, 95),
      largeMedian,
      largeP95: percentile(large.times, 95),
      ratio: largeMedian / smallMedian,
      bytes: `${small.resultBytes} / ${large.resultBytes}`
    };
  });
  const report = [
    '# Benchmark: review comment tools',
    '',
    `${new Date().toISOString()}: JupyterLab ${version}, Chromium ${browser.version()} (headless, --enable-features=WebMCP), ` +
      `${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map(value => value.toFixed(2))
        .join(' ')}. Windowing mode "${WINDOWING}". ` +
      `${WARMUPS} warm-up + ${REPS} timed calls per row, interleaved. ` +
      `Opened in ${ms(opened.small)} ms (small) and ${ms(opened.large)} ms (large).`,
    '',
    `Empty registered tool (baseline): median ${ms(median(empty.times))} ms.`,
    '',
    '| scenario | 5 threads, 50 cells: median ms | p95 | 500 threads, 5,000 cells: median ms | p95 | large / small | result bytes (small / large) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      row =>
        `| ${row.name} | ${ms(row.smallMedian)} | ${ms(row.smallP95)} | ${ms(row.largeMedian)} | ${ms(row.largeP95)} | ${row.ratio.toFixed(2)}× | ${row.bytes} |`
    ),
    '',
    `Goal: large / small ≤ ${GOAL_RATIO}× — ${
      rows.every(row => row.ratio <= GOAL_RATIO)
        ? 'met by every scenario'
        : `missed by ${rows
            .filter(row => row.ratio > GOAL_RATIO)
            .map(row => row.name)
            .join('; ')}`
    } (informational).`,
    ''
  ].join('\n');
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  if (process.env.BENCH_REVIEW_PROFILE) {
    // where the large notebook's calls spend their time (skews nothing
    // above: it runs after the timings)
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    for (const scenario of SCENARIOS) {
      const large = SIZES[1];
      const call = scenario.call(`${DIR}/review-${large.label}.ipynb`, large);
      await cdp.send('Profiler.start');
      await measureCalls(page, [call], { warmups: 0, reps: 30 });
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
        profile: IProfile;
      };
      const slug = scenario.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      fs.writeFileSync(
        path.join(path.dirname(RESULTS), `review-profile-${slug}.cpuprofile`),
        JSON.stringify(profile)
      );
      console.log(
        `\n${scenario.name}, 30 calls:\n${heaviest(profile).join('\n')}`
      );
    }
  }
  fs.writeFileSync(RESULTS, report);
  console.log(`\n${report}\nWritten to ${path.relative(REPO, RESULTS)}.`);
});
