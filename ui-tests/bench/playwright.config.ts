/**
 * The benchmark's own Playwright config: latency of real tool calls through
 * `document.modelContext.executeTool` in JupyterLab, in the same headless
 * Chromium 156 with native WebMCP as the browser tests.
 *
 *   ./scripts/bench.sh            (or)
 *   npx playwright test -c ui-tests/bench/playwright.config.ts
 *
 * It only looks in ui-tests/bench, for `*.bench.ts`, and the main config
 * (ui-tests/playwright.config.ts) only in ui-tests/tests: neither picks up
 * the other's files. One worker, so nothing else runs in the browser while
 * it measures. The JupyterLab server is the browser tests' launcher,
 * ui-tests/servers/start.py, on a free port of 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { defineConfig } from '@playwright/test';

process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

const UI_TESTS = path.resolve(__dirname, '..');
const REPO = path.resolve(UI_TESTS, '..');

/**
 * A free port, chosen once by the runner and inherited by the worker through
 * the environment (the config is evaluated again in the worker).
 */
function benchPort(): number {
  const stored = process.env.BENCH_PORT;
  if (stored) {
    return Number(stored);
  }
  const script = `
    const s = require('net').createServer();
    s.listen(0, '127.0.0.1', () => {
      process.stdout.write(String(s.address().port));
      s.close();
    });`;
  const port = Number(
    execFileSync(process.execPath, ['-e', script], { encoding: 'utf-8' })
  );
  process.env.BENCH_PORT = String(port);
  return port;
}

const PORT = benchPort();

/** The Python with jupyterlab and ipykernel (scripts/setup.sh's venv). */
const PYTHON =
  process.env.UI_TESTS_PYTHON ??
  [path.join(REPO, '.venv', 'bin', 'python')].find(p => fs.existsSync(p)) ??
  'python3';

const CHROMIUM = process.env.UI_TESTS_CHROMIUM ?? '/usr/bin/chromium';

/** The launch arguments of the browser tests, WebMCP on. */
const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-features=WebMCP'
];

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.bench\.ts$/,
  // profiling skews timings: the profile runs only when asked for
  testIgnore: process.env.BENCH_PROFILE ? undefined : /profile\.bench\.ts$/,
  outputDir: path.join(UI_TESTS, 'test-results', 'bench'),
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  // building and opening a 5,000-cell notebook takes a while on 2 cores
  timeout: 30 * 60_000,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    video: 'off',
    trace: 'off',
    screenshot: 'off',
    baseURL: `http://127.0.0.1:${PORT}`,
    actionTimeout: 60_000,
    navigationTimeout: 120_000,
    launchOptions: { executablePath: CHROMIUM, args: BROWSER_ARGS }
  },
  webServer: {
    name: 'lab',
    command: `${JSON.stringify(PYTHON)} servers/start.py lab ${PORT}`,
    cwd: UI_TESTS,
    url: `http://127.0.0.1:${PORT}/api`,
    reuseExistingServer: false,
    timeout: 120_000,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'ignore',
    stderr: 'pipe'
  }
});
