/**
 * A notebook as the output-selection tracker meets it: a real `YNotebook`
 * for the cells and their outputs, and the DOM JupyterLab renders for it,
 * laid out as `@jupyterlab/notebook` and `@jupyterlab/outputarea` do (each
 * output a `.jp-OutputArea-child` holding a `.jp-OutputArea-prompt` and a
 * `.jp-OutputArea-output`, then the area's prompt overlay).
 *
 * The widgets themselves are stood in for by the few properties the tracker
 * reads: this repository's jest configuration does not transform the ES
 * modules of `@jupyterlab/*`, so their widgets cannot be built here. The
 * browser test (ui-tests/tests/output-selection.spec.ts) covers the real ones.
 */
import { YNotebook, type ISharedCell, type YCodeCell } from '@jupyter/ydoc';
import type * as nbformat from '@jupyterlab/nbformat';
import type { INotebookTracker } from '@jupyterlab/notebook';

/** A cell of the test notebook. */
export type CellSpec =
  | { cell_type: 'code'; source: string; outputs: nbformat.IOutput[] }
  | { cell_type: 'markdown'; source: string };

/** The stand-in of a code cell's output area widget. */
export interface IAreaStub {
  node: HTMLElement;
  isDisposed: boolean;
  maxNumberOutputs: number;
}

/** The stand-in of a cell widget. */
export interface ICellStub {
  node: HTMLElement;
  model: {
    readonly id: string;
    readonly type: string;
    readonly outputs: {
      readonly length: number;
      get(index: number): { toJSON(): nbformat.IOutput };
    };
  };
  outputArea?: IAreaStub;
}

/** The stand-in of a notebook panel. */
export interface IPanelStub {
  id: string;
  node: HTMLElement;
  isDisposed: boolean;
  content: { node: HTMLElement; widgets: ICellStub[] };
  context: { localPath: string; path: string };
}

/** A rendered test notebook. */
export interface ITestNotebook {
  path: string;
  model: YNotebook;
  panel: IPanelStub;
  /** The rendered output elements (`.jp-OutputArea-output`) of a cell. */
  outputs(cell: number): HTMLElement[];
  /** The output prompts of a cell. */
  prompts(cell: number): HTMLElement[];
  cell(index: number): ICellStub;
  dispose(): void;
}

/** A notebook tracker over stand-in panels. */
export class TrackerStub {
  panels: IPanelStub[] = [];

  find(fn: (panel: IPanelStub) => boolean): IPanelStub | undefined {
    return this.panels.find(fn);
  }

  /** Typed as what the tracker under test takes. */
  get asTracker(): INotebookTracker {
    return this as unknown as INotebookTracker;
  }
}

/** The text an output renders (what the text renderers put in a `<pre>`). */
export function renderedText(output: nbformat.IOutput): string {
  const record = output as Record<string, unknown>;
  const join = (value: unknown) =>
    Array.isArray(value) ? value.join('') : String(value ?? '');
  switch (output.output_type) {
    case 'stream':
      return join(record.text);
    case 'error':
      return join(record.traceback ?? []);
    default: {
      const data = (record.data ?? {}) as Record<string, unknown>;
      return join(data['text/plain']);
    }
  }
}

