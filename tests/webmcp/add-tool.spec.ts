/**
 * IWebMcpRegistry.addTool: a tool another extension adds goes through what
 * ours go through (validation with defaults, the envelope, the call
 * history, the owner's turned-off tools, unregistration), and a bad
 * definition is refused when added. Also the notebooks helper it offers.
 */
import { NotebookTracker } from '@jupyterlab/notebook';
import { NBTestUtils } from '@jupyterlab/notebook/lib/testutils';
import { Widget } from '@lumino/widgets';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import { ToolError } from '../../src/common/errors';
import { type IJupyterEnvironment } from '../../src/jupyter/environment';
import { NotebookResolver } from '../../src/jupyter/notebook';
import { type IWebMcpTool } from '../../src/tokens';
import { compileToolSchema } from '../../src/webmcp/compile';
import { defineTool } from '../../src/webmcp/define';
import { toolNotebooks } from '../../src/webmcp/notebooks';
import {
  WebMcpRegistry,
  type IModelContext,
  type INativeTool
} from '../../src/webmcp/register';
import { TOOL_NAMES } from '../../src/webmcp/specs';
import { type IToolResult } from '../../src/webmcp/types';
import { InputValidator } from '../../src/webmcp/validate';
import { COMPILED_VALIDATORS } from '../../src/webmcp/validators.generated';

/** Registers as Chromium's does: a promise, duplicates refused, abort unregisters. */
class FakeModelContext implements IModelContext {
  tools = new Map<string, INativeTool>();

  registerTool(
    tool: INativeTool,
    options?: { signal?: AbortSignal }
  ): Promise<void> {
    if (this.tools.has(tool.name)) {
      return Promise.reject(new Error('Duplicate tool name'));
    }
    this.tools.set(tool.name, tool);
    options?.signal?.addEventListener('abort', () =>
      this.tools.delete(tool.name)
    );
    return Promise.resolve();
  }

  async call(name: string, input: unknown): Promise<IToolResult> {
    const tool = this.tools.get(name);
    if (!tool) {
      throw new Error(`no tool ${name}`);
    }
    return tool.execute(input);
  }
}

/** A word count tool, as a third-party extension would write it. */
function wordCount(
  handler?: IWebMcpTool['handler'],
  name = 'example_word_count'
): IWebMcpTool {
  return {
    name,
    title: 'Count words',
    description: 'Count the words of a text.',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string' },
        unique: { type: 'boolean', default: false },
        notebookPath: { type: ['string', 'null'] }
      },
      required: ['text'],
      additionalProperties: false
    },
    annotations: { readOnlyHint: true, untrustedContentHint: false },
    handler:
      handler ??
      (async args => {
        const words = String(args.text).split(/\s+/).filter(Boolean);
        return {
          count: args.unique ? new Set(words).size : words.length,
          unique: args.unique
        };
      })
  };
}

const quiet = { warn: jest.fn() };

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
  }
}

function started(context: FakeModelContext): WebMcpRegistry {
  const registry = new WebMcpRegistry({
    validator: new InputValidator(COMPILED_VALIDATORS),
    findModelContext: () => context,
    log: quiet
  });
  registry.start();
  return registry;
}

function payload(result: IToolResult): Record<string, unknown> {
  return JSON.parse(result.content[0].text);
}

