/**
 * An agent calling the extension's tools the way a real one does: through the
 * browser's native WebMCP (`document.modelContext`), never through the
 * extension's own functions.
 *
 * - `call`: Playwright's WebMCP client (`page.webmcp.callTool`), the default.
 * - `invokeViaCdp`: the Chrome DevTools Protocol `WebMCP` domain, for caller
 *   side cancellation (`WebMCP.cancelInvocation`) and invocation events.
 */
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

import type { JupyterApp } from './jupyter';
import { type IToolInfo, type IToolResult, toToolResult } from './results';

/** `WebMCP.toolInvoked` (CDP): a tool invocation started, by any caller. */
export interface IToolInvokedEvent {
  /** Missing when the tool could not be found. */
  toolName?: string;
  frameId: string;
  invocationId: string;
  /** The input, as a JSON string. */
  input: string;
}

/** `WebMCP.toolResponded` (CDP): an invocation completed, failed or was canceled. */
export interface IToolRespondedEvent {
  invocationId: string;
  status: 'Completed' | 'Error' | 'Canceled';
  /** What `execute` returned (only when Completed). */
  output?: unknown;
  errorText?: string;
  /** A `Runtime.RemoteObject` of the exception `execute` threw. */
  exception?: { className?: string; description?: string };
}

export interface ICdpToolResult<T = unknown> extends IToolResult<T> {
  status: IToolRespondedEvent['status'];
  errorText?: string;
  /** The exception `execute` threw (a tool must never throw). */
  exception?: IToolRespondedEvent['exception'];
  invocationId: string;
}

export interface ICdpInvokeOptions {
  /** Sends `WebMCP.cancelInvocation` this many ms after the call started. */
  cancelAfterMs?: number;
  /** How long to wait for `toolResponded` (default 60 s). */
  timeout?: number;
}

/** A call made with `Agent.start`, still running or settled. */
export interface IPendingCall<T = unknown> {
  /** Aborts the call's signal, as a caller that gives up does. */
  abort(): Promise<void>;
  /**
   * Aborts the call's signal only while cell `index` of the current
   * notebook is still running, checked in the same page task as the abort;
   * whether it aborted. With `lastOutput`, a cell whose outputs already hold
   * that text counts as ended: the page marks a cell done only on its
   * execute reply, after the kernel's `idle` that can already have given
   * the agent its turn.
   */
  abortWhileRunning(index: number, lastOutput?: string): Promise<boolean>;
  /** Resolves when the caller's promise settles: a result, or the error it got. */
  settled(): Promise<ISettledCall<T>>;
}

/** How a call made with `Agent.start` ended for its caller. */
export interface ISettledCall<T = unknown> {
  result?: IToolResult<T>;
  /** The rejection the caller got (an AbortError once the signal fired). */
  error?: { name: string; message: string };
}

interface ISettledRaw {
  raw?: unknown;
  error?: { name: string; message: string };
}

/** The CDP WebMCP session of one page. */
class CdpWebMcp {
  static async attach(page: Page): Promise<CdpWebMcp> {
    const session = await page.context().newCDPSession(page);
    const bridge = new CdpWebMcp(session);
    session.on('WebMCP.toolResponded', event => bridge._onResponded(event));
    session.on('WebMCP.toolInvoked', event => bridge.invoked.push(event));
    await session.send('WebMCP.enable');
    return bridge;
  }

  private constructor(readonly session: CDPSession) {}

  /** Every `toolInvoked` event seen (any caller, Playwright's included). */
  readonly invoked: IToolInvokedEvent[] = [];

  async mainFrameId(): Promise<string> {
    const { frameTree } = await this.session.send('Page.getFrameTree');
    return frameTree.frame.id;
  }

  /** Resolves with the `toolResponded` event of `invocationId`. */
  responded(
    invocationId: string,
    timeout: number
  ): Promise<IToolRespondedEvent> {
    const early = this._responses.get(invocationId);
    if (early) {
      return Promise.resolve(early);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this._waiters.delete(invocationId);
        reject(
          new Error(
            `no WebMCP.toolResponded for ${invocationId} in ${timeout} ms`
          )
        );
      }, timeout);
      this._waiters.set(invocationId, event => {
        clearTimeout(timer);
        resolve(event);
      });
    });
  }

  async detach(): Promise<void> {
    await this.session.detach().catch(() => undefined);
  }

  private _onResponded(event: IToolRespondedEvent): void {
    const waiter = this._waiters.get(event.invocationId);
    if (waiter) {
      this._waiters.delete(event.invocationId);
      waiter(event);
    } else {
      // the response can arrive before invokeTool's own reply is handled
      this._responses.set(event.invocationId, event);
    }
  }

  private _waiters = new Map<string, (event: IToolRespondedEvent) => void>();
  private _responses = new Map<string, IToolRespondedEvent>();
}

