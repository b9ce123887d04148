/**
 * Reliability row (b): the hidden-content sweep. A notebook with visible,
 * read-only and hidden cells (markers in their sources, outputs, metadata
 * and in a review thread on a hidden cell), a hidden notebook beside it,
 * and fast-check drawing argument shapes for every tool. A shape that names
 * something hidden is called twice, once with the hidden names and once with
 * never-existing ones: the two answers must be byte-identical once the names
 * are swapped. No answer may hold a marker, a hidden id or the hidden
 * notebook's name, unless the call itself named it.
 *
 * Counts: 10,000 calls with RELIABILITY_SCALE=full, 800 in CI.
 * (access-leak.spec.ts keeps the hand-written table of named cases.)
 */
import fc from 'fast-check';

import type { INotebookContent } from '@jupyterlab/nbformat';

import { expect, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';
import { holdLoad } from '../hold-load';
import { addKernelNotebook } from '../kernel-runs';
import { codeCell, markdownCell, notebookOf } from '../notebook-content';
import {
  type IAnswer,
  callMany,
  envelopeProblem,
  errorCode,
  rejections,
  watchRejections,
  workspaceState
} from '../reliability/calls';
import { SEED, recordFigure, scaled, since } from '../reliability/figures';

const CALLS = scaled(10_000, 800);
const MARKER = 'SWEEPMARK';

/** Placeholders in a shape, and what they become on each side. */
interface INames {
  CODE: string;
  MD: string;
  NB: string;
  NBCELL: string;
  THREAD: string;
}
const HIDDEN: INames = {
  CODE: 'hid-swp-code-7f3a',
  MD: 'hid-swp-mark-7f3a',
  NB: '', // set once the test directory is known
  NBCELL: 'hid-swp-secr-7f3a',
  THREAD: '' // the id of the thread on the hidden cell
};
const ABSENT: INames = {
  CODE: 'abs-swp-code-7f3a',
  MD: 'abs-swp-mark-7f3a',
  NB: '',
  NBCELL: 'abs-swp-secr-7f3a',
  THREAD: ''
};
const VISIBLE = ['swp-intro', 'swp-a', 'swp-ro', 'swp-b', 'swp-thr'];

const hiddenMeta = {
  jupyterlite_webmcp: { version: 1, access: 'none' },
  note: `${MARKER}-metadata`
};

function mixedNotebook(): INotebookContent {
  return notebookOf([
    markdownCell('swp-intro', '# Public'),
    codeCell('swp-a', 'x = 1', {
      executionCount: 1,
      outputs: [{ output_type: 'stream', name: 'stdout', text: 'one\n' }]
    }),
    codeCell(HIDDEN.CODE, `secret = '${MARKER}-code'`, {
      metadata: hiddenMeta,
      executionCount: 2,
      outputs: [
        { output_type: 'stream', name: 'stdout', text: `${MARKER}-out\n` },
        {
          output_type: 'display_data',
          data: {
            'text/html': `<b>${MARKER}-html</b>`,
            'text/plain': `${MARKER}-plain`
          },
          metadata: {}
        },
        {
          output_type: 'error',
          ename: `${MARKER}Error`,
          evalue: `${MARKER}-evalue`,
          traceback: [`${MARKER}-traceback`]
        }
      ]
    }),
    codeCell('swp-ro', 'y = 2', {
      metadata: { jupyterlite_webmcp: { version: 1, access: 'read' } }
    }),
    markdownCell(HIDDEN.MD, `# ${MARKER}-markdown`, hiddenMeta),
    codeCell('swp-b', 'print(x)'),
    // becomes hidden once a thread is on it
    codeCell('swp-thr', `z = '${MARKER}-thread-cell'`)
  ]);
}

function hiddenNotebook(): INotebookContent {
  return notebookOf([codeCell(HIDDEN.NBCELL, `t = '${MARKER}-notebook'`)], {
    jupyterlite_webmcp: { version: 1, notebookAccess: 'none' }
  });
}

const TOKENS = ['CODE', 'MD', 'NB', 'NBCELL', 'THREAD'] as const;
type Token = (typeof TOKENS)[number];

/** Replaces `$TOKEN` placeholders in a shape with one side's names. */
function fill(shape: unknown, names: INames, mixed: string): unknown {
  const text = JSON.stringify(shape).replace(
    /\$(CODE|MD|NBCELL|NB|THREAD|MIXED)\b/g,
    (_, token: Token | 'MIXED') => (token === 'MIXED' ? mixed : names[token])
  );
  return JSON.parse(text);
}

const hiddenCell = fc.constantFrom('$CODE', '$MD');
const anyCell = fc.oneof(hiddenCell, fc.constantFrom(...VISIBLE));
/** A notebook argument: the current one, the mixed one by path, or hidden. */
const nbArg = fc.constantFrom<string | null | undefined>(
  undefined,
  null,
  '$MIXED'
);
const idx = fc.integer({ min: 0, max: 9 });
const bool = fc.boolean();
const text = fc.oneof(
  fc.constantFrom('note', 'x = 0', '', MARKER.toLowerCase()),
  fc.string({ maxLength: 12 })
);
const hash = fc.constantFrom(
  'sha256:0000000000000000',
  'sha256:1111111111111111'
);
const position = fc.record({ line: idx, column: idx });

/** Drops undefined fields (an omitted argument). */
function clean(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined)
  );
}

