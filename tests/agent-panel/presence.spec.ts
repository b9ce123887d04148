import type * as nbformat from '@jupyterlab/nbformat';
import type { NotebookPanel } from '@jupyterlab/notebook';
import type { NBTestUtils as NBTestUtilsType } from '@jupyterlab/notebook/lib/testutils';
import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';

import {
  AgentPresence,
  HOLD_MS,
  PRESENCE_CELL_CLASS,
  PRESENCE_LABEL_CLASS,
  QUIET_MS
} from '../../src/agent-panel/presence';
import { RUNNING_DELAY_MS } from '../../src/agent-panel/status';
import type {
  CellActivityKind,
  IAgentAccess,
  IRegistrationStatus,
  IToolCall,
  IToolSummary,
  IWebMcpRegistry
} from '../../src/tokens';
import { silenceKnownWarnings } from '../quiet';
import { NO_NOTEBOOKS, NoOfferedTools, refuseAddTool } from '../registry-stubs';

silenceKnownWarnings();

const { NBTestUtils } = jest.requireActual<{
  NBTestUtils: typeof NBTestUtilsType;
}>('@jupyterlab/notebook/lib/testutils');

const PATH = 'work/presence.ipynb';

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
    registered: [],
    failed: [],
    disabled: []
  };
  readonly statusChanged: Signal<IWebMcpRegistry, IRegistrationStatus> =
    new Signal(this);
  readonly callChanged: Signal<IWebMcpRegistry, IToolCall> = new Signal(this);
  activeCalls: IToolCall[] = [];
  history: IToolCall[] = [];
  toolNames: string[] = [];
  tools: IToolSummary[] = [];
  private _id = 0;

  start(tool: string, at: number): IToolCall {
    const call: IToolCall = {
      id: ++this._id,
      tool,
      args: null,
      notebookPath: null,
      cellIds: [],
      activity: null,
      progress: null,
      withheld: 0,
      startedAt: at,
      finishedAt: null,
      outcome: null
    };
    this.activeCalls.push(call);
    this.callChanged.emit({ ...call });
    return call;
  }

  report(call: IToolCall, cellId: string, kind: CellActivityKind): void {
    call.notebookPath = PATH;
    call.cellIds.push(cellId);
    call.activity = { notebookPath: PATH, cellId, kind };
    this.callChanged.emit({ ...call, cellIds: [...call.cellIds] });
  }

  end(call: IToolCall, at: number): void {
    call.finishedAt = at;
    call.activity = null;
    call.outcome = 'ok';
    this.activeCalls = this.activeCalls.filter(other => other !== call);
    this.history.push(call);
    this.callChanged.emit({ ...call, cellIds: [...call.cellIds] });
  }
}

function code(id: string): nbformat.ICodeCell {
  return {
    id,
    cell_type: 'code',
    source: `# ${id}`,
    metadata: {},
    outputs: [],
    execution_count: null
  };
}

