/**
 * runCells (jupyter_run_cells' semantic layer) on a real YNotebook: the
 * selector and kernel checks made before anything runs, and how the call's
 * status follows its abort signal. The panel is reduced to what runCells
 * reads of it (a session context, the cell widgets); cells that need no
 * kernel (markdown) are what runs here, real kernels are in ui-tests.
 */
import { YNotebook, type SharedCell } from '@jupyter/ydoc';

import { normalizeError } from '../../../src/common/errors';
import { runCells, type IRunArgs } from '../../../src/jupyter/kernel/execution';
import {
  type ILiveNotebook,
  type NotebookResolver
} from '../../../src/jupyter/notebook';
import { KERNEL_REACH_TIMEOUT_MS } from '../../../src/jupyter/kernel/reach';
import { silenceKnownWarnings } from '../../quiet';
import { FakeConnection } from '../fake-connection';
import { code, markdown } from '../ymodel';

silenceKnownWarnings();

/** What runCells reads of a cell widget; `onRender` sees a markdown render. */
interface IWidgetDouble {
  model: { id: string };
  rendered: boolean;
}

/**
 * A notebook open in a panel whose session has no kernel and starts none,
 * unless the test attaches a fake kernel connection (`kernel`).
 */
class KernelLessNotebook {
  readonly model = YNotebook.create();
  /** The kernel connection attached to the session, if any. */
  kernel: FakeConnection | null = null;
  readonly widgets: IWidgetDouble[] = [];
  /** The document's context: its path changes when the file is renamed. */
  readonly context = { localPath: 'run.ipynb' };
  /** Called with a markdown cell's id as runCells renders it. */
  onRender: (cellId: string) => void = () => undefined;

  constructor(cells: SharedCell.Cell[]) {
    this.model.insertCells(0, cells);
    for (const cell of this.model.cells) {
      let rendered = false;
      const onRender = (id: string) => this.onRender(id);
      this.widgets.push({
        model: { id: cell.id },
        get rendered() {
          return rendered;
        },
        set rendered(value: boolean) {
          rendered = value;
          onRender(cell.id);
        }
      });
    }
  }

  get resolver(): NotebookResolver {
    const live = {
      path: 'run.ipynb',
      model: this.model,
      dirty: false,
      release: () => undefined,
      panel: {
        sessionContext: {
          session: this.kernel ? { kernel: this.kernel.connection } : null,
          isDisposed: false,
          // settled without a kernel: the human picked none
          kernelDisplayStatus: 'unknown'
        },
        content: { widgets: this.widgets, activeCell: null },
        context: this.context,
        isDisposed: false
      }
    } as unknown as ILiveNotebook;
    return {
      resolveLive: () => Promise.resolve(live)
    } as unknown as NotebookResolver;
  }

  /** The cells the call reported running, in order. */
  reported: string[] = [];

  run(args: IRunArgs, signal = new AbortController().signal) {
    return runCells(this.resolver, args, {
      signal,
      reportCell: (_path, cellId, kind) =>
        this.reported.push(`${kind}:${cellId}`)
    });
  }

  dispose(): void {
    this.model.dispose();
  }
}

let notebook: KernelLessNotebook;

afterEach(() => {
  notebook?.dispose();
});

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return normalizeError(error);
  }
  throw new Error('expected the call to fail');
}

describe('runCells: checks before anything runs', () => {
  it('refuses an empty cellIds list instead of running nothing', async () => {
    notebook = new KernelLessNotebook([markdown('m1')]);
    expect(await errorOf(notebook.run({ cellIds: [] }))).toEqual({
      error: 'INVALID_ARGUMENT',
      message: expect.stringContaining('cellIds'),
      field: 'cellIds',
      rule: 'minItems'
    });
    expect(notebook.widgets[0].rendered).toBe(false);
  });

  it('an empty code cell is a code cell: KERNEL_UNAVAILABLE with no kernel', async () => {
    notebook = new KernelLessNotebook([
      markdown('m1'),
      code('blank', ''),
      code('spaces', '  \n\t')
    ]);
    for (const cellIds of [['blank'], ['spaces'], ['m1', 'blank']]) {
      expect(await errorOf(notebook.run({ cellIds }))).toMatchObject({
        error: 'KERNEL_UNAVAILABLE',
        path: 'run.ipynb'
      });
    }
    expect(
      await errorOf(notebook.run({ startIndex: 0, endIndex: 2 }))
    ).toMatchObject({ error: 'KERNEL_UNAVAILABLE' });
    // refused before the markdown cell of the same call was rendered
    expect(notebook.widgets[0].rendered).toBe(false);
  });

  it('markdown alone needs no kernel', async () => {
    notebook = new KernelLessNotebook([markdown('m1'), code('blank', '')]);
    const result = await notebook.run({ cellIds: ['m1'] });
    expect(result.status).toBe('ok');
    expect(result.results).toEqual([
      expect.objectContaining({ cellId: 'm1', index: 0, status: 'no-op' })
    ]);
  });

  it('names the notebook where it is now when it was renamed mid-call', async () => {
    notebook = new KernelLessNotebook([markdown('m1'), markdown('m2')]);
    notebook.onRender = id => {
      if (id === 'm1') {
        notebook.context.localPath = 'moved/renamed.ipynb';
      }
    };
    const result = await notebook.run({ cellIds: ['m1', 'm2'] });
    expect(result.notebook).toMatchObject({
      path: 'moved/renamed.ipynb',
      name: 'renamed.ipynb'
    });
  });
});

