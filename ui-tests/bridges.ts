/**
 * The desktop-agent path: an `@modelcontextprotocol/sdk` Client in Node talks
 * over stdio to one of the maintained WebMCP bridges, which reaches the
 * page's tools in a Chromium with WebMCP on.
 *
 * - `chrome-devtools-mcp` (`--categoryExperimentalWebmcp`): the page's tools
 *   are reached through its own tools `list_webmcp_tools` and
 *   `execute_webmcp_tool {toolName, input: JSON string}`, which answers with
 *   text holding `{status, output, error}` (`output` is our envelope).
 * - `@playwright/mcp`: after a page snapshot, each page tool is an MCP tool
 *   `webmcp_<name>`; the answer is text (a preamble line, then our envelope
 *   as JSON), with MCP `isError` set when our envelope has `isError`.
 *
 * The browser is started here, as a user would start theirs for a bridge:
 * Debian's Chromium with `--enable-features=WebMCP`, a throwaway profile and a
 * remote-debugging port on 127.0.0.1. Both the bridge (`--browserUrl` /
 * `--cdp-endpoint`) and Playwright (for the human's side of a test: files,
 * cell metadata, readiness) attach to it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, chromium } from '@playwright/test';

import { type IToolResult, toToolResult } from './results';

const REPO = path.resolve(__dirname, '..');

export type BridgeKind = 'chrome-devtools-mcp' | 'playwright-mcp';

/** The browser arguments the other projects use (see playwright.config.ts). */
export const BRIDGE_BROWSER_ARGS = [
  '--headless',
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

/** A Chromium with a remote-debugging port, and Playwright attached to it. */
export class DebuggableChromium {
  private constructor(
    readonly process: ChildProcess,
    readonly profileDir: string,
    /** `http://127.0.0.1:PORT`, what the bridges connect to. */
    readonly httpEndpoint: string,
    readonly playwright: Browser
  ) {}

  static async launch(): Promise<DebuggableChromium> {
    const executable = process.env.UI_TESTS_CHROMIUM ?? '/usr/bin/chromium';
    const profileDir = fs.mkdtempSync(
      path.join(os.tmpdir(), 'jlwebmcp-bridge-profile-')
    );
    const child = spawn(
      executable,
      [
        ...BRIDGE_BROWSER_ARGS,
        // port 0: Chromium picks a free one and prints it
        '--remote-debugging-address=127.0.0.1',
        '--remote-debugging-port=0',
        `--user-data-dir=${profileDir}`,
        'about:blank'
      ],
      // its own process group, so that close() can end its helpers too
      { stdio: ['ignore', 'ignore', 'pipe'], detached: true }
    );
    const wsEndpoint = await new Promise<string>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(
        () => reject(new Error(`Chromium did not start:\n${seen}`)),
        30_000
      );
      child.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', code => {
        clearTimeout(timer);
        reject(new Error(`Chromium exited with ${code}:\n${seen}`));
      });
    });
    // keep draining stderr so Chromium never blocks on a full pipe
    child.stderr!.resume();
    const httpEndpoint = `http://127.0.0.1:${new URL(wsEndpoint).port}`;
    const playwright = await chromium.connectOverCDP(httpEndpoint);
    return new DebuggableChromium(child, profileDir, httpEndpoint, playwright);
  }

  /**
   * Closes the browser the way its owner would (CDP `Browser.close`), then
   * ends what is left of its process group and removes the profile.
   */
  async close(): Promise<void> {
    const exited = new Promise(resolve => {
      if (this.process.exitCode !== null || this.process.signalCode) {
        resolve(undefined);
      } else {
        this.process.once('exit', resolve);
      }
    });
    try {
      const session = await this.playwright.newBrowserCDPSession();
      await session.send('Browser.close');
    } catch {
      // already gone
    }
    await this.playwright.close().catch(() => undefined);
    await Promise.race([
      exited,
      new Promise(resolve => setTimeout(resolve, 10_000))
    ]);
    try {
      // the group of the Chromium started here: its helper processes too
      process.kill(-this.process.pid!, 'SIGKILL');
    } catch {
      // nothing left
    }
    fs.rmSync(this.profileDir, {
      recursive: true,
      force: true,
      maxRetries: 10,
      retryDelay: 200
    });
  }
}

/** The bridge's command line (node + its entry script). */
export function bridgeCommand(
  kind: BridgeKind,
  browserEndpoint: string,
  outputDir: string
): string[] {
  if (kind === 'chrome-devtools-mcp') {
    return [
      path.join(
        REPO,
        'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'
      ),
      `--browserUrl=${browserEndpoint}`,
      '--categoryExperimentalWebmcp',
      '--no-page-id-routing',
      '--no-usage-statistics',
      '--no-performance-crux'
    ];
  }
  return [
    path.join(REPO, 'node_modules/@playwright/mcp/cli.js'),
    `--cdp-endpoint=${browserEndpoint}`,
    `--output-dir=${outputDir}`
  ];
}

/** A page tool as the bridge shows it to the agent. */
export interface IBridgedTool {
  /** The page tool's own name (`jupyter_…`). */
  name: string;
  /** What the agent reads as the description. */
  description: string;
  /** The annotations the agent gets, as the bridge reports them. */
  annotations: Record<string, unknown>;
}

