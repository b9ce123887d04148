/**
 * The leak test: a workspace with a hidden notebook and hidden cells holding
 * unique marker strings, and every implemented tool called with many
 * argument combinations through native WebMCP. No result or error may hold a
 * marker or a hidden cell's id, and every call naming something hidden must
 * answer exactly as the same call naming something that never existed.
 *
 * The table is keyed by tool name and must cover every implemented tool, so
 * a tool added later fails this test until it joins the table.
 */
import { createHash } from 'node:crypto';

import type { INotebookContent } from '@jupyterlab/nbformat';

import type { Agent } from '../agent';
import { expect, test } from '../fixtures';
import { IMPLEMENTED } from '../implemented';
import type { JupyterApp } from '../jupyter';
import {
  codeCell,
  markdownCell,
  notebookOf,
  type CellMetadata
} from '../notebook-content';
import type { IToolResult } from '../results';

/** Every marker starts with this; none may ever reach the agent. */
const MARKER = 'LEAKMARK';

/** Hidden cell ids, each paired with a never-existing id of the same shape. */
const HIDDEN_CODE = 'hid-code-91c2';
const ABSENT_CODE = 'abs-code-91c2';
const HIDDEN_MD = 'hid-mark-33d7';
const ABSENT_MD = 'abs-mark-33d7';
/** The one cell of the hidden notebook. */
const SECRET_CELL = 'hid-secr-5521';

const HIDDEN_CODE_SOURCE = `secret = '${MARKER}-source-code'`;
const HIDDEN_MD_SOURCE = `# ${MARKER}-source-markdown`;
const SECRET_SOURCE = `token = '${MARKER}-hidden-notebook'`;

/** What the agent would send to edit a cell it had read: its real hash. */
function sourceHash(cellType: string, source: string): string {
  const hex = createHash('sha256')
    .update(`${cellType}\n${source}`, 'utf8')
    .digest('hex');
  return `sha256:${hex.slice(0, 16)}`;
}

function access(value: 'read' | 'none'): CellMetadata {
  return { jupyterlite_webmcp: { version: 1, access: value } };
}

/** The open notebook: visible, read-only and hidden cells interleaved. */
function mixedNotebook(): INotebookContent {
  const hiddenCode = codeCell(HIDDEN_CODE, HIDDEN_CODE_SOURCE, {
    metadata: access('none'),
    executionCount: 3,
    outputs: [
      {
        output_type: 'stream',
        name: 'stdout',
        text: `${MARKER}-output-text\n`
      },
      {
        output_type: 'execute_result',
        execution_count: 3,
        data: { 'text/plain': `'${MARKER}-output-result'` },
        metadata: {}
      }
    ]
  });
  return notebookOf([
    markdownCell('intro', '# Public intro'),
    codeCell('pub-a', 'x = 1'),
    hiddenCode,
    codeCell('ro-a', 'y = 2', { metadata: access('read') }),
    markdownCell(HIDDEN_MD, HIDDEN_MD_SOURCE, access('none')),
    codeCell('pub-b', 'print(x)')
  ]);
}

/** The hidden notebook (`notebookAccess: "none"`). */
function secretNotebook(): INotebookContent {
  return notebookOf([codeCell(SECRET_CELL, SECRET_SOURCE)], {
    jupyterlite_webmcp: { version: 1, notebookAccess: 'none' }
  });
}

/** The paths a case's arguments may name. */
interface IPaths {
  mixed: string;
  hidden: string;
  absent: string;
  dir: string;
}

/**
 * One call. `args` receives the name of the hidden thing, or of the
 * never-existing one when `paired`: the two calls must answer alike.
 */
interface ICase {
  label: string;
  args(paths: IPaths, hidden: IHidden): Record<string, unknown>;
  paired?: boolean;
  /** Runs in the page before the call (the human's selection, say). */
  before?(human: IHumanActions): Promise<void>;
  /** The error code the call must answer, when the spec names one. */
  error?: string;
}

/** What a case's arguments name: hidden things or never-existing ones. */
interface IHidden {
  code: string;
  markdown: string;
  notebook: string;
}

interface IHumanActions {
  /** Makes cell `from` active and selects through `to` (indexes). */
  select(from: number, to?: number): Promise<void>;
  /** Double-clicks a word in the hidden cell's output, selecting it. */
  selectHiddenOutput(): Promise<void>;
}

