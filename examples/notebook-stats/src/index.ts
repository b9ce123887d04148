/**
 * An example of an extension built on jupyterlite-webmcp: one WebMCP tool,
 * `example_notebook_stats`, and one Agent panel section that shows what the
 * tool last answered. Both go through the package's public tokens; nothing
 * here reaches into its implementation.
 *
 * The tool reads a notebook the way the extension's own tools do: resolved
 * through `registry.notebooks` with the intent `read`, so a notebook the
 * owner hid reads as missing, and only the cells the agent may see are
 * counted. The registry validates the arguments against the schema, wraps
 * the answer in the bounded result envelope, lists the call in Activity and
 * leaves the tool out when the owner turns it off in the settings.
 */
import {
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import {
  ITranslator,
  nullTranslator,
  type TranslationBundle
} from '@jupyterlab/translation';
import { DisposableSet } from '@lumino/disposable';
import { Widget } from '@lumino/widgets';
import { IAgentPanel, IWebMcpRegistry } from 'jupyterlite-webmcp';

/** What the tool answers. */
interface IStats {
  path: string;
  cells: number;
  code: number;
  markdown: number;
  raw: number;
  codeLines: number;
}

/** The Agent panel section: the last answer, in words. */
class StatsSection extends Widget {
  constructor(private readonly _trans: TranslationBundle) {
    super();
    this.id = 'example-notebook-stats';
    this.addClass('example-NotebookStats');
    this.title.label = _trans.__('Notebook stats');
    this.title.caption = _trans.__('What example_notebook_stats last answered');
    this._text = document.createElement('p');
    this._text.textContent = _trans.__('The agent has not asked yet.');
    this.node.appendChild(this._text);
  }

  showStats(stats: IStats): void {
    this._text.textContent = this._trans.__(
      '%1: %2 cells the agent may see (%3 code, %4 markdown, %5 raw), %6 lines of code.',
      stats.path,
      stats.cells,
      stats.code,
      stats.markdown,
      stats.raw,
      stats.codeLines
    );
  }

  private readonly _text: HTMLParagraphElement;
}

let added: DisposableSet | null = null;

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'jupyterlite-webmcp-example-notebook-stats:plugin',
  description:
    'Adds example_notebook_stats to the WebMCP tools and a Notebook stats section to the Agent panel.',
  autoStart: true,
  requires: [IWebMcpRegistry],
  optional: [IAgentPanel, ITranslator],
  activate: (
    app: JupyterFrontEnd,
    registry: IWebMcpRegistry,
    panel: IAgentPanel | null,
    translator: ITranslator | null
  ): void => {
    const set = new DisposableSet();
    added = set;
    const trans = (translator ?? nullTranslator).load(
      'jupyterlite_webmcp_example_notebook_stats'
    );
    const section = new StatsSection(trans);
    set.add(section);
    if (panel) {
      set.add(panel.addSection(section, { rank: 400 }));
    }
    set.add(
      registry.addTool({
        name: 'example_notebook_stats',
        // what the agent reads stays in English, as WebMCP tools' texts do
        // eslint-disable-next-line jupyter/no-untranslated-string
        title: 'Count notebook cells',
        description:
          'Count the cells of a notebook that the agent may see, by type, and the lines of code. Cells the notebook owner hid are not counted.',
        inputSchema: {
          type: 'object',
          properties: {
            notebookPath: {
              type: ['string', 'null'],
              description:
                'Workspace-relative path of the notebook. Omit or pass null for the current notebook.'
            }
          },
          additionalProperties: false
        },
        annotations: { readOnlyHint: true, untrustedContentHint: false },
        handler: async args => {
          const path =
            typeof args.notebookPath === 'string' ? args.notebookPath : null;
          const notebook = await registry.notebooks.resolve(path, 'read');
          try {
            const stats: IStats = {
              path: notebook.path,
              cells: 0,
              code: 0,
              markdown: 0,
              raw: 0,
              codeLines: 0
            };
            for (const cell of notebook.visibleCells()) {
              stats.cells++;
              if (cell.cell_type === 'code') {
                stats.code++;
                stats.codeLines += cell.source
                  .split('\n')
                  .filter(line => line.trim() !== '').length;
              } else if (cell.cell_type === 'markdown') {
                stats.markdown++;
              } else {
                stats.raw++;
              }
            }
            section.showStats(stats);
            return stats;
          } finally {
            notebook.release();
          }
        }
      })
    );
  },
  deactivate: (): void => {
    added?.dispose();
    added = null;
  }
};

export default plugin;