/**
 * Keeps every tool the page registers with `document.modelContext` (in
 * `window.uiTestsTools`), so a test can call its `execute` the way the WebMCP
 * runtime does, with a signal the test controls: one that fires late, or
 * one of another realm (an iframe's, as an extension's isolated world hands
 * one). A native caller whose signal has fired gets an AbortError instead of
 * the result, so only this way can a test read what a call returned after
 * its signal fired. Every page of the browser context does it (Notebook 7
 * opens a notebook in a new tab); call it before `jupyter.open`.
 */
export async function keepRegisteredTools(
  context: BrowserContext
): Promise<void> {
  await context.addInitScript(() => {
    const context = document.modelContext;
    if (!context) {
      return;
    }
    const proto = Object.getPrototypeOf(context) as IWebMcpModelContext;
    const register = proto.registerTool;
    const kept = new Map<string, IWebMcpToolDefinition>();
    (window as unknown as { uiTestsTools: typeof kept }).uiTestsTools = kept;
    proto.registerTool = function (tool, options) {
      kept.set(tool.name, tool);
      return register.call(this, tool, options);
    };
  });
}

export class Agent {
  constructor(jupyter: JupyterApp) {
    this._jupyter = jupyter;
  }

  private get _page(): Page {
    return this._jupyter.page;
  }

  /** Whether the page has `document.modelContext` at all. */
  async hasModelContext(): Promise<boolean> {
    return this._page.evaluate(() => 'modelContext' in document);
  }

  /** Calls a tool through native WebMCP (Playwright's `page.webmcp`). */
  async call<T = unknown>(
    name: string,
    input: Record<string, unknown> = {},
    options: { timeout?: number } = {}
  ): Promise<IToolResult<T>> {
    const raw: unknown = await this._page.webmcp.callTool(name, input, {
      timeout: options.timeout ?? 60_000
    });
    return toToolResult<T>(raw);
  }

