// Prove the built demo site works with no internet.
//
//   node demo/check_offline.mjs [--dir demo/_output] [--app lab|notebooks] [--nested] [--headed]
//
// Serves the site with demo/serve.py, opens it in Chromium with every request
// to a host other than 127.0.0.1 aborted, waits for the Pyodide kernel, runs
// cells of scratch.ipynb (once through the notebook's own command, once with
// Shift+Enter) and then all cells of analysis.ipynb, whose fresh outputs must
// match the outputs stored in the file. Prints timings; exits 1 on failure.
//
// --app notebooks uses the Notebook 7 app instead of JupyterLab.
// --nested serves the parent directory, so the site lives under
// /<dirname>/ instead of / (checks that no URL assumes the site root).

import { chromium } from '@playwright/test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { startServer } from './serve_site.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const argv = process.argv.slice(2);
const flag = name => argv.includes(name);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};

const SITE = path.resolve(option('--dir', path.join(HERE, '_output')));
const NESTED = flag('--nested');
const APP = option('--app', 'lab');
const HEADED = flag('--headed');
const KERNEL_TIMEOUT = 180_000;
const RUN_TIMEOUT = 120_000;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // belt and braces: even requests page.route cannot see (service worker)
  // cannot reach a host other than 127.0.0.1
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'
];

const t0 = performance.now();
const since = start => `${((performance.now() - start) / 1000).toFixed(1)}s`;
const log = msg => console.log(`[${since(t0).padStart(6)}] ${msg}`);

class CheckError extends Error {}
const check = (ok, msg) => {
  if (!ok) {
    throw new CheckError(msg);
  }
};

/** Wait in the page for the notebook at `nbPath` and its kernel to be idle. */
async function waitForNotebookKernel(page, nbPath) {
  await page.waitForFunction(
    p => {
      const app = window.jupyterapp;
      const panel = app?.shell?.currentWidget;
      return (
        panel?.context?.path === p &&
        panel.context.isReady &&
        panel.sessionContext?.session?.kernel?.status === 'idle'
      );
    },
    nbPath,
    { timeout: KERNEL_TIMEOUT, polling: 100 }
  );
  // a kernel_info round trip: the worker answers only once Pyodide is up
  return page.evaluate(async () => {
    const kernel =
      window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const info = await kernel.info;
    return { name: kernel.name, language: info.language_info };
  });
}

function textOf(outputs) {
  return outputs
    .map(o =>
      o.output_type === 'stream'
        ? [].concat(o.text).join('')
        : o.output_type === 'error'
          ? `${o.ename}: ${o.evalue}`
          : [].concat(o.data?.['text/plain'] ?? '').join('')
    )
    .join('\n');
}

