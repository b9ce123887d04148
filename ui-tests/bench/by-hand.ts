/**
 * The cell benchmark's edit loops: the tools' update, insert and delete
 * against the same change made by hand, that is directly on the notebook's
 * shared model, the way a human's (or a collaborator's) edit lands.
 *
 * Each change made by hand is timed two ways:
 *
 * - on its own, synchronously around the model call (JupyterLab's listeners
 *   and the editor's update run inside it): what the change costs the page
 *   before anything is drawn;
 * - through an empty tool of the benchmark (`bench_by_hand`) whose `execute`
 *   makes the same change: timed around `document.modelContext.executeTool`
 *   exactly like the extension's tools, so it pays the same dispatch and,
 *   when a frame comes due before the answer is delivered, the same frame
 *   Chromium renders inside the call (see docs/benchmarks.md). That is the
 *   reference the tools are compared with: what the human's change costs
 *   the page, drawing included, measured the same way.
 *
 * The functions handed to `page.evaluate` are serialized by Playwright, so
 * their bodies use nothing from this module but types.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { NotebookPanel } from '@jupyterlab/notebook';
import type { Page } from '@playwright/test';

import {
  REPS,
  WARMUPS,
  type IBenchModelContext,
  type IBenchWindow,
  type IMeasured,
  type IRegisteredTool,
  type IRepetitions
} from './page';

/** The name of the benchmark's by-hand tool. */
export const BY_HAND = 'bench_by_hand';

/** What the by-hand tool is asked to do. */
interface IByHandInput {
  notebookPath: string;
  op: 'edit' | 'insert' | 'delete';
  cellId?: string;
  source?: string;
  index?: number;
}

interface IByHandWindow {
  jupyterapp?: JupyterFrontEnd;
  benchByHand?: AbortController;
}

/**
 * Register `bench_by_hand`: it makes one change on an open notebook's
 * shared model (`edit`: replace a cell's source; `insert`: a code cell at
 * `index`; `delete`: the cell `cellId`) and answers with the new cell's id
 * and how long the model call took.
 */
export async function registerByHand(page: Page): Promise<void> {
  await page.evaluate(async name => {
    const win = window as unknown as IByHandWindow;
    const context = (
      document as unknown as { modelContext: IBenchModelContext<IByHandInput> }
    ).modelContext;
    const controller = new AbortController();
    win.benchByHand = controller;
    const modelOf = (path: string) => {
      const panel = [...(win.jupyterapp?.shell.widgets('main') ?? [])].find(
        widget => (widget as NotebookPanel).context?.path === path
      ) as NotebookPanel | undefined;
      const model = panel?.content.model?.sharedModel;
      if (!model) {
        throw new Error(`${path} is not open`);
      }
      return model;
    };
    await context.registerTool(
      {
        name,
        description: 'Benchmark reference: a change made by hand.',
        inputSchema: { type: 'object', properties: {} },
        execute: async input => {
          const model = modelOf(input.notebookPath);
          // found before the clock starts: a person points at the cell
          const index =
            input.op === 'insert'
              ? (input.index ?? 0)
              : model.cells.findIndex(cell => cell.id === input.cellId);
          if (index < 0) {
            throw new Error(`no cell ${input.cellId}`);
          }
          let id = input.cellId ?? '';
          const start = performance.now();
          switch (input.op) {
            case 'edit':
              model.cells[index].setSource(input.source ?? '');
              break;
            case 'insert':
              id = model.insertCell(index, {
                cell_type: 'code',
                source: input.source ?? '',
                metadata: {}
              }).id;
              break;
            case 'delete':
              model.deleteCell(index);
              break;
          }
          const ms = performance.now() - start;
          const text = JSON.stringify({ id, ms });
          return { content: [{ type: 'text', text }] };
        }
      },
      { signal: controller.signal }
    );
  }, BY_HAND);
}

/** Unregister `bench_by_hand`. */
export async function unregisterByHand(page: Page): Promise<void> {
  await page.evaluate(() =>
    (window as unknown as IByHandWindow).benchByHand?.abort()
  );
}

/** A change made by hand: through the empty tool, and its model call alone. */
export interface IByHand {
  /** Around executeTool of `bench_by_hand`. */
  tool: IMeasured;
  /** Around the model call alone (inside that tool). */
  sync: IMeasured;
}

/** The same source replacement as measureUpdate's, made by hand. */
export async function measureEditByHand(
  page: Page,
  notebookPath: string,
  cellId: string,
  options: IRepetitions = {}
): Promise<IByHand> {
  const [edit] = await byHandLoop(
    page,
    notebookPath,
    { op: 'edit', cellId },
    options
  );
  return edit;
}

/**
 * Insert a code cell below `referenceCellId` and delete it again, by hand:
 * the insertion, then the deletion, each timed.
 */
export async function measureInsertDeleteByHand(
  page: Page,
  notebookPath: string,
  referenceCellId: string,
  options: IRepetitions = {}
): Promise<{ insert: IByHand; delete: IByHand }> {
  const [insert, remove] = await byHandLoop(
    page,
    notebookPath,
    { op: 'insert', cellId: referenceCellId },
    options
  );
  return { insert, delete: remove };
}

