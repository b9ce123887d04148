/**
 * Secrets stay out of the agent's context, through native WebMCP: a notebook
 * with a value of every credential kind src/common/secrets.ts withholds, and
 * every near miss (tests/fixtures/secrets.ts, shared with the unit tests).
 * Every read tool's result withholds every kind and no near miss, and no
 * result holds a secret string (the leak sweep); an update that keeps the
 * placeholders keeps the values in the cell and the file; the owner's switch
 * in the Access section turns it off, and Activity counts what was withheld.
 */
import type { Page } from '@playwright/test';

import { NEAR_MISSES, SECRET_SAMPLES } from '../../tests/fixtures/secrets';
import type { Agent } from '../agent';
import { expect, test } from '../fixtures';
import type { Human } from '../human';
import type { JupyterApp } from '../jupyter';
import { codeCell, markdownCell, notebookOf } from '../notebook-content';

const TOOLS = [
  'jupyter_get_context',
  'jupyter_get_cells',
  'jupyter_update_cell',
  'jupyter_run_cells',
  'jupyter_save_notebook',
  'jupyter_export_notebook',
  'jupyter_create_comment',
  'jupyter_list_comments',
  'jupyter_get_comment',
  'jupyter_get_output_selection'
];

/** Every secret line, as a cell holds them (the PEM block on its lines). */
const SECRET_SOURCE = SECRET_SAMPLES.map(sample => sample.line).join('\n');
/** Every near miss, one a line. */
const NEAR_MISS_SOURCE = NEAR_MISSES.map(miss => miss.line).join('\n');
/** The GitHub token, printed alone by one cell for the output selection. */
const GITHUB = SECRET_SAMPLES.find(
  sample => sample.label === 'GitHub token'
)!.secret;
/** The line of the GitHub token in SECRET_SOURCE (0-based). */
const GITHUB_LINE = SECRET_SAMPLES.findIndex(
  sample => sample.label === 'GitHub token'
);

const placeholder = (label: string) => `[secret withheld: ${label}]`;

interface ICell {
  id: string;
  source?: string;
  sourceHash: string;
  outputs?: Record<string, unknown>[];
}

interface ICells {
  cells: ICell[];
}

function secretsNotebook() {
  return notebookOf([
    markdownCell('intro', 'Credentials a person should not have pasted.'),
    codeCell('keys', SECRET_SOURCE),
    codeCell('misses', NEAR_MISS_SOURCE),
    // prints every secret line, so the run's outputs hold them all
    codeCell('printer', `print(r'''${SECRET_SOURCE}''')`),
    codeCell('one', `print('${GITHUB}')`)
  ]);
}

/** Opens the notebook where the agent acts on it, with its kernel. */
async function openForAgent(
  jupyter: JupyterApp,
  human: Human,
  agent: Agent,
  path: string
): Promise<void> {
  await human.openNotebook(path, { kernel: true });
  await agent.waitForTools(TOOLS);
}

/** The live source of a cell, as the notebook holds it. */
async function liveSource(page: Page, index: number): Promise<string> {
  return page.evaluate(
    i =>
      window.uiTests
        .findNotebook(null)!
        .content.model!.sharedModel.cells[i].getSource(),
    index
  );
}

/** No secret string anywhere in a result's text. */
function expectNoSecret(what: string, text: string | undefined): void {
  expect(text, what).toBeDefined();
  for (const sample of SECRET_SAMPLES) {
    expect({ what, leaked: text!.includes(sample.secret) }).toEqual({
      what,
      leaked: false
    });
  }
}

