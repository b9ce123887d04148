/**
 * runCells (jupyter_run_cells' semantic layer) on a real YNotebook: the
 * selector and kernel checks made before anything runs, and how the call's
 * status follows its abort signal. The panel is reduced to what runCells
 * reads of it (a session context, the cell widgets); cells that need no
 * kernel (markdown) are what runs here, real kernels are in ui-tests.
 */
import { YNotebook, type SharedCell } from '@jupyter/ydoc';

import { normalizeError } from '../../src/common/errors';
import { runCells, type IRunArgs } from '../../src/jupyter/execution';
import {
  type ILiveNotebook,
  type NotebookResolver
} from '../../src/jupyter/notebook';
import { silenceKnownWarnings } from '../quiet';
import { code, markdown } from './ymodel';

silenceKnownWarnings();

/** What runCells reads of a cell widget; `onRender` sees a markdown render. */
interface IWidgetDouble {
  model: { id: string };
  rendered: boolean;
}

/** A notebook open in a panel whose session has no kernel and starts none. */
class KernelLessNotebook {
  readonly model = YNotebook.create();
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
          session: null,
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
