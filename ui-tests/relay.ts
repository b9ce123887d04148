/**
 * The desktop-agent path without a debugging browser: an
 * `@modelcontextprotocol/sdk` Client starts the local WebMCP relay
 * (`@mcp-b/webmcp-local-relay`, its `webmcp-local-relay` command) over stdio,
 * as Claude Code or Cursor start it from their `mcpServers` entry. The page
 * connects to the relay's WebSocket on 127.0.0.1 once the owner turns the
 * extension's relay setting on; the relay then lists each page tool as an MCP
 * tool of its own name, beside its four `webmcp_*` tools.
 */
import net from 'node:net';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  ToolListChangedNotificationSchema
} from '@modelcontextprotocol/sdk/types.js';

import { type IToolResult, toToolResult } from './results';

const REPO = path.resolve(__dirname, '..');

/** The relay's command, from the package the repository pins. */
const RELAY_CLI = path.join(
  REPO,
  'node_modules',
  '@mcp-b',
  'webmcp-local-relay',
  'dist',
  'cli.js'
);

/** The relay's own tools, always listed. */
const RELAY_TOOL_PREFIX = 'webmcp_';

/** A free TCP port of 127.0.0.1 (released for the relay to take). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A relay started for the tests, and the MCP client that started it. */
export class LocalRelay {
  private constructor(
    readonly client: Client,
    /** The relay's WebSocket port on 127.0.0.1. */
    readonly port: number,
    private readonly _stderr: string[]
  ) {
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      for (const wake of this._waiters.splice(0)) {
        wake();
      }
    });
  }

  /**
   * Starts the relay on a free port, accepting pages of `widgetOrigin` only
   * (its `--widget-origin`, as docs/clients.md recommends).
   */
  static async start(widgetOrigin: string): Promise<LocalRelay> {
    const port = await freePort();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        RELAY_CLI,
        '--port',
        String(port),
        '--widget-origin',
        widgetOrigin
      ],
      stderr: 'pipe'
    });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) =>
      stderr.push(chunk.toString())
    );
    const client = new Client({
      name: 'jupyterlite-webmcp-ui-tests',
      version: '1.0.0'
    });
    await client.connect(transport);
    return new LocalRelay(client, port, stderr);
  }

  /** What the relay wrote on its standard error, for a failing test's report. */
  get log(): string {
    return this._stderr.join('');
  }

  /** The page tools the relay lists now (its own `webmcp_*` tools left out). */
  async pageTools(): Promise<string[]> {
    const { tools } = await this.client.listTools();
    return tools
      .map(tool => tool.name)
      .filter(name => !name.startsWith(RELAY_TOOL_PREFIX));
  }

  /**
   * Resolves with the page tools once `accept` holds for them: checked now and
   * again whenever the relay says its tool list changed. Rejects after
   * `timeout` ms with the last list seen.
   */
  async waitForPageTools(
    accept: (names: string[]) => boolean,
    timeout = 30_000
  ): Promise<string[]> {
    const deadline = Date.now() + timeout;
    for (;;) {
      // listen before listing, so a change in between is not missed
      const changed = new Promise<void>(resolve => this._waiters.push(resolve));
      const names = await this.pageTools();
      if (accept(names)) {
        return names;
      }
      const left = deadline - Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = await Promise.race([
        changed.then(() => false),
        new Promise<boolean>(resolve => {
          timer = setTimeout(() => resolve(true), Math.max(0, left));
        })
      ]);
      clearTimeout(timer);
      if (timedOut) {
        throw new Error(
          `the relay's page tools never matched; last seen: ${JSON.stringify(names)}\nrelay log:\n${this.log}`
        );
      }
    }
  }

  /** Calls a page tool as the desktop agent would, by its MCP name. */
  async call<T = unknown>(
    name: string,
    args: Record<string, unknown> = {}
  ): Promise<IToolResult<T> & { mcpIsError: boolean }> {
    const result = (await this.client.callTool({
      name,
      arguments: args
    })) as CallToolResult;
    return { ...toToolResult<T>(result), mcpIsError: result.isError === true };
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private readonly _waiters: (() => void)[] = [];
}