function element(tag: string, className: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

/** One `.jp-OutputArea-child`, as OutputArea wraps a rendered output. */
export function outputChild(
  output: nbformat.IOutput,
  executionCount: number | null = null
): HTMLElement {
  const child = element('div', 'lm-Widget lm-Panel jp-OutputArea-child');
  if (output.output_type === 'execute_result') {
    child.classList.add('jp-OutputArea-executeResult');
  }
  child.appendChild(
    element(
      'div',
      'lm-Widget jp-OutputPrompt jp-OutputArea-prompt',
      executionCount === null ? '' : `[${executionCount}]:`
    )
  );
  const rendered = element(
    'div',
    'lm-Widget jp-RenderedText jp-OutputArea-output'
  );
  rendered.appendChild(element('pre', '', renderedText(output)));
  child.appendChild(rendered);
  return child;
}

function codeCellStub(cell: YCodeCell, index: number): ICellStub {
  const node = element('div', 'lm-Widget jp-Cell jp-CodeCell');
  node.dataset.windowedListIndex = `${index}`;
  const input = element('div', 'lm-Widget jp-Cell-inputWrapper');
  const inputArea = element('div', 'lm-Widget jp-InputArea jp-Cell-inputArea');
  inputArea.appendChild(
    element('div', 'lm-Widget jp-InputPrompt jp-InputArea-prompt', '[1]:')
  );
  const editor = element('div', 'lm-Widget jp-InputArea-editor');
  const content = element('div', 'cm-content', cell.getSource());
  content.setAttribute('contenteditable', 'true');
  editor.appendChild(content);
  inputArea.appendChild(editor);
  input.appendChild(inputArea);
  node.appendChild(input);

  const wrapper = element('div', 'lm-Widget jp-Cell-outputWrapper');
  const area = element('div', 'lm-Widget jp-OutputArea jp-Cell-outputArea');
  for (const output of cell.getOutputs()) {
    const count =
      output.output_type === 'execute_result'
        ? ((output as nbformat.IExecuteResult).execution_count ?? null)
        : null;
    area.appendChild(outputChild(output, count));
  }
  area.appendChild(element('div', 'jp-OutputArea-promptOverlay'));
  wrapper.appendChild(area);
  node.appendChild(wrapper);
  return {
    node,
    model: {
      get id() {
        return cell.id;
      },
      type: 'code',
      outputs: {
        get length() {
          return cell.getOutputs().length;
        },
        get: (i: number) => ({ toJSON: () => cell.getOutputs()[i] })
      }
    },
    outputArea: { node: area, isDisposed: false, maxNumberOutputs: Infinity }
  };
}

function markdownCellStub(cell: ISharedCell, index: number): ICellStub {
  const node = element('div', 'lm-Widget jp-Cell jp-MarkdownCell');
  node.dataset.windowedListIndex = `${index}`;
  const rendered = element('div', 'lm-Widget jp-RenderedMarkdown');
  rendered.appendChild(
    element('h1', '', cell.getSource().replace(/^#\s*/, ''))
  );
  node.appendChild(rendered);
  return {
    node,
    model: {
      get id() {
        return cell.id;
      },
      type: 'markdown',
      outputs: {
        length: 0,
        get: () => {
          throw new Error('a markdown cell has no outputs');
        }
      }
    }
  };
}

let counter = 0;

/** Builds a notebook, renders it into document.body and adds it to `tracker`. */
export function renderNotebook(
  tracker: TrackerStub,
  cells: CellSpec[],
  path = `dir/notebook-${++counter}.ipynb`
): ITestNotebook {
  const model = YNotebook.create();
  model.insertCells(
    0,
    cells.map(cell =>
      cell.cell_type === 'code'
        ? { cell_type: 'code', source: cell.source, outputs: cell.outputs }
        : { cell_type: 'markdown', source: cell.source }
    )
  );
  const node = element('div', 'lm-Widget jp-NotebookPanel');
  const notebookNode = element('div', 'lm-Widget jp-Notebook');
  const viewport = element('div', 'jp-WindowedPanel-viewport');
  notebookNode.appendChild(viewport);
  node.appendChild(notebookNode);
  const widgets = model.cells.map((cell, index) =>
    cell.cell_type === 'code'
      ? codeCellStub(cell as YCodeCell, index)
      : markdownCellStub(cell, index)
  );
  for (const widget of widgets) {
    viewport.appendChild(widget.node);
  }
  document.body.appendChild(node);
  const panel: IPanelStub = {
    id: `panel-${counter}`,
    node,
    isDisposed: false,
    content: { node: notebookNode, widgets },
    context: { localPath: path, path }
  };
  tracker.panels.push(panel);
  const area = (index: number) => widgets[index].outputArea!.node;
  return {
    path,
    model,
    panel,
    outputs: index => [
      ...area(index).querySelectorAll<HTMLElement>('.jp-OutputArea-output')
    ],
    prompts: index => [
      ...area(index).querySelectorAll<HTMLElement>('.jp-OutputArea-prompt')
    ],
    cell: index => widgets[index],
    dispose: () => {
      panel.isDisposed = true;
      tracker.panels = tracker.panels.filter(p => p !== panel);
      node.remove();
      model.dispose();
    }
  };
}

/** The first text node under `node`. */
export function firstText(node: Node): Text {
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const text = walker.nextNode();
  if (!text) {
    throw new Error('no text under the node');
  }
  return text as Text;
}

/**
 * Selects from (anchor, anchorOffset) to (focus, focusOffset) as a drag
 * does, and dispatches the document's `selectionchange`.
 */
export function select(
  anchor: Node,
  anchorOffset: number,
  focus: Node,
  focusOffset: number
): void {
  document
    .getSelection()!
    .setBaseAndExtent(anchor, anchorOffset, focus, focusOffset);
  document.dispatchEvent(new Event('selectionchange'));
}

/** Selects characters start–end of the first text under `node`. */
export function selectIn(node: Node, start: number, end: number): void {
  const text = firstText(node);
  select(text, start, text, end);
}

/** Collapses the selection (a click), and dispatches `selectionchange`. */
export function collapse(node: Node, offset = 0): void {
  document.getSelection()!.collapse(node, offset);
  document.dispatchEvent(new Event('selectionchange'));
}
