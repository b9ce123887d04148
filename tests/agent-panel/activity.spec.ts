import { nullTranslator } from '@jupyterlab/translation';
import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';

import {
  ActivityModel,
  callDuration,
  callState,
  MAX_ACTIVITY_ROWS
} from '../../src/agent-panel/activity-model';
import { RUNNING_DELAY_MS } from '../../src/agent-panel/status';
import {
  type IRegistrationStatus,
  type IToolCall,
  type IWebMcpRegistry
} from '../../src/tokens';
import { silenceKnownWarnings } from '../quiet';
import type * as ActivityView from '../../src/agent-panel/activity-section';
import { NO_NOTEBOOKS, NoOfferedTools, refuseAddTool } from '../registry-stubs';

silenceKnownWarnings();

// Loaded once the console is quieted: @jupyterlab/apputils warns on import.
const activityView = jest.requireActual<typeof ActivityView>(
  '../../src/agent-panel/activity-section'
);

/**
 * A registry whose calls the test drives, emitting a fresh copy of a call at
 * start, at each change and at end, and keeping a bounded history, as the
 * real one does.
 */
class FakeRegistry implements IWebMcpRegistry {
  addTool = refuseAddTool;
  private readonly _others = new NoOfferedTools();
  readonly offeredTools = this._others.offeredTools;
  readonly offeredToolsChanged = this._others.offeredToolsChanged;
  clients: readonly string[] = [];
  addClient = this._others.addClient;
  readonly notebooks = NO_NOTEBOOKS;
  constructor(private readonly _historySize = 50) {}

  status: IRegistrationStatus = {
    available: true,
    pending: false,
    registered: ['jupyter_get_cells'],
    failed: [],
    disabled: []
  };
  readonly statusChanged: Signal<IWebMcpRegistry, IRegistrationStatus> =
    new Signal(this);
  readonly callChanged: Signal<IWebMcpRegistry, IToolCall> = new Signal(this);
  activeCalls: IToolCall[] = [];
  history: IToolCall[] = [];
  toolNames = ['jupyter_get_cells'];
  tools = [];
  now = 1_000;

  start(tool: string, notebookPath: string | null = 'a.ipynb'): IToolCall {
    const call: IToolCall = {
      id: ++this._ids,
      tool,
      args: {},
      notebookPath,
      cellIds: [],
      activity: null,
      progress: null,
      withheld: 0,
      startedAt: this.now,
      finishedAt: null,
      outcome: null
    };
    this.activeCalls = [...this.activeCalls, call];
    this.callChanged.emit({ ...call });
    return call;
  }

  reportCell(call: IToolCall, cellId: string): void {
    if (!call.cellIds.includes(cellId)) {
      call.cellIds.push(cellId);
    }
    call.activity = {
      notebookPath: call.notebookPath ?? '',
      cellId,
      kind: 'reading'
    };
    this.callChanged.emit({ ...call, cellIds: [...call.cellIds] });
  }

  end(call: IToolCall, outcome: IToolCall['outcome'] = 'ok'): void {
    call.finishedAt = this.now;
    call.outcome = outcome;
    call.activity = null;
    this.activeCalls = this.activeCalls.filter(c => c.id !== call.id);
    this.history = [...this.history, { ...call }].slice(-this._historySize);
    this.callChanged.emit({ ...call, cellIds: [...call.cellIds] });
  }

  private _ids = 0;
}

describe('callState and callDuration', () => {
  const base: IToolCall = {
    id: 1,
    tool: 't',
    args: null,
    notebookPath: null,
    cellIds: [],
    activity: null,
    progress: null,
    withheld: 0,
    startedAt: 100,
    finishedAt: null,
    outcome: null
  };

  it('names running, ok, refused by access and other errors', () => {
    expect(callState(base)).toBe('running');
    const done = { ...base, finishedAt: 150 };
    expect(callState({ ...done, outcome: 'ok' })).toBe('ok');
    expect(callState({ ...done, outcome: 'CELL_ACCESS_DENIED' })).toBe(
      'refused'
    );
    expect(callState({ ...done, outcome: 'NOTEBOOK_ACCESS_DENIED' })).toBe(
      'refused'
    );
    // a hidden cell reads as missing, never as a refusal
    expect(callState({ ...done, outcome: 'CELL_NOT_FOUND' })).toBe('error');
  });

  it('measures to the end, or to now while running', () => {
    expect(callDuration({ ...base, finishedAt: 142 }, 999)).toBe(42);
    expect(callDuration(base, 130)).toBe(30);
  });
});