async function main() {
  check(
    existsSync(path.join(SITE, 'lab', 'index.html')),
    `${SITE} has no built site: run \`python demo/build.py\` first`
  );
  const served = NESTED ? path.dirname(SITE) : SITE;
  const prefix = NESTED ? `/${path.basename(SITE)}` : '';
  const server = await startServer(served);
  const base = `http://127.0.0.1:${server.port}${prefix}`;
  log(`server: ${server.line.trim()}`);
  if (NESTED) {
    log(`checking the site under ${base}/`);
  }

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: !HEADED,
    args: CHROMIUM_ARGS
  });
  const blocked = [];
  const failed = [];
  let local = 0;
  const wheels = new Set();
  const timings = {};
  try {
    const context = await browser.newContext({
      viewport: { width: 1400, height: 900 }
    });
    await context.route('**/*', route => {
      const url = new URL(route.request().url());
      if (
        url.hostname === '127.0.0.1' ||
        url.protocol === 'data:' ||
        url.protocol === 'blob:'
      ) {
        local += 1;
        if (url.pathname.endsWith('.whl')) {
          wheels.add(path.basename(url.pathname)); // fetched by the kernel's worker
        }
        return route.continue();
      }
      blocked.push(url.href);
      return route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    page.on('pageerror', e => log(`page error: ${e.stack || e.message}`));
    page.on('requestfailed', r => {
      const url = new URL(r.url());
      if (url.hostname === '127.0.0.1') {
        failed.push(`${r.failure()?.errorText} ${r.url()}`);
      }
    });
    page.on('response', r => {
      // the browser asks for /favicon.ico on its own; the app sets its own icon
      if (r.status() >= 400 && !/\.map$|\/favicon\.ico$/.test(r.url())) {
        failed.push(`${r.status()} ${r.url()}`);
      }
    });
    page.on('console', m => {
      if (m.type() === 'error') {
        log(`console error: ${m.text().slice(0, 300)}`);
      }
    });

    // ---- scratch.ipynb: kernel start and one cell -------------------------
    const tLoad = performance.now();
    await page.goto(`${base}/${APP}/index.html?path=scratch.ipynb`);
    await page.waitForFunction(
      () => window.jupyterapp?.shell?.currentWidget,
      null,
      {
        timeout: 60_000
      }
    );
    timings.appReady = since(tLoad);
    log(`${APP} app is up (${timings.appReady})`);
    const isolated = await page.evaluate(() => window.crossOriginIsolated);
    check(
      isolated,
      'the page is not cross-origin isolated (COOP/COEP headers)'
    );

    const kernel = await waitForNotebookKernel(page, 'scratch.ipynb');
    timings.firstKernel = since(tLoad);
    log(
      `kernel "${kernel.name}" idle (${timings.firstKernel} after navigation)`
    );

    const tRun = performance.now();
    const where = await page.evaluate(() => {
      const app = window.jupyterapp;
      const notebook = app.shell.currentWidget.content;
      notebook.activeCellIndex = 1; // the `where` cell
      // not awaited here: the wait below has a timeout, page.evaluate has none
      void app.commands.execute('notebook:run-cell');
      return notebook.widgets[1].model.id;
    });
    check(where === 'where', `expected cell id "where", got ${where}`);
    const out = page
      .locator('.jp-Notebook .jp-Cell')
      .nth(1)
      .locator('.jp-OutputArea-output');
    await out.filter({ hasText: /Python 3\.14\.\d+ on emscripten/ }).waitFor({
      timeout: RUN_TIMEOUT
    });
    timings.runCell = since(tRun);
    log(
      `notebook:run-cell -> "${(await out.innerText()).trim()}" (${timings.runCell})`
    );

    // the next cell with the keyboard, as a person would
    const tKeys = performance.now();
    await page
      .locator('.jp-Notebook .jp-Cell')
      .nth(2)
      .locator('.cm-content')
      .click();
    await page.keyboard.press('Shift+Enter');
    const out2 = page
      .locator('.jp-Notebook .jp-Cell')
      .nth(2)
      .locator('.jp-OutputArea-output');
    await out2
      .filter({ hasText: /^\s*55\s*$/ })
      .waitFor({ timeout: RUN_TIMEOUT });
    timings.shiftEnter = since(tKeys);
    log(
      `Shift+Enter -> "${(await out2.innerText()).trim()}" (${timings.shiftEnter})`
    );

    // ---- analysis.ipynb: stored outputs, then run all ----------------------
    const tOpen = performance.now();
    if (APP === 'notebooks') {
      // Notebook 7 opens other documents in a new browser tab: navigate instead
      await page.goto(`${base}/notebooks/index.html?path=analysis.ipynb`);
    } else {
      await page.evaluate(() =>
        window.jupyterapp.commands.execute('docmanager:open', {
          path: 'analysis.ipynb'
        })
      );
    }
    await page.waitForFunction(
      () =>
        window.jupyterapp?.shell?.currentWidget?.context?.path ===
        'analysis.ipynb',
      null,
      { timeout: 60_000 }
    );
    const panel = page.locator('.jp-NotebookPanel:visible');
    // cells below the fold may be windowed (content-visibility): attached is enough
    const rendered = async () => {
      await panel
        .locator('.jp-RenderedHTMLCommon table')
        .first()
        .waitFor({ state: 'attached' });
      // as SVG output if the notebook is trusted, else as the chart's HTML <img>
      await panel
        .locator(
          '.jp-RenderedSVG, .jp-RenderedHTMLCommon img[src^="data:image/svg+xml"]'
        )
        .first()
        .waitFor({ state: 'attached' });
    };
    await rendered();
    log('analysis.ipynb shows its stored table and SVG chart before running');
    const svgCells = await page.evaluate(() =>
      window.jupyterapp.shell.currentWidget.content.widgets
        .filter(c => c.model.type === 'code')
        .filter(c =>
          c.model.outputs.toJSON().some(o => o.data?.['image/svg+xml'])
        )
        .map(c => c.model.id)
    );
    check(
      svgCells.includes('chart'),
      'the chart cell has no image/svg+xml output'
    );

    const stored = await page.evaluate(() =>
      window.jupyterapp.shell.currentWidget.content.widgets
        .filter(c => c.model.type === 'code')
        .map(c => ({ id: c.model.id, outputs: c.model.outputs.toJSON() }))
    );
    await waitForNotebookKernel(page, 'analysis.ipynb');
    timings.secondKernel = since(tOpen);
    log(`second kernel idle (${timings.secondKernel} after opening)`);

    const tAll = performance.now();
    await page.evaluate(async () => {
      const app = window.jupyterapp;
      await app.commands.execute('notebook:clear-all-cell-outputs');
      void app.commands.execute('notebook:run-all-cells');
    });
    await page
      .waitForFunction(
        () => {
          const panel = window.jupyterapp.shell.currentWidget;
          const cells = panel.content.widgets.filter(
            c => c.model.type === 'code'
          );
          return (
            cells.every(c => typeof c.model.executionCount === 'number') &&
            panel.sessionContext.session?.kernel?.status === 'idle'
          );
        },
        null,
        { timeout: RUN_TIMEOUT, polling: 200 }
      )
      .catch(async err => {
        const state = await page.evaluate(() => {
          const panel = window.jupyterapp.shell.currentWidget;
          return {
            kernel: panel.sessionContext.session?.kernel?.status,
            pending: panel.content.widgets
              .filter(c => c.model.type === 'code')
              .filter(c => typeof c.model.executionCount !== 'number')
              .map(c => c.model.id)
          };
        });
        throw new CheckError(
          `run-all did not finish in ${RUN_TIMEOUT / 1000}s: kernel ` +
            `${state.kernel}, cells not run: ${state.pending.join(', ')} ` +
            `(${err.message.split('\n')[0]})`
        );
      });
    timings.runAll = since(tAll);
    const fresh = await page.evaluate(() =>
      window.jupyterapp.shell.currentWidget.content.widgets
        .filter(c => c.model.type === 'code')
        .map(c => ({ id: c.model.id, outputs: c.model.outputs.toJSON() }))
    );
    for (const [i, cell] of fresh.entries()) {
      const errors = cell.outputs.filter(o => o.output_type === 'error');
      check(!errors.length, `cell ${cell.id} raised: ${textOf(errors)}`);
      const before = stored[i].outputs;
      check(
        cell.outputs.length === before.length,
        `cell ${cell.id}: ${cell.outputs.length} outputs in Pyodide, ${before.length} stored`
      );
      for (const [j, o] of cell.outputs.entries()) {
        const b = before[j];
        check(
          o.output_type === b.output_type,
          `cell ${cell.id}: output types differ`
        );
        for (const mime of ['text/html', 'image/svg+xml']) {
          if (b.data?.[mime] !== undefined) {
            const norm = v => [].concat(v).join('').trim();
            check(
              norm(o.data?.[mime]) === norm(b.data[mime]),
              `cell ${cell.id}: ${mime} differs from the stored output`
            );
          }
        }
        check(
          textOf([o]) === textOf([b]),
          `cell ${cell.id}: text differs:\n--- stored\n${textOf([b])}\n--- pyodide\n${textOf([o])}`
        );
      }
    }
    await rendered();
    log(
      `analysis.ipynb: all ${fresh.length} code cells ran in Pyodide, outputs match ` +
        `the stored ones (${timings.runAll})`
    );

    check(
      failed.length === 0,
      `local requests failed:\n  ${failed.join('\n  ')}`
    );
    log(
      `requests: ${local} to 127.0.0.1 (${wheels.size} distinct wheels), ` +
        `${blocked.length} to other hosts (aborted)`
    );
    for (const url of [...new Set(blocked)]) {
      log(`  aborted: ${url}`);
    }
    console.log(
      `OK offline: app ${timings.appReady}, first kernel idle ${timings.firstKernel} ` +
        `after navigation, run-cell ${timings.runCell}, Shift+Enter ${timings.shiftEnter}, ` +
        `second kernel ${timings.secondKernel}, analysis run-all ${timings.runAll}, ` +
        `total ${since(t0)}`
    );
  } finally {
    await browser.close().catch(() => undefined);
    server.proc.kill('SIGTERM');
  }
}

// whatever hangs, do not hang forever
const watchdog = setTimeout(() => {
  console.error('FAILED: the check took more than 8 minutes');
  process.exit(1);
}, 8 * 60_000);
watchdog.unref();

main().then(
  () => process.exit(0),
  err => {
    console.error(
      `FAILED: ${err instanceof CheckError ? err.message : err.stack || err}`
    );
    process.exit(1);
  }
);
