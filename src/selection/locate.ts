/**
 * Where a DOM selection lies in a notebook: which rendered output of which
 * cell of which tracked notebook panel, read from the DOM as
 * `@jupyterlab/outputarea` lays an output area out (each output a
 * `.jp-OutputArea-child` holding a `.jp-OutputArea-prompt` and a
 * `.jp-OutputArea-output`; stdin boxes and the "outputs trimmed" notice are
 * children too, but no outputs). Only the elements between the selection and
 * its cell are read, never every cell.
 */
import type { Cell, CodeCell } from '@jupyterlab/cells';
import type {
  INotebookTracker,
  Notebook,
  NotebookPanel
} from '@jupyterlab/notebook';

/** The classes @jupyterlab/outputarea lays an output area out with. */
const OUTPUT_CHILD_CLASS = 'jp-OutputArea-child';
const OUTPUT_CLASS = 'jp-OutputArea-output';
const STDIN_ITEM_CLASS = 'jp-OutputArea-stdin-item';
const CELL_CLASS = 'jp-Cell';

/** Elements whose text is being edited, not read. */
const EDITABLE_SELECTOR =
  'input, textarea, select, [contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]';

/** One rendered output of a cell's own output area. */
export interface IOutputLocation {
  panel: NotebookPanel;
  cell: Cell;
  outputIndex: number;
  /** The `.jp-OutputArea-output` element. */
  node: HTMLElement;
}

/**
 * The output a range selects text in, and the range clipped to it; null
 * when the range selects text anywhere else.
 *
 * Usually the range lies wholly inside the output. A triple click, or a
 * drag released just past the output, can also leave an end of the range
 * outside it (at the start of the next cell, say) without selecting any
 * text there: such an end is clipped to the output. An end past any other
 * text (a prompt, another output, another cell) disqualifies the range.
 */
export function selectedOutput(
  range: Range,
  tracker: INotebookTracker
): { location: IOutputLocation; range: Range } | null {
  if (range.collapsed) {
    return null;
  }
  const common = elementOf(range.commonAncestorContainer);
  const whole = common ? locateOutput(common, tracker) : null;
  if (whole) {
    return { location: whole, range };
  }
  for (const container of [range.startContainer, range.endContainer]) {
    const element = elementOf(container);
    const location = element ? locateOutput(element, tracker) : null;
    if (!location || selectsTextOutside(location.node, range)) {
      continue;
    }
    const output = location.node;
    const clipped = range.cloneRange();
    if (!output.contains(range.startContainer)) {
      clipped.setStart(output, 0);
    }
    if (!output.contains(range.endContainer)) {
      clipped.setEnd(output, output.childNodes.length);
    }
    return { location, range: clipped };
  }
  return null;
}

/**
 * Whether `range` selects any text (other than white space) outside
 * `output`. Walks only the text between the output and each end of the
 * range that lies outside it, and stops at the first text found.
 */
function selectsTextOutside(output: Element, range: Range): boolean {
  const root = range.commonAncestorContainer;
  const walker = output.ownerDocument.createTreeWalker(
    root,
    NodeFilter.SHOW_TEXT
  );
  if (!output.contains(range.startContainer)) {
    walker.currentNode = output;
    for (
      let node = walker.previousNode() as Text | null;
      node && range.comparePoint(node, node.length) >= 0;
      node = walker.previousNode() as Text | null
    ) {
      const data =
        node === range.startContainer
          ? node.data.slice(range.startOffset)
          : node.data;
      if (data.trim() !== '') {
        return true;
      }
    }
  }
  if (!output.contains(range.endContainer)) {
    let last: Node = output;
    while (last.lastChild) {
      last = last.lastChild;
    }
    walker.currentNode = last;
    for (
      let node = walker.nextNode() as Text | null;
      node && range.comparePoint(node, 0) <= 0;
      node = walker.nextNode() as Text | null
    ) {
      const data =
        node === range.endContainer
          ? node.data.slice(0, range.endOffset)
          : node.data;
      if (data.trim() !== '') {
        return true;
      }
    }
  }
  return false;
}