async function byHandLoop(
  page: Page,
  notebookPath: string,
  what: { op: 'edit' | 'insert'; cellId: string },
  options: IRepetitions
): Promise<IByHand[]> {
  const rows = await page.evaluate(
    async ([target, name, op, cellId, warmups, reps]) => {
      const context = (
        document as unknown as {
          modelContext: IBenchModelContext<IByHandInput>;
        }
      ).modelContext;
      const helpers = (window as unknown as IBenchWindow).benchHelpers!;
      const tool = await helpers.tool(name);
      const atRest = (window as unknown as IBenchWindow).benchAtRest!;
      const call = async (input: Record<string, unknown>) => {
        await atRest();
        const start = performance.now();
        const out = await context.executeTool(tool, {
          notebookPath: target,
          ...input
        });
        const elapsed = performance.now() - start;
        const envelope = JSON.parse(out ?? '{}') as {
          isError?: boolean;
          content?: { text: string }[];
        };
        if (envelope.isError) {
          throw new Error(`${name} failed: ${out}`);
        }
        const answer = JSON.parse(envelope.content?.[0]?.text ?? '{}') as {
          id: string;
          ms: number;
        };
        return { elapsed, ...answer };
      };
      const indexOf = () => {
        const app = (window as unknown as IByHandWindow).jupyterapp;
        const panel = [...(app?.shell.widgets('main') ?? [])].find(
          widget => (widget as NotebookPanel).context?.path === target
        ) as NotebookPanel | undefined;
        return (
          panel?.content.model?.sharedModel.cells.findIndex(
            cell => cell.id === cellId
          ) ?? -1
        );
      };
      const sources = [
        'result = compute(alpha=0.5)\nresult',
        'result = compute(alpha=0.6)\nresult'
      ];
      const first = { tool: [] as number[], sync: [] as number[] };
      const second = { tool: [] as number[], sync: [] as number[] };
      for (let i = 0; i < warmups + reps; i++) {
        const keep = i >= warmups;
        if (op === 'edit') {
          const done = await call({ op, cellId, source: sources[i % 2] });
          if (keep) {
            first.tool.push(done.elapsed);
            first.sync.push(done.ms);
          }
          continue;
        }
        const inserted = await call({
          op: 'insert',
          index: indexOf() + 1,
          source: sources[i % 2]
        });
        const deleted = await call({ op: 'delete', cellId: inserted.id });
        if (keep) {
          first.tool.push(inserted.elapsed);
          first.sync.push(inserted.ms);
          second.tool.push(deleted.elapsed);
          second.sync.push(deleted.ms);
        }
      }
      return op === 'edit' ? [first] : [first, second];
    },
    [
      notebookPath,
      BY_HAND,
      what.op,
      what.cellId,
      options.warmups ?? WARMUPS,
      options.reps ?? REPS
    ] as const
  );
  const measured = (times: number[]): IMeasured => ({
    times,
    resultBytes: 0,
    last: null
  });
  return rows.map(row => ({
    tool: measured(row.tool),
    sync: measured(row.sync)
  }));
}

/**
 * The agent's insert-and-delete loop: jupyter_insert_cell below
 * `referenceCellId` (not activated: the same insertion as by hand), then
 * jupyter_delete_cell of that cell with the hash the insert answered, each
 * timed around executeTool.
 */
export async function measureInsertDelete(
  page: Page,
  notebookPath: string,
  referenceCellId: string,
  options: IRepetitions = {}
): Promise<{ insert: IMeasured; delete: IMeasured }> {
  return page.evaluate(
    async ([target, reference, warmups, reps]) => {
      const context = (
        document as unknown as {
          modelContext: IBenchModelContext<IByHandInput>;
        }
      ).modelContext;
      const { tool } = (window as unknown as IBenchWindow).benchHelpers!;
      const insertTool = await tool('jupyter_insert_cell');
      const deleteTool = await tool('jupyter_delete_cell');
      const atRest = (window as unknown as IBenchWindow).benchAtRest!;
      const call = async (
        tool: IRegisteredTool,
        input: Record<string, unknown>
      ) => {
        await atRest();
        const start = performance.now();
        const out = await context.executeTool(tool, input);
        const elapsed = performance.now() - start;
        const envelope = JSON.parse(out ?? '{}') as {
          isError?: boolean;
          content?: { text: string }[];
        };
        const text = envelope.content?.[0]?.text ?? '{}';
        if (envelope.isError) {
          throw new Error(`${tool.name} failed: ${text}`);
        }
        return { elapsed, text, payload: JSON.parse(text) as unknown };
      };
      const sources = [
        'result = compute(alpha=0.7)\nresult',
        'result = compute(alpha=0.8)\nresult'
      ];
      const inserts: number[] = [];
      const deletes: number[] = [];
      let insertText = '';
      let deleteText = '';
      let last: unknown = null;
      for (let i = 0; i < warmups + reps; i++) {
        const inserted = await call(insertTool, {
          notebookPath: target,
          referenceCellId: reference,
          position: 'below',
          cellType: 'code',
          source: sources[i % 2],
          activate: false
        });
        const cell = (
          inserted.payload as { cell: { id: string; sourceHash: string } }
        ).cell;
        const deleted = await call(deleteTool, {
          notebookPath: target,
          cellId: cell.id,
          expectedSourceHash: cell.sourceHash
        });
        insertText = inserted.text;
        deleteText = deleted.text;
        last = deleted.payload;
        if (i >= warmups) {
          inserts.push(inserted.elapsed);
          deletes.push(deleted.elapsed);
        }
      }
      const bytes = (text: string) => new TextEncoder().encode(text).length;
      return {
        insert: {
          times: inserts,
          resultBytes: bytes(insertText),
          last: JSON.parse(insertText) as unknown
        },
        delete: { times: deletes, resultBytes: bytes(deleteText), last }
      };
    },
    [
      notebookPath,
      referenceCellId,
      options.warmups ?? WARMUPS,
      options.reps ?? REPS
    ] as const
  );
}
