/**
 * Browser tests against real apps, in Debian's Chromium 156 (see README.md).
 *
 *   npx playwright test -c ui-tests/playwright.config.ts [--project NAME]
 *
 * Projects: lab, notebook, lite (native WebMCP), no-webmcp (JupyterLab in a
 * browser without WebMCP), mcp-client (JupyterLab, tools reached by an MCP
 * client through @mcp-b/global) and rtc (the `*-rtc.spec.ts` files only, on
 * lab-rtc: JupyterLab with real-time collaboration, which the lab and
 * notebook servers run without), bridges-lab and bridges-lite (the
 * `bridge-*.spec.ts` files only: an MCP client drives chrome-devtools-mcp and
 * @playwright/mcp, which reach the tools in a Chromium the tests start with a
 * debugging port, see bridges.ts), example-lab and example-lite (the
 * `example-*.spec.ts` files only, on lab-example and lite-example: the apps
 * with the example extension of examples/notebook-stats loaded beside this
 * one), relay (the `relay-*.spec.ts` files only, on lab: an MCP client
 * starts the local WebMCP relay over stdio and reaches the tools of a
 * browser without WebMCP, see relay.ts), assistant-lab, assistant-nb,
 * assistant-lite and assistant0-lab (the `assistant-*.spec.ts` files only:
 * an in-app AI assistant beside this extension, answered by the scripted
 * model assistant/model.mjs). Each app server is a `webServer` started for
 * the run on a free port of 127.0.0.1 by servers/start.py, and only when a
 * selected project needs it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import {
  type PlaywrightTestConfig,
  type PlaywrightTestOptions,
  type PlaywrightWorkerOptions,
  type Project,
  defineConfig
} from '@playwright/test';

import type { IAppOptions } from './options';

process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

const REPO = path.resolve(__dirname, '..');

type ServerName =
  | 'lab'
  | 'notebook'
  | 'lite'
  | 'lab-rtc'
  | 'lab-example'
  | 'lite-example'
  | 'assistant-lab'
  | 'assistant-nb'
  | 'assistant-lite'
  | 'assistant0-lab'
  | 'model';
type Ports = Record<ServerName, number>;

const SERVERS: ServerName[] = [
  'lab',
  'notebook',
  'lite',
  'lab-rtc',
  'lab-example',
  'lite-example',
  'assistant-lab',
  'assistant-nb',
  'assistant-lite',
  'assistant0-lab',
  'model'
];

/**
 * Free ports, chosen once by the runner and inherited by the workers through
 * the environment (the config is evaluated again in every worker).
 */
function serverPorts(): Ports {
  const stored = process.env.UI_TESTS_PORTS;
  if (stored) {
    return JSON.parse(stored) as Ports;
  }
  // bind them all at once so they differ, then release them for the servers
  const script = `
    const net = require('net');
    const servers = [];
    const next = () => {
      if (servers.length === ${SERVERS.length}) {
        process.stdout.write(servers.map(s => s.address().port).join(','));
        servers.forEach(s => s.close());
        return;
      }
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => { servers.push(s); next(); });
    };
    next();`;
  const found = execFileSync(process.execPath, ['-e', script], {
    encoding: 'utf-8'
  })
    .split(',')
    .map(Number);
  const ports = Object.fromEntries(
    SERVERS.map((name, i) => [name, found[i]])
  ) as Ports;
  process.env.UI_TESTS_PORTS = JSON.stringify(ports);
  return ports;
}

const PORTS = serverPorts();
const baseURL = (server: ServerName) => `http://127.0.0.1:${PORTS[server]}`;

/**
 * The scripted model's base URL (ui-tests/assistant/model.mjs), known before
 * any server starts: start.py writes it into the assistant servers'
 * settings, the tests reach its control API (ui-tests/assistant.ts).
 */
process.env.UI_TESTS_MODEL_URL = `${baseURL('model')}/v1`;

/** The Python with jupyterlab, notebook, jupyterlite and ipykernel. */
const PYTHON =
  process.env.UI_TESTS_PYTHON ??
  [path.join(REPO, '.venv', 'bin', 'python')].find(p => fs.existsSync(p)) ??
  'python3';

const CHROMIUM = process.env.UI_TESTS_CHROMIUM ?? '/usr/bin/chromium';

const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
];
const WEBMCP_FLAG = '--enable-features=WebMCP';

