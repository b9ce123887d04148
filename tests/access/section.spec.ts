import type * as nbformat from '@jupyterlab/nbformat';
import type {
  NotebookPanel,
  NotebookTracker as NotebookTrackerType
} from '@jupyterlab/notebook';
import type { NBTestUtils as NBTestUtilsType } from '@jupyterlab/notebook/lib/testutils';
import type { Contents } from '@jupyterlab/services';
import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';

import { ACCESS_METADATA_KEY } from '../../src/access/model';
import type * as ServiceModule from '../../src/access/service';
import type * as TabModelModule from '../../src/access/section-model';
import type * as TabViewModule from '../../src/access/section';
import { previewOf } from '../../src/agent-panel/rows';
import { ProposalService } from '../../src/propose/service';
import type { IWebMcpRegistry } from '../../src/tokens';
import { FakeContents } from './fakes';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

// Loaded once the console is quieted: @jupyterlab/apputils warns on import.
const { AccessTabModel, kernelWarning, rowWindow } = jest.requireActual<
  typeof TabModelModule
>('../../src/access/section-model');
const { AccessPanel } = jest.requireActual<typeof TabViewModule>(
  '../../src/access/section'
);
const { AgentAccessService } = jest.requireActual<typeof ServiceModule>(
  '../../src/access/service'
);
const { NBTestUtils } = jest.requireActual<{
  NBTestUtils: typeof NBTestUtilsType;
}>('@jupyterlab/notebook/lib/testutils');
const { NotebookTracker } = jest.requireActual<{
  NotebookTracker: typeof NotebookTrackerType;
}>('@jupyterlab/notebook');

function code(id: string, source: string) {
  return {
    id,
    cell_type: 'code' as const,
    source,
    metadata: {} as nbformat.ICodeCell['metadata'],
    outputs: [],
    execution_count: null
  };
}

describe('previewOf', () => {
  it('shows the first non-blank line, trimmed and shortened', () => {
    expect(previewOf('\n  \n  x = 1\ny = 2')).toBe('x = 1');
    expect(previewOf('')).toBe('');
    expect(previewOf('a'.repeat(100), 10)).toBe(`${'a'.repeat(9)}…`);
  });
});

describe('rowWindow', () => {
  it('shows every row when they fit', () => {
    expect(rowWindow(3, 1, 200)).toEqual({ start: 0, end: 3 });
  });

  it('shows a bounded window around the active cell', () => {
    expect(rowWindow(5000, -1, 200)).toEqual({ start: 0, end: 200 });
    expect(rowWindow(5000, 50, 200)).toEqual({ start: 0, end: 200 });
    expect(rowWindow(5000, 1000, 200)).toEqual({ start: 900, end: 1100 });
    expect(rowWindow(5000, 4999, 200)).toEqual({ start: 4800, end: 5000 });
  });
});