type Shape = fc.Arbitrary<Record<string, unknown>>;

/**
 * Argument shapes per tool. Shapes of writing tools always name something
 * hidden (so both sides must fail alike and change nothing); reading tools
 * also read the visible notebook, where only leaks are checked.
 */
const SHAPES: Record<string, Shape> = {
  jupyter_get_context: fc.constant({}),
  jupyter_list_workspace: fc
    .record({
      path: fc.constantFrom(undefined, null, '$DIR', '$NB'),
      recursive: fc.constantFrom(undefined, true, false),
      limit: fc.constantFrom(undefined, 1, 3, 100)
    })
    .map(clean),
  jupyter_open_notebook: fc.oneof(
    fc.record({ path: fc.constant('$NB'), activate: bool }),
    fc
      .record({
        path: fc.constant('$NB'),
        cellId: fc.constantFrom('$NBCELL', ...VISIBLE)
      })
      .map(s => ({ ...s, activate: false })),
    fc.record({
      path: fc.constant('$MIXED'),
      cellId: hiddenCell,
      activate: fc.constant(false)
    })
  ),
  // over the hidden notebook: INVALID_PATH, as a failed creation
  jupyter_create_notebook: fc.record({
    name: fc.constantFrom('secret-swp.ipynb', 'secret-swp'),
    directory: fc.constant('$DIR')
  }),
  jupyter_get_cells: fc.oneof(
    fc
      .record({
        notebookPath: nbArg,
        startIndex: fc.constantFrom(undefined, 0, 1, 2, 4),
        endIndex: fc.constantFrom(undefined, 3, 5, 7, 50),
        includeSource: fc.constantFrom(undefined, true, false),
        includeOutputs: fc.constantFrom(undefined, true, false)
      })
      .filter(
        s =>
          s.startIndex === undefined ||
          s.endIndex === undefined ||
          s.endIndex >= s.startIndex
      )
      .map(clean),
    fc
      .record({
        notebookPath: nbArg,
        cellIds: fc.array(anyCell, { minLength: 1, maxLength: 5 }),
        includeOutputs: bool
      })
      .map(clean),
    fc.record({
      notebookPath: fc.constant('$NB'),
      cellIds: fc.constant(['$NBCELL'])
    })
  ),
  jupyter_get_cell_access: fc.oneof(
    fc
      .record({
        notebookPath: fc.constantFrom<string | null | undefined>(
          undefined,
          '$MIXED',
          '$NB'
        ),
        startIndex: fc.constantFrom(undefined, 0, 2, 4),
        endIndex: fc.constantFrom(undefined, 5, 7, 40)
      })
      .map(clean),
    fc
      .record({
        notebookPath: nbArg,
        cellIds: fc.array(anyCell, { minLength: 1, maxLength: 4 })
      })
      .map(clean)
  ),
  jupyter_insert_cell: fc.oneof(
    fc
      .record({
        notebookPath: nbArg,
        referenceCellId: hiddenCell,
        position: fc.constantFrom(undefined, 'above', 'below'),
        cellType: fc.constantFrom(undefined, 'code', 'markdown', 'raw'),
        source: text,
        activate: fc.constantFrom(undefined, true, false)
      })
      .map(clean),
    fc
      .record({
        notebookPath: fc.constant('$NB'),
        referenceCellId: fc.constantFrom(undefined, '$NBCELL'),
        source: text
      })
      .map(clean)
  ),
  jupyter_update_cell: fc.oneof(
    fc
      .record({
        notebookPath: nbArg,
        cellId: hiddenCell,
        source: text,
        expectedSourceHash: hash
      })
      .map(clean),
    fc.record({
      notebookPath: fc.constant('$NB'),
      cellId: fc.constant('$NBCELL'),
      source: text,
      expectedSourceHash: hash
    })
  ),
  jupyter_delete_cell: fc.oneof(
    fc
      .record({
        notebookPath: nbArg,
        cellId: hiddenCell,
        expectedSourceHash: hash
      })
      .map(clean),
    fc.record({
      notebookPath: fc.constant('$NB'),
      cellId: fc.constant('$NBCELL'),
      expectedSourceHash: hash
    })
  ),
  jupyter_run_cells: fc.oneof(
    fc
      .record({
        notebookPath: nbArg,
        cellIds: fc
          .tuple(
            fc.array(fc.constantFrom(...VISIBLE), { maxLength: 2 }),
            hiddenCell
          )
          .map(([visible, hidden]) => [...visible, hidden]),
        stopOnError: fc.constantFrom(undefined, true, false)
      })
      .map(clean),
    fc.record({
      notebookPath: fc.constant('$NB'),
      startIndex: fc.constant(0),
      endIndex: fc.constant(1)
    })
  ),
  jupyter_focus_cell: fc.oneof(
    fc
      .record({
        notebookPath: nbArg,
        cellId: hiddenCell,
        cursor: fc.option(position, { nil: undefined }),
        selection: fc.option(fc.record({ start: position, end: position }), {
          nil: undefined
        })
      })
      .map(clean),
    fc.record({
      notebookPath: fc.constant('$NB'),
      cellId: fc.constant('$NBCELL')
    })
  ),
  jupyter_save_notebook: fc.constant({ notebookPath: '$NB' }),
  jupyter_kernel_action: fc.record({
    notebookPath: fc.constant('$NB'),
    action: fc.constantFrom('interrupt', 'restart')
  }),
  jupyter_list_comments: fc
    .record({
      notebookPath: fc.constantFrom<string | null | undefined>(
        undefined,
        '$MIXED',
        '$NB'
      ),
      status: fc.constantFrom(undefined, 'open', 'resolved', 'all'),
      scope: fc.constantFrom(undefined, 'notebook', 'current-cell'),
      limit: fc.constantFrom(undefined, 1, 50)
    })
    .map(clean),
  jupyter_get_comment: fc.record({
    notebookPath: fc.constantFrom<string | null>(null, '$MIXED', '$NB'),
    threadId: fc.constant('$THREAD')
  }),
  jupyter_create_comment: fc
    .oneof(
      fc.record({
        notebookPath: nbArg,
        anchor: fc.oneof(
          fc.record({ kind: fc.constant('cell'), cellId: hiddenCell }),
          fc.record({
            kind: fc.constant('output'),
            cellId: fc.constant('$CODE'),
            outputIndex: fc.constantFrom(0, 1, 2, 5)
          }),
          fc.record({
            kind: fc.constant('source-range'),
            cellId: hiddenCell,
            text: fc.constantFrom(MARKER, 'secret', 'zzz')
          })
        ),
        message: text.filter(m => m.trim() !== '')
      }),
      fc.record({
        notebookPath: fc.constant('$NB'),
        anchor: fc.constant({ kind: 'cell', cellId: '$NBCELL' }),
        message: fc.constant('note')
      })
    )
    .map(s => clean(s as Record<string, unknown>)),
  jupyter_reply_comment: fc.record({
    notebookPath: fc.constantFrom<string | null>(null, '$MIXED', '$NB'),
    threadId: fc.constant('$THREAD'),
    message: fc.constantFrom('reply', 'ok')
  }),
  jupyter_resolve_comment: fc
    .record({
      notebookPath: fc.constantFrom<string | null>(null, '$MIXED', '$NB'),
      threadId: fc.constant('$THREAD'),
      resolutionMessage: fc.constantFrom(undefined, null, 'done')
    })
    .map(clean),
  jupyter_reopen_comment: fc.record({
    notebookPath: fc.constantFrom<string | null>(null, '$MIXED', '$NB'),
    threadId: fc.constant('$THREAD')
  }),
  jupyter_focus_comment: fc.record({
    notebookPath: fc.constantFrom<string | null>(null, '$MIXED', '$NB'),
    threadId: fc.constant('$THREAD')
  }),
  jupyter_export_notebook: fc
    .record({
      notebookPath: fc.constantFrom<string | null | undefined>(
        undefined,
        '$MIXED',
        '$NB'
      ),
      includeOutputs: fc.constantFrom(undefined, true, false)
    })
    .map(clean),
  jupyter_get_output_selection: fc.constant({})
};