/**
 * Whether the mcp-client project's browser also has native WebMCP. Without it
 * (the default) `document.modelContext` is @mcp-b/global's own polyfill, the
 * path of every browser without WebMCP; with it the polyfill wraps Chromium's
 * implementation (both work when the polyfill is injected first).
 */
const MCP_CLIENT_NATIVE = process.env.UI_TESTS_MCP_NATIVE === '1';

/**
 * Whether the relay project's browser has native WebMCP. Without it (the
 * default) is the case the relay is for, the person's everyday browser; with
 * it, the relay's runtime works beside Chromium's own.
 */
const RELAY_NATIVE = process.env.UI_TESTS_RELAY_NATIVE === '1';

type ProjectName =
  | 'lab'
  | 'notebook'
  | 'lite'
  | 'no-webmcp'
  | 'mcp-client'
  | 'rtc'
  | 'bridges-lab'
  | 'bridges-lite'
  | 'example-lab'
  | 'example-lite'
  | 'relay'
  | 'assistant-lab'
  | 'assistant-nb'
  | 'assistant-lite'
  | 'assistant0-lab';

const SERVER_OF: Record<ProjectName, ServerName> = {
  lab: 'lab',
  notebook: 'notebook',
  lite: 'lite',
  'no-webmcp': 'lab',
  'mcp-client': 'lab',
  rtc: 'lab-rtc',
  'bridges-lab': 'lab',
  'bridges-lite': 'lite',
  'example-lab': 'lab-example',
  'example-lite': 'lite-example',
  relay: 'lab',
  'assistant-lab': 'assistant-lab',
  'assistant-nb': 'assistant-nb',
  'assistant-lite': 'assistant-lite',
  'assistant0-lab': 'assistant0-lab'
};

/**
 * The projects named with `--project` on the command line (wildcards
 * allowed), or all of them. Only the runner starts servers, so only its
 * command line matters.
 */
