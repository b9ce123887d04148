// How long a Pyodide kernel of two built sites takes to start, interleaved.
//
//   node demo/bench_kernel_start.mjs A_DIR B_DIR [--runs 6]
//
// Serves each site with demo/serve.py and, in one headless Chromium, starts a
// kernel on JupyterLab's page of A, then of B (then B, then A: the order
// alternates, so a machine that warms up or slows down favours neither), each
// in a fresh browser context as a new visitor would. One figure per start:
// from `kernels.startNew` to the reply of `import IPython`. Prints each start,
// then the medians and the ratio B/A.
//
// The A/B of demo/build.py's bytecode (PYC_NOTE there):
//   python demo/build.py --output /tmp/site-source --no-precompile
//   python demo/build.py --output /tmp/site-pyc
//   node demo/bench_kernel_start.mjs /tmp/site-source /tmp/site-pyc

import { chromium } from '@playwright/test';

import { startServer } from './serve_site.mjs';

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 6;
const sites = argv.filter((a, i) => !a.startsWith('--') && i !== runsAt + 1);
if (sites.length !== 2 || !(RUNS > 0)) {
  console.error(
    'usage: node demo/bench_kernel_start.mjs A_DIR B_DIR [--runs N]'
  );
  process.exit(2);
}

const median = values => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const servers = await Promise.all(sites.map(startServer));
const browser = await chromium.launch({
  executablePath: process.env.UI_TESTS_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage']
});
const times = [[], []];
try {
  for (let run = 0; run < RUNS; run++) {
    for (const which of run % 2 ? [1, 0] : [0, 1]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${servers[which].port}/lab/index.html`);
      await page.waitForFunction(() => window.jupyterapp?.serviceManager);
      const [ms, status] = await page.evaluate(async () => {
        await window.jupyterapp.started;
        const kernels = window.jupyterapp.serviceManager.kernels;
        const started = performance.now();
        const kernel = await kernels.startNew({ name: 'python' });
        const reply = await kernel.requestExecute({ code: 'import IPython' })
          .done;
        const took = performance.now() - started;
        await kernel.shutdown();
        return [took, reply.content.status];
      });
      await context.close();
      if (status !== 'ok') {
        throw new Error(
          `site ${'AB'[which]}: import IPython answered ${status}`
        );
      }
      times[which].push(ms);
      console.log(`${'AB'[which]} ${(ms / 1000).toFixed(2)} s`);
    }
  }
} finally {
  await browser.close();
  servers.forEach(server => server.proc.kill());
}
const [a, b] = times.map(median);
console.log(
  `median of ${RUNS}: A ${(a / 1000).toFixed(2)} s, B ${(b / 1000).toFixed(2)} s, B/A ${(b / a).toFixed(2)}`
);
