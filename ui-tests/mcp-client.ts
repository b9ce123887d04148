/**
 * A real MCP client for the tools: `@mcp-b/global` (test-only, injected into
 * the page) serves `document.modelContext` over its tab transport, and an
 * `@modelcontextprotocol/sdk` `Client` in Node talks to it through
 * `PageRelayTransport`, which relays the tab transport's `window.postMessage`
 * frames between Node and the page.
 *
 * Frame shape (node_modules/@mcp-b/transports, TabServerTransport /
 * TabClientTransport): `{ channel: 'mcp-default', type: 'mcp', direction:
 * 'client-to-server' | 'server-to-client', payload }`, posted on the page's own
 * window (the server ignores frames whose `event.source` is not `window` or
 * whose origin is not allowed). `payload` is a JSON-RPC message, or one of the
 * handshake strings `mcp-check-ready` (client asks), `mcp-server-ready` and
 * `mcp-server-stopped` (server says).
 */
import fs from 'node:fs';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { BrowserContext, Page } from '@playwright/test';

import { type IToolResult, toToolResult } from './results';

export const MCP_CHANNEL = 'mcp-default';

/** The page-to-Node binding the relay installs. */
const BINDING = '__uiTestsMcpToNode';

interface IFrame {
  channel: string;
  type: 'mcp';
  direction: 'client-to-server' | 'server-to-client';
  payload: JSONRPCMessage | string;
}

let iifeSource: string | undefined;

/**
 * Makes every page of `context` load `@mcp-b/global` before any app script,
 * with its tab server restricted to the page's own origin. Must run before the
 * first navigation: loaded after the app registered tools on native WebMCP,
 * the 5.1.0 release cannot call them.
 */
export async function injectMcpB(context: BrowserContext): Promise<void> {
  iifeSource ??= fs.readFileSync(
    require.resolve('@mcp-b/global/iife'),
    'utf-8'
  );
  await context.addInitScript({
    content: [
      // top-level documents only: in a frame it would pick its iframe transport
      'if (window.top === window) {',
      'window.__webModelContextOptions = { transport: { tabServer: { allowedOrigins: [location.origin] } } };',
      iifeSource,
      // forward the server's frames to Node once the relay's binding exists
      `window.addEventListener('message', event => {`,
      `  const d = event.data;`,
      `  if (event.source === window && d && d.channel === '${MCP_CHANNEL}' && d.type === 'mcp' && d.direction === 'server-to-client' && typeof window.${BINDING} === 'function') {`,
      `    void window.${BINDING}(d);`,
      '  }',
      '});',
      '}'
    ].join('\n')
  });
}

/**
 * An MCP `Transport` in Node whose other end is the page's tab server: sends
 * are posted into the page with `page.evaluate`, the server's frames come back
 * through a binding exposed on the page.
 */
export class PageRelayTransport implements Transport {
  constructor(page: Page) {
    this._page = page;
  }

  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  async start(): Promise<void> {
    let ready!: () => void;
    const serverReady = new Promise<void>(resolve => (ready = resolve));
    await this._page.exposeBinding(BINDING, (_source, frame: IFrame) => {
      if (this._closed) {
        return;
      }
      if (frame.payload === 'mcp-server-ready') {
        ready();
      } else if (frame.payload === 'mcp-server-stopped') {
        void this.close();
      } else if (typeof frame.payload === 'object') {
        ready();
        this.onmessage?.(frame.payload);
      }
    });
    this._page.once('close', () => void this.close());
    await this._post('mcp-check-ready');
    await serverReady;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this._closed) {
      throw new Error('PageRelayTransport is closed');
    }
    await this._post(message);
  }

  async close(): Promise<void> {
    if (!this._closed) {
      this._closed = true;
      this.onclose?.();
    }
  }

  private async _post(payload: JSONRPCMessage | string): Promise<void> {
    const frame: IFrame = {
      channel: MCP_CHANNEL,
      type: 'mcp',
      direction: 'client-to-server',
      payload
    };
    try {
      await this._page.evaluate(
        f => window.postMessage(f, location.origin),
        frame
      );
    } catch (error) {
      this.onerror?.(error as Error);
      throw error;
    }
  }

  private _page: Page;
  private _closed = false;
}

/** MCP clients connected to pages; closed after the test. */
export class McpConnector {
  /** Connects a new MCP client to `page` (the app must be loaded). */
  async connect(page: Page): Promise<Client> {
    const client = new Client({
      name: 'jupyterlite-webmcp-ui-tests',
      version: '0.0.0'
    });
    await client.connect(new PageRelayTransport(page), { timeout: 30_000 });
    this._clients.push(client);
    return client;
  }

  /** `tools/call`, normalized like the other ways of calling a tool. */
  static async call<T = unknown>(
    client: Client,
    name: string,
    args: Record<string, unknown> = {}
  ): Promise<IToolResult<T>> {
    return toToolResult<T>(await client.callTool({ name, arguments: args }));
  }

  async dispose(): Promise<void> {
    for (const client of this._clients) {
      await client.close().catch(() => undefined);
    }
    this._clients = [];
  }

  private _clients: Client[] = [];
}
