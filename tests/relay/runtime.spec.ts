import { Signal } from '@lumino/signaling';

import {
  installRuntime,
  type IOfferedToolsSource,
  RelayRuntime,
  RUNTIME_PROPERTY
} from '../../src/relay/runtime';
import { type IOfferedTool, type IToolEnvelope } from '../../src/tokens';

/** A registry's offered tools, with the calls they received. */
class FakeSource implements IOfferedToolsSource {
  offeredTools: IOfferedTool[] = [];
  readonly offeredToolsChanged = new Signal<this, void>(this);
  readonly calls: { name: string; input: unknown }[] = [];

  offer(name: string): void {
    const envelope = (input: unknown): IToolEnvelope => ({
      content: [{ type: 'text', text: JSON.stringify({ name, input }) }],
      structuredContent: { name, input }
    });
    this.offeredTools = [
      ...this.offeredTools,
      {
        name,
        title: `Title of ${name}`,
        description: `What ${name} does`,
        inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
        annotations: { readOnlyHint: true, untrustedContentHint: false },
        call: async input => {
          this.calls.push({ name, input });
          return envelope(input);
        }
      }
    ];
    this.offeredToolsChanged.emit();
  }

  turnOff(name: string): void {
    this.offeredTools = this.offeredTools.filter(tool => tool.name !== name);
    this.offeredToolsChanged.emit();
  }
}

describe('RelayRuntime', () => {
  it('lists the offered tools as the relay page script reads them: the schema as JSON text', () => {
    const source = new FakeSource();
    source.offer('jupyter_get_cells');
    const runtime = new RelayRuntime(source);
    expect(runtime.listTools()).toEqual([
      {
        name: 'jupyter_get_cells',
        description: 'What jupyter_get_cells does',
        inputSchema: '{"type":"object","properties":{"n":{"type":"number"}}}'
      }
    ]);
    runtime.dispose();
  });

  it("runs a call through the offered tool's call and answers its envelope as JSON text", async () => {
    const source = new FakeSource();
    source.offer('jupyter_get_cells');
    const runtime = new RelayRuntime(source);
    const answer = await runtime.executeTool('jupyter_get_cells', '{"n":2}');
    expect(source.calls).toEqual([
      { name: 'jupyter_get_cells', input: { n: 2 } }
    ]);
    expect(JSON.parse(answer)).toEqual({
      content: [
        {
          type: 'text',
          text: '{"name":"jupyter_get_cells","input":{"n":2}}'
        }
      ],
      structuredContent: { name: 'jupyter_get_cells', input: { n: 2 } }
    });
    runtime.dispose();
  });

  it('answers an error envelope, never a rejection, for a tool turned off or bad JSON', async () => {
    const source = new FakeSource();
    source.offer('a_tool');
    const runtime = new RelayRuntime(source);
    source.turnOff('a_tool');
    const off = JSON.parse(await runtime.executeTool('a_tool', '{}'));
    expect(off.isError).toBe(true);
    expect(off.structuredContent.error).toBe('INVALID_ARGUMENT');
    expect(JSON.parse(off.content[0].text)).toEqual(off.structuredContent);
    source.offer('b_tool');
    const bad = JSON.parse(await runtime.executeTool('b_tool', '{'));
    expect(bad).toMatchObject({
      isError: true,
      structuredContent: { error: 'INVALID_ARGUMENT' }
    });
    expect(source.calls).toEqual([]);
    runtime.dispose();
  });

  it('calls back on every change of the offered tools, until disposed', () => {
    const source = new FakeSource();
    const runtime = new RelayRuntime(source);
    const seen: string[][] = [];
    runtime.registerToolsChangedCallback(() =>
      seen.push(runtime.listTools().map(tool => tool.name))
    );
    source.offer('a_tool');
    source.offer('b_tool');
    source.turnOff('a_tool');
    expect(seen).toEqual([['a_tool'], ['a_tool', 'b_tool'], ['b_tool']]);
    runtime.dispose();
    source.offer('c_tool');
    expect(seen).toHaveLength(3);
    expect(runtime.listTools()).toEqual([]);
  });

  it('keeps calling back after a callback throws', () => {
    const source = new FakeSource();
    const runtime = new RelayRuntime(source);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    let later = 0;
    runtime.registerToolsChangedCallback(() => {
      throw new Error('boom');
    });
    runtime.registerToolsChangedCallback(() => later++);
    source.offer('a_tool');
    expect(later).toBe(1);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
    runtime.dispose();
  });
});

describe('installRuntime', () => {
  it('installs the runtime under its property and removes it when disposed', async () => {
    const source = new FakeSource();
    source.offer('a_tool');
    const target: Record<string, unknown> = {};
    const runtime = new RelayRuntime(source);
    const installed = installRuntime(target, runtime);
    expect(installed).not.toBeNull();
    const surface = target[RUNTIME_PROPERTY] as {
      listTools(): { name: string }[];
      executeTool(name: string, json: string): Promise<string>;
    };
    // the methods work detached, as the page script may call them
    const { listTools, executeTool } = surface;
    expect(listTools().map(tool => tool.name)).toEqual(['a_tool']);
    expect(JSON.parse(await executeTool('a_tool', '{}')).isError).toBe(
      undefined
    );
    installed!.dispose();
    expect(RUNTIME_PROPERTY in target).toBe(false);
    expect(runtime.isDisposed).toBe(true);
  });

  it("never replaces a runtime that is there already (the browser's or another script's)", () => {
    const existing = { listTools: () => [] };
    const target: Record<string, unknown> = { [RUNTIME_PROPERTY]: existing };
    const runtime = new RelayRuntime(new FakeSource());
    expect(installRuntime(target, runtime)).toBeNull();
    expect(target[RUNTIME_PROPERTY]).toBe(existing);
  });
});
