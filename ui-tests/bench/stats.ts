/**
 * Statistics and the results table of the benchmark. Pure Node, no browser.
 */

/** The timings of one scenario on one notebook. */
export interface ISample {
  /** What was measured, e.g. `jupyter_get_cells, 20 cells, no outputs`. */
  scenario: string;
  /** Cells in the notebook the scenario ran on. */
  notebookCells: number;
  /** Milliseconds per call, in call order (warm-ups excluded). */
  times: number[];
  /** Bytes of the tool's JSON result (the last call's). */
  resultBytes: number;
  /** A remark on the workload, e.g. when a range was clamped. */
  note?: string;
}

/** The summary of one sample. */
export interface IRow extends ISample {
  median: number;
  p95: number;
  /** median / the empty tool's median on the same notebook. */
  ratioToEmpty: number | null;
}

/** The name of the baseline scenario. */
export const EMPTY_TOOL = 'empty registered tool (baseline)';

/** Scenarios that are not a tool call but a yardstick for one. */
export function isReference(scenario: string): boolean {
  return scenario === EMPTY_TOOL || scenario.startsWith('reference:');
}

/** The ratio the 5,000-cell latency may reach over the small notebook's. */
export const GOAL_RATIO = 1.5;

/** The median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The nearest-rank percentile `p` (0-100) of a non-empty list. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * A 95% interval of `median(a) / median(b)` by the percentile bootstrap:
 * both lists resampled with replacement `resamples` times, the ratio of the
 * medians taken each time, its 2.5th and 97.5th percentiles returned. The
 * resampling is seeded (mulberry32), so the same loads give the same
 * interval. Written here rather than taken from a package: it is a dozen
 * lines over `median` and `percentile`, and the npm package found for it
 * (compute-io's compute-bootstrap, unmaintained) resamples one sample and
 * gives a standard error, not an interval of a ratio of two samples.
 */
export function ratioInterval(
  a: number[],
  b: number[],
  resamples = 2000,
  seed = 1
): [number, number] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const resample = (values: number[]) =>
    values.map(() => values[Math.floor(random() * values.length)]);
  const ratios: number[] = [];
  for (let i = 0; i < resamples; i++) {
    ratios.push(median(resample(a)) / median(resample(b)));
  }
  return [percentile(ratios, 2.5), percentile(ratios, 97.5)];
}

/** Summarize samples; ratios are to the empty tool of the same notebook. */
export function summarize(samples: ISample[]): IRow[] {
  const rows = samples.map(sample => ({
    ...sample,
    median: median(sample.times),
    p95: percentile(sample.times, 95),
    ratioToEmpty: null as number | null
  }));
  for (const row of rows) {
    const baseline = rows.find(
      other =>
        other.scenario === EMPTY_TOOL &&
        other.notebookCells === row.notebookCells
    );
    row.ratioToEmpty = baseline ? row.median / baseline.median : null;
  }
  return rows;
}

const ms = (value: number): string =>
  value >= 100 ? value.toFixed(0) : value.toFixed(2);
const times = (value: number | null): string =>
  value === null ? 'n/a' : `${value.toFixed(2)}×`;
const count = (value: number): string => value.toLocaleString('en-US');

function table(header: string[], body: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rule = header.map((_, i) => (i === 0 ? '---' : '---:'));
  return [line(header), line(rule), ...body.map(line)].join('\n');
}

/** The table of every scenario on every notebook. */
export function latencyTable(rows: IRow[]): string {
  return table(
    [
      'scenario',
      'notebook cells',
      'median ms',
      'p95 ms',
      'ratio to empty tool',
      'result KiB'
    ],
    rows.map(row => [
      row.note ? `${row.scenario} (${row.note})` : row.scenario,
      count(row.notebookCells),
      ms(row.median),
      ms(row.p95),
      row.scenario === EMPTY_TOOL ? '1.00×' : times(row.ratioToEmpty),
      (row.resultBytes / 1024).toFixed(1)
    ])
  );
}

/** How one scenario's latency grows from the small notebooks to the largest. */
export interface IScaling {
  scenario: string;
  /** Median ms per notebook size. */
  medians: Map<number, number>;
  /** The notebook size the goal is measured against. */
  base: number;
  largest: number;
  ratio: number;
  met: boolean;
}

