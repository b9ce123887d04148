#!/usr/bin/env node
/**
 * A guided tour for a newcomer without an agent: `./scripts/demo.sh --tour`.
 *
 * Serves the built demo site (demo/_output) on a free port, starts Debian's
 * Chromium with WebMCP and a debugging port (a throwaway profile), and lets a
 * scripted agent work on the demo notebook through chrome-devtools-mcp, the
 * same path a desktop agent takes (docs/clients.md): an MCP client over
 * stdio. Every call and its answer is printed and written to
 * demo/_tour/tour.log; the human's side (switching Propose mode on, accepting
 * the proposed edit, then the run that waits for approval) is played through
 * Playwright attached to the same browser, and screenshots of what the human
 * sees are saved beside the log.
 *
 * Exits 0 when every step answered as expected, 1 otherwise.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium } from '@playwright/test';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(REPO, 'demo', '_tour');
const PYTHON = fs.existsSync(path.join(REPO, '.venv/bin/python'))
  ? path.join(REPO, '.venv/bin/python')
  : 'python3';
const CHROMIUM = process.env.TOUR_CHROMIUM ?? '/usr/bin/chromium';
const NOTEBOOK = 'analysis.ipynb';

/**
 * A review block as the page shows it, for every kind of proposal: the
 * section, with the id of its proposal, and the Accept / Deny buttons.
 */
const BLOCK = 'section.jp-ProposalBlock';
const ACCEPT = 'button.jp-mod-accept';

fs.mkdirSync(OUT, { recursive: true });
const logFile = fs.createWriteStream(path.join(OUT, 'tour.log'));
const children = [];
let failures = 0;

function log(line) {
  process.stdout.write(`${line}\n`);
  logFile.write(`${line}\n`);
}

function short(value, max = 400) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max
    ? `${text.slice(0, max)}… (${text.length} chars)`
    : text;
}

function check(ok, what) {
  log(ok ? `   ok: ${what}` : `   FAILED: ${what}`);
  if (!ok) {
    failures++;
  }
  return ok;
}

