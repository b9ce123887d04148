/**
 * connectAssistant: nothing is loaded for an assistant the app does not
 * have; one it has gets the mirror and is named as a client of the tools.
 */
import { Token } from '@lumino/coreutils';

import {
  connectAssistant,
  type IKnownAssistant,
  KNOWN_ASSISTANTS
} from '../../src/assistants/plugin';
import { WebMcpRegistry } from '../../src/webmcp/register';
import { InputValidator } from '../../src/webmcp/validate';
import { COMPILED_VALIDATORS } from '../../src/webmcp/validators.generated';

const TOKEN = new Token<unknown>('test:IToolRegistry');

function registryWithOneTool(): WebMcpRegistry {
  const registry = new WebMcpRegistry({
    validator: new InputValidator(COMPILED_VALIDATORS),
    findModelContext: () => null,
    recheckDelaysMs: [],
    log: { warn: jest.fn() }
  });
  registry.addTool({
    name: 'example_one',
    title: 'One',
    description: 'One tool.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, untrustedContentHint: false },
    handler: async () => ({ ok: true })
  });
  return registry;
}

describe('connectAssistant', () => {
  it('knows jupyter-ai-lite and jupyterlite-ai by the plugins that provide their registries', () => {
    expect(
      KNOWN_ASSISTANTS.map(known => [known.packageName, known.pluginId])
    ).toEqual([
      ['jupyter-ai-lite', '@jupyter-ai/agent-lite:tool-registry'],
      ['jupyterlite-ai', '@jupyternaut/persona:tool-registry']
    ]);
  });

  it('loads nothing when the app does not have the assistant', async () => {
    const registry = registryWithOneTool();
    const load = jest.fn();
    const app = {
      hasPlugin: jest.fn(() => false),
      resolveOptionalService: jest.fn()
    };
    const known: IKnownAssistant = {
      packageName: 'some-assistant',
      pluginId: 'some:tool-registry',
      load
    };
    expect(await connectAssistant(app, registry, known)).toBeNull();
    expect(app.hasPlugin).toHaveBeenCalledWith('some:tool-registry');
    expect(load).not.toHaveBeenCalled();
    expect(app.resolveOptionalService).not.toHaveBeenCalled();
    expect(registry.clients).toEqual([]);
    registry.dispose();
  });

  it("fills the assistant's registry and names it as a client until disposed", async () => {
    const registry = registryWithOneTool();
    const tools: Record<string, unknown> = {};
    const target = {
      add: (name: string, tool: unknown) => (tools[name] = tool),
      get: (name: string) => tools[name] ?? null,
      remove: (name: string) => delete tools[name]
    };
    const app = {
      hasPlugin: () => true,
      resolveOptionalService: jest.fn(async () => target)
    } as unknown as Parameters<typeof connectAssistant>[0];
    const connection = await connectAssistant(app, registry, {
      packageName: 'some-assistant',
      pluginId: 'some:tool-registry',
      load: async () => ({ IToolRegistry: TOKEN })
    });
    expect(app.resolveOptionalService).toHaveBeenCalledWith(TOKEN);
    expect(Object.keys(tools)).toEqual(['example_one']);
    expect(registry.clients).toEqual(['some-assistant']);
    connection!.dispose();
    expect(Object.keys(tools)).toEqual([]);
    expect(registry.clients).toEqual([]);
    registry.dispose();
  });

  it('refuses a registry without add, get and remove', async () => {
    const registry = registryWithOneTool();
    const app = {
      hasPlugin: () => true,
      resolveOptionalService: async () => ({ add: () => undefined })
    } as unknown as Parameters<typeof connectAssistant>[0];
    await expect(
      connectAssistant(app, registry, {
        packageName: 'odd-assistant',
        pluginId: 'odd:tool-registry',
        load: async () => ({ IToolRegistry: TOKEN })
      })
    ).rejects.toThrow('odd-assistant did not provide a tool registry');
    expect(registry.clients).toEqual([]);
    registry.dispose();
  });
});