/**
 * The ratio of the largest notebook's median to the smallest notebook's
 * where the scenario's workload is the same. A 100-cell read on a 50-cell
 * notebook reads only 50 cells, so its base is the next size up.
 */
export function scaling(rows: IRow[], sizes: number[]): IScaling[] {
  const scenarios = [...new Set(rows.map(row => row.scenario))];
  const largest = Math.max(...sizes);
  return scenarios.map(scenario => {
    const ofScenario = rows.filter(row => row.scenario === scenario);
    const medians = new Map(
      ofScenario.map(row => [row.notebookCells, row.median])
    );
    const comparable = ofScenario
      .filter(row => !row.note)
      .map(row => row.notebookCells)
      .sort((a, b) => a - b);
    const base = comparable[0] ?? largest;
    const ratio = (medians.get(largest) ?? NaN) / (medians.get(base) ?? NaN);
    return {
      scenario,
      medians,
      base,
      largest,
      ratio,
      met: ratio <= GOAL_RATIO
    };
  });
}

/** The scaling table: one row per scenario. */
export function scalingTable(scalings: IScaling[], sizes: number[]): string {
  return table(
    [
      'scenario',
      ...sizes.map(size => `${count(size)} cells, median ms`),
      'largest / smallest',
      `goal ≤ ${GOAL_RATIO}×`
    ],
    scalings.map(s => [
      s.scenario,
      ...sizes.map(size => {
        const value = s.medians.get(size);
        return value === undefined ? 'n/a' : ms(value);
      }),
      `${times(s.ratio)} (${count(s.largest)} / ${count(s.base)})`,
      s.scenario === EMPTY_TOOL
        ? '(baseline)'
        : isReference(s.scenario)
          ? '(reference)'
          : s.met
            ? 'met'
            : 'missed'
    ])
  );
}

/**
 * Per notebook size: a scenario's median, a reference's median, and what
 * the scenario adds to the reference.
 */
export function overheadTable(
  rows: IRow[],
  sizes: number[],
  scenario: string,
  reference: string
): string {
  const medianOf = (name: string, size: number) =>
    rows.find(row => row.scenario === name && row.notebookCells === size)
      ?.median;
  return table(
    ['notebook cells', 'tool median ms', 'reference median ms', 'added ms'],
    sizes.map(size => {
      const tool = medianOf(scenario, size);
      const base = medianOf(reference, size);
      return [
        count(size),
        tool === undefined ? 'n/a' : ms(tool),
        base === undefined ? 'n/a' : ms(base),
        tool === undefined || base === undefined ? 'n/a' : ms(tool - base)
      ];
    })
  );
}

/** A tool scenario and the references of the same change made by hand. */
export interface IByHandPair {
  /** What is changed, e.g. `update`. */
  label: string;
  tool: string;
  /** The change by hand, through the empty tool (the reference compared with). */
  byHand: string;
  /** The change by hand, its model call alone. */
  byHandSync: string;
}

/**
 * Per change and notebook size: the tool's median, the same change by
 * hand through an empty tool and as its model call alone, and the ratios of
 * the tool to each.
 */
export function byHandTable(
  rows: IRow[],
  sizes: number[],
  pairs: IByHandPair[]
): string {
  const medianOf = (name: string, size: number) =>
    rows.find(row => row.scenario === name && row.notebookCells === size)
      ?.median;
  const ratio = (a?: number, b?: number) =>
    a === undefined || b === undefined ? 'n/a' : times(a / b);
  const value = (v?: number) => (v === undefined ? 'n/a' : ms(v));
  return table(
    [
      'change',
      'notebook cells',
      'tool median ms',
      'by hand, through an empty tool, ms',
      'tool / by hand (goal ≤ 1.5×)',
      'by hand, model call alone, ms',
      'tool / model call alone'
    ],
    pairs.flatMap(pair =>
      sizes.map(size => {
        const tool = medianOf(pair.tool, size);
        const byHand = medianOf(pair.byHand, size);
        const sync = medianOf(pair.byHandSync, size);
        return [
          pair.label,
          count(size),
          value(tool),
          value(byHand),
          ratio(tool, byHand),
          value(sync),
          ratio(tool, sync)
        ];
      })
    )
  );
}