describe('AccessTabModel', () => {
  let panel: NotebookPanel;
  let tracker: NotebookTrackerType;
  let service: ServiceModule.AgentAccessService;
  let model: TabModelModule.AccessTabModel;

  /** Waits for the model's next (timer-scheduled) change. */
  const nextChange = () =>
    new Promise<void>(resolve => {
      const once = () => {
        model.changed.disconnect(once);
        resolve();
      };
      model.changed.connect(once);
    });

  beforeEach(async () => {
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({
      cells: [
        code('a', '# first\nx = 1'),
        code('b', 'y = 2'),
        code('c', ''),
        code('d', 'z = 3')
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    });
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    tracker = new NotebookTracker({ namespace: 'access-tab-spec' });
    await tracker.add(panel);
    service = new AgentAccessService({
      tracker,
      contents: new FakeContents() as unknown as Contents.IManager
    });
    model = new AccessTabModel({ tracker, access: service, limit: 3 });
    await nextChange();
  });

  afterEach(() => {
    model.dispose();
    service.dispose();
    const context = panel.context;
    panel.dispose();
    context.dispose();
    tracker.dispose();
  });

  const shared = () => panel.content.model!.sharedModel;

  it('follows the current notebook and reads its access', () => {
    expect(model.panel).toBe(panel);
    expect(model.path).toBe(panel.context.localPath);
    expect(model.notebookAccess).toEqual({ access: 'write', valid: true });
    expect(model.cellCount).toBe(4);
  });

  it('lists a bounded window of rows around the active cell', () => {
    panel.content.activeCellIndex = 0;
    expect(model.window).toEqual({ start: 0, end: 3 });
    expect(model.rows().map(r => [r.index, r.id, r.preview, r.active])).toEqual(
      [
        [0, 'a', '# first', true],
        [1, 'b', 'y = 2', false],
        [2, 'c', '', false]
      ]
    );
    panel.content.activeCellIndex = 3;
    expect(model.window).toEqual({ start: 1, end: 4 });
    expect(model.rows().map(r => r.id)).toEqual(['b', 'c', 'd']);
    expect(model.rows()[2].active).toBe(true);
  });

  it('announces a new active cell and a new selection', async () => {
    const changed = nextChange();
    panel.content.activeCellIndex = 2;
    await changed;
    const selected = nextChange();
    panel.content.extendContiguousSelectionTo(3);
    await selected;
    expect(
      model
        .rows()
        .filter(r => r.selected)
        .map(r => r.id)
    ).toEqual(['c', 'd']);
  });

  it('withholds secrets by default, and keeps the notebook’s switch in it', async () => {
    expect(model.withholdsSecrets).toBe(true);
    expect(model.withholdSecretsByDefault).toBe(true);
    const changed = nextChange();
    model.setWithholdSecrets(false);
    await changed;
    expect(model.withholdsSecrets).toBe(false);
    expect(shared().getMetadata(ACCESS_METADATA_KEY)).toEqual({
      version: 1,
      withholdSecrets: false
    });
    // the setting applies to notebooks without a switch of their own
    service.setWithholdSecrets(shared(), null);
    const setting = nextChange();
    service.withholdSecretsByDefault = false;
    await setting;
    expect(model.withholdsSecrets).toBe(false);
    service.withholdSecretsByDefault = true;
    expect(model.withholdsSecrets).toBe(true);
  });

  it('writes a cell’s access through the service, and re-reads it', async () => {
    panel.content.activeCellIndex = 0;
    const changed = nextChange();
    model.setCellAccess(1, 'read');
    await changed;
    expect(shared().cells[1].getMetadata(ACCESS_METADATA_KEY)).toEqual({
      version: 1,
      access: 'read'
    });
    expect(model.rows()[1].reading).toEqual({ access: 'read', valid: true });
  });

  it('sets every cell at once, as one undo step', async () => {
    const changed = nextChange();
    expect(model.setAllCellsAccess('none')).toBe(4);
    await changed;
    expect(shared().cells.map(c => c.getMetadata(ACCESS_METADATA_KEY))).toEqual(
      Array(4).fill({ version: 1, access: 'none' })
    );
    shared().undo();
    expect(
      shared().cells.map(c => c.getMetadata(ACCESS_METADATA_KEY) ?? null)
    ).toEqual([null, null, null, null]);
  });

  it('sets the notebook’s access and reads the change back', async () => {
    await model.setNotebookAccess('read');
    await nextChange();
    expect(model.notebookAccess).toEqual({ access: 'read', valid: true });
  });

  it('shows an invalid hand-edited value as invalid, hidden', async () => {
    const changed = nextChange();
    shared().cells[0].setMetadata(ACCESS_METADATA_KEY, {
      version: 1,
      access: 'READ'
    });
    await changed;
    panel.content.activeCellIndex = 0;
    expect(model.rows()[0].reading).toMatchObject({
      access: 'none',
      valid: false
    });
  });

  it('lets go of a closed notebook, and stops when disposed', async () => {
    const changed = nextChange();
    const context = panel.context;
    panel.dispose();
    await changed;
    expect(model.panel).toBeNull();
    expect(model.rows()).toEqual([]);
    context.dispose();
    model.dispose();
    expect(model.isDisposed).toBe(true);
  });
});

describe('kernelWarning', () => {
  const write = { access: 'write', valid: true } as const;
  const base = {
    hiddenCells: 1,
    notebookAccess: write,
    runsReviewed: false,
    runsOff: false
  };

  it('warns with a hidden cell whose notebook’s runs are not reviewed', () => {
    expect(kernelWarning(base)).toBe(true);
    // the notebook's access not read yet: the agent may well run code
    expect(kernelWarning({ ...base, notebookAccess: null })).toBe(true);
  });

  it('says nothing when nothing is hidden, runs wait, runs are off, or the agent cannot run', () => {
    expect(kernelWarning({ ...base, hiddenCells: 0 })).toBe(false);
    expect(kernelWarning({ ...base, runsReviewed: true })).toBe(false);
    expect(kernelWarning({ ...base, runsOff: true })).toBe(false);
    expect(
      kernelWarning({
        ...base,
        notebookAccess: { access: 'read', valid: true }
      })
    ).toBe(false);
    expect(
      kernelWarning({
        ...base,
        notebookAccess: { access: 'none', valid: false }
      })
    ).toBe(false);
  });
});

describe('the Access tab’s kernel warning', () => {
  let panel: NotebookPanel;
  let tracker: NotebookTrackerType;
  let service: ServiceModule.AgentAccessService;
  let proposals: ProposalService;
  let model: TabModelModule.AccessTabModel;
  const disabled: string[] = [];
  const registry = {
    status: { disabled },
    statusChanged: new Signal<unknown, unknown>({})
  };

  const nextChange = () =>
    new Promise<void>(resolve => {
      const once = () => {
        model.changed.disconnect(once);
        resolve();
      };
      model.changed.connect(once);
    });

  beforeEach(async () => {
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON({
      cells: [code('a', 'token = "secret"'), code('b', 'y = 2')],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5
    });
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    tracker = new NotebookTracker({ namespace: 'access-warning-spec' });
    await tracker.add(panel);
    service = new AgentAccessService({
      tracker,
      contents: new FakeContents() as unknown as Contents.IManager
    });
    const currentChanged = new Signal<unknown, unknown>({});
    proposals = new ProposalService({
      mode: 'direct',
      notebooks: {
        current: () => panel.content.model?.sharedModel ?? null,
        currentChanged
      }
    });
    model = new AccessTabModel({
      tracker,
      access: service,
      proposals,
      registry: registry as unknown as IWebMcpRegistry
    });
    await nextChange();
  });

  afterEach(() => {
    model.dispose();
    proposals.dispose();
    service.dispose();
    const context = panel.context;
    panel.dispose();
    context.dispose();
    tracker.dispose();
    disabled.length = 0;
  });

  const shared = () => panel.content.model!.sharedModel;

  it('shows with a hidden cell in Direct mode, and goes in Propose mode', async () => {
    expect(model.kernelWarning).toBe(false);
    let changed = nextChange();
    model.setCellAccess(0, 'none');
    await changed;
    expect(model.kernelWarning).toBe(true);

    changed = nextChange();
    expect(proposals.setMode('propose')).toBe(true);
    await changed;
    expect(model.kernelWarning).toBe(false);

    // runs not among the reviewed kinds: Propose mode does not cover them
    changed = nextChange();
    proposals.setReviewed(['update', 'insert', 'delete', 'kernel']);
    await changed;
    expect(model.kernelWarning).toBe(true);
    proposals.setReviewed(['update', 'insert', 'delete', 'run', 'kernel']);
    await nextChange();
    expect(model.kernelWarning).toBe(false);
  });

  it('goes when the run tool is off, or the cell is visible again', async () => {
    let changed = nextChange();
    model.setCellAccess(0, 'none');
    await changed;
    expect(model.kernelWarning).toBe(true);
    changed = nextChange();
    disabled.push('jupyter_run_cells');
    registry.statusChanged.emit(undefined);
    await changed;
    expect(model.kernelWarning).toBe(false);
    disabled.length = 0;
    changed = nextChange();
    model.setCellAccess(0, 'write');
    await changed;
    expect(model.kernelWarning).toBe(false);
    // back to the default: nothing stored
    expect(shared().cells[0].getMetadata(ACCESS_METADATA_KEY)).toBeUndefined();
  });

  it('renders a status note with its class, only while it applies', async () => {
    const view = new AccessPanel({ model });
    Widget.attach(view, document.body);
    const note = () => view.node.querySelector('.jp-AgentAccess-kernelWarning');
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) {
        await new Promise(resolve => setTimeout(resolve, 10));
      }
      expect(check()).toBe(true);
    };
    await until(() => view.node.textContent!.includes('cells'));
    expect(note()).toBeNull();
    model.setCellAccess(0, 'none');
    await until(() => note() !== null);
    expect(note()!.getAttribute('role')).toBe('status');
    expect(note()!.textContent).toContain(
      'Code the agent runs shares the kernel with every cell'
    );
    expect(note()!.textContent).toContain('Propose mode');
    expect(note()!.textContent).toContain('jupyter_run_cells');
    proposals.setMode('propose');
    await until(() => note() === null);
    view.dispose();
  });
});