const HIDDEN: IHidden = {
  code: HIDDEN_CODE,
  markdown: HIDDEN_MD,
  notebook: 'hidden'
};
const ABSENT: IHidden = {
  code: ABSENT_CODE,
  markdown: ABSENT_MD,
  notebook: 'absent'
};

const CODE_HASH = sourceHash('code', HIDDEN_CODE_SOURCE);
const MD_HASH = sourceHash('markdown', HIDDEN_MD_SOURCE);
const SECRET_HASH = sourceHash('code', SECRET_SOURCE);

/** The path a case names for a notebook: the hidden one, or an absent one. */
function nb(paths: IPaths, which: IHidden): string {
  return which.notebook === 'hidden' ? paths.hidden : paths.absent;
}

const activeHidden = (human: IHumanActions) => human.select(2);
const selectionOverHidden = (human: IHumanActions) => human.select(1, 5);
const activeVisible = (human: IHumanActions) => human.select(1);

/** Every implemented tool, with the argument combinations to try. */
const CASES: Record<string, ICase[]> = {
  jupyter_get_context: [
    { label: 'hidden active cell', args: () => ({}), before: activeHidden },
    {
      label: 'selection over hidden cells',
      args: () => ({}),
      before: selectionOverHidden
    },
    { label: 'visible active cell', args: () => ({}), before: activeVisible }
  ],
  jupyter_list_workspace: [
    { label: 'root', args: () => ({}) },
    { label: 'recursive', args: () => ({ recursive: true }) },
    { label: 'test directory', args: p => ({ path: p.dir }) },
    {
      label: 'test directory, recursive, small limit',
      args: p => ({ path: p.dir, recursive: true, limit: 2 })
    },
    {
      label: 'the hidden notebook as a directory',
      args: (p, h) => ({ path: nb(p, h) }),
      paired: true
    }
  ],
  jupyter_open_notebook: [
    {
      label: 'hidden notebook',
      args: (p, h) => ({ path: nb(p, h) }),
      paired: true
    },
    {
      label: 'hidden notebook, its cell, no activation',
      args: (p, h) => ({
        path: nb(p, h),
        cellId: SECRET_CELL,
        activate: false
      }),
      paired: true
    },
    {
      label: 'hidden code cell',
      args: (p, h) => ({ path: p.mixed, cellId: h.code }),
      paired: true
    },
    {
      label: 'hidden markdown cell, no activation',
      args: (p, h) => ({ path: p.mixed, cellId: h.markdown, activate: false }),
      paired: true
    },
    {
      label: 'mixed notebook with a hidden active cell',
      args: p => ({ path: p.mixed }),
      before: activeHidden
    }
  ],
  jupyter_create_notebook: [
    {
      label: 'over the hidden notebook',
      args: p => ({ name: 'hidden.ipynb', directory: p.dir }),
      error: 'INVALID_PATH'
    },
    {
      label: 'over the hidden notebook, without the extension',
      args: p => ({ name: 'hidden', directory: p.dir }),
      error: 'INVALID_PATH'
    }
  ],
  jupyter_get_cells: [
    { label: 'default range', args: () => ({}) },
    {
      label: 'whole range with outputs',
      args: () => ({ startIndex: 0, endIndex: 6, includeOutputs: true })
    },
    {
      label: 'a range of hidden cells only',
      args: () => ({ startIndex: 2, endIndex: 3, includeOutputs: true })
    },
    {
      label: 'a range past the end',
      args: () => ({ startIndex: 4, endIndex: 100, includeSource: false })
    },
    {
      label: 'by path, outputs, no source',
      args: p => ({
        notebookPath: p.mixed,
        includeOutputs: true,
        includeSource: false
      })
    },
    {
      label: 'explicit hidden code cell',
      args: (_, h) => ({ cellIds: [h.code] }),
      paired: true
    },
    {
      label: 'explicit hidden cell among visible ones',
      args: (_, h) => ({
        cellIds: ['pub-a', h.markdown, 'pub-b'],
        includeOutputs: true
      }),
      paired: true
    },
    {
      label: 'explicit ids and a range: the ids win',
      args: (_, h) => ({ cellIds: [h.code], startIndex: 0, endIndex: 6 }),
      paired: true
    },
    {
      label: 'hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h) }),
      paired: true
    },
    {
      label: 'hidden notebook, its cell',
      args: (p, h) => ({ notebookPath: nb(p, h), cellIds: [SECRET_CELL] }),
      paired: true
    },
    {
      label: 'with a hidden active cell',
      args: () => ({ startIndex: 0, endIndex: 6 }),
      before: activeHidden
    }
  ],
  jupyter_get_cell_access: [
    { label: 'default range', args: () => ({}) },
    {
      label: 'a range of hidden cells only',
      args: () => ({ startIndex: 4, endIndex: 5 })
    },
    {
      label: 'explicit hidden cell',
      args: (_, h) => ({ cellIds: [h.markdown] }),
      paired: true
    },
    {
      label: 'explicit hidden cell after a read-only one',
      args: (_, h) => ({ cellIds: ['ro-a', h.code] }),
      paired: true
    },
    {
      label: 'hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h) }),
      paired: true
    }
  ],
  jupyter_insert_cell: [
    {
      label: 'next to a hidden cell',
      args: (_, h) => ({ referenceCellId: h.code, source: 'z = 3' }),
      paired: true
    },
    {
      label: 'above a hidden markdown cell',
      args: (_, h) => ({
        referenceCellId: h.markdown,
        position: 'above',
        cellType: 'markdown',
        source: 'note'
      }),
      paired: true
    },
    {
      label: 'in the hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h), source: 'z = 3' }),
      paired: true
    },
    {
      label: 'in the hidden notebook, next to its cell',
      args: (p, h) => ({
        notebookPath: nb(p, h),
        referenceCellId: SECRET_CELL
      }),
      paired: true
    }
  ],
  jupyter_update_cell: [
    {
      label: 'hidden code cell, its real hash',
      args: (_, h) => ({
        cellId: h.code,
        source: 'secret = 0',
        expectedSourceHash: CODE_HASH
      }),
      paired: true
    },
    {
      label: 'hidden markdown cell, a wrong hash',
      args: (_, h) => ({
        cellId: h.markdown,
        source: '',
        expectedSourceHash: 'sha256:0000000000000000'
      }),
      paired: true
    },
    {
      label: 'hidden code cell by path',
      args: (p, h) => ({
        notebookPath: p.mixed,
        cellId: h.code,
        source: 'secret = 0',
        expectedSourceHash: MD_HASH
      }),
      paired: true
    },
    {
      label: 'the hidden notebook’s cell',
      args: (p, h) => ({
        notebookPath: nb(p, h),
        cellId: SECRET_CELL,
        source: 'token = 0',
        expectedSourceHash: SECRET_HASH
      }),
      paired: true
    }
  ],
  jupyter_delete_cell: [
    {
      label: 'hidden code cell, its real hash',
      args: (_, h) => ({ cellId: h.code, expectedSourceHash: CODE_HASH }),
      paired: true
    },
    {
      label: 'hidden markdown cell, its real hash, by path',
      args: (p, h) => ({
        notebookPath: p.mixed,
        cellId: h.markdown,
        expectedSourceHash: MD_HASH
      }),
      paired: true
    },
    {
      label: 'the hidden notebook’s cell',
      args: (p, h) => ({
        notebookPath: nb(p, h),
        cellId: SECRET_CELL,
        expectedSourceHash: SECRET_HASH
      }),
      paired: true
    }
  ],
  jupyter_run_cells: [
    {
      label: 'hidden code cell',
      args: (_, h) => ({ cellIds: [h.code] }),
      paired: true
    },
    {
      label: 'a visible cell, then a hidden one',
      args: (_, h) => ({ cellIds: ['pub-a', h.code], stopOnError: false }),
      paired: true
    },
    {
      label: 'hidden markdown cell by path',
      args: (p, h) => ({ notebookPath: p.mixed, cellIds: [h.markdown] }),
      paired: true
    },
    {
      label: 'a range over hidden cells',
      args: () => ({ startIndex: 1, endIndex: 3 })
    },
    {
      label: 'the active cell, hidden',
      args: () => ({}),
      before: activeHidden
    },
    {
      label: 'the hidden notebook’s cell',
      args: (p, h) => ({ notebookPath: nb(p, h), cellIds: [SECRET_CELL] }),
      paired: true
    },
    {
      label: 'a range in the hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h), startIndex: 0, endIndex: 1 }),
      paired: true
    }
  ],
  jupyter_focus_cell: [
    {
      label: 'hidden code cell',
      args: (_, h) => ({ cellId: h.code }),
      paired: true
    },
    {
      label: 'hidden markdown cell with a selection',
      args: (_, h) => ({
        cellId: h.markdown,
        selection: {
          start: { line: 0, column: 0 },
          end: { line: 0, column: 5 }
        }
      }),
      paired: true
    },
    {
      label: 'hidden code cell by path with a cursor',
      args: (p, h) => ({
        notebookPath: p.mixed,
        cellId: h.code,
        cursor: { line: 0, column: 3 }
      }),
      paired: true
    },
    {
      label: 'the hidden notebook’s cell',
      args: (p, h) => ({ notebookPath: nb(p, h), cellId: SECRET_CELL }),
      paired: true
    }
  ],
  jupyter_save_notebook: [
    {
      label: 'hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h) }),
      paired: true
    }
  ],
  jupyter_kernel_action: [
    {
      label: 'interrupt in the hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h), action: 'interrupt' }),
      paired: true
    },
    {
      label: 'restart in the hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h), action: 'restart' }),
      paired: true
    }
  ],
  jupyter_list_comments: [
    {
      label: 'the open notebook, every status',
      args: () => ({ status: 'all' })
    },
    {
      label: 'the hidden active cell',
      args: () => ({ scope: 'current-cell', status: 'all' }),
      before: activeHidden
    },
    {
      label: 'hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h), status: 'all' }),
      paired: true
    }
  ],
  jupyter_get_comment: [
    {
      label: 'a thread of the hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h), threadId: 'thread-5521' }),
      paired: true
    }
  ],
  jupyter_create_comment: [
    {
      label: 'on a hidden code cell',
      args: (_, h) => ({
        anchor: { kind: 'cell', cellId: h.code },
        message: 'note'
      }),
      paired: true
    },
    {
      label: 'on a hidden cell’s output',
      args: (_, h) => ({
        anchor: { kind: 'output', cellId: h.code, outputIndex: 1 },
        message: 'note'
      }),
      paired: true
    },
    {
      label: 'on hidden markdown text, by path',
      args: (p, h) => ({
        notebookPath: p.mixed,
        anchor: { kind: 'source-range', cellId: h.markdown, text: MARKER },
        message: 'note'
      }),
      paired: true
    },
    {
      label: 'on the hidden notebook’s cell',
      args: (p, h) => ({
        notebookPath: nb(p, h),
        anchor: { kind: 'cell', cellId: SECRET_CELL },
        message: 'note'
      }),
      paired: true
    }
  ],
  jupyter_reply_comment: [
    {
      label: 'a thread of the hidden notebook',
      args: (p, h) => ({
        notebookPath: nb(p, h),
        threadId: 'thread-5521',
        message: 'hi'
      }),
      paired: true
    }
  ],
  jupyter_resolve_comment: [
    {
      label: 'a thread of the hidden notebook',
      args: (p, h) => ({
        notebookPath: nb(p, h),
        threadId: 'thread-5521',
        resolutionMessage: 'done'
      }),
      paired: true
    }
  ],
  jupyter_reopen_comment: [
    {
      label: 'a thread of the hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h), threadId: 'thread-5521' }),
      paired: true
    }
  ],
  jupyter_focus_comment: [
    {
      label: 'a thread of the hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h), threadId: 'thread-5521' }),
      paired: true
    }
  ],
  jupyter_export_notebook: [
    { label: 'the open notebook', args: () => ({}) },
    {
      label: 'by path, without outputs',
      args: p => ({ notebookPath: p.mixed, includeOutputs: false })
    },
    {
      label: 'hidden notebook',
      args: (p, h) => ({ notebookPath: nb(p, h) }),
      paired: true
    }
  ],
  jupyter_get_output_selection: [
    {
      label: 'after a selection in a hidden output',
      args: () => ({}),
      before: human => human.selectHiddenOutput()
    }
  ]
};