  /**
   * The registered tools as `document.modelContext.getTools()` reports them,
   * annotations included (Playwright's `page.webmcp.tools()` renames them).
   */
  async tools(): Promise<IToolInfo[]> {
    return this._page.evaluate(async () => {
      const parse = (schema: unknown) => {
        if (typeof schema !== 'string') {
          return schema;
        }
        try {
          return JSON.parse(schema) as unknown;
        } catch {
          return schema;
        }
      };
      const tools = await document.modelContext!.getTools();
      return tools.map(tool => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: parse(tool.inputSchema),
        annotations: tool.annotations ? { ...tool.annotations } : undefined
      }));
    });
  }

  async toolNames(): Promise<string[]> {
    return (await this.tools()).map(tool => tool.name);
  }

  /**
   * Waits until at least `expected` tools are registered, or until every
   * name in `expected` is; resolves with the registered names.
   */
  async waitForTools(
    expected: number | string[],
    options: { timeout?: number } = {}
  ): Promise<string[]> {
    // `getTools()` returns a promise, and `waitForFunction` takes any promise
    // for a truthy answer, so the polling happens here instead.
    const deadline =
      Date.now() + (options.timeout ?? this._jupyter.readyTimeout);
    let names: string[] = [];
    for (;;) {
      names = await this._page.evaluate(async () => {
        const context = document.modelContext;
        return context ? (await context.getTools()).map(tool => tool.name) : [];
      });
      const ok =
        typeof expected === 'number'
          ? names.length >= expected
          : expected.every(name => names.includes(name));
      if (ok) {
        return names;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `Timed out waiting for the tools ${JSON.stringify(expected)}; registered: ${JSON.stringify(names)}`
        );
      }
      await this._page.waitForTimeout(100);
    }
  }

  /**
   * Invokes a tool through the CDP `WebMCP` domain (`WebMCP.invokeTool`) and
   * waits for its `WebMCP.toolResponded` event; `cancelAfterMs` cancels the
   * invocation from the caller's side (`WebMCP.cancelInvocation`).
   */
  async invokeViaCdp<T = unknown>(
    name: string,
    input: Record<string, unknown> = {},
    options: ICdpInvokeOptions = {}
  ): Promise<ICdpToolResult<T>> {
    const cdp = await this.cdp();
    const frameId = await cdp.mainFrameId();
    const { invocationId } = await cdp.session.send('WebMCP.invokeTool', {
      frameId,
      toolName: name,
      // the protocol takes any JSON object; Playwright's typing says strings
      input: input as Record<string, string>
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (options.cancelAfterMs !== undefined) {
      timer = setTimeout(() => {
        void cdp.session
          .send('WebMCP.cancelInvocation', { invocationId })
          .catch(() => undefined);
      }, options.cancelAfterMs);
    }
    try {
      const event = await cdp.responded(
        invocationId,
        options.timeout ?? 60_000
      );
      return {
        ...toToolResult<T>(event.output),
        status: event.status,
        errorText: event.errorText,
        exception: event.exception,
        invocationId
      };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Starts a call through `document.modelContext.executeTool` with an
   * `AbortSignal` the test controls, as an agent that may give up does.
   * `abortFirst` aborts the signal before the call is made. Native WebMCP
   * rejects an aborted call with an AbortError: the caller never sees the
   * tool's result, so assert what the call did through its effects.
   */
  async start<T = unknown>(
    name: string,
    input: Record<string, unknown> = {},
    options: { abortFirst?: boolean } = {}
  ): Promise<IPendingCall<T>> {
    const page = this._page;
    const id = await page.evaluate(
      async ([toolName, args, abortFirst]) => {
        const context = document.modelContext;
        if (!context) {
          throw new Error('no document.modelContext');
        }
        const tool = (await context.getTools()).find(t => t.name === toolName);
        if (!tool) {
          throw new Error(`no tool ${toolName}`);
        }
        const holder = window as unknown as {
          uiTestsCalls?: Map<
            number,
            { controller: AbortController; outcome: Promise<unknown> }
          >;
        };
        const calls = (holder.uiTestsCalls ??= new Map());
        const controller = new AbortController();
        if (abortFirst) {
          controller.abort();
        }
        const outcome = context
          .executeTool(tool, args, { signal: controller.signal })
          .then(
            raw => ({ raw }),
            (error: unknown) => ({
              error: {
                name: (error as Error | null)?.name ?? 'Error',
                message: String((error as Error | null)?.message ?? error)
              }
            })
          );
        const callId = calls.size + 1;
        calls.set(callId, { controller, outcome });
        return callId;
      },
      [name, input, options.abortFirst ?? false] as const
    );
    type Holder = {
      uiTestsCalls: Map<
        number,
        { controller: AbortController; outcome: Promise<ISettledRaw> }
      >;
    };
    return {
      abort: async () => {
        await page.evaluate(callId => {
          (window as unknown as Holder).uiTestsCalls
            .get(callId)!
            .controller.abort();
        }, id);
      },
      abortWhileRunning: async (index: number, lastOutput?: string) =>
        page.evaluate(
          ([callId, cellIndex, last]) => {
            const model = window.uiTests.findNotebook(null)?.content.widgets[
              cellIndex
            ]?.model as
              | {
                  executionState?: string;
                  outputs?: { toJSON(): unknown[] };
                }
              | undefined;
            if (model?.executionState !== 'running') {
              return false;
            }
            if (
              last !== null &&
              JSON.stringify(model.outputs?.toJSON() ?? []).includes(last)
            ) {
              return false;
            }
            (window as unknown as Holder).uiTestsCalls
              .get(callId)!
              .controller.abort();
            return true;
          },
          [id, index, lastOutput ?? null] as const
        ),
      settled: async () => {
        const settled = await page.evaluate(
          callId =>
            (window as unknown as Holder).uiTestsCalls.get(callId)!.outcome,
          id
        );
        return settled.error
          ? { error: settled.error }
          : { result: toToolResult<T>(settled.raw) };
      }
    };
  }

  /** The CDP WebMCP session of the current page (enabled on first use). */
  async cdp(): Promise<CdpWebMcp> {
    const page = this._page;
    let bridge = this._cdp.get(page);
    if (!bridge) {
      bridge = await CdpWebMcp.attach(page);
      this._cdp.set(page, bridge);
    }
    return bridge;
  }

  async dispose(): Promise<void> {
    for (const bridge of this._cdp.values()) {
      await bridge.detach();
    }
    this._cdp.clear();
  }

  private _jupyter: JupyterApp;
  private _cdp = new Map<Page, CdpWebMcp>();
}