describe('runCells: the status after an abort', () => {
  it('an abort after the last cell finished leaves the status the results give', async () => {
    notebook = new KernelLessNotebook([markdown('m1'), markdown('m2')]);
    const controller = new AbortController();
    // the signal fires as the last target completes, before runCells returns
    notebook.onRender = id => {
      if (id === 'm2') {
        controller.abort();
      }
    };
    const result = await notebook.run(
      { cellIds: ['m1', 'm2'] },
      controller.signal
    );
    expect(controller.signal.aborted).toBe(true);
    expect(result.status).toBe('ok');
    expect(result.results.map(r => [r.cellId, r.status])).toEqual([
      ['m1', 'no-op'],
      ['m2', 'no-op']
    ]); // each target is reported to the call as running before it runs
    expect(notebook.reported).toEqual(['running:m1', 'running:m2']);
  });

  it('an abort that skips a remaining cell makes the call aborted', async () => {
    notebook = new KernelLessNotebook([markdown('m1'), markdown('m2')]);
    const controller = new AbortController();
    notebook.onRender = id => {
      if (id === 'm1') {
        controller.abort();
      }
    };
    const result = await notebook.run(
      { cellIds: ['m1', 'm2'] },
      controller.signal
    );
    expect(result.status).toBe('aborted');
    expect(result.results.map(r => [r.cellId, r.status])).toEqual([
      ['m1', 'no-op'],
      ['m2', 'abort']
    ]);
    expect(notebook.widgets[1].rendered).toBe(false);
    // a target the abort skipped is never reported as running
    expect(notebook.reported).toEqual(['running:m1']);
  });

  it('an abort whose remaining targets were deleted meanwhile stopped nothing', async () => {
    notebook = new KernelLessNotebook([markdown('m1'), markdown('m2')]);
    const controller = new AbortController();
    notebook.onRender = id => {
      if (id === 'm1') {
        controller.abort();
        notebook.model.deleteCell(1);
      }
    };
    const result = await notebook.run(
      { cellIds: ['m1', 'm2'] },
      controller.signal
    );
    expect(result.status).toBe('ok');
    expect(result.results.map(r => [r.cellId, r.index, r.status])).toEqual([
      ['m1', 0, 'no-op'],
      ['m2', -1, 'no-op']
    ]);
  });

  it('an already-aborted signal is ABORTED', async () => {
    notebook = new KernelLessNotebook([markdown('m1')]);
    const controller = new AbortController();
    controller.abort();
    expect(
      await errorOf(notebook.run({ cellIds: ['m1'] }, controller.signal))
    ).toMatchObject({ error: 'ABORTED' });
  });
});

