/**
 * A read of a notebook open in this app, once its file is loaded, answers
 * within the call's own microtasks: the whole call path (validation, the
 * call log, notebook resolution, the access rules, the envelope) waits for
 * no task, so nothing the page has queued (JupyterLab building cells on idle
 * time, a frame, a timer) can run inside the read. What a WebMCP call still
 * waits for around `execute` is the browser's own dispatch and delivery
 * (docs/benchmarks.md, "Reads during the first seconds").
 */
import type * as nbformat from '@jupyterlab/nbformat';
import type {
  NotebookPanel,
  NotebookTracker as NotebookTrackerType
} from '@jupyterlab/notebook';
import { Widget } from '@lumino/widgets';

import { type IJupyterEnvironment } from '../../src/jupyter/environment';
import { NotebookResolver } from '../../src/jupyter/notebook';
import { WebMcpRegistry } from '../../src/webmcp/register';
import { coreTools } from '../../src/webmcp/tools';
import { type IToolResult } from '../../src/webmcp/types';
import { InputValidator } from '../../src/webmcp/validate';
import { COMPILED_VALIDATORS } from '../../src/webmcp/validators.generated';
import { disposePanel, loadPanelKit } from '../panel-kit';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

const { NBTestUtils, NotebookTracker } = loadPanelKit();

const CONTENT: nbformat.INotebookContent = {
  cells: Array.from({ length: 30 }, (_, i) => ({
    id: `c${i}`,
    cell_type: 'code',
    source: `x = ${i}`,
    metadata: {},
    outputs: [],
    execution_count: null
  })),
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5
};

describe('a read of an open notebook', () => {
  let tracker: NotebookTrackerType;
  let panel: NotebookPanel;
  let registry: WebMcpRegistry;

  beforeEach(async () => {
    tracker = new NotebookTracker({ namespace: 'reads-without-a-task' });
    const context = await NBTestUtils.createMockContext();
    context.model.fromJSON(CONTENT);
    panel = NBTestUtils.createNotebookPanel(context);
    Widget.attach(panel, document.body);
    await tracker.add(panel);
    const env = {
      tracker,
      multiDocument: true
    } as unknown as IJupyterEnvironment;
    registry = new WebMcpRegistry({
      tools: coreTools(
        {
          env,
          resolver: new NotebookResolver(env),
          isNotebookVisible: async () => true
        },
        null
      ),
      validator: new InputValidator(COMPILED_VALIDATORS)
    });
  });

  afterEach(() => {
    registry.dispose();
    disposePanel(panel, tracker);
  });

  /**
   * Runs one call of `name` as a client does (the registry's own `execute`),
   * and says whether a task queued just before it ran first.
   */
  async function call(
    name: string,
    input: Record<string, unknown>
  ): Promise<{ result: IToolResult; taskRan: boolean }> {
    const tool = registry.offeredTools.find(offered => offered.name === name);
    if (!tool) {
      throw new Error(`${name} is not offered`);
    }
    let taskRan = false;
    const timer = setTimeout(() => {
      taskRan = true;
    }, 0);
    const result = (await tool.call(input)) as IToolResult;
    clearTimeout(timer);
    return { result, taskRan };
  }

  it.each([
    ['jupyter_get_cells', { startIndex: 5, endIndex: 25 }],
    ['jupyter_get_cells', { cellIds: ['c3', 'c17'], includeOutputs: true }],
    ['jupyter_get_cell_access', { startIndex: 5, endIndex: 25 }]
  ])('%s %j answers before any task runs', async (name, args) => {
    const path = panel.context.path;
    for (const input of [{ ...args, notebookPath: path }, args]) {
      const { result, taskRan } = await call(name, input);
      expect(result.isError).toBeFalsy();
      expect(taskRan).toBe(false);
      const payload = result.structuredContent as {
        notebook: { cellCount: number };
        cells: unknown[];
      };
      expect(payload.notebook.cellCount).toBe(30);
      expect(payload.cells.length).toBeGreaterThan(0);
    }
  });
});
