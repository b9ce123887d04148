/**
 * The in-app assistant's tool registry holds exactly the tools the owner has
 * not turned off, and each call from it goes through the WebMCP registry's
 * own path: validation, the call stream, the bounded envelope, the abort.
 */
import { Signal } from '@lumino/signaling';

import {
  aiSdkTool,
  type IAiSdkTool,
  TOOL_SOURCE
} from '../../src/assistants/ai-sdk-tool';
import { ToolMirror } from '../../src/assistants/mirror';
import { ToolError } from '../../src/common/errors';
import { LIMITS } from '../../src/limits';
import { type IWebMcpTool } from '../../src/tokens';
import { WebMcpRegistry } from '../../src/webmcp/register';
import { InputValidator } from '../../src/webmcp/validate';
import { COMPILED_VALIDATORS } from '../../src/webmcp/validators.generated';

/** A tool registry as jupyter-ai-lite's and jupyterlite-ai's behave. */
class AssistantRegistry {
  readonly toolsChanged = new Signal<this, void>(this);
  readonly tools: Record<string, IAiSdkTool> = {};
  add(name: string, tool: IAiSdkTool): void {
    this.tools[name] = tool;
    this.toolsChanged.emit();
  }
  get(name: string): IAiSdkTool | null {
    return this.tools[name] ?? null;
  }
  remove(name: string): boolean {
    if (!(name in this.tools)) {
      return false;
    }
    delete this.tools[name];
    this.toolsChanged.emit();
    return true;
  }
}

function echo(name: string, handler?: IWebMcpTool['handler']): IWebMcpTool {
  return {
    name,
    title: `Echo ${name}`,
    description: `Echo the text (${name}).`,
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string' },
        times: { type: 'integer', minimum: 1, default: 1 }
      },
      required: ['text'],
      additionalProperties: false
    },
    annotations: { readOnlyHint: true, untrustedContentHint: false },
    handler:
      handler ?? (async args => ({ echoed: args.text, times: args.times }))
  };
}

describe('ToolMirror', () => {
  let registry: WebMcpRegistry;
  let assistant: AssistantRegistry;
  let mirror: ToolMirror;

  beforeEach(() => {
    // no model context at all: a browser without WebMCP
    registry = new WebMcpRegistry({
      validator: new InputValidator(COMPILED_VALIDATORS),
      findModelContext: () => null,
      recheckDelaysMs: [],
      log: { warn: jest.fn() }
    });
    registry.start();
    registry.addTool(echo('example_a'));
    registry.addTool(echo('example_b'));
    assistant = new AssistantRegistry();
    mirror = new ToolMirror(registry, assistant);
  });

  afterEach(() => {
    mirror.dispose();
    registry.dispose();
  });

  it('adds every tool with its description, title and JSON schema, without WebMCP', () => {
    expect(registry.status.available).toBe(false);
    expect(Object.keys(assistant.tools)).toEqual(['example_a', 'example_b']);
    const tool = assistant.tools.example_a;
    expect(tool.description).toBe('Echo the text (example_a).');
    expect(tool.metadata).toEqual({
      title: 'Echo example_a',
      source: TOOL_SOURCE
    });
    const standard = tool.inputSchema['~standard'];
    expect(standard.version).toBe(1);
    expect(standard.jsonSchema.input({ target: 'draft-07' })).toEqual(
      registry.offeredTools[0].inputSchema
    );
    // validation is the call's: anything passes here
    expect(standard.validate({ nonsense: 1 })).toEqual({
      value: { nonsense: 1 }
    });
  });

  it('removes a tool the owner turns off, and adds it back when turned on', async () => {
    await registry.setDisabledTools(['example_b']);
    expect(Object.keys(assistant.tools)).toEqual(['example_a']);
    await registry.setDisabledTools([]);
    expect(Object.keys(assistant.tools).sort()).toEqual([
      'example_a',
      'example_b'
    ]);
  });

  it('follows tools added and removed later', () => {
    const added = registry.addTool(echo('example_c'));
    expect(assistant.get('example_c')).not.toBeNull();
    added.dispose();
    expect(assistant.get('example_c')).toBeNull();
    expect(mirror.names.sort()).toEqual(['example_a', 'example_b']);
  });

  it('leaves alone a tool of the same name that someone else put there', () => {
    const theirs = aiSdkTool(registry.offeredTools[0]);
    assistant.add('example_a', theirs);
    mirror.dispose();
    expect(assistant.get('example_a')).toBe(theirs);
    expect(assistant.get('example_b')).toBeNull();
  });

  it('runs a call through validation and the call stream, returning the envelope text', async () => {
    const text = await assistant.tools.example_a.execute(
      { text: 'hi' },
      { toolCallId: 'call-1' }
    );
    expect(JSON.parse(text)).toEqual({ echoed: 'hi', times: 1 });
    const invalid = JSON.parse(
      await assistant.tools.example_a.execute({ times: 0 })
    );
    expect(invalid.error).toBe('INVALID_ARGUMENT');
    expect(registry.history.map(call => [call.tool, call.outcome])).toEqual([
      ['example_a', 'ok'],
      ['example_a', 'INVALID_ARGUMENT']
    ]);
  });

  it("aborts the call when the assistant's turn is stopped", async () => {
    registry.addTool(
      echo(
        'example_wait',
        (_args, context) =>
          new Promise((_resolve, reject) =>
            context.signal.addEventListener('abort', () =>
              reject(new ToolError('ABORTED', 'The caller aborted the call.'))
            )
          )
      )
    );
    const controller = new AbortController();
    const pending = assistant.tools.example_wait.execute(
      { text: 'x' },
      { abortSignal: controller.signal }
    );
    await Promise.resolve();
    expect(registry.activeCalls.map(call => call.tool)).toEqual([
      'example_wait'
    ]);
    controller.abort();
    expect(JSON.parse(await pending).error).toBe('ABORTED');
    expect(registry.activeCalls).toEqual([]);
  });

  it('hands the model no more than the envelope bound', async () => {
    registry.addTool(
      echo('example_big', async () => ({
        text: 'x'.repeat(LIMITS.MAX_TOTAL_RESULT_BYTES * 2)
      }))
    );
    const text = await assistant.tools.example_big.execute({ text: 'x' });
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(
      LIMITS.MAX_TOTAL_RESULT_BYTES
    );
  });

  it('refuses, without running, a call to a tool turned off that a chat still holds', async () => {
    const handler = jest.fn(async () => ({ ran: true }));
    registry.addTool(echo('example_held', handler));
    // an open chat keeps the tool object it started with
    const held = assistant.tools.example_held;
    await registry.setDisabledTools(['example_held']);
    expect(assistant.get('example_held')).toBeNull();
    const refused = JSON.parse(await held.execute({ text: 'x' }));
    expect(refused).toMatchObject({
      error: 'WEBMCP_UNAVAILABLE',
      tool: 'example_held'
    });
    expect(handler).not.toHaveBeenCalled();
    await registry.setDisabledTools([]);
    expect(JSON.parse(await held.execute({ text: 'x' }))).toEqual({
      ran: true
    });
  });

  it('drops every tool when the registry is disposed', () => {
    registry.dispose();
    expect(Object.keys(assistant.tools)).toEqual([]);
  });
});