describe('runCells: a kernel the page cannot reach', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  /** The call's outcome once it settles: its result or its error. */
  function outcomeOf(promise: Promise<unknown>): { value?: unknown } {
    const outcome: { value?: unknown } = {};
    promise.then(
      result => (outcome.value = result),
      error => (outcome.value = normalizeError(error))
    );
    return outcome;
  }

  it('answers KERNEL_UNAVAILABLE once the bound has passed with no word from the kernel, having run nothing', async () => {
    notebook = new KernelLessNotebook([markdown('m1'), code('c1')]);
    // the server restarted the kernel; the page's connection is up again
    // but has not heard from the new process
    notebook.kernel = new FakeConnection('unknown', 'connected');
    const outcome = outcomeOf(notebook.run({ cellIds: ['m1', 'c1'] }));
    await jest.advanceTimersByTimeAsync(KERNEL_REACH_TIMEOUT_MS - 1);
    expect(outcome.value).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(outcome.value).toEqual({
      error: 'KERNEL_UNAVAILABLE',
      message: expect.stringContaining('jupyter_kernel_action'),
      path: 'run.ipynb',
      kernelStatus: 'unknown',
      connectionStatus: 'connected'
    });
    // nothing ran: not even the markdown cell of the same call
    expect(notebook.widgets[0].rendered).toBe(false);
    expect(notebook.reported).toEqual([]);
    // the probe was the only request sent
    expect(notebook.kernel.sent).toEqual(['kernel_info_request']);
  });

  it('answers at once for a dead kernel', async () => {
    notebook = new KernelLessNotebook([code('c1')]);
    notebook.kernel = new FakeConnection('busy');
    notebook.kernel.die();
    const outcome = outcomeOf(notebook.run({ cellIds: ['c1'] }));
    await jest.advanceTimersByTimeAsync(0);
    expect(outcome.value).toMatchObject({
      error: 'KERNEL_UNAVAILABLE',
      message: expect.stringContaining('the kernel is dead'),
      kernelStatus: 'dead'
    });
  });

  it('a kernel still starting (never answered yet) is waited for past the bound, as a person’s Run would', async () => {
    notebook = new KernelLessNotebook([code('c1')]);
    notebook.kernel = new FakeConnection('unknown', 'connected', {
      booting: true
    });
    const controller = new AbortController();
    const outcome = outcomeOf(
      notebook.run({ cellIds: ['c1'] }, controller.signal)
    );
    await jest.advanceTimersByTimeAsync(3 * KERNEL_REACH_TIMEOUT_MS);
    expect(outcome.value).toBeUndefined();
    controller.abort();
    await jest.advanceTimersByTimeAsync(0);
    expect(outcome.value).toMatchObject({ error: 'ABORTED' });
  });

  it('an abort while it waits for the kernel is ABORTED', async () => {
    notebook = new KernelLessNotebook([code('c1')]);
    notebook.kernel = new FakeConnection('unknown', 'connecting');
    const controller = new AbortController();
    const outcome = outcomeOf(
      notebook.run({ cellIds: ['c1'] }, controller.signal)
    );
    await jest.advanceTimersByTimeAsync(5000);
    controller.abort();
    await jest.advanceTimersByTimeAsync(0);
    expect(outcome.value).toMatchObject({ error: 'ABORTED' });
  });

  it('a kernel lost while a cell waits for its turn ends that cell inline, unsent, and the next at once', async () => {
    notebook = new KernelLessNotebook([code('c1'), code('c2')]);
    const kernel = new FakeConnection('unknown', 'connecting');
    notebook.kernel = kernel;
    const outcome = outcomeOf(
      notebook.run({ cellIds: ['c1', 'c2'], stopOnError: false })
    );
    // it comes back within the bound: the call goes on to its first cell,
    // which waits for the probe's answer (earlier work may still run)
    await jest.advanceTimersByTimeAsync(KERNEL_REACH_TIMEOUT_MS - 1000);
    kernel.setConnectionStatus('connected');
    kernel.setStatus('busy');
    await jest.advanceTimersByTimeAsync(KERNEL_REACH_TIMEOUT_MS);
    expect(outcome.value).toBeUndefined();
    expect(notebook.reported).toEqual(['running:c1']);
    // then the connection drops and does not come back
    kernel.setConnectionStatus('connecting');
    await jest.advanceTimersByTimeAsync(KERNEL_REACH_TIMEOUT_MS);
    const result = outcome.value as Awaited<
      ReturnType<KernelLessNotebook['run']>
    >;
    expect(result.status).toBe('error');
    expect(result.results).toEqual([
      {
        cellId: 'c1',
        index: 0,
        status: 'error',
        outputSummary: expect.stringMatching(/^Not run: .*never sent/),
        ename: 'Error',
        evalue: expect.stringContaining('jupyter_kernel_action'),
        traceback: ''
      },
      expect.objectContaining({ cellId: 'c2', index: 1, status: 'error' })
    ]);
    expect(result.results[0].evalue).toContain(
      "kernel status 'unknown', connection 'connecting'"
    );
    // no execute request was sent for either cell
    expect(kernel.sent).toEqual(['kernel_info_request']);
  });
});