describe('ActivityModel', () => {
  let registry: FakeRegistry;
  let model: ActivityModel;
  let emitted: number;

  beforeEach(() => {
    jest.useFakeTimers();
    registry = new FakeRegistry();
  });

  afterEach(() => {
    model?.dispose();
    jest.useRealTimers();
  });

  const create = (limit?: number) => {
    model = new ActivityModel({ registry, limit });
    emitted = 0;
    model.changed.connect(() => emitted++);
  };

  it('starts from the history and the running calls, newest first', () => {
    const a = registry.start('first');
    registry.end(a);
    registry.now += 10;
    const b = registry.start('second');
    registry.end(b, 'CELL_ACCESS_DENIED');
    registry.now += 10;
    registry.start('third');
    create();
    expect(model.rows.map(r => r.tool)).toEqual(['third', 'second', 'first']);
    expect(model.rows.map(callState)).toEqual(['running', 'refused', 'ok']);
    expect(model.availability).toBe('available');
  });

  it('shows a quick call once, when it ends, never while it runs', () => {
    create();
    const call = registry.start('jupyter_get_cells');
    registry.reportCell(call, 'c1');
    jest.advanceTimersByTime(RUNNING_DELAY_MS - 1);
    expect(emitted).toBe(0);
    registry.now += 5;
    registry.end(call);
    expect(emitted).toBe(0);
    jest.advanceTimersByTime(0);
    expect(emitted).toBe(1);
    expect(model.rows).toHaveLength(1);
    expect(model.rows[0]).toMatchObject({
      tool: 'jupyter_get_cells',
      cellIds: ['c1'],
      outcome: 'ok',
      finishedAt: 1_005
    });
    jest.runOnlyPendingTimers();
    expect(emitted).toBe(1);
  });

  it('shows a long call as running with its current cell, live', () => {
    create();
    const call = registry.start('jupyter_run_cells');
    jest.advanceTimersByTime(RUNNING_DELAY_MS);
    expect(emitted).toBe(1);
    expect(model.rows.map(callState)).toEqual(['running']);
    // once shown, each report shows at once
    registry.reportCell(call, 'c2');
    jest.advanceTimersByTime(0);
    expect(emitted).toBe(2);
    expect(model.rows[0].activity).toMatchObject({ cellId: 'c2' });
    registry.end(call, 'KERNEL_ERROR' as IToolCall['outcome']);
    jest.advanceTimersByTime(0);
    expect(emitted).toBe(3);
    expect(model.rows).toHaveLength(1);
    expect(callState(model.rows[0])).toBe('error');
    expect(model.rows[0].activity).toBeNull();
  });

  it('keeps its own copies: a later change to a call object shows nothing', () => {
    create();
    const call = registry.start('t');
    registry.end(call);
    jest.runOnlyPendingTimers();
    call.cellIds.push('later');
    expect(model.rows[0].cellIds).toEqual([]);
  });

  it('is bounded: the newest rows stay', () => {
    create(3);
    for (let i = 0; i < 5; i++) {
      registry.now += 1;
      registry.end(registry.start(`t${i}`));
    }
    jest.runOnlyPendingTimers();
    expect(model.rows.map(r => r.tool)).toEqual(['t4', 't3', 't2']);
    expect(MAX_ACTIVITY_ROWS).toBeGreaterThan(0);
  });

  it('follows WebMCP availability, and works with no registry at all', () => {
    create();
    registry.status = { ...registry.status, available: false, pending: true };
    registry.statusChanged.emit(registry.status);
    jest.advanceTimersByTime(0);
    expect(emitted).toBe(1);
    expect(model.availability).toBe('looking');
    registry.status = { ...registry.status, pending: false };
    expect(model.availability).toBe('unavailable');

    const alone = new ActivityModel({ registry: null });
    expect(alone.availability).toBe('unavailable');
    expect(alone.rows).toEqual([]);
    alone.dispose();
  });

  it('stops listening and clears its timer when disposed', () => {
    create();
    registry.start('t');
    expect(jest.getTimerCount()).toBe(1);
    model.dispose();
    expect(model.isDisposed).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
    registry.end(registry.start('u'));
    expect(jest.getTimerCount()).toBe(0);
    expect(model.rows).toEqual([]);
    // a second dispose is harmless
    model.dispose();
  });
});