/** The element a boundary container is, or is in. */
function elementOf(node: Node): Element | null {
  return node.nodeType === Node.ELEMENT_NODE
    ? (node as Element)
    : node.parentElement;
}

/**
 * The output `element` lies in, or null when it is not wholly inside one
 * output of a cell's own output area: outside every tracked notebook, in a
 * cell's input or prompt, spanning outputs, cells or an output's prompt
 * (the common ancestor is then above the output element), in a stdin box,
 * in the "outputs trimmed" notice, or inside an editable element.
 */
function locateOutput(
  element: Element,
  tracker: INotebookTracker
): IOutputLocation | null {
  const panel = tracker.find(
    candidate => !candidate.isDisposed && candidate.node.contains(element)
  );
  if (!panel) {
    return null;
  }
  const cell = cellContaining(panel.content, element);
  if (!cell || cell.model.type !== 'code') {
    return null;
  }
  const area = (cell as CodeCell).outputArea;
  if (!area || area.isDisposed) {
    return null;
  }
  // Walk up to the child of the cell's own output area. Starting from the
  // innermost element and stopping at the first level whose grandparent
  // is the area maps a selection inside a nested output area (an output
  // that renders outputs, such as an Output widget) to the outer output.
  let node: Element | null = element;
  let output: Element | null = null;
  let child: Element | null = null;
  while (node && node !== cell.node) {
    const parent: Element | null = node.parentElement;
    if (parent && parent.parentElement === area.node) {
      output = node;
      child = parent;
      break;
    }
    node = parent;
  }
  if (
    !output ||
    !child ||
    !(output instanceof HTMLElement) ||
    !output.classList.contains(OUTPUT_CLASS) ||
    !child.classList.contains(OUTPUT_CHILD_CLASS) ||
    child.classList.contains(STDIN_ITEM_CLASS)
  ) {
    return null;
  }
  const editable = element.closest(EDITABLE_SELECTOR);
  if (editable && output.contains(editable)) {
    return null;
  }
  // The area's children map to the model's outputs by index, except the
  // stdin boxes (appended while a kernel waits for input) and the notice
  // shown in place of the outputs past `maxNumberOutputs`.
  let outputIndex = 0;
  for (
    let sibling = child.previousElementSibling;
    sibling;
    sibling = sibling.previousElementSibling
  ) {
    if (
      sibling.classList.contains(OUTPUT_CHILD_CLASS) &&
      !sibling.classList.contains(STDIN_ITEM_CLASS)
    ) {
      outputIndex++;
    }
  }
  if (outputIndex >= area.maxNumberOutputs) {
    return null;
  }
  return { panel, cell, outputIndex, node: output };
}

/**
 * The notebook's cell widget whose node holds `element`. Walks up from the
 * element and matches each `.jp-Cell` by the windowed list index the
 * notebook stamps on it (checked, since it can lag), falling back to an
 * identity search of the cell widgets: no cell's DOM is read.
 */
function cellContaining(notebook: Notebook, element: Element): Cell | null {
  const widgets = notebook.widgets;
  for (
    let node: Element | null = element;
    node && node !== notebook.node;
    node = node.parentElement
  ) {
    if (
      !(node instanceof HTMLElement) ||
      !node.classList.contains(CELL_CLASS)
    ) {
      continue;
    }
    const hint: number = Number(node.dataset.windowedListIndex);
    const hinted: Cell | undefined = Number.isInteger(hint)
      ? widgets[hint]
      : undefined;
    if (hinted && hinted.node === node) {
      return hinted;
    }
    const found = widgets.find(widget => widget.node === node);
    if (found) {
      return found;
    }
  }
  return null;
}

/** Where the range starts in the output element's `textContent`. */
export function textOffset(output: HTMLElement, range: Range): number {
  const before = range.cloneRange();
  before.setStart(output, 0);
  before.setEnd(range.startContainer, range.startOffset);
  return before.toString().length;
}
