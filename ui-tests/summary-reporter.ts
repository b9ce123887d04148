/**
 * Ends the run's output with one line, exactly `N passed, N failed`, counting
 * every test of the run: a test that could not run because the run broke off
 * (an interrupt, a failed global setup) counts as failed, and so does an
 * error outside any test (a web server that did not start), so that a broken
 * run never reads as green. Skipped and flaky tests, and errors outside
 * tests, are shown on the line before (flaky ones count as passed).
 */
import type {
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError
} from '@playwright/test/reporter';

class SummaryReporter implements Reporter {
  onBegin(_config: unknown, suite: Suite): void {
    this._suite = suite;
  }

  onError(_error: TestError): void {
    this._globalErrors++;
  }

  onEnd(result: FullResult): void {
    this._status = result.status;
  }

  printsToStdio(): boolean {
    return true;
  }

  /** Printed last, after the web servers are stopped. */
  async onExit(): Promise<void> {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    let flaky = 0;
    let notRun = 0;
    for (const test of this._suite?.allTests() ?? []) {
      switch (this._outcome(test)) {
        case 'expected':
          passed++;
          break;
        case 'flaky':
          passed++;
          flaky++;
          break;
        case 'skipped':
          skipped++;
          break;
        case 'not-run':
          failed++;
          notRun++;
          break;
        default:
          failed++;
      }
    }
    const extra = [`${skipped} skipped`, `${flaky} flaky`];
    if (notRun) {
      extra.push(`${notRun} did not run (run ${this._status})`);
    }
    if (this._globalErrors) {
      failed += this._globalErrors;
      extra.push(`${this._globalErrors} error(s) outside tests`);
    }
    process.stdout.write(
      `\n${extra.join(', ')}\n${passed} passed, ${failed} failed\n`
    );
  }

  private _outcome(test: TestCase): string {
    if (!test.results.length) {
      return this._status === 'passed' ? 'skipped' : 'not-run';
    }
    const last = test.results[test.results.length - 1];
    if (last.status === 'interrupted') {
      return 'not-run';
    }
    return test.outcome();
  }

  private _suite: Suite | undefined;
  private _globalErrors = 0;
  private _status: FullResult['status'] = 'passed';
}

export default SummaryReporter;
