/**
 * What a desktop agent does through a WebMCP bridge, as one serial suite per
 * bridge and app: the browser, the bridge and the app start once per file
 * (projects bridges-lab and bridges-lite, see playwright.config.ts).
 *
 * The agent acts only through the bridge (an MCP client over stdio). The
 * human's side (putting a notebook in the workspace, hiding a cell, waiting
 * for the kernel) goes through Playwright attached to the same browser.
 */
import { expect, test } from '@playwright/test';

import {
  BridgeClient,
  type BridgeKind,
  type IBridgedResult,
  DebuggableChromium
} from './bridges';
import { Human } from './human';
import { IMPLEMENTED } from './implemented';
import { JupyterApp } from './jupyter';
import type { AppKind } from './options';
import { installPageHelpers } from './page-helpers';

interface ICellSnapshot {
  id: string;
  index: number;
  source?: string;
  outputs?: { outputType: string; text?: string; name?: string }[];
}

/** What `jupyter_run_cells` answers once its cells ran. */
interface IRunAnswer {
  status: string;
  proposalId?: string;
  results: {
    cellId: string;
    status: string;
    executionCount?: number | null;
    outputSummary: string;
  }[];
}

/** The parts of a shared setup the tests of one file use. */
export interface IBridgeSetup {
  chromium: DebuggableChromium;
  bridge: BridgeClient;
  jupyter: JupyterApp;
  human: Human;
}

/**
 * The suite's shared state, started in `beforeAll`. The kind of app comes
 * from the project (`appKind` in its `use` block).
 */
export function startBridgeSetup(kind: BridgeKind): () => IBridgeSetup {
  let setup: IBridgeSetup | undefined;

  test.beforeAll(async ({}, testInfo) => {
    const use = testInfo.project.use as { appKind?: AppKind; baseURL?: string };
    const appKind = use.appKind ?? 'lab';
    testInfo.setTimeout(appKind === 'lite' ? 180_000 : 90_000);
    const chromium = await DebuggableChromium.launch();
    const context = chromium.playwright.contexts()[0];
    await context.addInitScript(installPageHelpers);
    const page = context.pages()[0] ?? (await context.newPage());
    const jupyter = new JupyterApp({
      context,
      page,
      kind: appKind,
      ui: appKind === 'lite' ? 'lab' : appKind,
      baseURL: use.baseURL!,
      dir: `uit-bridge-${kind}-${Date.now().toString(36)}`
    });
    const bridge = await BridgeClient.start(kind, chromium.httpEndpoint);
    setup = { chromium, bridge, jupyter, human: new Human(jupyter) };
  });

  test.afterAll(async ({}, testInfo) => {
    if (!setup) {
      return;
    }
    if (setup.bridge.stderr.length) {
      await testInfo.attach(`${kind} stderr`, {
        body: setup.bridge.stderr.join(''),
        contentType: 'text/plain'
      });
    }
    await setup.bridge.close();
    await setup.jupyter.dispose().catch(() => undefined);
    await setup.chromium.close();
  });

  return () => {
    if (!setup) {
      throw new Error('the bridge setup did not start (see beforeAll)');
    }
    return setup;
  };
}

/** Strips one id from a result, to compare two errors apart from the id. */
function withoutId(result: IBridgedResult, id: string): string {
  return JSON.stringify(result.structured).split(id).join('<id>');
}

/**
 * The tests every bridge must pass, in order: each builds on the one before
 * (the page the agent loaded, the notebook it opened, the cell it inserted).
 */
