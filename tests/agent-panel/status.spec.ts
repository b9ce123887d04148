import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';

import {
  RUNNING_DELAY_MS,
  statusText,
  WebMcpStatus
} from '../../src/agent-panel/status';
import { Parts } from '../../src/common/parts';
import { ProposalStore } from '../../src/propose/store';
import {
  type IProposals,
  type IRegistrationStatus,
  type IToolCall,
  type IToolSummary,
  type IWebMcpRegistry
} from '../../src/tokens';
import { NO_NOTEBOOKS, NoOfferedTools, refuseAddTool } from '../registry-stubs';

/** A registry whose state the test sets, emitting as the real one does. */
class FakeRegistry implements IWebMcpRegistry {
  addTool = refuseAddTool;
  private readonly _others = new NoOfferedTools();
  readonly offeredTools = this._others.offeredTools;
  readonly offeredToolsChanged = this._others.offeredToolsChanged;
  clients: readonly string[] = [];
  addClient = this._others.addClient;
  readonly notebooks = NO_NOTEBOOKS;
  status: IRegistrationStatus = {
    available: true,
    pending: false,
    registered: ['jupyter_get_context', 'jupyter_get_cells'],
    failed: [],
    disabled: []
  } as unknown as IRegistrationStatus;
  readonly statusChanged: Signal<IWebMcpRegistry, IRegistrationStatus> =
    new Signal(this);
  readonly callChanged: Signal<IWebMcpRegistry, IToolCall> = new Signal(this);
  activeCalls: IToolCall[] = [];
  history: IToolCall[] = [];
  toolNames = ['jupyter_get_context', 'jupyter_get_cells'];
  tools: IToolSummary[] = [
    {
      name: 'jupyter_get_context',
      title: 'Get context',
      annotations: { readOnlyHint: true, untrustedContentHint: true }
    },
    {
      name: 'jupyter_get_cells',
      title: 'Get cells',
      annotations: { readOnlyHint: false, consequentialHint: true }
    }
  ];

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