/** A page tool's answer through a bridge, plus what the bridge wrapped it in. */
export interface IBridgedResult<T = unknown> extends IToolResult<T> {
  /** Whether the MCP `tools/call` result itself had `isError`. */
  mcpIsError: boolean;
  /** chrome-devtools-mcp's `status` (`Completed`, `Error`, `Canceled`). */
  status?: string;
  /** The bridge's text, unparsed. */
  bridgeText: string;
}

function textOf(result: CallToolResult): string {
  return result.content
    .filter(item => item.type === 'text')
    .map(item => (item as { text: string }).text)
    .join('\n');
}

/** An MCP client connected to a bridge over stdio. */
export class BridgeClient {
  private constructor(
    readonly kind: BridgeKind,
    readonly client: Client,
    readonly stderr: string[]
  ) {}

  static async start(
    kind: BridgeKind,
    browserEndpoint: string
  ): Promise<BridgeClient> {
    const outputDir = fs.mkdtempSync(
      path.join(os.tmpdir(), 'jlwebmcp-bridge-out-')
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: bridgeCommand(kind, browserEndpoint, outputDir),
      cwd: outputDir,
      env: {
        ...(process.env as Record<string, string>),
        PUPPETEER_SKIP_DOWNLOAD: '1',
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1'
      },
      stderr: 'pipe'
    });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) =>
      stderr.push(chunk.toString())
    );
    const client = new Client({
      name: 'jupyterlite-webmcp-bridge-tests',
      version: '0.0.0'
    });
    await client.connect(transport, { timeout: 60_000 });
    const bridge = new BridgeClient(kind, client, stderr);
    bridge._outputDir = outputDir;
    return bridge;
  }

  /** Loads `url` in the bridge's selected page. */
  async navigate(url: string): Promise<string> {
    const result =
      this.kind === 'chrome-devtools-mcp'
        ? await this.client.callTool({
            name: 'navigate_page',
            arguments: { type: 'url', url }
          })
        : await this.client.callTool({
            name: 'browser_navigate',
            arguments: { url }
          });
    return textOf(result as CallToolResult);
  }

  /**
   * The page's tools as the agent finds them: `list_webmcp_tools`
   * (chrome-devtools-mcp) or the `webmcp_*` entries of `tools/list` after a
   * snapshot (@playwright/mcp, which collects page tools with snapshots).
   */
  async pageTools(): Promise<IBridgedTool[]> {
    if (this.kind === 'chrome-devtools-mcp') {
      const result = (await this.client.callTool({
        name: 'list_webmcp_tools',
        arguments: {}
      })) as CallToolResult;
      const tools: IBridgedTool[] = [];
      const line =
        /^name="([^"]+)", description="(.*)", inputSchema=(.*), annotations=(\{.*\})$/;
      for (const text of textOf(result).split('\n')) {
        const match = line.exec(text);
        if (match) {
          tools.push({
            name: match[1],
            description: match[2],
            annotations: JSON.parse(match[4]) as Record<string, unknown>
          });
        }
      }
      return tools;
    }
    await this.client.callTool({ name: 'browser_snapshot', arguments: {} });
    const listed: Tool[] = (await this.client.listTools()).tools;
    return listed
      .filter(tool => tool.name.startsWith('webmcp_'))
      .map(tool => ({
        name: tool.name.slice('webmcp_'.length),
        description: tool.description ?? '',
        annotations: { ...(tool.annotations ?? {}) }
      }));
  }

  /** Calls page tool `name` the way an agent does through this bridge. */
  async call<T = unknown>(
    name: string,
    input: Record<string, unknown> = {},
    options: { timeout?: number } = {}
  ): Promise<IBridgedResult<T>> {
    const requestOptions = options.timeout
      ? { timeout: options.timeout }
      : undefined;
    if (this.kind === 'chrome-devtools-mcp') {
      const result = (await this.client.callTool(
        {
          name: 'execute_webmcp_tool',
          arguments: { toolName: name, input: JSON.stringify(input) }
        },
        undefined,
        requestOptions
      )) as CallToolResult;
      const bridgeText = textOf(result);
      const start = bridgeText.indexOf('{');
      const answer = JSON.parse(bridgeText.slice(start)) as {
        status?: string;
        output?: unknown;
        error?: string;
      };
      return {
        ...toToolResult<T>(answer.output),
        mcpIsError: result.isError === true,
        status: answer.status,
        bridgeText
      };
    }
    const result = (await this.client.callTool(
      { name: `webmcp_${name}`, arguments: input },
      undefined,
      requestOptions
    )) as CallToolResult;
    const bridgeText = textOf(result);
    // "### Result|Error\nCalled WebMCP tool … untrusted:\n{envelope}\n### Page…"
    const start = bridgeText.indexOf('\n{');
    const end = bridgeText.indexOf('\n}', start);
    const envelope =
      start >= 0 && end > start
        ? bridgeText.slice(start + 1, end + 2)
        : undefined;
    return {
      ...toToolResult<T>(envelope ?? null),
      mcpIsError: result.isError === true,
      bridgeText
    };
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
    if (this._outputDir) {
      fs.rmSync(this._outputDir, { recursive: true, force: true });
    }
  }

  private _outputDir: string | null = null;
}