interface IPlanned {
  tool: string;
  shape: Record<string, unknown>;
  paired: boolean;
}

test('hidden-content sweep: no marker, no hidden id, hidden answers as never existed @rule', async ({
  jupyter,
  agent,
  human
}) => {
  test.setTimeout(scaled(3_600_000, 180_000));
  expect(Object.keys(SHAPES).sort()).toEqual([...IMPLEMENTED].sort());
  await jupyter.open();
  const mixed = await jupyter.createNotebook('mixed.ipynb', mixedNotebook());
  const hiddenNb = await jupyter.createNotebook(
    'secret-swp.ipynb',
    hiddenNotebook()
  );
  HIDDEN.NB = hiddenNb;
  ABSENT.NB = jupyter.path('absent-swp.ipynb');
  jupyter.expectConsoleErrorsFor(/absent-swp|hidden-swp/);
  // the person's autosave (every 120 s) would save the hidden notebook with
  // its kernel's language_info when the sweep runs longer, a change the
  // check below would take for a tool's
  await human.setSetting(
    '@jupyterlab/docmanager-extension:plugin',
    'autosave',
    false
  );
  await human.openNotebook(hiddenNb, { kernel: false });
  await human.openNotebook(mixed);
  await agent.waitForTools(IMPLEMENTED);

  // a thread on a visible cell, which the human then hides (with a marker in
  // the thread); its id and an unknown id of the same shape form a pair
  const thread = await agent.call<{ thread: { id: string } }>(
    'jupyter_create_comment',
    {
      anchor: { kind: 'cell', cellId: 'swp-thr' },
      message: `${MARKER}-thread`
    }
  );
  expect(thread.isError, thread.text).toBe(false);
  HIDDEN.THREAD = thread.structured!.thread.id;
  ABSENT.THREAD = HIDDEN.THREAD.replace(/[0-9a-f]/g, c =>
    ((parseInt(c, 16) + 7) % 16).toString(16)
  );
  await human.setCellMetadata(6, 'jupyterlite_webmcp', {
    version: 1,
    access: 'none'
  });
  const hiddenIds = [HIDDEN.CODE, HIDDEN.MD, HIDDEN.NBCELL, 'swp-thr'];
  const secrets = [MARKER, ...hiddenIds, HIDDEN.THREAD, 'secret-swp'];

  await watchRejections(jupyter.page);
  const before = await workspaceState(jupyter);

  // the plan: tools drawn evenly, a shape for each
  const tools = Object.keys(SHAPES);
  const plan = fc.sample(
    fc.constantFrom(...tools).chain(tool =>
      SHAPES[tool].map((shape): IPlanned => ({
        tool,
        shape,
        paired: /\$(CODE|MD|NBCELL|NB|THREAD)\b/.test(JSON.stringify(shape))
      }))
    ),
    { numRuns: CALLS, seed: SEED }
  );
  /** Where the human's active cell is, per batch (hidden ones included). */
  const actives = fc.sample(fc.integer({ min: 0, max: 6 }), {
    numRuns: CALLS,
    seed: SEED + 1
  });

  const swapText = (value: string) => {
    let out = value;
    for (const token of TOKENS) {
      out = out.split(HIDDEN[token]).join(ABSENT[token]);
    }
    return out;
  };
  const leaks = (answer: IAnswer, named: string): string[] => {
    const seen = JSON.stringify(answer.result?.raw ?? answer.rejected);
    return secrets.filter(s => seen.includes(s) && !named.includes(s));
  };

  const started = Date.now();
  const problems: string[] = [];
  let calls = 0;
  let pairs = 0;
  const BATCH = 100;
  let spent = 0;
  let next = 0;
  for (let b = 0; spent < CALLS; b++) {
    await human.selectCells(actives[b % actives.length]);
    const batch: { tool: string; input: Record<string, unknown> }[] = [];
    const planned: IPlanned[] = [];
    while (batch.length < BATCH && spent < CALLS) {
      const item = plan[next++ % plan.length];
      const dir = { $DIR: jupyter.dir };
      const base = JSON.parse(
        JSON.stringify(item.shape).replace(/\$DIR\b/g, dir.$DIR)
      ) as Record<string, unknown>;
      batch.push({
        tool: item.tool,
        input: fill(base, HIDDEN, mixed) as Record<string, unknown>
      });
      spent++;
      if (item.paired) {
        batch.push({
          tool: item.tool,
          input: fill(base, ABSENT, mixed) as Record<string, unknown>
        });
        spent++;
      }
      planned.push(item);
    }
    const answers = await callMany(jupyter.page, batch);
    let a = 0;
    for (const item of planned) {
      const hiddenCall = batch[a];
      const hidden = answers[a++];
      calls++;
      const where = `${item.tool} ${JSON.stringify(hiddenCall.input).slice(0, 160)} (seed ${SEED})`;
      const problem = envelopeProblem(hidden);
      if (problem) {
        problems.push(`${where}: ${problem}`);
      }
      if (
        item.tool === 'jupyter_create_notebook' &&
        errorCode(hidden) !== 'INVALID_PATH'
      ) {
        problems.push(`${where}: ${hidden.result?.text}, not INVALID_PATH`);
      }
      const found = leaks(hidden, JSON.stringify(hiddenCall.input));
      if (found.length) {
        problems.push(
          `${where} leaks ${found.join(', ')}: ${hidden.result?.text?.slice(0, 300)}`
        );
      }
      if (item.paired) {
        const absent = answers[a++];
        calls++;
        pairs++;
        const seen = swapText(hidden.result?.text ?? '');
        if (
          seen !== absent.result?.text ||
          hidden.result?.isError !== absent.result?.isError
        ) {
          problems.push(
            `${where} differs from never-existed:\n  hidden: ${seen.slice(0, 300)}\n  absent: ${absent.result?.text?.slice(0, 300)}`
          );
        }
      }
    }
  }
  const seconds = since(started);
  const after = await workspaceState(jupyter);
  const unhandled = await rejections(jupyter.page);
  // the hidden cells and the hidden notebook are as they were
  const pick = (state: Record<string, unknown>) =>
    JSON.stringify(state.files) +
    JSON.stringify(
      (state.notebooks as { model: { cells: { id: string }[] } | null }[]).map(
        n => n.model?.cells.filter(c => hiddenIds.includes(c.id))
      )
    );
  const changed = pick(after) !== pick(before);
  recordFigure(test.info(), {
    row: 'hidden-content sweep',
    app: jupyter.kind,
    count: calls,
    unit: `calls (${pairs} hidden/never-existed pairs)`,
    failures: problems.length + unhandled.length + (changed ? 1 : 0),
    seconds,
    notes: `seed ${SEED}`
  });
  expect(problems.slice(0, 20)).toEqual([]);
  expect(unhandled).toEqual([]);
  expect(pick(after)).toEqual(pick(before));
  expect(await jupyter.exists(ABSENT.NB)).toBe(false);
});

