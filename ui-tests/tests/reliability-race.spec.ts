/**
 * Reliability row (c): a human edit racing an agent update or delete of the
 * same cell. For each race the agent reads the cell (jupyter_get_cells, for
 * its sourceHash), then sends jupyter_update_cell or jupyter_delete_cell
 * through document.modelContext while the person types a few characters
 * into the cell, starting at a random offset (before the call, in the same
 * task, or some milliseconds later) and at a random place in the source.
 *
 * Must hold: no human keystroke that reached the cell is lost (the cell
 * still exists and holds them), every agent write that lost the race answers
 * STALE_CELL, and STALE_CELL is never answered when no keystroke came first.
 *
 * Counts: 1,000 races with RELIABILITY_SCALE=full, 100 in CI.
 */
import fc from 'fast-check';

import { expect, shareInLab, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';
import { codeCell, notebookOf } from '../notebook-content';
import { rejections, watchRejections } from '../reliability/calls';
import { SEED, recordFigure, scaled, since } from '../reliability/figures';

const RACES = scaled(1000, 100);

/** One race, as drawn by fast-check. */
interface IRace {
  write: 'update' | 'delete';
  /** -1: the person types before the call starts; 0: in the same task; else ms after. */
  offsetMs: number;
  /** Where in the source the keystrokes go (a fraction of its length). */
  at: number;
  /** How many keystrokes, and how far apart (ms). */
  keys: number;
  gapMs: number;
}

/** What happened in one race, measured in the page. */
interface IOutcome {
  write: string;
  /** The keystrokes that reached the cell (it existed when they were typed). */
  typed: string;
  /** The keystrokes typed after the cell was gone (nothing to type into). */
  orphaned: number;
  /** The agent's answer: 'ok' or the error code. */
  answer: string;
  /** Whether a keystroke landed before the agent's call answered. */
  typedBeforeAnswer: boolean;
  /** The cell's source at the end, or null when it is gone. */
  finalSource: string | null;
  rejected?: string;
}

const race: fc.Arbitrary<IRace> = fc.record({
  write: fc.constantFrom('update', 'delete'),
  offsetMs: fc.oneof(
    fc.constantFrom(-1, 0, 0, 1),
    fc.integer({ min: 0, max: 40 })
  ),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  keys: fc.integer({ min: 1, max: 4 }),
  gapMs: fc.integer({ min: 0, max: 5 })
});

// every test works in its own notebooks and leaves the app as it found it:
// in JupyterLab they share the worker's app start-up (ui-tests/shared-app.ts)
test.use(shareInLab);

test('a human edit racing an agent write: no lost edit, the loser answers STALE_CELL @rule', async ({
  jupyter,
  agent,
  human
}) => {
  test.setTimeout(
    scaled(3_600_000, jupyter.kind === 'lite' ? 300_000 : 180_000)
  );
  await jupyter.start();
  const path = await jupyter.createNotebook(
    'race.ipynb',
    notebookOf([codeCell('race-head', '# the race cells follow')])
  );
  await human.openNotebook(path, { kernel: false });
  await agent.waitForTools(IMPLEMENTED);
  await watchRejections(jupyter.page);
  const races = fc.sample(race, { numRuns: RACES, seed: SEED });

  const started = Date.now();
  const outcomes: IOutcome[] = [];
  const BATCH = 50;
  for (let i = 0; i < races.length; i += BATCH) {
    const batch = races.slice(i, i + BATCH);
    outcomes.push(
      ...(await jupyter.page.evaluate(
        async ([list, first, docPath]) => {
          const context = document.modelContext!;
          const tools = new Map(
            (await context.getTools()).map(tool => [tool.name, tool])
          );
          const call = async (name: string, input: Record<string, unknown>) => {
            const raw = await context.executeTool(tools.get(name)!, input);
            const value = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
              isError?: boolean;
              structuredContent?: Record<string, unknown>;
            };
            return value;
          };
          const sleep = (ms: number) =>
            new Promise(resolve => setTimeout(resolve, ms));
          const panel = window.uiTests.findNotebook(docPath)!;
          const shared = panel.model!.sharedModel;
          const cellById = (id: string) =>
            shared.cells.find(cell => cell.id === id);
          const out = [];
          for (const [n, r] of list.entries()) {
            const id = `race-${first + n}`;
            const original = `value_${first + n} = ${first + n} * 2\nprint(value_${first + n})\n`;
            shared.insertCell(shared.cells.length, {
              cell_type: 'code',
              id,
              source: original,
              metadata: {}
            });
            const read = await call('jupyter_get_cells', {
              notebookPath: docPath,
              cellIds: [id]
            });
            const hash = (
              read.structuredContent as { cells: { sourceHash: string }[] }
            ).cells[0].sourceHash;
            // the person's keystrokes: unique characters, typed at one place
            const keys = Array.from(
              { length: r.keys },
              (_, k) => `⟦${first + n}.${k}⟧`
            );
            let typed = '';
            let orphaned = 0;
            let answered = false;
            let typedBeforeAnswer = false;
            const type = async () => {
              let position: number | null = null;
              for (const [k, key] of keys.entries()) {
                if (k > 0 && r.gapMs > 0) {
                  await sleep(r.gapMs);
                }
                const cell = cellById(id);
                if (!cell) {
                  orphaned++;
                  continue;
                }
                const length = cell.getSource().length;
                position =
                  position === null
                    ? Math.floor(r.at * length)
                    : Math.min(position, length);
                cell.updateSource(position, position, key);
                position += key.length;
                typed += key;
                if (!answered) {
                  typedBeforeAnswer = true;
                }
              }
            };
            const input =
              r.write === 'update'
                ? {
                    notebookPath: docPath,
                    cellId: id,
                    source: `agent_${first + n} = True\n`,
                    expectedSourceHash: hash
                  }
                : {
                    notebookPath: docPath,
                    cellId: id,
                    expectedSourceHash: hash
                  };
            const tool =
              r.write === 'update'
                ? 'jupyter_update_cell'
                : 'jupyter_delete_cell';
            let typing: Promise<void>;
            let answer: string;
            let rejected: string | undefined;
            if (r.offsetMs < 0) {
              typing = type();
            }
            const pending = call(tool, input).then(
              value => {
                answered = true;
                return value;
              },
              (error: unknown) => {
                answered = true;
                throw error;
              }
            );
            if (r.offsetMs === 0) {
              typing = type();
            } else if (r.offsetMs > 0) {
              typing = sleep(r.offsetMs).then(type);
            }
            try {
              const value = await pending;
              answer = value.isError
                ? String((value.structuredContent as { error?: string }).error)
                : 'ok';
            } catch (error) {
              answer = 'rejected';
              rejected = String(error);
            }
            await typing!;
            out.push({
              write: r.write,
              typed,
              orphaned,
              answer,
              typedBeforeAnswer,
              finalSource: cellById(id)?.getSource() ?? null,
              rejected
            });
            // the notebook is reset for the next race: the cell goes
            const left = shared.cells.findIndex(cell => cell.id === id);
            if (left >= 0) {
              shared.deleteCell(left);
            }
          }
          return out;
        },
        [batch, i, path] as const
      ))
    );
  }
  const seconds = since(started);

  const problems: string[] = [];
  let stale = 0;
  let agentWon = 0;
  outcomes.forEach((o, n) => {
    const where = `race ${n} (${o.write}, seed ${SEED}, ${JSON.stringify(races[n])})`;
    if (o.answer === 'STALE_CELL') {
      stale++;
    } else if (o.answer === 'ok') {
      agentWon++;
    }
    // every keystroke that reached the cell is still there
    if (o.typed && !(o.finalSource ?? '').includes(o.typed)) {
      problems.push(
        `${where}: lost human edit ${o.typed}; the cell is ${o.finalSource === null ? 'gone' : JSON.stringify(o.finalSource)} (agent: ${o.answer})`
      );
    }
    if (o.answer !== 'ok' && o.answer !== 'STALE_CELL') {
      problems.push(
        `${where}: the agent's write answered ${o.answer} ${o.rejected ?? ''}`
      );
    }
    // the write lost exactly when a keystroke came before it was applied:
    // a refused write must have had a keystroke before its answer
    if (o.answer === 'STALE_CELL' && !o.typedBeforeAnswer) {
      problems.push(`${where}: STALE_CELL with no edit before it`);
    }
    if (o.answer === 'ok' && o.write === 'update') {
      // applied first: the cell holds the agent's source plus the keystrokes
      const expected = `agent_${n} = True\n`;
      const without = (o.finalSource ?? '').split(o.typed).join('');
      if (without !== expected) {
        problems.push(
          `${where}: after an applied update the cell is ${JSON.stringify(o.finalSource)}`
        );
      }
    }
  });
  const unhandled = await rejections(jupyter.page);
  recordFigure(test.info(), {
    row: 'human edit vs agent write',
    app: jupyter.kind,
    count: outcomes.length,
    unit: 'races',
    failures: problems.length + unhandled.length,
    seconds,
    notes: `seed ${SEED}; ${stale} STALE_CELL, ${agentWon} applied before the edit`
  });
  expect(problems.slice(0, 20)).toEqual([]);
  expect(unhandled).toEqual([]);
  expect(outcomes).toHaveLength(RACES);
});
