/**
 * Writes into a notebook that is not open in the page, through native
 * WebMCP (issue 18, points 6 and 8). A write the file already shows to be
 * wrong (an unknown or hidden cell, an unknown thread) answers so without
 * opening the notebook or starting a kernel. Writes that land answer
 * success: five inserts sent at once, into a notebook that is not open (the
 * first of them opens it) and into an open one, each land once and say so.
 * In Notebook 7 a notebook of another tab is refused, whatever the call.
 */
import { expect, test } from '../fixtures';
import type { Agent } from '../agent';
import type { Human } from '../human';
import { IMPLEMENTED } from '../implemented';
import type { JupyterApp } from '../jupyter';
import { codeCell, markdownCell, notebookOf } from '../notebook-content';
import { callMany, envelopeProblem, errorCode } from '../reliability/calls';

interface ICells {
  cells: { id: string; source: string }[];
}

interface IWrite {
  cell: { id: string; source: string };
}

const HIDDEN = { jupyterlite_webmcp: { version: 1, access: 'none' } };

/**
 * The person's notebook open where the agent acts (Notebook 7: this tab),
 * and a second one saved beside it and not open.
 */
async function setUp(
  jupyter: JupyterApp,
  human: Human,
  agent: Agent
): Promise<{ open: string; closed: string }> {
  await jupyter.open();
  const open = await jupyter.createNotebook(
    'open.ipynb',
    notebookOf([codeCell('o-1', 'a = 1'), codeCell('o-2', 'b = 2')])
  );
  const closed = await jupyter.createNotebook(
    'closed.ipynb',
    notebookOf([
      markdownCell('c-intro', '# Closed'),
      codeCell('c-code', 'c = 3'),
      codeCell('c-hidden', 'secret = 4', { metadata: HIDDEN })
    ])
  );
  if (jupyter.ui === 'notebook') {
    await jupyter.open(open, { kernel: false });
  } else {
    await human.openNotebook(open, { kernel: false });
  }
  await agent.waitForTools(IMPLEMENTED);
  return { open, closed };
}

/** Whether the page has a notebook widget for `path`. */
function isOpen(jupyter: JupyterApp, path: string): Promise<boolean> {
  return jupyter.page.evaluate(p => !!window.uiTests.findNotebook(p), path);
}

// each test works in its own notebooks: they share one app start-up
test.use({ shareApp: true });

test('a write naming a cell the closed notebook does not show opens nothing and starts no kernel', async ({
  jupyter,
  human,
  agent
}) => {
  const { closed } = await setUp(jupyter, human, agent);
  const file = await jupyter.readNotebook(closed);
  const hash = 'sha256:0000000000000000';
  const calls = [
    {
      tool: 'jupyter_update_cell',
      input: { cellId: 'nope', source: 'x', expectedSourceHash: hash }
    },
    {
      tool: 'jupyter_update_cell',
      input: { cellId: 'c-hidden', source: 'x', expectedSourceHash: hash }
    },
    {
      tool: 'jupyter_delete_cell',
      input: { cellId: 'nope', expectedSourceHash: hash }
    },
    {
      tool: 'jupyter_insert_cell',
      input: { referenceCellId: 'nope', source: 'x' }
    },
    {
      tool: 'jupyter_insert_cell',
      input: { referenceCellId: 'c-hidden', source: 'x' }
    },
    { tool: 'jupyter_run_cells', input: { cellIds: ['c-code', 'nope'] } },
    { tool: 'jupyter_run_cells', input: { cellIds: ['c-hidden'] } },
    {
      tool: 'jupyter_create_comment',
      input: { anchor: { kind: 'cell', cellId: 'nope' }, message: 'x' }
    },
    {
      tool: 'jupyter_reply_comment',
      input: { threadId: 'nope', message: 'x' }
    },
    { tool: 'jupyter_resolve_comment', input: { threadId: 'nope' } },
    { tool: 'jupyter_reopen_comment', input: { threadId: 'nope' } }
  ].map(call => ({
    tool: call.tool,
    input: { notebookPath: closed, ...call.input }
  }));
  // one after the other, as an agent that waits for each answer
  const answers = await callMany(jupyter.page, calls);
  const codes = answers.map(answer => errorCode(answer));
  if (jupyter.ui === 'notebook') {
    // another tab's notebook: refused before anything else
    expect(codes).toEqual(calls.map(() => 'INVALID_ARGUMENT'));
  } else {
    expect(codes).toEqual(
      calls.map(({ tool }) =>
        tool.endsWith('_comment') && tool !== 'jupyter_create_comment'
          ? 'COMMENT_NOT_FOUND'
          : 'CELL_NOT_FOUND'
      )
    );
  }
  expect(answers.map(envelopeProblem).filter(Boolean)).toEqual([]);
  // the hidden cell's source never shows
  expect(answers.map(a => a.result!.text).join('\n')).not.toContain('secret');
  // no notebook widget (whose session would start the kernel), no session,
  // the file as it was
  expect(await isOpen(jupyter, closed)).toBe(false);
  const sessions = await jupyter.sessions();
  expect(sessions.map(session => session.path)).not.toContain(closed);
  expect(await jupyter.readNotebook(closed)).toEqual(file);
});

test('five inserts sent at once land once each and all answer success, into a closed notebook and an open one @backend', async ({
  jupyter,
  human,
  agent
}) => {
  const { open, closed } = await setUp(jupyter, human, agent);
  const insertFive = async (path: string, prefix: string) => {
    const calls = Array.from({ length: 5 }, (_, n) => ({
      tool: 'jupyter_insert_cell',
      input: { notebookPath: path, source: `${prefix} = ${n}` }
    }));
    const answers = await callMany(jupyter.page, calls, { concurrent: true });
    expect(answers.map(envelopeProblem).filter(Boolean)).toEqual([]);
    return answers;
  };
  const cellsOf = async (path: string) =>
    (
      await agent.call<ICells>('jupyter_get_cells', {
        notebookPath: path,
        startIndex: 0
      })
    ).structured!.cells;
  /** The five answers say success, and each named cell is there once. */
  const expectLanded = async (
    path: string,
    prefix: string,
    answers: Awaited<ReturnType<typeof insertFive>>,
    before: number
  ) => {
    expect(answers.map(answer => errorCode(answer) ?? 'ok')).toEqual(
      answers.map(() => 'ok')
    );
    const written = answers.map(a => (a.result!.structured as IWrite).cell);
    expect(written.map(cell => cell.source).sort()).toEqual(
      [0, 1, 2, 3, 4].map(n => `${prefix} = ${n}`)
    );
    const cells = await cellsOf(path);
    expect(cells).toHaveLength(before + 5);
    const mine = cells.filter(cell => cell.source.startsWith(`${prefix} =`));
    expect(mine.map(cell => `${cell.id} ${cell.source}`).sort()).toEqual(
      written.map(cell => `${cell.id} ${cell.source}`).sort()
    );
  };

  const intoClosed = await insertFive(closed, 'closed');
  if (jupyter.ui === 'notebook') {
    // another tab's notebook: refused, nothing written
    expect(intoClosed.map(answer => errorCode(answer))).toEqual(
      intoClosed.map(() => 'INVALID_ARGUMENT')
    );
    expect(await isOpen(jupyter, closed)).toBe(false);
  } else {
    // the hidden cell is not read, but it is counted
    await expectLanded(closed, 'closed', intoClosed, 2);
    expect(await isOpen(jupyter, closed)).toBe(true);
  }
  await expectLanded(open, 'opened', await insertFive(open, 'opened'), 2);
});