const MID_CALL_ROUNDS = scaled(25, 2);
const SET_NOTEBOOK_ACCESS = 'jupyterlite-webmcp:set-notebook-access';
const SET_MODE = 'jupyterlite-webmcp:set-propose-mode';

/**
 * The owner hides the notebook while a call is in flight: a run while its
 * last target runs, an update while its proposal waits, an insert in the
 * moment its cell lands. Each answer must be exactly what the same call
 * answers when it starts on the hidden notebook, and hold nothing of it.
 * Counts: 25 rounds × 3 kinds × 2 (by path, current) with
 * RELIABILITY_SCALE=full, 2 rounds in CI.
 */
test('access changed mid-call: run, proposal and insert answer as a hidden notebook, with nothing of it @rule', async ({
  jupyter,
  human,
  agent
}) => {
  test.setTimeout(scaled(1_800_000, 120_000));
  // the Propose switch writes the notebook; keep the setting's default
  await jupyter.isolateSettings();
  await jupyter.start();
  const path = await addKernelNotebook(jupyter, 'midcall-swp.ipynb', [
    codeCell('mc-a', `a = '${MARKER}-a'`),
    codeCell('mc-slow', `import time\ntime.sleep(0.4)\nprint('${MARKER}-slow')`)
  ]);
  await human.openNotebook(path);
  await agent.waitForTools([
    'jupyter_run_cells',
    'jupyter_update_cell',
    'jupyter_insert_cell',
    'jupyter_get_cells'
  ]);
  const page = jupyter.page;
  const setAccess = (access: string) =>
    human.command(SET_NOTEBOOK_ACCESS, { access });
  const running = (cellId: string) =>
    page.waitForFunction(
      id =>
        (
          window.uiTests
            .findNotebook(null)
            ?.content.widgets.find(cell => cell.model.id === id)?.model as
            { executionState?: string } | undefined
        )?.executionState === 'running',
      cellId
    );
  const secrets = [MARKER, 'mc-a', 'mc-slow', 'revision', 'cellCount'];
  const started = Date.now();
  const problems: string[] = [];
  let calls = 0;

  /** Starts `input` on `tool`, hides the notebook when `when` resolves. */
  const sweep = async (
    kind: string,
    tool: string,
    input: Record<string, unknown>,
    when: () => Promise<unknown>
  ) => {
    const pending = await agent.start(tool, input);
    await when();
    await setAccess('none');
    const answer = (await pending.settled()).result;
    const now = await agent.call(tool, input);
    calls++;
    const where = `${kind} ${JSON.stringify(input).slice(0, 120)}`;
    if (!answer || answer.text !== now.text || !answer.isError) {
      problems.push(
        `${where}: answered ${answer?.text?.slice(0, 200)}, a hidden notebook ${now.text?.slice(0, 200)}`
      );
    }
    const named = JSON.stringify(input);
    const leaked = [...secrets, 'midcall-swp'].filter(
      s => answer?.text?.includes(s) && !named.includes(s)
    );
    if (leaked.length) {
      problems.push(`${where} leaks ${leaked.join(', ')}`);
    }
    await setAccess('write');
  };

  for (let round = 0; round < MID_CALL_ROUNDS; round++) {
    for (const byPath of [true, false]) {
      const nb = byPath ? { notebookPath: path } : {};
      await sweep(
        'run',
        'jupyter_run_cells',
        { ...nb, cellIds: ['mc-a', 'mc-slow'] },
        () => running('mc-slow')
      );

      const read = await agent.call<{ cells: { sourceHash: string }[] }>(
        'jupyter_get_cells',
        { cellIds: ['mc-a'] }
      );
      await human.command(SET_MODE, { mode: 'propose' });
      await sweep(
        'proposal',
        'jupyter_update_cell',
        {
          ...nb,
          cellId: 'mc-a',
          source: 'a = 2',
          expectedSourceHash: read.structured!.cells[0].sourceHash
        },
        () =>
          expect(
            page.getByRole('region', {
              name: 'Agent proposes a change to this cell'
            })
          ).toBeVisible()
      );
      await human.command(SET_MODE, { mode: 'direct' });

      // hidden in the moment the new cell lands, before the call answers
      await page.evaluate(() => {
        const model =
          window.uiTests.findNotebook(null)!.content.model!.sharedModel;
        const hide = () => {
          model.changed.disconnect(hide);
          model.setMetadata('jupyterlite_webmcp', {
            version: 1,
            notebookAccess: 'none'
          });
        };
        model.changed.connect(hide);
      });
      await sweep(
        'insert',
        'jupyter_insert_cell',
        { ...nb, source: `# ${MARKER}-inserted`, referenceCellId: 'mc-a' },
        async () => undefined
      );
    }
  }
  const cells = await human.cellIds();
  recordFigure(test.info(), {
    row: 'hidden-content sweep, access changed mid-call',
    app: jupyter.kind,
    count: calls,
    unit: 'calls (run, proposal, insert; by path and current)',
    failures: problems.length,
    seconds: since(started),
    notes: `${MID_CALL_ROUNDS} rounds`
  });
  expect(problems.slice(0, 20)).toEqual([]);
  // the proposals wrote nothing; each insert landed once (it happened)
  expect(cells.filter(id => id === 'mc-a' || id === 'mc-slow')).toEqual([
    'mc-a',
    'mc-slow'
  ]);
  expect(cells).toHaveLength(2 + 2 * MID_CALL_ROUNDS);
});