describe('AgentPresence', () => {
  let panel: NotebookPanel;
  let registry: FakeRegistry;
  let presence: AgentPresence;
  let now: number;

  const labels = () =>
    panel.content.widgets.map(
      widget =>
        widget.node.querySelector(`.${PRESENCE_LABEL_CLASS}`)?.textContent ??
        null
    );

  beforeEach(async () => {
    jest.useFakeTimers();
    now = 1_000;
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({
      cells: [code('a'), code('b')],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    });
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    registry = new FakeRegistry();
    const access = {
      findPanel: (path: string) => (path === PATH ? panel : null)
    } as unknown as IAgentAccess;
    presence = new AgentPresence({ registry, access, now: () => now });
  });

  afterEach(() => {
    presence.dispose();
    const context = panel.context;
    panel.dispose();
    context.dispose();
    jest.useRealTimers();
  });

  const advance = (ms: number) => {
    now += ms;
    jest.advanceTimersByTime(ms);
  };

  it('shows a quick call only once it answered, briefly, and never during it', () => {
    const observer = new MutationObserver(() => undefined);
    observer.observe(panel.node, {
      subtree: true,
      childList: true,
      attributes: true
    });
    const call = registry.start('jupyter_get_cells', now);
    registry.report(call, 'b', 'reading');
    advance(10);
    expect(observer.takeRecords()).toEqual([]);
    registry.end(call, now);
    expect(observer.takeRecords()).toEqual([]);
    // drawn once the agent pauses
    advance(QUIET_MS - 1);
    expect(observer.takeRecords()).toEqual([]);
    observer.disconnect();
    advance(1);
    expect(labels()).toEqual([null, 'Agent reading']);
    const cell = panel.content.widgets[1].node;
    expect(cell.classList).toContain(PRESENCE_CELL_CLASS);
    expect(cell.dataset.agentActivity).toBe('reading');
    // in the input wrapper, painted over it
    expect(
      cell.querySelector(`.${PRESENCE_LABEL_CLASS}`)!.parentElement!.classList
    ).toContain('jp-Cell-inputWrapper');
    advance(HOLD_MS - 1);
    expect(labels()).toEqual([null, 'Agent reading']);
    advance(1);
    expect(labels()).toEqual([null, null]);
    expect(cell.classList).not.toContain(PRESENCE_CELL_CLASS);
    expect(cell.dataset.agentActivity).toBeUndefined();
  });

  it('shows a call that lasts while it runs, following its cells', () => {
    const call = registry.start('jupyter_run_cells', now);
    registry.report(call, 'a', 'running');
    advance(RUNNING_DELAY_MS - 1);
    expect(labels()).toEqual([null, null]);
    advance(1);
    expect(labels()).toEqual(['Agent running', null]);
    advance(5_000);
    registry.report(call, 'b', 'running');
    advance(RUNNING_DELAY_MS);
    expect(labels()).toEqual([null, 'Agent running']);
    registry.end(call, now);
    // shown long enough already: it goes once its hold is over
    advance(HOLD_MS);
    expect(labels()).toEqual([null, null]);
  });

  it('shows nothing for a cell that is not on screen, and cleans up when disposed', () => {
    const gone = registry.start('jupyter_get_cells', now);
    registry.report(gone, 'no-such-cell', 'reading');
    registry.end(gone, now);
    advance(QUIET_MS);
    expect(labels()).toEqual([null, null]);
    const call = registry.start('jupyter_update_cell', now);
    registry.report(call, 'a', 'editing');
    advance(RUNNING_DELAY_MS);
    expect(labels()).toEqual(['Agent editing', null]);
    presence.dispose();
    expect(labels()).toEqual([null, null]);
    expect(panel.content.widgets[0].node.classList).not.toContain(
      PRESENCE_CELL_CLASS
    );
  });

  it('shows one label a cell: the latest call’s', () => {
    const first = registry.start('jupyter_run_cells', now);
    registry.report(first, 'a', 'running');
    advance(RUNNING_DELAY_MS);
    const second = registry.start('jupyter_update_cell', now);
    registry.report(second, 'a', 'editing');
    advance(RUNNING_DELAY_MS);
    expect(
      panel.content.widgets[0].node.querySelectorAll(`.${PRESENCE_LABEL_CLASS}`)
    ).toHaveLength(1);
    expect(labels()).toEqual(['Agent editing', null]);
    registry.end(first, now);
    advance(HOLD_MS);
    // the first call's end does not take the second's label away
    expect(labels()).toEqual(['Agent editing', null]);
    registry.end(second, now);
    advance(HOLD_MS);
    expect(labels()).toEqual([null, null]);
  });

  it('draws nothing during a burst of quick calls, then the last one’s cell', () => {
    const observer = new MutationObserver(() => undefined);
    observer.observe(panel.node, {
      subtree: true,
      childList: true,
      attributes: true
    });
    for (const cellId of ['a', 'b', 'a', 'b']) {
      const call = registry.start('jupyter_get_cells', now);
      registry.report(call, cellId, 'reading');
      advance(5);
      registry.end(call, now);
      advance(QUIET_MS / 2);
    }
    expect(observer.takeRecords()).toEqual([]);
    observer.disconnect();
    advance(QUIET_MS);
    expect(labels()).toEqual([null, 'Agent reading']);
  });

  it('shows a call that was already running when it was created', () => {
    // the presence is wired once the page is idle (activity-plugin.ts): an
    // agent may have started a long call (a proposal waiting for the
    // person) before, and a quick call may have answered
    presence.dispose();
    const quick = registry.start('jupyter_get_cells', now);
    registry.report(quick, 'b', 'reading');
    registry.end(quick, now);
    const waiting = registry.start('jupyter_update_cell', now);
    registry.report(waiting, 'a', 'editing');
    advance(5_000);
    presence = new AgentPresence({
      registry,
      access: {
        findPanel: (path: string) => (path === PATH ? panel : null)
      } as unknown as IAgentAccess,
      now: () => now
    });
    advance(0);
    expect(labels()).toEqual(['Agent editing', null]);
    registry.end(waiting, now);
    advance(HOLD_MS);
    expect(labels()).toEqual([null, null]);
  });
});