describe('IWebMcpRegistry.addTool', () => {
  let context: FakeModelContext;
  let registry: WebMcpRegistry;

  beforeEach(() => {
    context = new FakeModelContext();
    registry = started(context);
  });

  afterEach(() => {
    registry.dispose();
  });

  it('registers a tool added after start, with its metadata', async () => {
    const added = registry.addTool(wordCount());
    await settle();
    const native = context.tools.get('example_word_count');
    expect(native).toMatchObject({
      title: 'Count words',
      description: 'Count the words of a text.',
      annotations: { readOnlyHint: true, untrustedContentHint: false }
    });
    expect(registry.status.registered).toEqual(['example_word_count']);
    expect(registry.tools.map(tool => tool.name)).toEqual([
      'example_word_count'
    ]);
    added.dispose();
  });

  it('validates its arguments with the app’s ajv: defaults filled, a missing field refused', async () => {
    registry.addTool(wordCount());
    await settle();
    const ok = await context.call('example_word_count', { text: 'a b a' });
    expect(ok.isError).toBeUndefined();
    expect(payload(ok)).toEqual({ count: 3, unique: false });

    const unique = await context.call('example_word_count', {
      text: 'a b a',
      unique: true
    });
    expect(payload(unique)).toEqual({ count: 2, unique: true });

    const missing = await context.call('example_word_count', {});
    expect(missing.isError).toBe(true);
    expect(payload(missing)).toMatchObject({
      error: 'INVALID_ARGUMENT',
      field: 'text',
      rule: 'required'
    });

    const extra = await context.call('example_word_count', {
      text: 'a',
      colour: 'red'
    });
    expect(payload(extra)).toMatchObject({
      error: 'INVALID_ARGUMENT',
      field: 'colour',
      rule: 'additionalProperties'
    });

    const wrongType = await context.call('example_word_count', { text: 3 });
    expect(payload(wrongType)).toMatchObject({
      error: 'INVALID_ARGUMENT',
      field: 'text',
      rule: 'type'
    });
  });

  it('turns what the handler throws into an error result, and lists every call', async () => {
    registry.addTool(
      wordCount(async () => {
        throw new ToolError('INVALID_ARGUMENT', 'The text is too long.', {
          field: 'text',
          rule: 'maxBytes'
        });
      }, 'example_failing')
    );
    registry.addTool(
      wordCount(async () => {
        throw new TypeError('boom');
      }, 'example_crashing')
    );
    await settle();
    const failing = await context.call('example_failing', {
      text: 'x',
      notebookPath: 'a.ipynb'
    });
    expect(failing.isError).toBe(true);
    expect(payload(failing)).toEqual({
      error: 'INVALID_ARGUMENT',
      message: 'The text is too long.',
      field: 'text',
      rule: 'maxBytes'
    });
    const crashing = await context.call('example_crashing', { text: 'x' });
    expect(payload(crashing)).toEqual({
      error: 'INTERNAL_ERROR',
      message: 'boom'
    });
    const calls = registry.history.map(call => ({
      tool: call.tool,
      notebookPath: call.notebookPath,
      outcome: call.outcome
    }));
    expect(calls).toEqual([
      {
        tool: 'example_failing',
        notebookPath: 'a.ipynb',
        outcome: 'INVALID_ARGUMENT'
      },
      {
        tool: 'example_crashing',
        notebookPath: null,
        outcome: 'INTERNAL_ERROR'
      }
    ]);
  });

  it('honours the owner’s turned-off tools, whenever the tool is added', async () => {
    await registry.setDisabledTools(['example_word_count']);
    registry.addTool(wordCount());
    await settle();
    expect(context.tools.has('example_word_count')).toBe(false);
    expect(registry.status.disabled).toEqual(['example_word_count']);

    await registry.setDisabledTools([]);
    expect(context.tools.has('example_word_count')).toBe(true);
    await registry.setDisabledTools(['example_word_count']);
    expect(context.tools.has('example_word_count')).toBe(false);
  });

  it('waits for registration to start: nothing is registered before', async () => {
    const later = new WebMcpRegistry({
      validator: new InputValidator(COMPILED_VALIDATORS),
      findModelContext: () => context,
      log: quiet
    });
    later.addTool(wordCount());
    await settle();
    expect(context.tools.size).toBe(0);
    later.start();
    await settle();
    expect([...context.tools.keys()]).toEqual(['example_word_count']);
    later.dispose();
    expect(context.tools.size).toBe(0);
  });

  it('unregisters a tool when its disposable is disposed; the name is free again', async () => {
    const added = registry.addTool(wordCount());
    await settle();
    added.dispose();
    await settle();
    expect(context.tools.has('example_word_count')).toBe(false);
    expect(registry.toolNames).toEqual([]);
    expect(registry.status.registered).toEqual([]);
    // a second dispose is harmless
    added.dispose();
    registry.addTool(wordCount());
    await settle();
    expect(context.tools.has('example_word_count')).toBe(true);
  });

  it('keeps ours in the specification’s order and the others after them', async () => {
    registry.addTool(wordCount());
    registry.addTool(
      defineTool('jupyter_export_notebook', async () => ({ ok: true }))
    );
    registry.addTool(defineTool('jupyter_get_context', async () => ({})));
    expect(registry.toolNames).toEqual([
      'jupyter_get_context',
      'jupyter_export_notebook',
      'example_word_count'
    ]);
  });

  it('refuses a bad definition when it is added, saying what is wrong', () => {
    const bad = (change: Partial<Record<keyof IWebMcpTool, unknown>>) => () =>
      registry.addTool({ ...wordCount(), ...change } as IWebMcpTool);
    expect(bad({ name: 'has space' })).toThrow(/its name must be/);
    expect(bad({ name: '' })).toThrow(/its name must be/);
    expect(bad({ name: 'x'.repeat(129) })).toThrow(/its name must be/);
    expect(bad({ name: 'jupyter_word_count' })).toThrow(
      /"jupyter_" are kept for the tools of the specification/
    );
    expect(bad({ title: ' ' })).toThrow(/its title must be a non-empty/);
    expect(bad({ description: 3 })).toThrow(/its description must be/);
    expect(bad({ inputSchema: { type: 'string' } })).toThrow(
      /JSON Schema of type "object"/
    );
    expect(bad({ annotations: { readOnlyHint: true } })).toThrow(
      /readOnlyHint and untrustedContentHint/
    );
    expect(bad({ handler: 'no' })).toThrow(/its handler must be a function/);
    registry.addTool(wordCount());
    expect(() => registry.addTool(wordCount())).toThrow(/already added/);
    expect(registry.toolNames).toEqual(['example_word_count']);
  });

  it('takes no tool once disposed', () => {
    registry.dispose();
    expect(() => registry.addTool(wordCount())).toThrow(/disposed/);
  });

  it('reserves every name of the specification for the specification', () => {
    for (const name of TOOL_NAMES) {
      expect(name.startsWith('jupyter_')).toBe(true);
    }
  });
});