  beforeEach(() => {
    jest.useFakeTimers();
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
    jest.useRealTimers();
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

  it('changes nothing on the page for a quick call, and asks for no frame', async () => {
    const frame = jest.spyOn(window, 'requestAnimationFrame');
    const call = registry.start('jupyter_get_cells');
    jest.advanceTimersByTime(RUNNING_DELAY_MS - 1);
    registry.end(call);
    jest.runOnlyPendingTimers();
    expect(await recorded()).toEqual([]);
    expect(frame).not.toHaveBeenCalled();
    expect(jest.getTimerCount()).toBe(0);
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
    frame.mockRestore();
  });

  it('shows a call as running once it lasts, then idle again', async () => {
    const call = registry.start('jupyter_run_cells');
    jest.advanceTimersByTime(RUNNING_DELAY_MS - 1);
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
    expect(await recorded()).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(item.node.textContent).toBe('WebMCP: running jupyter_run_cells');
    expect(item.hasClass('jp-mod-active')).toBe(true);
    registry.end(call);
    // the end of a call that was shown is not held back
    jest.advanceTimersByTime(0);
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
    expect(item.hasClass('jp-mod-active')).toBe(false);
  });

  it('shows the progress a long call reports, as it reports it', () => {
    const call = registry.start('jupyter_list_workspace');
    jest.advanceTimersByTime(RUNNING_DELAY_MS);
    expect(item.node.textContent).toBe(
      'WebMCP: running jupyter_list_workspace'
    );
    call.progress = { message: 'Checking notebooks', done: 3, total: 10 };
    registry.callChanged.emit(call);
    jest.advanceTimersByTime(0);
    expect(item.node.textContent).toBe('WebMCP: jupyter_list_workspace 3/10');
    expect(item.node.title).toContain(
      'jupyter_list_workspace: Checking notebooks'
    );
    registry.end(call);
    jest.advanceTimersByTime(0);
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
  });

  it('shows the latest of overlapping calls, rendering once', () => {
    const first = registry.start('jupyter_get_cells');
    registry.start('jupyter_run_cells');
    registry.end(first);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(RUNNING_DELAY_MS);
    expect(item.node.textContent).toBe('WebMCP: running jupyter_run_cells');
  });

  it('follows a registration change at once, and stops listening when disposed', () => {
    registry.status = {
      ...registry.status,
      failed: [{ name: 'jupyter_get_cells', reason: 'refused' }],
      registered: ['jupyter_get_context']
    } as unknown as IRegistrationStatus;
    registry.statusChanged.emit(registry.status);
    jest.advanceTimersByTime(0);
    expect(item.node.textContent).toBe('WebMCP: 1 of 2 tools');
    expect(item.node.title).toContain(
      'Could not register jupyter_get_cells: refused'
    );
    item.dispose();
    registry.start('jupyter_run_cells');
    expect(jest.getTimerCount()).toBe(0);
  });

  it('names the in-app assistant when a browser without WebMCP offers the tools to it', () => {
    registry.status = {
      available: false,
      pending: false,
      registered: [],
      failed: [],
      disabled: ['jupyter_get_cells']
    };
    expect(statusText(registry).text).toBe('WebMCP: unavailable');
    registry.clients = ['jupyter-ai-lite'];
    registry.statusChanged.emit(registry.status);
    jest.advanceTimersByTime(0);
    expect(item.node.textContent).toBe('Agent tools: 1');
    expect(item.node.title).toContain(
      '1 notebook tool is offered to the in-app assistant: jupyter-ai-lite.'
    );
    expect(item.node.title).toContain(
      '1 tool turned off in the settings: jupyter_get_cells'
    );
    const call = registry.start('jupyter_get_context');
    jest.advanceTimersByTime(RUNNING_DELAY_MS);
    expect(item.node.textContent).toBe(
      'Agent tools: running jupyter_get_context'
    );
    registry.end(call);
    item.node.querySelector('button')!.click();
    const list = document.querySelector('.jp-WebMcpToolList')!;
    expect(list.textContent).toContain(
      'the tools are offered to the in-app assistant (jupyter-ai-lite)'
    );
    expect(
      [...list.querySelectorAll('li')].map(li => li.dataset.state)
    ).toEqual(['on', 'off']);
    item.node.querySelector('button')!.click();
  });

  it('adds the assistant to the tooltip beside WebMCP', () => {
    registry.clients = ['jupyterlite-ai'];
    expect(statusText(registry)).toEqual({
      text: 'WebMCP: 2 tools',
      title: expect.stringContaining(
        'Also offered to the in-app assistant: jupyterlite-ai.'
      )
    });
  });

  it('lists the tools with their annotations when pressed, and closes again', () => {
    registry.status = {
      ...registry.status,
      registered: ['jupyter_get_context'],
      disabled: ['jupyter_get_cells']
    };
    const button = item.node.querySelector('button')!;
    expect(button.getAttribute('aria-expanded')).toBe('false');
    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const list = document.querySelector('.jp-WebMcpToolList')!;
    expect(list.getAttribute('role')).toBe('dialog');
    expect(document.activeElement).toBe(list);
    const rows = [...list.querySelectorAll('li')].map(li => li.textContent);
    expect(rows).toEqual([
      'jupyter_get_contextGet contextreads only, returns notebook content (untrusted)',
      'jupyter_get_cellsGet cellsturned off in the settings. can change things, consequential'
    ]);
    expect(list.textContent).toContain(
      'WebMCP cannot tell whether an agent is connected'
    );
    button.click();
    expect(document.querySelector('.jp-WebMcpToolList')).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });
});

describe('WebMcpStatus with Propose mode', () => {
  /** The proposals the item counts: a real store behind the signal. */
  class FakeProposals {
    readonly store = new ProposalStore();
    readonly changed = new Signal<this, unknown>(this);
    constructor() {
      this.store.changed.connect((_, proposal) => this.changed.emit(proposal));
    }
    pending() {
      return this.store.pending();
    }
    stage(cellId: string) {
      return this.store.create({
        notebookKey: 'nb',
        notebookPath: 'a.ipynb',
        cellId,
        apply: () => undefined
      }).proposal;
    }
  }

  let registry: FakeRegistry;
  let proposals: FakeProposals;
  let item: WebMcpStatus;

  beforeEach(() => {
    jest.useFakeTimers();
    registry = new FakeRegistry();
    proposals = new FakeProposals();
    item = new WebMcpStatus(
      registry,
      undefined,
      proposals as unknown as IProposals
    );
    Widget.attach(item, document.body);
  });

  afterEach(() => {
    item.dispose();
    jest.useRealTimers();
  });

  it('says how many proposals wait, in the text and the tooltip', () => {
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
    const first = proposals.stage('a');
    proposals.stage('b');
    jest.advanceTimersByTime(0);
    expect(item.node.textContent).toBe('WebMCP: 2 tools · 2 waiting');
    expect(item.node.title).toContain(
      '2 agent proposals wait for your decision (Agent panel, Proposals).'
    );
    proposals.store.accept(first.id);
    jest.advanceTimersByTime(0);
    expect(item.node.textContent).toBe('WebMCP: 2 tools · 1 waiting');
    expect(item.node.title).toContain(
      '1 agent proposal waits for your decision'
    );
    proposals.store.deny(proposals.pending()[0].id);
    jest.advanceTimersByTime(0);
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
    expect(item.node.title).not.toContain('waits');
  });

  it('keeps the count beside a running call', () => {
    proposals.stage('a');
    registry.start('jupyter_run_cells');
    jest.advanceTimersByTime(RUNNING_DELAY_MS);
    expect(item.node.textContent).toBe(
      'WebMCP: running jupyter_run_cells · 1 waiting'
    );
  });

  it('stops counting when disposed', () => {
    item.dispose();
    proposals.stage('a');
    jest.runOnlyPendingTimers();
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
  });

  it('without Propose mode the text is unchanged', () => {
    expect(statusText(registry)).toEqual(statusText(registry, undefined, 0));
    expect(statusText(registry).text).toBe('WebMCP: 2 tools');
  });
});

describe('WebMcpStatus with a part that could not be loaded', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    warn.mockRestore();
    jest.useRealTimers();
  });

  it('names each missing part in the tooltip and counts them in the text, until it loads', async () => {
    const parts = new Parts();
    const registry = new FakeRegistry();
    const item = new WebMcpStatus(registry, undefined, null, parts);
    Widget.attach(item, document.body);
    expect(item.node.textContent).toBe('WebMCP: 2 tools');
    let offline = true;
    const tools = parts.lazy('the notebook tools', async () => {
      if (offline) {
        throw new Error('Loading chunk 344 failed.');
      }
      return true;
    });
    await tools().catch(() => undefined);
    await parts
      .lazy('the Comments section', async () => {
        throw new Error('Loading chunk 344 failed.');
      })()
      .catch(() => undefined);
    jest.advanceTimersByTime(0);
    expect(item.node.textContent).toBe('WebMCP: 2 tools · 2 parts missing');
    expect(item.node.title).toContain(
      'Could not load the notebook tools: the page may be offline, or hold files of an earlier version. Reload the page.'
    );
    expect(item.node.title).toContain('Could not load the Comments section');
    offline = false;
    await tools();
    jest.advanceTimersByTime(0);
    expect(item.node.textContent).toBe('WebMCP: 2 tools · 1 part missing');
    expect(item.node.title).not.toContain('the notebook tools');
    item.dispose();
  });
});