function selectedProjects(argv: string[]): ProjectName[] {
  const all = Object.keys(SERVER_OF) as ProjectName[];
  const patterns: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--project=')) {
      patterns.push(arg.slice('--project='.length));
    } else if (arg === '--project') {
      while (i + 1 < argv.length && !argv[i + 1].startsWith('-')) {
        patterns.push(argv[++i]);
      }
    }
  }
  if (!patterns.length) {
    return all;
  }
  const matchers = patterns.map(
    pattern =>
      new RegExp(
        `^${pattern
          .split('*')
          .map(part => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
        'i'
      )
  );
  return all.filter(name => matchers.some(matcher => matcher.test(name)));
}

const SERVER_TIMEOUT: Record<ServerName, number> = {
  lab: 120_000,
  notebook: 120_000,
  'lab-rtc': 120_000,
  'lab-example': 120_000,
  'assistant-lab': 120_000,
  'assistant-nb': 120_000,
  'assistant0-lab': 120_000,
  model: 30_000,
  // may first rebuild demo/_output (seconds with demo/.cache, minutes without)
  lite: 600_000,
  'lite-example': 600_000,
  'assistant-lite': 600_000
};

type WebServer = Exclude<
  NonNullable<PlaywrightTestConfig['webServer']>,
  unknown[]
>;
type AppProject = Project<
  PlaywrightTestOptions & IAppOptions,
  PlaywrightWorkerOptions
>;

function webServer(server: ServerName): WebServer {
  if (server === 'model') {
    return {
      name: server,
      command: `${JSON.stringify(process.execPath)} assistant/model.mjs ${PORTS.model}`,
      cwd: __dirname,
      url: `${baseURL('model')}/control/health`,
      reuseExistingServer: false,
      timeout: SERVER_TIMEOUT.model,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      stdout: 'ignore',
      stderr: 'pipe'
    };
  }
  return {
    name: server,
    command: `${JSON.stringify(PYTHON)} servers/start.py ${server} ${PORTS[server]}`,
    cwd: __dirname,
    url: `${baseURL(server)}${server.endsWith('lite') || server.startsWith('lite') ? '/lab/index.html' : '/api'}`,
    reuseExistingServer: false,
    timeout: SERVER_TIMEOUT[server],
    // SIGTERM lets Jupyter shut its kernels down and start.py remove its
    // temporary directory; the whole process group is killed after the timeout
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'ignore',
    stderr: 'pipe'
  };
}

/** The specs that need real-time collaboration: only the rtc project runs them. */
const RTC_SPECS = /-rtc\.spec\.ts$/;

/** The specs that drive the WebMCP bridges: only the bridges-* projects run them. */
const BRIDGE_SPECS = /(^|\/)bridge-[^/]*\.spec\.ts$/;

/** The specs of the example extension: only the example-* projects run them. */
const EXAMPLE_SPECS = /(^|\/)example-[^/]*\.spec\.ts$/;

/** The specs of the local WebMCP relay: only the relay project runs them. */
const RELAY_SPECS = /(^|\/)relay-[^/]*\.spec\.ts$/;

/** The in-app assistant's specs: only the assistant* projects run them. */
const ASSISTANT_SPECS = /(^|\/)assistant-[^/]*\.spec\.ts$/;

const selected = selectedProjects(process.argv);
const needed = new Set<ServerName>(selected.map(name => SERVER_OF[name]));
// the assistants' servers are answered by the scripted model
if (selected.some(name => name.startsWith('assistant'))) {
  needed.add('model');
}

function project(
  name: ProjectName,
  options: Partial<IAppOptions>,
  extra: Omit<AppProject, 'name' | 'use'> = {}
): AppProject {
  const native = options.webmcp ?? true;
  return {
    name,
    testIgnore: [
      /mcp-client.*\.spec\.ts$/,
      RTC_SPECS,
      BRIDGE_SPECS,
      EXAMPLE_SPECS,
      RELAY_SPECS,
      ASSISTANT_SPECS
    ],
    grepInvert: /@no-webmcp\b/,
    ...extra,
    use: {
      baseURL: baseURL(SERVER_OF[name]),
      launchOptions: {
        executablePath: CHROMIUM,
        args: native ? [...BROWSER_ARGS, WEBMCP_FLAG] : BROWSER_ARGS
      },
      webmcp: native,
      ...options
    }
  };
}

export default defineConfig<IAppOptions>({
  testDir: './tests',
  outputDir: './test-results',
  // every test is independent (its own browser context, directory and
  // workspace), so the two workers share out tests, not whole files: a long
  // file no longer leaves one worker idle at the end (the bridge suite, whose
  // tests share one Chromium, is serial by itself)
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // two browsers beside the servers and kernels keep 2 cores busy (a third
  // worker measured 99% busy at a load of 8-11: no faster, more timeouts)
  workers: process.env.UI_TESTS_WORKERS
    ? Number(process.env.UI_TESTS_WORKERS)
    : 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['./summary-reporter.ts']],
  use: {
    browserName: 'chromium',
    headless: true,
    video: 'off',
    trace: 'off',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 60_000
  },
  // Tests tagged @server need a Jupyter server's HTTP contents service (to
  // fail or count its answers), which JupyterLite does not have; tests
  // tagged @lite-only are about a JupyterLite page. Each project leaves out
  // the tests that cannot apply to its app, instead of skipping them.
  //
  // Every test runs in JupyterLab, and in each other app where what it
  // checks can differ (docs/testing.md):
  // - @rule: the extension's own rule (validation, hashes, bounds, access
  //   decisions, review threads on the model), the same in every app:
  //   JupyterLab only;
  // - @backend: can differ with the contents service and the kernel
  //   (JupyterLite has its own of both, Notebook 7 the same server and
  //   ipykernel as JupyterLab): JupyterLab and JupyterLite;
  // - @shell: can differ with the app's shell (panels, menus, tabs, focus,
  //   one notebook per tab; JupyterLite's /lab/ is JupyterLab's own shell):
  //   JupyterLab and Notebook 7;
  // - untagged: all three.
  projects: [
    project(
      'lab',
      { appKind: 'lab' },
      { grepInvert: /@no-webmcp\b|@lite-only\b/ }
    ),
    project(
      'notebook',
      { appKind: 'notebook' },
      { grepInvert: /@no-webmcp\b|@lite-only\b|@rule\b|@backend\b/ }
    ),
    // JupyterLite boots Pyodide in the page (15-40 s per notebook on 2 cores)
    project(
      'lite',
      { appKind: 'lite' },
      {
        timeout: 180_000,
        expect: { timeout: 20_000 },
        grepInvert: /@no-webmcp\b|@server\b|@rule\b|@shell\b/,
        // Pyodide's kernel now and then never comes up under load (no error,
        // status "unknown"); a second try is reported as flaky, not hidden
        retries: 1
      }
    ),
    project(
      'no-webmcp',
      { appKind: 'lab', webmcp: false },
      { grep: /@no-webmcp\b/, grepInvert: undefined }
    ),
    project(
      'mcp-client',
      { appKind: 'lab', mcpB: true, webmcp: MCP_CLIENT_NATIVE },
      {
        testIgnore: undefined,
        testMatch: /mcp-client.*\.spec\.ts$/,
        grepInvert: /@no-webmcp\b/
      }
    ),
    // two browser contexts on one notebook of a server with real-time
    // collaboration: the only project that starts lab-rtc, for its own specs
    project(
      'rtc',
      { appKind: 'lab' },
      {
        testIgnore: undefined,
        testMatch: RTC_SPECS,
        grepInvert: /@no-webmcp\b|@lite-only\b/,
        timeout: 180_000,
        // one at a time: the tests share the server, whose sessions list
        // every page polls; a kernel of one test starting or running
        // changes it, JupyterLab then runs `helpmenu:get-kernel`, and any
        // command run closes the modal palette a person of another test is
        // typing into (review-rtc.spec.ts)
        workers: 1
      }
    ),
    // a desktop agent's path: an MCP client over stdio drives each bridge,
    // which reaches the tools in a Chromium the spec starts itself (one per
    // file, shared by its serial tests); the project's browser is not used
    ...(['lab', 'lite'] as const).map(app =>
      project(
        `bridges-${app}`,
        { appKind: app },
        {
          testIgnore: undefined,
          testMatch: BRIDGE_SPECS,
          grepInvert: undefined,
          timeout: app === 'lite' ? 180_000 : 60_000,
          // as in the lite project: Pyodide's kernel now and then never
          // comes up under load; a second try is reported as flaky
          retries: app === 'lite' ? 1 : 0
        }
      )
    ),
    // another extension built on our tokens (examples/notebook-stats), in
    // the two apps whose plugin systems load it differently: a Jupyter
    // server's labextensions and a JupyterLite site's federated extensions
    ...(['lab', 'lite'] as const).map(app =>
      project(
        `example-${app}`,
        { appKind: app },
        {
          testIgnore: undefined,
          testMatch: EXAMPLE_SPECS,
          grepInvert: undefined,
          timeout: app === 'lite' ? 180_000 : 60_000,
          ...(app === 'lite' ? { expect: { timeout: 20_000 } } : {})
        }
      )
    ),
    // a desktop agent through the local WebMCP relay, from a browser
    // without WebMCP (the app-independent path: JupyterLab only); the spec's
    // tests share one relay, so they run one after the other
    project(
      'relay',
      { appKind: 'lab', webmcp: RELAY_NATIVE },
      {
        testIgnore: undefined,
        testMatch: RELAY_SPECS,
        grepInvert: undefined
      }
    ),
    // the in-app assistant, answered by the scripted model
    // (assistant/model.mjs): jupyter-ai-lite 0.21 in JupyterLab (every
    // assistant spec), in Notebook 7 (the tests tagged @nb: its shell shows
    // the chat beside a notebook) and in JupyterLite (the tests tagged
    // @lite, where the app's chat, settings and contents differ);
    // jupyterlite-ai 0.20 in JupyterLab (the tests tagged @ai0: the tools
    // offered there too, and nothing hidden sent)
    project(
      'assistant-lab',
      { appKind: 'lab' },
      {
        testIgnore: undefined,
        testMatch: ASSISTANT_SPECS,
        grepInvert: undefined
      }
    ),
    project(
      'assistant-nb',
      { appKind: 'notebook' },
      {
        testIgnore: undefined,
        testMatch: ASSISTANT_SPECS,
        grep: /@nb\b/,
        grepInvert: undefined
      }
    ),
    project(
      'assistant-lite',
      { appKind: 'lite' },
      {
        testIgnore: undefined,
        testMatch: ASSISTANT_SPECS,
        grep: /@lite\b/,
        grepInvert: undefined,
        timeout: 180_000,
        expect: { timeout: 20_000 }
      }
    ),
    project(
      'assistant0-lab',
      { appKind: 'lab' },
      {
        testIgnore: undefined,
        testMatch: ASSISTANT_SPECS,
        grep: /@ai0\b/,
        grepInvert: undefined
      }
    )
  ],
  webServer: SERVERS.filter(server => needed.has(server)).map(webServer)
});