describe('the Activity texts', () => {
  const trans = nullTranslator.load('jupyterlite-webmcp');
  const call: IToolCall = {
    id: 1,
    tool: 'jupyter_update_cell',
    args: null,
    notebookPath: 'a.ipynb',
    cellIds: ['c1'],
    activity: null,
    progress: null,
    withheld: 0,
    startedAt: 0,
    finishedAt: 12,
    outcome: 'CELL_ACCESS_DENIED'
  };

  it('says what happened in words', () => {
    expect(activityView.outcomeText(call, trans)).toBe(
      'refused by access (CELL_ACCESS_DENIED)'
    );
    expect(
      activityView.outcomeText({ ...call, outcome: 'CELL_NOT_FOUND' }, trans)
    ).toBe('error: CELL_NOT_FOUND');
    expect(activityView.outcomeText({ ...call, outcome: 'ok' }, trans)).toBe(
      'ok'
    );
    expect(
      activityView.outcomeText(
        { ...call, finishedAt: null, outcome: null },
        trans
      )
    ).toBe('running');
  });

  it('says what a running call does now', () => {
    expect(
      activityView.runningText(
        {
          ...call,
          activity: { notebookPath: 'a.ipynb', cellId: 'c9', kind: 'running' },
          progress: { message: 'Running cells', done: 2, total: 5 }
        },
        trans
      )
    ).toBe('running cell c9 — Running cells (2 of 5)');
  });

  it('writes durations for people', () => {
    expect(activityView.formatDuration(12.4, trans)).toBe('12 ms');
    expect(activityView.formatDuration(1430, trans)).toBe('1.4 s');
    expect(activityView.formatDuration(125_000, trans)).toBe('2 min 5 s');
  });
});

describe('ActivityPanel', () => {
  let registry: FakeRegistry;
  let model: ActivityModel;
  let view: ActivityView.ActivityPanel;
  let opened: [string, string][];

  /** Resolves once `check` holds (React renders asynchronously). */
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) {
      await new Promise(resolve => setTimeout(resolve, 5));
    }
    expect(check()).toBe(true);
  };

  const create = (source: FakeRegistry | null) => {
    model = new ActivityModel({ registry: source });
    opened = [];
    view = new activityView.ActivityPanel({
      model,
      openCell: async (path, cellId) => {
        opened.push([path, cellId]);
      }
    });
    Widget.attach(view, document.body);
  };

  beforeEach(() => {
    registry = new FakeRegistry();
  });

  afterEach(() => {
    view.dispose();
    model.dispose();
  });

  it('says no call has been seen yet, and never that an agent is connected', async () => {
    create(registry);
    await until(() => view.node.textContent!.includes('No agent tool call'));
    expect(view.node.textContent).not.toMatch(/connected/i);
    expect(view.node.querySelector('ol')).toBeNull();
  });

  it('says WebMCP is unavailable when there is none', async () => {
    create(null);
    await until(() => view.node.textContent!.includes('WebMCP is unavailable'));
    expect(view.node.textContent).not.toContain('No agent tool call');
  });

  it('lists a call with its outcome, and its cell link opens the cell', async () => {
    create(registry);
    const call = registry.start('jupyter_update_cell', 'dir/a.ipynb');
    registry.reportCell(call, 'c1');
    registry.now += 12;
    registry.end(call, 'CELL_ACCESS_DENIED');
    await until(() => view.node.querySelectorAll('li').length === 1);
    const row = view.node.querySelector('li')!;
    expect(row.textContent).toContain('jupyter_update_cell');
    expect(row.textContent).toContain('refused by access (CELL_ACCESS_DENIED)');
    expect(row.textContent).toContain('12 ms');
    expect(row.textContent).toContain('a.ipynb');
    const link = row.querySelector('button')!;
    expect(link.getAttribute('aria-label')).toBe(
      'Go to cell c1 in dir/a.ipynb'
    );
    link.click();
    expect(opened).toEqual([['dir/a.ipynb', 'c1']]);
  });

  it('says how many secrets a call withheld, and nothing when none', async () => {
    create(registry);
    const quiet = registry.start('jupyter_get_cells');
    registry.end(quiet);
    const call = registry.start('jupyter_get_cells');
    call.withheld = 3;
    registry.end(call);
    await until(() => view.node.querySelectorAll('li').length === 2);
    const [newest, oldest] = view.node.querySelectorAll('li');
    expect(newest.textContent).toContain('3 secrets withheld from the agent');
    expect(oldest.textContent).not.toContain('withheld');
    expect(
      activityView.withheldText(1, nullTranslator.load('jupyterlite-webmcp'))
    ).toBe('1 secret withheld from the agent');
  });

  it('does not touch the page while hidden, and catches up when shown', async () => {
    create(registry);
    await until(() => view.node.textContent!.includes('No agent tool call'));
    view.hide();
    registry.end(registry.start('jupyter_get_cells'));
    // the model has the row; the hidden view did not render it
    await until(() => model.rows.length === 1);
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(view.node.querySelectorAll('li')).toHaveLength(0);
    view.show();
    await until(() => view.node.querySelectorAll('li').length === 1);
  });
});
