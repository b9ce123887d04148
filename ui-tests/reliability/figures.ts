/**
 * The reliability suite's counts and figures.
 *
 * `RELIABILITY_SCALE=full` (what scripts/reliability.sh sets) runs the counts
 * of issue 13's table; anything else, the default, runs the small counts CI
 * affords. Each row records one figure line (row, app, count, failures,
 * seconds, notes): printed, attached to the test, and appended as JSON to
 * `RELIABILITY_FIGURES` when that names a file, for the script's table.
 */
import fs from 'node:fs';

import type { TestInfo } from '@playwright/test';

export const FULL = process.env.RELIABILITY_SCALE === 'full';

/** The full count of a row, or its CI count. */
export function scaled(full: number, ci: number): number {
  return FULL ? full : ci;
}

/** The fast-check seed: `RELIABILITY_SEED` to replay a run, else the time. */
export const SEED = process.env.RELIABILITY_SEED
  ? Number(process.env.RELIABILITY_SEED)
  : Date.now() % 2_147_483_647;

export interface IFigure {
  /** The row of the table, e.g. "invalid inputs". */
  row: string;
  /** The app (the Playwright project). */
  app: string;
  /** What was counted: calls, races, operations… */
  count: number;
  unit: string;
  /** Cases that broke the row's rule (the test then fails). */
  failures: number;
  seconds: number;
  /** Anything else worth printing (seed, heap, medians). */
  notes?: string;
}

/** Records a row's figure; call it before asserting, so a failure is counted. */
export function recordFigure(testInfo: TestInfo, figure: IFigure): void {
  const line = JSON.stringify({
    ...figure,
    scale: FULL ? 'full' : 'ci',
    seconds: Math.round(figure.seconds * 10) / 10
  });
  console.log(`reliability figure: ${line}`);
  testInfo.annotations.push({ type: 'reliability', description: line });
  const file = process.env.RELIABILITY_FIGURES;
  if (file) {
    fs.appendFileSync(file, `${line}\n`);
  }
}

/** Seconds since `start` (a `Date.now()`). */
export function since(start: number): number {
  return (Date.now() - start) / 1000;
}
