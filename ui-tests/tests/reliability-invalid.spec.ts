/**
 * Reliability row (a): invalid inputs per tool, generated with fast-check
 * from the input schema each tool publishes. Every call must resolve with
 * the result envelope and a closed-set error (never INTERNAL_ERROR: a schema
 * violation is INVALID_ARGUMENT), and no call may change any notebook or file.
 *
 * Counts: 1,000 per tool with RELIABILITY_SCALE=full, 100 per tool in CI.
 * A failing case prints the seed; RELIABILITY_SEED replays it.
 */
import { createHash } from 'node:crypto';

import fc from 'fast-check';

import { expect, shareInLab, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';
import { codeCell, markdownCell, notebookOf } from '../notebook-content';
import {
  callMany,
  envelopeProblem,
  errorCode,
  rejections,
  watchRejections,
  workspaceState
} from '../reliability/calls';
import { SEED, recordFigure, scaled, since } from '../reliability/figures';
import {
  type ISchema,
  invalidInputs,
  schemaChecker
} from '../reliability/invalid-inputs';

const PER_TOOL = scaled(1000, 100);
/** Calls per page.evaluate (over-limit sources make big batches). */
const BATCH = 100;

function sourceHash(cellType: string, source: string): string {
  const hex = createHash('sha256')
    .update(`${cellType}\n${source}`, 'utf8')
    .digest('hex');
  return `sha256:${hex.slice(0, 16)}`;
}

const access = (value: 'read' | 'none') => ({
  jupyterlite_webmcp: { version: 1, access: value }
});

// every test works in its own notebooks and leaves the app as it found it:
// in JupyterLab they share the worker's app start-up (ui-tests/shared-app.ts)
test.use(shareInLab);

test('invalid inputs from every schema: closed-set errors, nothing changed @rule', async ({
  jupyter,
  agent,
  human
}) => {
  test.setTimeout(
    scaled(3_600_000, jupyter.kind === 'lite' ? 300_000 : 180_000)
  );
  await jupyter.open();
  const cells = [
    codeCell('inv-a', 'a = 1'),
    markdownCell('inv-md', '# title'),
    codeCell('inv-ro', 'b = 2', {
      metadata: access('read')
    }),
    codeCell('inv-hid', 'c = 3', {
      metadata: access('none')
    })
  ];
  const path = await jupyter.createNotebook('invalid.ipynb', notebookOf(cells));
  await jupyter.createFile('note.txt', 'a text file\n');
  // bad paths that still name something (an http URL, a file: URL) may make
  // the app fetch and log a 404; that is not what this row checks
  jupyter.expectConsoleErrorsFor(/./);
  // with its kernel up: the kernel's language_info lands in the model first
  await human.openNotebook(path);
  await agent.waitForTools(IMPLEMENTED);
  // a review thread, so thread ids have a real one to hit
  const thread = await agent.call<{ thread: { id: string } }>(
    'jupyter_create_comment',
    { anchor: { kind: 'cell', cellId: 'inv-a' }, message: 'a thread' }
  );
  expect(thread.isError, thread.text).toBe(false);
  const pool = {
    notebookPath: path,
    cellIds: cells.map(cell => cell.id as string),
    hashes: cells.map(cell =>
      sourceHash(cell.cell_type, cell.source as string)
    ),
    threadIds: [thread.structured!.thread.id]
  };
  await watchRejections(jupyter.page);
  const before = await workspaceState(jupyter);

  const tools = await agent.tools();
  expect(tools.map(tool => tool.name).sort()).toEqual([...IMPLEMENTED].sort());
  const started = Date.now();
  const problems: string[] = [];
  let calls = 0;
  const perRule = new Map<string, number>();
  for (const [t, tool] of tools.entries()) {
    const schema = tool.inputSchema as ISchema;
    const breaksSchema = schemaChecker(schema);
    const arbitrary = invalidInputs(schema, pool).filter(
      // a generated case is kept only if it really breaks a rule: Ajv
      // (independent of the extension's validator) confirms schema cases
      c => c.kind !== 'schema' || breaksSchema(c.input)
    );
    const seed = SEED + t;
    const cases = fc.sample(arbitrary, { numRuns: PER_TOOL, seed });
    for (let i = 0; i < cases.length; i += BATCH) {
      const batch = cases.slice(i, i + BATCH);
      const answers = await callMany(
        jupyter.page,
        batch.map(c => ({ tool: tool.name, input: c.input }))
      );
      answers.forEach((answer, j) => {
        const c = batch[j];
        calls++;
        const rule = c.rule.replace(/:.*/, '');
        perRule.set(c.kind, (perRule.get(c.kind) ?? 0) + 1);
        const where = `${tool.name} #${i + j} (seed ${seed}, ${c.rule}) ${JSON.stringify(c.input).slice(0, 200)}`;
        const problem = envelopeProblem(answer);
        if (problem) {
          problems.push(`${where}: ${problem}`);
        } else if (!answer.result!.isError) {
          problems.push(
            `${where}: accepted (${answer.result!.text?.slice(0, 200)})`
          );
        } else if (
          c.kind === 'schema' &&
          errorCode(answer) !== 'INVALID_ARGUMENT'
        ) {
          problems.push(
            `${where}: ${errorCode(answer)} for a schema violation of ${rule}`
          );
        }
      });
    }
  }
  const seconds = since(started);
  const after = await workspaceState(jupyter);
  const unhandled = await rejections(jupyter.page);
  const changed = JSON.stringify(after) !== JSON.stringify(before);
  recordFigure(test.info(), {
    row: 'invalid inputs',
    app: jupyter.kind,
    count: calls,
    unit: `calls (${PER_TOOL} per tool, ${tools.length} tools)`,
    failures: problems.length + unhandled.length + (changed ? 1 : 0),
    seconds,
    notes: `seed ${SEED}; ${perRule.get('schema') ?? 0} schema, ${perRule.get('handler') ?? 0} handler rule cases`
  });
  expect(problems.slice(0, 20)).toEqual([]);
  expect(unhandled).toEqual([]);
  expect(after).toEqual(before);
  expect(calls).toBe(PER_TOOL * IMPLEMENTED.length);
});
