import { ToolError } from '../../src/common/errors';
import {
  findModelContext,
  WebMcpRegistry,
  type IModelContext,
  type INativeTool
} from '../../src/webmcp/register';
import { type IToolDefinition, type IToolResult } from '../../src/webmcp/types';
import { InputValidator } from '../../src/webmcp/validate';
import { COMPILED_VALIDATORS } from '../../src/webmcp/validators.generated';

/**
 * A model context that behaves as Chromium 156's does: registerTool returns a
 * promise, rejects a duplicate or malformed name, and aborting the signal
 * unregisters the tool.
 */
class FakeModelContext implements IModelContext {
  tools = new Map<string, INativeTool>();
  rejectNames = new Set<string>();

  registerTool(
    tool: INativeTool,
    options?: { signal?: AbortSignal }
  ): Promise<void> {
    if (this.rejectNames.has(tool.name) || this.tools.has(tool.name)) {
      return Promise.reject(new Error('Duplicate tool name'));
    }
    this.tools.set(tool.name, tool);
    options?.signal?.addEventListener('abort', () =>
      this.tools.delete(tool.name)
    );
    return Promise.resolve();
  }

  async call(name: string, input: unknown, signal?: AbortSignal) {
    const tool = this.tools.get(name);
    if (!tool) {
      throw new Error(`no tool ${name}`);
    }
    return tool.execute(input, signal ? { signal } : undefined);
  }
}

function tool(
  name: string,
  handler: IToolDefinition['handler']
): IToolDefinition {
  return {
    name,
    title: name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, untrustedContentHint: true },
    handler
  };
}

const validator = new InputValidator(COMPILED_VALIDATORS);
const quiet = { warn: jest.fn() };

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await Promise.resolve();
  }
}

function parsed(result: IToolResult): unknown {
  return JSON.parse(result.content[0].text);
}