/** Replaces every occurrence of each key of `map` in `text` with its value. */
function replaceAll(text: string, map: Record<string, string>): string {
  let out = text;
  for (const [from, to] of Object.entries(map)) {
    out = out.split(from).join(to);
  }
  return out;
}

/**
 * What the agent must never see in a result: the markers always, a hidden
 * id or the hidden notebook's name unless the call itself named it.
 */
function leaks(result: IToolResult, args: Record<string, unknown>): string[] {
  const text = JSON.stringify({ text: result.text, raw: result.raw });
  const named = JSON.stringify(args);
  return [MARKER, HIDDEN_CODE, HIDDEN_MD, SECRET_CELL, 'hidden.ipynb'].filter(
    secret =>
      text.includes(secret) && !named.includes(secret.replace(/\.ipynb$/, ''))
  );
}

/** The state of the hidden things, to check that no call changed them. */
async function hiddenState(jupyter: JupyterApp, paths: IPaths) {
  const cells = await jupyter.page.evaluate(path => {
    const panel = window.uiTests.findNotebook(path);
    if (!panel?.model) {
      throw new Error(`${path} is not open`);
    }
    return panel.model.sharedModel.cells.map(cell => cell.toJSON());
  }, paths.mixed);
  return {
    hiddenCells: cells.filter(
      cell => cell.id === HIDDEN_CODE || cell.id === HIDDEN_MD
    ),
    secretFile: await jupyter.readText(paths.hidden),
    absentExists: await jupyter.exists(paths.absent)
  };
}

