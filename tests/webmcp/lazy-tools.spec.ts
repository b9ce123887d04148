/**
 * Tools registered from their definitions, with handlers and validators
 * loaded at the first call (docs/architecture.md, "A small start"), and the
 * registry's word on when its start is over.
 */
import { Parts } from '../../src/common/parts';
import { defineLazyTools, type ToolHandlers } from '../../src/webmcp/define';
import { WebMcpRegistry, type INativeTool } from '../../src/webmcp/register';
import { TOOL_SPECS } from '../../src/webmcp/specs';
import { type IToolResult } from '../../src/webmcp/types';
import { InputValidator } from '../../src/webmcp/validate';
import { COMPILED_VALIDATORS } from '../../src/webmcp/validators.generated';

type Names = 'jupyter_get_context' | 'jupyter_save_notebook';
const NAMES: Names[] = ['jupyter_get_context', 'jupyter_save_notebook'];

function parsed(result: IToolResult): unknown {
  return JSON.parse(result.content[0].text);
}

describe('tools whose handlers come at the first call', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    warn.mockRestore();
  });

  it("are defined from the specification's entries alone, and load their handlers once, at the first call", async () => {
    const handlers: ToolHandlers<Names> = {
      jupyter_get_context: async () => ({ context: true }),
      jupyter_save_notebook: async args => ({ saved: args.notebookPath })
    };
    const load = jest.fn(async () => handlers);
    const parts = new Parts();
    const tools = defineLazyTools(
      NAMES,
      parts.lazy('the notebook tools', load)
    );
    expect(tools.map(tool => tool.name)).toEqual(NAMES);
    const spec = TOOL_SPECS.jupyter_save_notebook;
    expect(tools[1]).toMatchObject({
      title: spec.title,
      description: spec.description,
      annotations: spec.annotations,
      inputSchema: spec.inputSchema
    });
    expect(load).not.toHaveBeenCalled();

    const registry = new WebMcpRegistry({
      tools,
      validator: new InputValidator(COMPILED_VALIDATORS),
      findModelContext: () => null,
      recheckDelaysMs: []
    });
    expect(
      parsed(await registry.execute(tools[1], { notebookPath: 'a.ipynb' }))
    ).toEqual({ saved: 'a.ipynb' });
    expect(parsed(await registry.execute(tools[0], {}))).toEqual({
      context: true
    });
    expect(load).toHaveBeenCalledTimes(1);
    registry.dispose();
  });

  it('answer WEBMCP_UNAVAILABLE naming the part when the chunk cannot be fetched, and work at the next call once it can', async () => {
    let offline = true;
    const parts = new Parts();
    const tools = defineLazyTools(
      NAMES,
      parts.lazy('the notebook tools', async () => {
        if (offline) {
          throw new Error('Loading chunk 344 failed.');
        }
        return {
          jupyter_get_context: async () => ({ context: true }),
          jupyter_save_notebook: async () => ({ saved: true })
        } as ToolHandlers<Names>;
      })
    );
    const registry = new WebMcpRegistry({
      tools,
      validator: new InputValidator(COMPILED_VALIDATORS),
      findModelContext: () => null,
      recheckDelaysMs: []
    });
    const failed = await registry.execute(tools[0], {});
    expect(failed.isError).toBe(true);
    expect(parsed(failed)).toEqual({
      error: 'WEBMCP_UNAVAILABLE',
      message:
        'The notebook tools could not be loaded: the page may be offline, or hold files of an earlier version. Reload the page.',
      part: 'the notebook tools'
    });
    expect(registry.history[0].outcome).toBe('WEBMCP_UNAVAILABLE');
    offline = false;
    expect(parsed(await registry.execute(tools[0], {}))).toEqual({
      context: true
    });
    expect(parts.missing).toEqual([]);
    registry.dispose();
  });
});

describe('InputValidator with a loader of our validators', () => {
  it('loads them once, at the first ready, and validates only then', async () => {
    const load = jest.fn(async () => COMPILED_VALIDATORS);
    const validator = new InputValidator(load);
    expect(() => validator.validate('jupyter_get_context', {})).toThrow(
      /not loaded yet/
    );
    await Promise.all([
      validator.ready('jupyter_get_context'),
      validator.ready('jupyter_get_cells')
    ]);
    await validator.ready('jupyter_list_workspace');
    expect(load).toHaveBeenCalledTimes(1);
    expect(validator.validate('jupyter_list_workspace', {})).toMatchObject({
      recursive: false
    });
    expect(() =>
      validator.validate('jupyter_list_workspace', { limit: -1 })
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('tries the loader again after it failed', async () => {
    let fail = true;
    const validator = new InputValidator(async () => {
      if (fail) {
        throw new Error('offline');
      }
      return COMPILED_VALIDATORS;
    });
    await expect(validator.ready('jupyter_get_context')).rejects.toThrow(
      'offline'
    );
    fail = false;
    await validator.ready('jupyter_get_context');
    expect(validator.validate('jupyter_get_context', {})).toEqual({});
  });

  it("needs no loader for another extension's tool", async () => {
    const load = jest.fn(async () => COMPILED_VALIDATORS);
    const validator = new InputValidator(load);
    const always = Object.assign(() => true, { errors: null });
    validator.add('example_tool', always, { type: 'object' });
    await validator.ready('example_tool');
    expect(load).not.toHaveBeenCalled();
    expect(validator.validate('example_tool', { a: 1 })).toEqual({ a: 1 });
  });
});

describe("the registry's start", () => {
  const definition = {
    name: 'example_tool',
    title: 'Example',
    description: 'An example.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true, untrustedContentHint: false },
    handler: async () => null
  };

  it('is settled once the first registrations have been answered', async () => {
    let answer!: () => void;
    const registered: string[] = [];
    const context = {
      registerTool: (tool: INativeTool) =>
        new Promise<void>(resolve => {
          answer = () => {
            registered.push(tool.name);
            resolve();
          };
        })
    };
    const registry = new WebMcpRegistry({
      validator: new InputValidator(COMPILED_VALIDATORS),
      findModelContext: () => context
    });
    registry.addTool(definition);
    let settled = false;
    void registry.settled().then(() => (settled = true));
    registry.start();
    for (let i = 0; i < 10; i++) {
      await Promise.resolve();
    }
    expect(settled).toBe(false);
    answer();
    await registry.settled();
    expect(registered).toEqual(['example_tool']);
    registry.dispose();
  });

  it('is over at once when the first look finds no WebMCP, while the re-checks go on', async () => {
    const find = jest.fn(() => null);
    const registry = new WebMcpRegistry({
      validator: new InputValidator(COMPILED_VALIDATORS),
      findModelContext: find,
      recheckDelaysMs: [60_000]
    });
    registry.addTool(definition);
    registry.start();
    await registry.settled();
    expect(find).toHaveBeenCalledTimes(1);
    expect(registry.status.pending).toBe(true);
    registry.dispose();
  });
});