const LOAD_ROUNDS = scaled(20, 2);

/**
 * A hidden notebook the page opens while the agent calls: its load is held
 * (as a slow server, a page restore), so its access is not yet known. No
 * answer during or after the load may name it or hold its content, and a read
 * by its path, waiting on the load, answers exactly as a never-existing
 * notebook. Counts: 20 rounds with RELIABILITY_SCALE=full, 2 in CI.
 * @server: JupyterLite loads its files in the page, with no request to hold.
 */
test('a hidden notebook loading: nothing of it in any answer, during the load or after @server', async ({
  jupyter,
  agent
}) => {
  test.setTimeout(scaled(1_200_000, 120_000));
  await jupyter.open();
  const hidden = await jupyter.createNotebook(
    'loading-swp.ipynb',
    notebookOf([codeCell('ld-secret', `s = '${MARKER}-load'`)], {
      jupyterlite_webmcp: { version: 1, notebookAccess: 'none' }
    })
  );
  const absent = jupyter.path('absent-ld.ipynb');
  jupyter.expectConsoleErrorsFor(/absent-ld/);
  const secrets = [MARKER, 'ld-secret', 'loading-swp'];
  const started = Date.now();
  const problems: string[] = [];
  let calls = 0;
  const check = (where: string, text: string | undefined) => {
    calls++;
    const leaked = secrets.filter(s => (text ?? '').includes(s));
    if (leaked.length) {
      problems.push(
        `${where} leaks ${leaked.join(', ')}: ${text?.slice(0, 200)}`
      );
    }
  };
  for (let round = 0; round < LOAD_ROUNDS; round++) {
    const load = await holdLoad(jupyter.page, hidden);
    const opening = jupyter.page.goto(jupyter.url(hidden));
    await load.held;
    await agent.waitForTools(IMPLEMENTED.length);
    const reads: [string, Record<string, unknown>][] = [
      ['jupyter_get_context', {}],
      ['jupyter_list_workspace', { path: jupyter.dir }]
    ];
    for (const [tool, input] of reads) {
      check(`${tool} during the load`, (await agent.call(tool, input)).text);
    }
    // calls on the current notebook and by its path wait for the load, then
    // answer as no notebook and as a missing file
    const waiting = await Promise.all([
      agent.start('jupyter_get_cells', {}),
      agent.start('jupyter_export_notebook', {}),
      agent.start('jupyter_get_cells', { notebookPath: hidden })
    ]);
    await load.release();
    await opening;
    await jupyter.waitForNotebook(hidden, { kernel: false });
    const [current, exported, byPath] = await Promise.all(
      waiting.map(async call => (await call.settled()).result?.text ?? '')
    );
    check('jupyter_get_cells (current) waiting on the load', current);
    check('jupyter_export_notebook (current) waiting on the load', exported);
    const never = await agent.call('jupyter_get_cells', {
      notebookPath: absent
    });
    calls++;
    if (byPath.split(hidden).join(absent) !== never.text) {
      problems.push(`get_cells by path: ${byPath.slice(0, 200)}`);
    }
    for (const [tool, input] of reads) {
      check(`${tool} after the load`, (await agent.call(tool, input)).text);
    }
  }
  recordFigure(test.info(), {
    row: 'hidden-content sweep, a hidden notebook loading',
    app: jupyter.kind,
    count: calls,
    unit: 'calls during and after the load',
    failures: problems.length,
    seconds: since(started),
    notes: `${LOAD_ROUNDS} rounds`
  });
  expect(problems.slice(0, 20)).toEqual([]);
});
