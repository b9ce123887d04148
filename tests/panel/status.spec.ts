import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';

import { WebMcpStatus } from '../../src/panel/status';
import {
  type IRegistrationStatus,
  type IToolCall,
  type IWebMcpRegistry
} from '../../src/tokens';

/** A registry whose state the test sets, emitting as the real one does. */
class FakeRegistry implements IWebMcpRegistry {
  status: IRegistrationStatus = {
    available: true,
    pending: false,
    registered: ['jupyter_get_context', 'jupyter_get_cells'],
    failed: []
  } as unknown as IRegistrationStatus;
  readonly statusChanged: Signal<IWebMcpRegistry, IRegistrationStatus> =
    new Signal(this);
  readonly callChanged: Signal<IWebMcpRegistry, IToolCall> = new Signal(this);
  activeCalls: IToolCall[] = [];
  toolNames = ['jupyter_get_context', 'jupyter_get_cells'];

  start(tool: string): IToolCall {
    const call = { tool } as unknown as IToolCall;
    this.activeCalls = [...this.activeCalls, call];
    this.callChanged.emit(call);
    return call;
  }

  end(call: IToolCall): void {
    this.activeCalls = this.activeCalls.filter(c => c !== call);
    this.callChanged.emit(call);
  }
}

describe('WebMcpStatus', () => {
  let registry: FakeRegistry;
  let item: WebMcpStatus;
  let mutations: MutationRecord[];
  let observer: MutationObserver;
  let frames: FrameRequestCallback[];

  /** Run the animation frames requested so far. */
  const runFrames = () => {
    const due = frames;
    frames = [];
    due.forEach(callback => callback(performance.now()));
  };

  beforeEach(() => {
    frames = [];
    jest
      .spyOn(window, 'requestAnimationFrame')
      .mockImplementation(callback => frames.push(callback));
    jest.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => {
      frames = [];
    });
    registry = new FakeRegistry();
    item = new WebMcpStatus(registry);
    Widget.attach(item, document.body);
    mutations = [];
    observer = new MutationObserver(records => mutations.push(...records));
    observer.observe(item.node, {
      attributes: true,
      childList: true,
      characterData: true,
      subtree: true
    });
  });

  afterEach(() => {
    observer.disconnect();
    item.dispose();
    jest.restoreAllMocks();
  });

  /** The mutations recorded so far (delivered as a microtask). */
  const recorded = async () => {
    await Promise.resolve();
    return [...mutations, ...observer.takeRecords()];
  };

  it('shows how many tools are registered from the start', () => {
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
    expect(item.node.getAttribute('role')).toBe('status');
  });

  it('changes nothing on the page for a call that ends before the next frame', async () => {
    const call = registry.start('jupyter_get_cells');
    registry.end(call);
    expect(await recorded()).toEqual([]);
    runFrames();
    expect(await recorded()).toEqual([]);
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
  });

  it('shows a longer call as running from the next frame on, then idle again', async () => {
    const call = registry.start('jupyter_run_cells');
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
    expect(await recorded()).toEqual([]);
    runFrames();
    expect(item.node.textContent).toBe('WebMCP: running jupyter_run_cells');
    expect(item.hasClass('jp-mod-active')).toBe(true);
    registry.end(call);
    runFrames();
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
    expect(item.hasClass('jp-mod-active')).toBe(false);
  });

  it('renders many changes within one frame once', () => {
    for (let i = 0; i < 5; i++) {
      registry.end(registry.start(`tool_${i}`));
    }
    registry.start('jupyter_run_cells');
    expect(frames).toHaveLength(1);
    runFrames();
    expect(item.node.textContent).toBe('WebMCP: running jupyter_run_cells');
  });

  it('follows a registration change, and stops listening when disposed', () => {
    registry.status = {
      ...registry.status,
      failed: [{ name: 'jupyter_get_cells', reason: 'refused' }],
      registered: ['jupyter_get_context']
    } as unknown as IRegistrationStatus;
    registry.statusChanged.emit(registry.status);
    runFrames();
    expect(item.node.textContent).toBe('WebMCP: 1 of 2 tools');
    expect(item.node.title).toContain(
      'Could not register jupyter_get_cells: refused'
    );
    item.dispose();
    registry.start('jupyter_run_cells');
    expect(frames).toHaveLength(0);
  });
});