async function call(
  agent: Agent,
  tool: string,
  args: Record<string, unknown>
): Promise<IToolResult> {
  return agent.call(tool, args);
}

// the test works in its own notebooks and leaves the app as it found it: it
// shares the worker's app start-up (ui-tests/shared-app.ts)
test.use({ shareApp: true });

test('nothing hidden reaches the agent, and hidden reads as never existed @rule', async ({
  jupyter,
  agent,
  human
}) => {
  test.setTimeout(240_000);
  // every tool the extension registers has its rows in the table
  expect(Object.keys(CASES).sort()).toEqual([...IMPLEMENTED].sort());

  await jupyter.start();
  const paths: IPaths = {
    mixed: await jupyter.createNotebook('mixed.ipynb', mixedNotebook()),
    hidden: await jupyter.createNotebook('hidden.ipynb', secretNotebook()),
    absent: jupyter.path('absent.ipynb'),
    dir: jupyter.dir
  };
  // requests for the never-existing notebook end in 404s the browser logs
  jupyter.expectConsoleErrorsFor(/\/api\/contents\/.*\/absent\.ipynb/);

  // the human has the hidden notebook open too, behind the mixed one
  await human.openNotebook(paths.hidden, { kernel: false });
  await human.openNotebook(paths.mixed);
  await agent.waitForTools(IMPLEMENTED);
  const before = await hiddenState(jupyter, paths);

  const humanActions: IHumanActions = {
    select: (from, to) => human.selectCells(from, to ?? from),
    selectHiddenOutput: async () => {
      // a word of the hidden cell's output, selected as with the mouse
      const output = (await jupyter.cell(2))
        .locator('.jp-OutputArea-output')
        .first();
      await output.scrollIntoViewIfNeeded();
      // the first word of its first line
      await output
        .locator('pre')
        .first()
        .dblclick({ position: { x: 4, y: 6 } });
      expect(
        await jupyter.page.evaluate(() => document.getSelection()?.toString())
      ).toContain(MARKER);
    }
  };
  const swap = {
    [HIDDEN_CODE]: ABSENT_CODE,
    [HIDDEN_MD]: ABSENT_MD,
    [paths.hidden]: paths.absent
  };

  let calls = 0;
  const problems: string[] = [];
  for (const [tool, cases] of Object.entries(CASES)) {
    for (const row of cases) {
      const name = `${tool} (${row.label})`;
      await row.before?.(humanActions);
      const args = row.args(paths, HIDDEN);
      const hidden = await call(agent, tool, args);
      calls += 1;
      const found = leaks(hidden, args);
      if (found.length) {
        problems.push(`${name} leaks ${found.join(', ')}: ${hidden.text}`);
      }
      const code = (hidden.structured as { error?: string } | undefined)?.error;
      if (row.error && code !== row.error) {
        problems.push(
          `${name} answers ${code ?? 'no error'}, not ${row.error}`
        );
      }
      if (row.paired) {
        await row.before?.(humanActions);
        const absent = await call(agent, tool, row.args(paths, ABSENT));
        calls += 1;
        const seen = replaceAll(hidden.text ?? '', swap);
        if (seen !== absent.text || hidden.isError !== absent.isError) {
          problems.push(
            `${name} differs from the never-existing case:\n  hidden: ${seen}\n  absent: ${absent.text}`
          );
        }
      }
    }
  }
  console.log(`access leak test: ${calls} calls checked in ${jupyter.kind}`);
  expect(problems).toEqual([]);

  // nothing hidden was changed, and nothing was created in place of the
  // never-existing notebook
  expect(await hiddenState(jupyter, paths)).toEqual(before);
  expect(before.absentExists).toBe(false);
});
