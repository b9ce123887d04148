/**
 * Reliability row (h): two browsers and an agent under real-time
 * collaboration (the `rtc` project, lab-rtc: JupyterLab with
 * jupyter-collaboration). At once: person A's agent inserts cells, reads
 * and updates others and runs some; person B types into other cells; B's
 * agent comments on cells. Afterwards both browsers and the saved file hold
 * the same cells, every thread and message once, the agent's edits in both,
 * and no cell's history repeats an entry.
 *
 * Counts: 210 operations in CI and in the full run (the row's figure).
 */
import type { Page } from '@playwright/test';

import { expect, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';
import { codeCell, notebookOf } from '../notebook-content';
import { secondPerson } from '../second-person';
import { recordFigure, since } from '../reliability/figures';

const CELLS = 20;
const REVIEW_KEY = 'jupyterlite_webmcp_review';

/** JSON with object keys sorted: a Yjs map keeps no key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([x], [y]) =>
            x < y ? -1 : 1
          )
        )
      : typeof v === 'string' && v.startsWith('[{')
        ? JSON.parse(canonical(JSON.parse(v)))
        : v
  );
}

/** What a page holds of the notebook: cells, threads, histories. */
async function state(page: Page, path: string) {
  return page.evaluate(
    ([p, key]) => {
      const shared = window.uiTests.findNotebook(p)!.context.model.sharedModel;
      const review = shared.getMetadata(key) as
        { threads?: { id: string; messages?: { id: string }[] }[] } | undefined;
      return {
        cells: shared.cells.map(c => `${c.id}|${c.getSource()}`),
        threads: (review?.threads ?? []).map(t => ({
          id: t.id,
          messages: (t.messages ?? []).map(m => m.id)
        })),
        histories: shared.cells.map(c =>
          JSON.stringify(
            (c.getMetadata('jupyterlite_webmcp') as { history?: unknown[] })
              ?.history ?? []
          )
        )
      };
    },
    [path, REVIEW_KEY] as const
  );
}

test('two browsers and an agent at once: both browsers and the file agree', async ({
  jupyter,
  human,
  agent,
  browser,
  baseURL
}) => {
  test.setTimeout(300_000);
  await jupyter.open();
  const path = await jupyter.createNotebook(
    'collab.ipynb',
    notebookOf(
      Array.from({ length: CELLS }, (_, i) => codeCell(`r${i}`, `s${i} = ${i}`))
    )
  );
  const b = await secondPerson(browser, jupyter, baseURL!);
  const problems: string[] = [];
  let ops = 0;
  const started = Date.now();
  try {
    await b.jupyter.open();
    await human.openNotebook(path);
    await b.human.openNotebook(path, { kernel: false });
    await agent.waitForTools(IMPLEMENTED);
    await b.agent.waitForTools(IMPLEMENTED);

    const agentA = async () => {
      for (let i = 0; i < 40; i++) {
        const inserted = await agent.call('jupyter_insert_cell', {
          referenceCellId: `r${i % 10}`,
          source: `agent_ins_${i} = 1`,
          activate: false
        });
        ops++;
        if (inserted.isError) {
          problems.push(`insert ${i}: ${inserted.text}`);
        }
        const cellId = `r${i % 10}`;
        const read = await agent.call<{ cells: { sourceHash: string }[] }>(
          'jupyter_get_cells',
          { cellIds: [cellId] }
        );
        const updated = await agent.call('jupyter_update_cell', {
          cellId,
          source: `s${i % 10} = ${i} # agent`,
          expectedSourceHash: read.structured!.cells[0].sourceHash
        });
        ops += 2;
        if (updated.isError) {
          problems.push(`update ${i}: ${updated.text}`);
        }
        if (i % 4 === 0) {
          const run = await agent.call('jupyter_run_cells', {
            cellIds: [`r${i % 5}`]
          });
          ops++;
          if (run.isError) {
            problems.push(`run ${i}: ${run.text}`);
          }
        }
      }
    };
    const humanB = async () => {
      for (let i = 0; i < 40; i++) {
        // keystrokes at the end of a cell found by id each time (the
        // agent's inserts move the indexes meanwhile)
        await b.jupyter.page.evaluate(
          async ([p, id, text]) => {
            const shared =
              window.uiTests.findNotebook(p)!.context.model.sharedModel;
            for (const char of text) {
              const cell = shared.cells.find(c => c.id === id)!;
              const end = cell.getSource().length;
              cell.updateSource(end, end, char);
              await new Promise(resolve => setTimeout(resolve, 2));
            }
          },
          [path, `r${10 + (i % 10)}`, ` #b${i}`] as const
        );
        ops++;
      }
    };
    const agentB = async () => {
      for (let i = 0; i < 40; i++) {
        const created = await b.agent.call('jupyter_create_comment', {
          anchor: { kind: 'cell', cellId: `r${i % CELLS}` },
          message: `comment ${i}`
        });
        ops++;
        if (created.isError) {
          problems.push(`comment ${i}: ${created.text}`);
        }
      }
    };
    await Promise.all([agentA(), humanB(), agentB()]);

    // the two browsers converge
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [inA, inB] = [
        await state(jupyter.page, path),
        await state(b.jupyter.page, path)
      ];
      if (canonical(inA) === canonical(inB)) {
        break;
      }
      if (Date.now() > deadline) {
        for (const key of ['cells', 'threads', 'histories'] as const) {
          const [x, y] = [canonical(inA[key]), canonical(inB[key])];
          if (x !== y) {
            let at = 0;
            while (x[at] === y[at]) {
              at++;
            }
            problems.push(
              `the browsers differ in ${key}: A …${x.slice(Math.max(0, at - 80), at + 120)}… B …${y.slice(Math.max(0, at - 80), at + 120)}…`
            );
          }
        }
        break;
      }
      await jupyter.page.waitForTimeout(500);
    }
    const a = await state(jupyter.page, path);
    const saved = await agent.call('jupyter_save_notebook', {});
    expect(saved.isError, saved.text).toBe(false);
    const file = await jupyter.readNotebook(path);
    const fileCells = file.cells.map(
      c => `${c.id}|${Array.isArray(c.source) ? c.source.join('') : c.source}`
    );
    if (JSON.stringify(fileCells) !== JSON.stringify(a.cells)) {
      problems.push('the saved file and the browsers hold different cells');
    }
    const fileThreads = (
      (file.metadata[REVIEW_KEY] as { threads?: { id: string }[] })?.threads ??
      []
    ).map(t => t.id);
    if (
      JSON.stringify(fileThreads) !== JSON.stringify(a.threads.map(t => t.id))
    ) {
      problems.push('the saved file and the browsers hold different threads');
    }
    // every thread once, with its one message
    const ids = a.threads.map(t => t.id);
    if (new Set(ids).size !== 40 || ids.length !== 40) {
      problems.push(
        `${ids.length} threads (${new Set(ids).size} distinct), not 40`
      );
    }
    if (a.threads.some(t => t.messages.length !== 1)) {
      problems.push('a thread lost or repeated a message');
    }
    // the agent's edits and B's keystrokes are in both
    const text = a.cells.join('\n');
    for (let i = 0; i < 40; i++) {
      if (!text.includes(`agent_ins_${i} = 1`)) {
        problems.push(`agent insert ${i} missing`);
      }
      if (!text.includes(` #b${i}`)) {
        problems.push(`B's edit ${i} missing`);
      }
    }
    for (let j = 0; j < 10; j++) {
      if (!text.includes(`s${j} = ${30 + j} # agent`)) {
        problems.push(`the agent's last update of r${j} missing`);
      }
    }
    // no cell's history repeats an entry
    for (const [n, history] of a.histories.entries()) {
      const entries = (JSON.parse(history) as unknown[]).map(e =>
        JSON.stringify(e)
      );
      if (new Set(entries).size !== entries.length) {
        problems.push(
          `cell ${n} repeats a history entry: ${history.slice(0, 300)}`
        );
      }
    }
  } finally {
    await b.jupyter.dispose();
    await b.jupyter.context.close();
  }
  recordFigure(test.info(), {
    row: 'two browsers and an agent (RTC)',
    app: 'lab-rtc',
    count: ops,
    unit: 'operations',
    failures: problems.length,
    seconds: since(started)
  });
  expect(problems).toEqual([]);
  expect(ops).toBeGreaterThanOrEqual(200);
});