/** Starts a process and resolves with the first match of `pattern` in its output. */
function startAndWait(command, args, pattern, stream, options = {}) {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...options
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`${command} did not start:\n${seen}`)),
      60_000
    );
    child[stream].on('data', chunk => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once('exit', code => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}:\n${seen}`));
    });
  });
}

/** One page tool call through the bridge, printed with its answer. */
async function call(client, toolName, input = {}) {
  log(`\n[agent] execute_webmcp_tool ${toolName} ${short(input, 300)}`);
  const result = await client.callTool(
    {
      name: 'execute_webmcp_tool',
      arguments: { toolName, input: JSON.stringify(input) }
    },
    undefined,
    { timeout: 300_000 }
  );
  const text = result.content.find(item => item.type === 'text')?.text ?? '';
  const answer = JSON.parse(text.slice(text.indexOf('{')));
  const envelope = answer.output ?? {};
  const value = envelope.structuredContent;
  log(
    `[page]  ${answer.status}${envelope.isError ? ' (isError)' : ''}: ${short(value ?? answer.error)}`
  );
  return { isError: envelope.isError === true, value };
}

async function main() {
  // 1. the demo site
  const served = await startAndWait(
    PYTHON,
    [
      path.join(REPO, 'demo/serve.py'),
      '--port',
      '0',
      '--dir',
      path.join(REPO, 'demo/_output')
    ],
    /Serving (http:\/\/127\.0\.0\.1:\d+)/,
    'stdout'
  );
  const base = served[1];
  log(`==> The demo site is served on ${base}/`);

  // 2. the browser, as docs/clients.md tells a user to start theirs
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'jlwebmcp-tour-'));
  const devtools = await startAndWait(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--enable-features=WebMCP',
      '--window-size=1400,900',
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank'
    ],
    /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//,
    'stderr'
  );
  const browserUrl = `http://127.0.0.1:${devtools[1]}`;
  log(`==> Chromium with WebMCP, debugging port ${browserUrl}`);

  // the human's side
  const browser = await chromium.connectOverCDP(browserUrl);
  const page = browser.contexts()[0].pages()[0];

  // 3. the agent: an MCP client, chrome-devtools-mcp limited to WebMCP tools
  const bridgeArgs = [
    path.join(
      REPO,
      'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'
    ),
    `--browserUrl=${browserUrl}`,
    '--categoryExperimentalWebmcp',
    '--no-page-id-routing',
    '--no-usage-statistics',
    '--no-performance-crux',
    '--no-category-input',
    '--no-category-emulation',
    '--no-category-performance',
    '--no-category-network',
    // the debugging category stays: it holds take_screenshot, how the
    // agent sees the chart (JavaScript stays off, --no-javascript-evaluation)
    '--no-category-memory',
    '--no-javascript-evaluation'
  ];
  log(`==> Agent: chrome-devtools-mcp ${bridgeArgs.slice(1).join(' ')}`);
  const client = new Client({ name: 'jupyterlite-webmcp-tour', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: bridgeArgs,
      stderr: 'ignore'
    })
  );
  const bridgeTools = (await client.listTools()).tools.map(tool => tool.name);
  log(`   the bridge offers: ${bridgeTools.join(', ')}`);

  const url = `${base}/lab/index.html?path=${NOTEBOOK}`;
  log(`\n[agent] navigate_page ${url}`);
  await client.callTool({
    name: 'navigate_page',
    arguments: { type: 'url', url }
  });

  // the extension registers its tools once the app has started
  let tools = [];
  for (let i = 0; i < 60 && tools.length < 22; i++) {
    const listed = await client.callTool({
      name: 'list_webmcp_tools',
      arguments: {}
    });
    const text = listed.content.find(item => item.type === 'text')?.text ?? '';
    tools = [...text.matchAll(/^name="([^"]+)"/gm)].map(match => match[1]);
    if (tools.length < 22) {
      await new Promise(resolve => setTimeout(resolve, 1000));
    }
  }
  log('\n[agent] list_webmcp_tools');
  log(`[page]  ${tools.length} tools: ${tools.join(', ')}`);
  check(tools.length === 22, 'the 22 tools are listed');

  // read the context; wait for the Pyodide kernel (it starts in the page)
  let context;
  for (let i = 0; i < 90; i++) {
    context =
      (await client
        .callTool({
          name: 'execute_webmcp_tool',
          arguments: { toolName: 'jupyter_get_context', input: '{}' }
        })
        .then(result => {
          const text = result.content[0].text;
          return JSON.parse(text.slice(text.indexOf('{'))).output
            ?.structuredContent;
        })) ?? null;
    if (context?.kernel?.status === 'idle') {
      break;
    }
    await new Promise(resolve => setTimeout(resolve, 2000));
  }
  context = (await call(client, 'jupyter_get_context')).value;
  check(
    context?.notebook?.path === NOTEBOOK,
    `the current notebook is ${NOTEBOOK}`
  );
  check(context?.kernel?.status === 'idle', 'its kernel is idle');

  const read = await call(client, 'jupyter_get_cells', {
    startIndex: 0,
    endIndex: 3
  });
  check(
    read.value?.cells?.map(cell => cell.id).join(',') ===
      'intro,data,stats-intro',
    'reads the first three cells with their ids and source hashes'
  );

  const inserted = await call(client, 'jupyter_insert_cell', {
    referenceCellId: 'data',
    position: 'below',
    source: 'print(len(MONTHS), "months,", len(UNITS), "products")'
  });
  const newId = inserted.value?.cell?.id;
  check(!!newId, 'inserts a code cell below "data"');

  const ran = await call(client, 'jupyter_run_cells', {
    cellIds: ['data', newId]
  });
  check(
    ran.value?.status === 'ok' &&
      ran.value.results?.[1]?.outputSummary?.includes('12 months, 3 products'),
    'runs "data" and the new cell; the output says 12 months, 3 products'
  );

  const comment = await call(client, 'jupyter_create_comment', {
    anchor: { kind: 'source-range', cellId: 'data', text: 'PRICE_EUR' },
    message:
      'Are these prices with or without VAT? The revenue below depends on it.'
  });
  check(
    comment.value?.thread?.messages?.[0]?.author?.kind === 'agent',
    'leaves a review comment on PRICE_EUR, authored by the agent'
  );

  // Propose mode: the human switches it on, the agent's edit waits for them
  log('\n[human] switches Propose mode on (Agent panel header)');
  await page.evaluate(() =>
    window.jupyterapp.commands.execute('jupyterlite-webmcp:set-propose-mode', {
      mode: 'propose'
    })
  );
  const before = await call(client, 'jupyter_get_cells', { cellIds: [newId] });
  const proposing = call(client, 'jupyter_update_cell', {
    cellId: newId,
    source: 'print(f"{len(MONTHS)} months of sales, {len(UNITS)} products")',
    expectedSourceHash: before.value?.cells?.[0]?.sourceHash
  });
  const block = page.locator(BLOCK);
  await block.waitFor({ state: 'visible', timeout: 30_000 });
  await block.scrollIntoViewIfNeeded();
  const shot1 = path.join(OUT, '1-proposal-waiting.png');
  await page.screenshot({ path: shot1 });
  log(
    `[human] sees the proposed diff under the cell: ${path.relative(REPO, shot1)}`
  );
  log('[human] clicks Accept');
  await block.locator(ACCEPT).click();
  const accepted = await proposing;
  check(
    accepted.value?.status === 'accepted',
    'the edit waited for the human and answered "accepted"'
  );

  // still in Propose mode: the run waits for the human too, nothing runs
  // before Accept, and the answer is the run's result
  const countOf = () =>
    page.evaluate(id => {
      const panel = window.jupyterapp.shell.currentWidget;
      const cell = panel?.content?.widgets?.find(w => w.model.id === id);
      return cell?.model.executionCount ?? null;
    }, newId);
  const countBefore = await countOf();
  const running = call(client, 'jupyter_run_cells', { cellIds: [newId] });
  await block.waitFor({ state: 'visible', timeout: 30_000 });
  await block.scrollIntoViewIfNeeded();
  const runProposal = await block.getAttribute('data-proposal-id');
  const shot2 = path.join(OUT, '2-run-waiting.png');
  await page.screenshot({ path: shot2 });
  log(
    `[human] sees the run waiting for approval: ${path.relative(REPO, shot2)}`
  );
  check(
    (await countOf()) === countBefore,
    `nothing ran before the human decided (execution count ${countBefore})`
  );
  log('[human] clicks Accept');
  await block.locator(ACCEPT).click();
  const rerun = await running;
  const result = rerun.value?.results?.[0];
  log(
    `[agent] the run's answer: status ${rerun.value?.status}, cell ${result?.cellId} ` +
      `execution count ${result?.executionCount}, output ${JSON.stringify(result?.outputSummary)}, ` +
      `proposal ${rerun.value?.proposalId}`
  );
  check(
    rerun.value?.status === 'ok' &&
      rerun.value?.proposalId === runProposal &&
      typeof result?.executionCount === 'number' &&
      result.executionCount !== countBefore &&
      result.outputSummary?.includes('12 months of sales'),
    'the run waited for the human, then ran the accepted cell'
  );

  const missing = await call(client, 'jupyter_get_cells', {
    cellIds: ['no-such-cell']
  });
  check(
    missing.isError && missing.value?.error === 'CELL_NOT_FOUND',
    'a wrong id answers a structured error (CELL_NOT_FOUND)'
  );

  // seeing a plot: neither bridge passes an image from a page tool (a tool's
  // answer reaches the agent as one text item), so a multimodal agent brings
  // the chart into view with jupyter_focus_cell and takes the bridge's own
  // screenshot (docs/clients.md, "Seeing a plot")
  const focused = await call(client, 'jupyter_focus_cell', { cellId: 'chart' });
  check(!focused.isError, 'jupyter_focus_cell brought the chart into view');
  log("\n[agent] take_screenshot (the bridge's own tool)");
  const screenshot = await client.callTool(
    { name: 'take_screenshot', arguments: { format: 'png' } },
    undefined,
    { timeout: 60_000 }
  );
  const image = screenshot.content.find(item => item.type === 'image');
  const seen = path.join(OUT, '4-what-the-agent-sees.png');
  if (image) {
    fs.writeFileSync(seen, Buffer.from(image.data, 'base64'));
    log(`[bridge] an ${image.mimeType} image: ${path.relative(REPO, seen)}`);
  }
  check(
    image?.mimeType === 'image/png' && image.data.length > 1000,
    "the bridge's screenshot gives the agent the chart as an image"
  );

  // what the human sees at the end: the comment in the Agent panel
  await page.evaluate(() =>
    window.jupyterapp.commands.execute('jupyterlite-webmcp:set-propose-mode', {
      mode: 'direct'
    })
  );
  const panelCommand = await page.evaluate(() =>
    window.jupyterapp.commands.hasCommand('jupyterlite-webmcp:open-agent-panel')
  );
  if (panelCommand) {
    await page.evaluate(() =>
      window.jupyterapp.commands.execute('jupyterlite-webmcp:open-agent-panel')
    );
  }
  await page.waitForTimeout(500);
  const shot3 = path.join(OUT, '3-after-the-tour.png');
  await page.screenshot({ path: shot3 });
  log(`\n[human] the notebook after the tour: ${path.relative(REPO, shot3)}`);

  await client.close();
  // close the browser as its owner would, then remove its throwaway profile
  const chromiumProcess = children[1];
  const exited = new Promise(resolve => chromiumProcess.once('exit', resolve));
  const session = await browser.newBrowserCDPSession();
  await session.send('Browser.close').catch(() => undefined);
  await Promise.race([
    exited,
    new Promise(resolve => setTimeout(resolve, 10_000))
  ]);
  stopChildren();
  fs.rmSync(profile, {
    recursive: true,
    force: true,
    maxRetries: 10,
    retryDelay: 200
  });
}

function stopChildren() {
  for (const child of children.filter(
    c => c.exitCode === null && !c.signalCode
  )) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

main()
  .catch(error => {
    log(`\nThe tour stopped: ${error?.stack ?? error}`);
    failures++;
  })
  .finally(() => {
    stopChildren();
    log(
      failures
        ? `\n==> The tour FAILED (${failures} step(s)); log: demo/_tour/tour.log`
        : '\n==> Every step answered as expected; log and screenshots in demo/_tour/'
    );
    logFile.end(() => process.exit(failures ? 1 : 0));
  });