test.describe('secrets', () => {
  // the sweep shares the worker's app start-up; the Activity test counts
  // the Agent panel's rows, so it has an app of its own
  test.use({ shareApp: true });

  test('every read tool withholds every kind and no near miss; an update keeps the values @backend', async ({
    jupyter,
    human,
    agent
  }) => {
    await jupyter.start();
    const path = await jupyter.createNotebook(
      'secrets.ipynb',
      secretsNotebook()
    );
    await openForAgent(jupyter, human, agent, path);
    const page = jupyter.page;

    // Runs: the outputs and summaries of a run withhold what was printed.
    const run = await agent.call('jupyter_run_cells', {
      cellIds: ['printer', 'one']
    });
    expect(run.isError).toBe(false);
    expectNoSecret('jupyter_run_cells', run.text);
    expect(run.text).toContain(placeholder('GitHub token'));

    // Cells, sources and outputs: every kind withheld by its name.
    const read = await agent.call<ICells>('jupyter_get_cells', {
      includeOutputs: true
    });
    expect(read.isError).toBe(false);
    expectNoSecret('jupyter_get_cells', read.text);
    const cells = read.structured!.cells;
    const keys = cells.find(cell => cell.id === 'keys')!;
    for (const sample of SECRET_SAMPLES) {
      expect(keys.source).toContain(placeholder(sample.label));
    }
    // no near miss is withheld
    expect(cells.find(cell => cell.id === 'misses')!.source).toBe(
      NEAR_MISS_SOURCE
    );
    const printed = JSON.stringify(
      cells.find(cell => cell.id === 'printer')!.outputs
    );
    for (const sample of SECRET_SAMPLES) {
      expect(printed).toContain(placeholder(sample.label));
    }

    // Export, outputs included.
    const exported = await agent.call<{ document: string }>(
      'jupyter_export_notebook',
      { includeOutputs: true }
    );
    expectNoSecret('jupyter_export_notebook', exported.text);
    expect(exported.structured!.document).toContain(NEAR_MISS_SOURCE);

    // Comments: the anchored code, its context and its live text.
    const created = await agent.call<{ thread: { id: string } }>(
      'jupyter_create_comment',
      {
        anchor: {
          kind: 'source-range',
          cellId: 'keys',
          selection: {
            start: { line: GITHUB_LINE, column: 0 },
            end: { line: GITHUB_LINE + 1, column: 5 }
          }
        },
        message: 'Move these keys out of the notebook.'
      }
    );
    expect(created.isError).toBe(false);
    expectNoSecret('jupyter_create_comment', created.text);
    const threadId = created.structured!.thread.id;
    const listed = await agent.call('jupyter_list_comments');
    expectNoSecret('jupyter_list_comments', listed.text);
    expect(listed.text).toContain(placeholder('GitHub token'));
    const thread = await agent.call('jupyter_get_comment', { threadId });
    expectNoSecret('jupyter_get_comment', thread.text);
    expect(thread.text).toContain(placeholder('GitHub token'));

    // The output selection: the human triple-clicks the printed token.
    const output = (await jupyter.cell(4))
      .locator('.jp-OutputArea-output')
      .first();
    await expect(output).toHaveText(GITHUB);
    await output.click({ clickCount: 3 });
    const selection = await agent.call<{ text: string }>(
      'jupyter_get_output_selection'
    );
    expect(selection.structured).not.toBeNull();
    expectNoSecret('jupyter_get_output_selection', selection.text);
    expect(selection.structured!.text.trim()).toBe(placeholder('GitHub token'));

    // An update that keeps every placeholder keeps every value: in the
    // cell, and in the file once saved. The hash guarding it is the real
    // text's, read with the placeholders.
    const updated = await agent.call<{ cell: ICell }>('jupyter_update_cell', {
      cellId: 'keys',
      source: `${keys.source}\n# reviewed`,
      expectedSourceHash: keys.sourceHash
    });
    expect(updated.isError).toBe(false);
    expectNoSecret('jupyter_update_cell', updated.text);
    expect(await liveSource(page, 1)).toBe(`${SECRET_SOURCE}\n# reviewed`);
    expect(
      (await agent.call('jupyter_save_notebook', { notebookPath: path }))
        .isError
    ).toBe(false);
    const saved = await jupyter.readNotebook(path);
    const source = saved.cells[1].source;
    expect(Array.isArray(source) ? source.join('') : source).toBe(
      `${SECRET_SOURCE}\n# reviewed`
    );
  });

  test.describe('the Activity count', () => {
    test.use({ shareApp: false });

    test('the owner turns it off in the Access section; Activity counts what was withheld @rule', async ({
      jupyter,
      human,
      agent
    }) => {
      await jupyter.start();
      const path = await jupyter.createNotebook(
        'secrets-switch.ipynb',
        secretsNotebook()
      );
      await human.openNotebook(path, { kernel: false });
      await agent.waitForTools(['jupyter_get_cells']);
      const page = jupyter.page;

      // command mode on the first cell, so the palette shortcut reaches the app
      await (
        await jupyter.cell(0)
      )
        .locator('.jp-InputPrompt')
        .first()
        .click({ position: { x: 20, y: 6 } });
      await human.runFromPalette('Open Agent Panel', /^Open Agent Panel/);
      const panel = page.locator('#jp-agent-panel');
      await expect(panel).toBeVisible();
      const rows = panel
        .getByRole('list', { name: 'Agent tool calls, newest first' })
        .getByRole('listitem');
      const toggle = panel.getByRole('checkbox', {
        name: 'Withhold secrets in this notebook from the agent'
      });
      await expect(toggle).toBeChecked();
      await expect(panel).toContainText(
        'Code the agent runs can still print a secret into an output, which is withheld only if it matches one of these formats.'
      );

      const withheld = await agent.call<ICells>('jupyter_get_cells', {
        cellIds: ['keys']
      });
      expectNoSecret('jupyter_get_cells', withheld.text);
      await expect(rows.first()).toContainText(
        `${SECRET_SAMPLES.length} secrets withheld from the agent`
      );

      // Off for this notebook: the values come back, and nothing is counted.
      // (a click, then the state: the box shows what the notebook now holds)
      await toggle.click();
      await expect(toggle).not.toBeChecked();
      await expect
        .poll(() =>
          page.evaluate(
            () =>
              (
                window.uiTests
                  .findNotebook(null)!
                  .content.model!.sharedModel.getMetadata(
                    'jupyterlite_webmcp'
                  ) as { withholdSecrets?: boolean } | undefined
              )?.withholdSecrets
          )
        )
        .toBe(false);
      const shown = await agent.call<ICells>('jupyter_get_cells', {
        cellIds: ['keys']
      });
      expect(shown.structured!.cells[0].source).toBe(SECRET_SOURCE);
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).not.toContainText('withheld');

      // On again.
      await toggle.click();
      await expect(toggle).toBeChecked();
      const again = await agent.call('jupyter_get_cells', {
        cellIds: ['keys']
      });
      expectNoSecret('jupyter_get_cells', again.text);
    });
  });
});