describe('compileToolSchema', () => {
  it('reports the first error as a generated validator does, and fills defaults in', () => {
    const validate = compileToolSchema('example', {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, default: 10 },
        deep: {
          type: 'object',
          properties: { on: { type: 'boolean', default: true } }
        }
      },
      additionalProperties: false
    });
    const data: Record<string, unknown> = { deep: {} };
    expect(validate(data)).toBe(true);
    expect(data).toEqual({ limit: 10, deep: { on: true } });
    expect(validate({ limit: 0 })).toBe(false);
    expect(validate.errors).toEqual([
      expect.objectContaining({
        keyword: 'minimum',
        instancePath: '/limit',
        schemaPath: '#/properties/limit/minimum'
      })
    ]);
  });

  it('compiles the same name again with the new schema', () => {
    const first = compileToolSchema('again', {
      type: 'object',
      properties: { a: { type: 'string' } }
    });
    const second = compileToolSchema('again', {
      type: 'object',
      properties: { a: { type: 'number' } }
    });
    expect(first({ a: 'x' })).toBe(true);
    expect(second({ a: 'x' })).toBe(false);
  });
});

describe('IWebMcpRegistry.notebooks', () => {
  it('resolves with the owner’s access: hidden cells left out, a read-only cell refused for a write', async () => {
    const tracker = new NotebookTracker({ namespace: 'add-tool-spec' });
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        {
          id: 'open',
          cell_type: 'code',
          source: 'a',
          metadata: {},
          outputs: [],
          execution_count: null
        },
        {
          id: 'secret',
          cell_type: 'code',
          source: 'b',
          metadata: { [ACCESS_METADATA_KEY]: { version: 1, access: 'none' } },
          outputs: [],
          execution_count: null
        },
        {
          id: 'frozen',
          cell_type: 'markdown',
          source: 'c',
          metadata: { [ACCESS_METADATA_KEY]: { version: 1, access: 'read' } }
        }
      ]
    });
    const panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    await tracker.add(panel);
    const env = {
      tracker,
      multiDocument: true,
      contents: {
        get: async () => {
          throw { response: { status: 404 } };
        }
      }
    } as unknown as IJupyterEnvironment;
    const notebooks = toolNotebooks(new NotebookResolver(env));

    const notebook = await notebooks.resolve(null, 'read');
    expect(notebook.path).toBe(panel.context.localPath);
    expect(notebook.panel).toBe(panel);
    expect(notebook.visibleCells().map(cell => cell.id)).toEqual([
      'open',
      'frozen'
    ]);
    expect(notebook.cell('frozen', 'read').source).toBe('c');
    expect(() => notebook.cell('frozen', 'write')).toThrow(
      expect.objectContaining({ code: 'CELL_ACCESS_DENIED' })
    );
    expect(() => notebook.cell('secret', 'read')).toThrow(
      expect.objectContaining({ code: 'CELL_NOT_FOUND' })
    );
    expect(() => notebook.cell('nowhere', 'read')).toThrow(
      expect.objectContaining({ code: 'CELL_NOT_FOUND' })
    );
    await expect(notebooks.resolve('missing.ipynb', 'read')).rejects.toEqual(
      expect.objectContaining({ code: 'NOTEBOOK_NOT_FOUND' })
    );
    await expect(
      notebooks.resolve(null, 'delete' as unknown as 'read')
    ).rejects.toThrow(/'read' or 'write'/);
    notebook.release();
    panel.dispose();
    tracker.dispose();
  });
});