describe('WebMcpRegistry', () => {
  afterEach(() => {
    delete (document as { modelContext?: unknown }).modelContext;
    delete (navigator as { modelContext?: unknown }).modelContext;
    quiet.warn.mockReset();
  });

  it('registers every tool with its metadata and a signal', async () => {
    const context = new FakeModelContext();
    const registry = new WebMcpRegistry({
      tools: [
        tool('jupyter_get_context', async () => ({ ok: 1 })),
        tool('jupyter_get_output_selection', async () => null)
      ],
      validator,
      findModelContext: () => context,
      log: quiet
    });
    registry.start();
    await settle();
    expect([...context.tools.keys()]).toEqual([
      'jupyter_get_context',
      'jupyter_get_output_selection'
    ]);
    expect(registry.status).toEqual({
      available: true,
      pending: false,
      registered: ['jupyter_get_context', 'jupyter_get_output_selection'],
      failed: [],
      disabled: []
    });
    const native = context.tools.get('jupyter_get_context')!;
    expect(native.description).toBe('The jupyter_get_context tool.');
    expect(native.annotations).toEqual({
      readOnlyHint: true,
      untrustedContentHint: true
    });
    registry.dispose();
    expect(context.tools.size).toBe(0);
  });

  it('unregisters a tool turned off at once, and registers it again when back on', async () => {
    const context = new FakeModelContext();
    const registry = new WebMcpRegistry({
      tools: [
        tool('jupyter_get_context', async () => ({ ok: 1 })),
        tool('jupyter_get_output_selection', async () => null)
      ],
      validator,
      findModelContext: () => context,
      log: quiet
    });
    // turned off before WebMCP is found: never registered
    await registry.setDisabledTools(['jupyter_get_output_selection', 'nope']);
    registry.start();
    await settle();
    await registry.setDisabledTools(registry.disabledTools);
    expect([...context.tools.keys()]).toEqual(['jupyter_get_context']);
    expect(registry.status).toMatchObject({
      registered: ['jupyter_get_context'],
      disabled: ['jupyter_get_output_selection']
    });
    const statuses: string[][] = [];
    registry.statusChanged.connect((_, status) =>
      statuses.push(status.registered)
    );
    await registry.setDisabledTools(['jupyter_get_context']);
    expect([...context.tools.keys()]).toEqual(['jupyter_get_output_selection']);
    expect(registry.status).toMatchObject({
      registered: ['jupyter_get_output_selection'],
      disabled: ['jupyter_get_context'],
      failed: []
    });
    expect(statuses.at(-1)).toEqual(['jupyter_get_output_selection']);
    await registry.setDisabledTools([]);
    expect([...context.tools.keys()].sort()).toEqual([
      'jupyter_get_context',
      'jupyter_get_output_selection'
    ]);
    expect(registry.status.disabled).toEqual([]);
    // the re-registered tool answers
    const result = await context.call('jupyter_get_context', {});
    expect(parsed(result)).toEqual({ ok: 1 });
    registry.dispose();
    expect(context.tools.size).toBe(0);
  });

  it('reports a failed registration per tool and registers the others', async () => {
    const context = new FakeModelContext();
    context.rejectNames.add('jupyter_get_context');
    const registry = new WebMcpRegistry({
      tools: [
        tool('jupyter_get_context', async () => 1),
        tool('jupyter_get_output_selection', async () => 2)
      ],
      validator,
      findModelContext: () => context,
      log: quiet
    });
    registry.start();
    await settle();
    expect(registry.status.registered).toEqual([
      'jupyter_get_output_selection'
    ]);
    expect(registry.status.failed).toEqual([
      { name: 'jupyter_get_context', reason: 'Duplicate tool name' }
    ]);
    expect(quiet.warn).toHaveBeenCalledTimes(1);
    expect(quiet.warn.mock.calls[0][0]).toContain('jupyter_get_context');
    registry.dispose();
  });

  it('finds a polyfill installed after start-up, then stops looking', async () => {
    jest.useFakeTimers();
    try {
      let context: FakeModelContext | null = null;
      const find = jest.fn(() => context);
      const registry = new WebMcpRegistry({
        tools: [tool('jupyter_get_context', async () => 1)],
        validator,
        findModelContext: find,
        recheckDelaysMs: [10, 20, 40],
        log: quiet
      });
      registry.start();
      expect(registry.status).toMatchObject({
        available: false,
        pending: true
      });
      jest.advanceTimersByTime(10);
      context = new FakeModelContext();
      jest.advanceTimersByTime(20);
      jest.useRealTimers();
      await settle();
      expect(context.tools.has('jupyter_get_context')).toBe(true);
      expect(registry.status.available).toBe(true);
      registry.dispose();
    } finally {
      jest.useRealTimers();
    }
  });

  it('gives up after the bounded re-checks when there is no WebMCP', () => {
    jest.useFakeTimers();
    try {
      const find = jest.fn(() => null);
      const registry = new WebMcpRegistry({
        tools: [tool('jupyter_get_context', async () => 1)],
        validator,
        findModelContext: find,
        recheckDelaysMs: [10, 20],
        log: quiet
      });
      registry.start();
      jest.advanceTimersByTime(10_000);
      expect(find).toHaveBeenCalledTimes(3);
      expect(registry.status).toEqual({
        available: false,
        pending: false,
        registered: [],
        failed: [],
        disabled: []
      });
      expect(quiet.warn).not.toHaveBeenCalled();
      registry.dispose();
    } finally {
      jest.useRealTimers();
    }
  });

  it('passes the caller signal to the handler and validates input first', async () => {
    const context = new FakeModelContext();
    let seen: AbortSignal | null = null;
    const handler = jest.fn(async (_args, call: { signal: AbortSignal }) => {
      seen = call.signal;
      return { done: true };
    });
    const registry = new WebMcpRegistry({
      tools: [tool('jupyter_get_context', handler)],
      validator,
      findModelContext: () => context,
      log: quiet
    });
    registry.start();
    await settle();
    const controller = new AbortController();
    const ok = await context.call('jupyter_get_context', {}, controller.signal);
    expect(ok.isError).toBeUndefined();
    expect(ok.structuredContent).toEqual({ done: true });
    expect(seen).toBe(controller.signal);

    const bad = await context.call('jupyter_get_context', { extra: 1 });
    expect(bad.isError).toBe(true);
    expect(parsed(bad)).toMatchObject({ error: 'INVALID_ARGUMENT' });
    expect(handler).toHaveBeenCalledTimes(1);
    registry.dispose();
  });

  it('follows a caller signal from another realm (an iframe, an isolated world)', async () => {
    const context = new FakeModelContext();
    let seen: AbortSignal | null = null;
    const registry = new WebMcpRegistry({
      tools: [
        tool(
          'jupyter_get_context',
          async (_args, call: { signal: AbortSignal }) => {
            seen = call.signal;
            await new Promise(resolve =>
              call.signal.addEventListener('abort', resolve)
            );
            return { abortedWith: String(call.signal.reason) };
          }
        )
      ],
      validator,
      findModelContext: () => context,
      log: quiet
    });
    registry.start();
    await settle();
    const frame = document.createElement('iframe');
    document.body.appendChild(frame);
    const realm = frame.contentWindow as unknown as {
      AbortController: typeof AbortController;
    };
    const foreign = new realm.AbortController();
    const pending = context.call(
      'jupyter_get_context',
      {},
      foreign.signal as AbortSignal
    );
    await settle();
    expect(seen).not.toBeNull();
    expect(seen!.aborted).toBe(false);
    foreign.abort('caller gave up');
    const result = await pending;
    expect(result.structuredContent).toEqual({ abortedWith: 'caller gave up' });
    registry.dispose();
    frame.remove();
  });

  it('never throws: ToolErrors and unexpected exceptions become envelopes', async () => {
    const context = new FakeModelContext();
    const secret = new Error('boom');
    secret.stack = 'Error: boom\n    at secret/location.js:1:1';
    const registry = new WebMcpRegistry({
      tools: [
        tool('jupyter_get_context', async () => {
          throw new ToolError('NO_ACTIVE_NOTEBOOK', 'No notebook is open.');
        }),
        tool('jupyter_get_output_selection', async () => {
          throw secret;
        })
      ],
      validator,
      findModelContext: () => context,
      log: quiet
    });
    const calls: Array<string | null> = [];
    registry.callChanged.connect((_, call) => calls.push(call.outcome));
    registry.start();
    await settle();
    const expected = await context.call('jupyter_get_context', {});
    expect(expected.structuredContent).toEqual({
      error: 'NO_ACTIVE_NOTEBOOK',
      message: 'No notebook is open.'
    });
    const unexpected = await context.call('jupyter_get_output_selection', {});
    expect(unexpected.isError).toBe(true);
    expect(unexpected.structuredContent).toEqual({
      error: 'INTERNAL_ERROR',
      message: 'boom'
    });
    expect(unexpected.content[0].text).not.toContain('secret/location');
    expect(calls).toEqual([null, 'NO_ACTIVE_NOTEBOOK', null, 'INTERNAL_ERROR']);
    expect(registry.activeCalls).toEqual([]);
    registry.dispose();
  });

  it('records the outcome the envelope carries, not ok for an unserializable payload', async () => {
    const context = new FakeModelContext();
    const registry = new WebMcpRegistry({
      tools: [
        tool('jupyter_get_context', async () => {
          const cyclic: Record<string, unknown> = {};
          cyclic.self = cyclic;
          return cyclic;
        }),
        tool('jupyter_get_output_selection', async () => ({ big: 10n }))
      ],
      validator,
      findModelContext: () => context,
      log: quiet
    });
    registry.start();
    await settle();
    const cyclic = await context.call('jupyter_get_context', {});
    const bigint = await context.call('jupyter_get_output_selection', {});
    expect(cyclic.isError).toBe(true);
    expect(bigint.isError).toBe(true);
    expect(registry.history.map(call => call.outcome)).toEqual([
      'INTERNAL_ERROR',
      'INTERNAL_ERROR'
    ]);
    registry.dispose();
  });

  it('adds up the secrets a call withheld, and drops reports after it ended', async () => {
    const context = new FakeModelContext();
    let late: (() => void) | null = null;
    const registry = new WebMcpRegistry({
      tools: [
        tool('jupyter_get_context', async (_args, call) => {
          call.reportWithheld(2);
          call.reportWithheld(0);
          call.reportWithheld(3);
          late = () => call.reportWithheld(7);
          return {};
        })
      ],
      validator,
      findModelContext: () => context,
      log: quiet
    });
    registry.start();
    await settle();
    await context.call('jupyter_get_context', {});
    late!();
    expect(registry.history.map(call => call.withheld)).toEqual([5]);
    registry.dispose();
  });

  it('keeps a bounded history of finished calls with their target notebook and cells', async () => {
    const context = new FakeModelContext();
    const seen: Array<{ id: number; cells: string[]; kind: string | null }> =
      [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>(resolve => (release = resolve));
    const registry = new WebMcpRegistry({
      tools: [
        tool('jupyter_get_context', async () => ({})),
        {
          ...tool('jupyter_save_notebook', async (_args, call) => {
            call.reportCell('b.ipynb', 'c1', 'reading');
            call.reportProgress({ message: 'half', done: 1, total: 2 });
            await gate;
            call.reportCell('b.ipynb', 'c2', 'editing');
            call.reportCell('b.ipynb', 'c1', 'running');
            return { saved: true };
          }),
          inputSchema: {
            type: 'object',
            properties: { notebookPath: { type: ['string', 'null'] } }
          }
        }
      ],
      validator,
      findModelContext: () => context,
      log: quiet,
      historySize: 3
    });
    registry.callChanged.connect((_, call) =>
      seen.push({
        id: call.id,
        cells: call.cellIds,
        kind: call.activity?.kind ?? null
      })
    );
    registry.start();
    await settle();
    const pending = context.call('jupyter_save_notebook', {
      notebookPath: 'b.ipynb'
    });
    await settle();
    // live while it runs: the active call has its target, cell and progress
    expect(registry.activeCalls).toHaveLength(1);
    expect(registry.activeCalls[0]).toMatchObject({
      tool: 'jupyter_save_notebook',
      notebookPath: 'b.ipynb',
      cellIds: ['c1'],
      activity: { notebookPath: 'b.ipynb', cellId: 'c1', kind: 'reading' },
      progress: { message: 'half', done: 1, total: 2 },
      finishedAt: null,
      outcome: null
    });
    expect(registry.history).toEqual([]);
    release();
    await pending;
    const [done] = registry.history;
    expect(done).toMatchObject({
      tool: 'jupyter_save_notebook',
      notebookPath: 'b.ipynb',
      cellIds: ['c1', 'c2'],
      activity: null,
      outcome: 'ok'
    });
    expect(done.finishedAt).toBeGreaterThanOrEqual(done.startedAt);
    expect(seen.map(entry => entry.kind)).toEqual([
      null,
      'reading',
      'reading',
      'editing',
      'running',
      null
    ]);
    // the history keeps the most recent `historySize` calls, oldest first
    for (let i = 0; i < 4; i++) {
      await context.call('jupyter_get_context', {});
    }
    expect(registry.history).toHaveLength(3);
    expect(registry.history.map(call => call.tool)).toEqual([
      'jupyter_get_context',
      'jupyter_get_context',
      'jupyter_get_context'
    ]);
    expect(registry.history[2].id).toBe(done.id + 4);
    // what the history hands out is a copy
    (registry.history[0].cellIds as string[]).push('x');
    expect(registry.history[0].cellIds).toEqual([]);
    registry.dispose();
  });

  it('unregisters through the handle older runtimes return', async () => {
    const unregister = jest.fn();
    const context: IModelContext = {
      registerTool: () => ({ unregister })
    };
    const registry = new WebMcpRegistry({
      tools: [tool('jupyter_get_context', async () => 1)],
      validator,
      findModelContext: () => context,
      log: quiet
    });
    registry.start();
    await settle();
    expect(registry.status.registered).toEqual(['jupyter_get_context']);
    registry.dispose();
    expect(unregister).toHaveBeenCalledTimes(1);
  });
});

describe('findModelContext', () => {
  afterEach(() => {
    delete (document as { modelContext?: unknown }).modelContext;
    delete (navigator as { modelContext?: unknown }).modelContext;
  });

  it('is null without WebMCP', () => {
    expect(findModelContext()).toBeNull();
  });

  it('prefers document.modelContext and falls back to navigator.modelContext', () => {
    const fromNavigator = new FakeModelContext();
    Object.defineProperty(navigator, 'modelContext', {
      value: fromNavigator,
      configurable: true
    });
    expect(findModelContext()).toBe(fromNavigator);
    const fromDocument = new FakeModelContext();
    Object.defineProperty(document, 'modelContext', {
      value: fromDocument,
      configurable: true
    });
    expect(findModelContext()).toBe(fromDocument);
  });

  it('ignores an object without registerTool', () => {
    Object.defineProperty(document, 'modelContext', {
      value: {},
      configurable: true
    });
    expect(findModelContext()).toBeNull();
  });
});