export function defineBridgeSuite(kind: BridgeKind): void {
  test.describe.configure({ mode: 'serial' });
  const get = startBridgeSetup(kind);
  let notebookPath = '';
  let insertedId = '';

  test('the agent loads the app and finds the tools with their annotations', async () => {
    const { bridge, jupyter } = get();
    await bridge.navigate(jupyter.url());
    await jupyter.waitForApp();
    // the tools are registered after the app starts: ask until they are all there
    await expect
      .poll(async () => (await bridge.pageTools()).map(tool => tool.name), {
        timeout: 30_000
      })
      .toEqual(expect.arrayContaining(IMPLEMENTED));
    const tools = await bridge.pageTools();
    expect(tools).toHaveLength(IMPLEMENTED.length);
    const byName = new Map(tools.map(tool => [tool.name, tool]));
    const context = byName.get('jupyter_get_context')!;
    const run = byName.get('jupyter_run_cells')!;
    const save = byName.get('jupyter_save_notebook')!;
    if (kind === 'chrome-devtools-mcp') {
      // Chromium's CDP names, passed through as they are
      expect(context.annotations).toMatchObject({
        readOnly: true,
        untrustedContent: true,
        consequential: false
      });
      expect(run.annotations).toMatchObject({
        readOnly: false,
        untrustedContent: true,
        consequential: true
      });
      expect(save.annotations).toMatchObject({
        readOnly: false,
        untrustedContent: false,
        consequential: false
      });
      expect(context.description).toMatch(/^Read the live state/);
    } else {
      // MCP annotations derived from ours, warnings prefixed to descriptions
      expect(context.annotations).toMatchObject({
        title: 'Get notebook context',
        readOnlyHint: true,
        destructiveHint: false,
        openWorldHint: true
      });
      expect(run.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true
      });
      expect(context.description).toMatch(/^\[UNTRUSTED: /);
      expect(context.description).toContain('[READ-ONLY]');
      expect(context.description).toContain(
        '[Output may contain third-party content.]'
      );
      expect(run.description).toContain('[CONSEQUENTIAL: ');
      expect(save.description).not.toContain(
        '[Output may contain third-party content.]'
      );
      expect(context.description).toContain('Read the live state');
    }
  });

  test('the agent reads the context', async () => {
    const { bridge } = get();
    const result = await bridge.call<{
      workspace: { openDocuments: string[] };
      notebook: unknown;
    }>('jupyter_get_context');
    expect(result.isError).toBe(false);
    expect(result.mcpIsError).toBe(false);
    expect(result.structured?.workspace.openDocuments).toEqual([]);
    expect(result.structured?.notebook).toBeNull();
  });

  test('the agent opens a notebook the human put in the workspace', async () => {
    const { bridge, jupyter } = get();
    notebookPath = await jupyter.addFixture('simple.ipynb');
    const result = await bridge.call<{
      notebook: { path: string; cellCount: number };
    }>('jupyter_open_notebook', { path: notebookPath });
    expect(result.isError).toBe(false);
    expect(result.structured?.notebook).toMatchObject({
      path: notebookPath,
      cellCount: 3
    });
    // the kernel the notebook asks for (Pyodide in Lite takes a while)
    await jupyter.waitForNotebook(notebookPath);
  });

  test('the agent inserts a cell, runs it and reads its output', async () => {
    const { bridge, human } = get();
    const inserted = await bridge.call<{ cell: ICellSnapshot }>(
      'jupyter_insert_cell',
      { referenceCellId: 'greet', position: 'below', source: 'print(6 * 7)' }
    );
    expect(inserted.isError).toBe(false);
    insertedId = inserted.structured!.cell.id;
    expect(inserted.structured?.cell).toMatchObject({
      index: 3,
      source: 'print(6 * 7)'
    });
    expect(await human.cellSources({ path: notebookPath })).toContain(
      'print(6 * 7)'
    );

    const ran = await bridge.call<{
      status: string;
      results: { cellId: string; status: string; outputSummary: string }[];
    }>('jupyter_run_cells', { cellIds: [insertedId] });
    expect(ran.isError).toBe(false);
    expect(ran.structured).toMatchObject({
      status: 'ok',
      results: [{ cellId: insertedId, status: 'ok' }]
    });
    expect(ran.structured?.results[0].outputSummary).toContain('42');

    const read = await bridge.call<{ cells: ICellSnapshot[] }>(
      'jupyter_get_cells',
      { cellIds: [insertedId], includeOutputs: true }
    );
    expect(read.isError).toBe(false);
    expect(read.structured?.cells[0].outputs).toEqual([
      expect.objectContaining({ outputType: 'stream', text: '42\n' })
    ]);
  });

  test('a bad cell id gets the structured error', async () => {
    const { bridge } = get();
    const result = await bridge.call('jupyter_get_cells', {
      cellIds: ['no-such-cell']
    });
    expect(result.isError).toBe(true);
    expect(result.structured).toEqual({
      error: 'CELL_NOT_FOUND',
      message: 'No cell with id "no-such-cell" in this notebook.',
      cellId: 'no-such-cell'
    });
    if (kind === 'chrome-devtools-mcp') {
      // the page answered: the bridge's call completed, our envelope says error
      expect(result.status).toBe('Completed');
      expect(result.mcpIsError).toBe(false);
    } else {
      expect(result.mcpIsError).toBe(true);
      expect(result.bridgeText).toMatch(/^### Error\n/);
    }
  });

  test('a read while a cell runs: at once, or after the run (one call at a time)', async () => {
    const { bridge, jupyter } = get();
    const inserted = await bridge.call<{ cell: ICellSnapshot }>(
      'jupyter_insert_cell',
      {
        referenceCellId: insertedId,
        source: "import time\ntime.sleep(8)\nprint('slept')"
      }
    );
    const id = inserted.structured!.cell.id;
    const order: string[] = [];
    const run = bridge
      .call<{
        status: string;
        results: { status: string; outputSummary: string }[];
      }>('jupyter_run_cells', { cellIds: [id] })
      .then(result => (order.push('run'), result));
    // running, and the kernel busy with it as the page knows: the page
    // marks the cell running when it sends the request, and hears the
    // kernel's `busy` a moment later (a read in between says `idle`: one
    // fresh-clone run under load)
    await expect
      .poll(
        async () =>
          (await jupyter.cellRuns(notebookPath)).some(
            cell => cell.id === id && cell.running
          ) && (await jupyter.kernel(notebookPath))?.status === 'busy'
      )
      .toBe(true);
    const context = bridge
      .call<{ kernel: { status: string } }>('jupyter_get_context')
      .then(result => (order.push('context'), result));
    const [ran, read] = await Promise.all([run, context]);
    expect(ran.structured).toMatchObject({
      status: 'ok',
      results: [{ status: 'ok', outputSummary: 'slept' }]
    });
    expect(read.isError).toBe(false);
    if (kind === 'chrome-devtools-mcp') {
      // the bridge runs one page tool call at a time
      expect(order).toEqual(['run', 'context']);
    } else {
      expect(order).toEqual(['context', 'run']);
      expect(read.structured?.kernel.status).toBe('busy');
    }
  });

  test('an edit waiting for the human in Propose mode', async () => {
    const { bridge, jupyter, human } = get();
    await human.command('jupyterlite-webmcp:set-propose-mode', {
      mode: 'propose'
    });
    try {
      const before = await bridge.call<{ cells: { sourceHash: string }[] }>(
        'jupyter_get_cells',
        { cellIds: ['greet'] }
      );
      const order: string[] = [];
      const update = bridge
        .call<{ status: string; proposalId: string }>('jupyter_update_cell', {
          cellId: 'greet',
          source: 'print("proposed")',
          expectedSourceHash: before.structured!.cells[0].sourceHash
        })
        .then(result => (order.push('update'), result));
      const block = jupyter.page.getByRole('region', {
        name: 'Agent proposes a change to this cell'
      });
      await expect(block).toBeVisible();
      const context = bridge
        .call('jupyter_get_context')
        .then(result => (order.push('context'), result));
      if (kind === 'chrome-devtools-mcp') {
        // queued behind the waiting update: nothing answers until the human
        await new Promise(resolve => setTimeout(resolve, 2_000));
        expect(order).toEqual([]);
      } else {
        expect((await context).isError).toBe(false);
        expect(order).toEqual(['context']);
      }
      await expect(block).toBeVisible();
      await block.getByRole('button', { name: 'Accept' }).click();
      const [accepted] = await Promise.all([update, context]);
      expect(accepted.isError).toBe(false);
      expect(accepted.structured).toMatchObject({ status: 'accepted' });
      expect(order).toEqual(
        kind === 'chrome-devtools-mcp'
          ? ['update', 'context']
          : ['context', 'update']
      );
    } finally {
      await human.command('jupyterlite-webmcp:set-propose-mode', {
        mode: 'direct'
      });
    }
  });

  // What each bridge does while a call waits for the human (measured on
  // JupyterLab, chrome-devtools-mcp 1.11.0, @playwright/mcp 0.0.83; the
  // figures are in docs/clients.md, section 6):
  // - Neither bridge has a time-out of its own. chrome-devtools-mcp sends
  //   CDP `WebMCP.invokeTool`, which answers at once with an invocation id,
  //   then waits for `WebMCP.toolResponded` with no timer (the protocol
  //   time-out only bounds the first answer); @playwright/mcp awaits the
  //   page's `executeTool` in an evaluate, which has none either, then lets
  //   the page settle (0.5 s). A run accepted after 180 s answered through
  //   both (client time-out 600 s) with its result.
  // - What ends the wait early is the MCP client's request time-out (the
  //   SDK's default 60 s: `-32001 Request timed out` at 60.0 s through
  //   both). The proposal stays in the page; an Accept after that still
  //   runs the cells, and the agent learns it only by reading the cell.
  // - chrome-devtools-mcp runs one page tool call at a time: every call
  //   sent meanwhile waits behind the waiting one (and may time out too),
  //   and a call the client gave up on still reaches the page once the
  //   bridge gets to it: a retried run became a second proposal right
  //   after the first was accepted. @playwright/mcp answers other calls
  //   meanwhile; a retry of the same run answers PROPOSAL_ALREADY_PENDING.
  // The tests below keep the wait short (the human decides at once) and
  // check the order of answers, the result and that nothing ran before.
  test('a run waiting for the human in Propose mode: Accept runs it', async () => {
    const { bridge, jupyter, human } = get();
    await human.command('jupyterlite-webmcp:set-propose-mode', {
      mode: 'propose'
    });
    try {
      const countOf = async () =>
        (await jupyter.cellRuns(notebookPath)).find(
          cell => cell.id === insertedId
        )!.executionCount;
      const countBefore = await countOf();
      const order: string[] = [];
      const run = bridge
        .call<IRunAnswer>('jupyter_run_cells', { cellIds: [insertedId] })
        .then(result => (order.push('run'), result));
      // the review block (the DOM contract every kind keeps: the section,
      // its proposal id, the Accept and Deny classes)
      const block = (await jupyter.notebook(notebookPath)).locator(
        'section.jp-ProposalBlock'
      );
      await expect(block).toHaveCount(1);
      await expect(block).toBeVisible();
      const proposalId = await block.getAttribute('data-proposal-id');
      expect(proposalId).toBeTruthy();
      const context = bridge
        .call<{ kernel: { status: string } }>('jupyter_get_context')
        .then(result => (order.push('context'), result));
      if (kind === 'chrome-devtools-mcp') {
        // queued behind the waiting run: nothing answers until the human
        await new Promise(resolve => setTimeout(resolve, 2_000));
        expect(order).toEqual([]);
      } else {
        const read = await context;
        expect(read.isError).toBe(false);
        // nothing runs while the run waits
        expect(read.structured?.kernel.status).toBe('idle');
        expect(order).toEqual(['context']);
      }
      // nothing ran before the human decided
      expect(await countOf()).toBe(countBefore);
      await expect(block).toBeVisible();
      // the human's real click in the page
      await block.locator('button.jp-mod-accept').click();
      const [ran] = await Promise.all([run, context]);
      expect(ran.isError).toBe(false);
      expect(ran.mcpIsError).toBe(false);
      expect(ran.structured).toMatchObject({
        status: 'ok',
        proposalId,
        results: [
          {
            cellId: insertedId,
            status: 'ok',
            executionCount: expect.any(Number)
          }
        ]
      });
      const count = ran.structured!.results[0].executionCount!;
      expect(count).toBeGreaterThan(countBefore ?? 0);
      expect(ran.structured?.results[0].outputSummary).toContain('42');
      // the count the agent got is the one the human sees on the cell
      expect(await countOf()).toBe(count);
      await expect(block).toHaveCount(0);
      expect(order).toEqual(
        kind === 'chrome-devtools-mcp' ? ['run', 'context'] : ['context', 'run']
      );
    } finally {
      await human.command('jupyterlite-webmcp:set-propose-mode', {
        mode: 'direct'
      });
    }
  });

  test('an insert the human denies with a reason: no cell, the reason returned', async () => {
    const { bridge, jupyter, human } = get();
    await human.command('jupyterlite-webmcp:set-propose-mode', {
      mode: 'propose'
    });
    try {
      const idsBefore = await human.cellIds({ path: notebookPath });
      const insert = bridge.call('jupyter_insert_cell', {
        referenceCellId: insertedId,
        position: 'below',
        source: 'print("never inserted")'
      });
      const block = (await jupyter.notebook(notebookPath)).locator(
        'section.jp-ProposalBlock'
      );
      await expect(block).toHaveCount(1);
      await expect(block).toBeVisible();
      const proposalId = await block.getAttribute('data-proposal-id');
      expect(proposalId).toBeTruthy();
      // shown, but not in the notebook while it waits
      expect(await human.cellIds({ path: notebookPath })).toEqual(idsBefore);
      const reason = 'Not this cell: keep the notebook short.';
      const field = block.locator('.jp-ProposalBlock-reason');
      await field.click();
      await field.pressSequentially(reason);
      await expect(field).toHaveValue(reason);
      await block.locator('button.jp-mod-deny').click();
      const denied = await insert;
      // not an error: the agent learns the human's answer
      expect(denied.isError).toBe(false);
      expect(denied.mcpIsError).toBe(false);
      if (kind === 'chrome-devtools-mcp') {
        expect(denied.status).toBe('Completed');
      }
      expect(denied.structured).toEqual({
        status: 'denied',
        code: 'PROPOSAL_DENIED',
        proposalId,
        cellId: null,
        reason
      });
      await expect(block).toHaveCount(0);
      expect(await human.cellIds({ path: notebookPath })).toEqual(idsBefore);
      expect(await human.cellSources({ path: notebookPath })).not.toContain(
        'print("never inserted")'
      );
    } finally {
      await human.command('jupyterlite-webmcp:set-propose-mode', {
        mode: 'direct'
      });
    }
  });

  test('a call on a hidden cell is refused exactly as on a missing one', async () => {
    const { bridge, human } = get();
    // the human hides the fixture's "set-x" cell from the agent
    await human.setCellMetadata(
      1,
      'jupyterlite_webmcp',
      { access: 'none' },
      { path: notebookPath }
    );
    const missing = 'no-such-cel';
    for (const [tool, input] of [
      ['jupyter_get_cells', (id: string) => ({ cellIds: [id] })],
      ['jupyter_run_cells', (id: string) => ({ cellIds: [id] })],
      [
        'jupyter_focus_cell',
        (id: string) => ({ cellId: id, cursor: { line: 0, column: 0 } })
      ]
    ] as const) {
      const hidden = await bridge.call(tool, input('set-x'));
      const absent = await bridge.call(tool, input(missing));
      expect(hidden.isError).toBe(true);
      expect(hidden.mcpIsError).toBe(absent.mcpIsError);
      expect(hidden.structured).toMatchObject({ error: 'CELL_NOT_FOUND' });
      expect(withoutId(hidden, 'set-x')).toBe(withoutId(absent, missing));
    }
    // and a range read leaves it out, saying so
    const range = await bridge.call<{
      cells: ICellSnapshot[];
      hiddenCellCount: number;
    }>('jupyter_get_cells', { startIndex: 0, endIndex: 10 });
    expect(range.structured?.cells.map(cell => cell.id)).toEqual([
      'intro',
      'greet',
      insertedId,
      expect.any(String)
    ]);
    expect(range.structured?.hiddenCellCount).toBe(1);
  });
}
