/**
 * Where decorations go in a cell's DOM: the access markers and the review
 * badges live in the cell's input wrapper, which survives windowing (a cell
 * scrolled out of view has its input wrapper detached with its subtree, and
 * re-attached as it was).
 */
import type { Cell } from '@jupyterlab/cells';
import type { PanelLayout } from '@lumino/widgets';

/** The class of a cell's input wrapper. */
const INPUT_WRAPPER_CLASS = 'jp-Cell-inputWrapper';

/**
 * The node of a cell's input wrapper, from the cell's layout: in a windowed
 * notebook a code cell out of view keeps only its outputs in the page, and
 * its input wrapper (decorations included) is put back as it was when it
 * returns. Null for a placeholder cell not rendered yet.
 */
export function inputWrapper(cell: Cell): HTMLElement | null {
  const layout = cell.layout as PanelLayout | null;
  const wrapper = layout?.widgets.find(child =>
    child.hasClass(INPUT_WRAPPER_CLASS)
  );
  return wrapper?.node ?? null;
}

/** The first child of `node` with class `name`, if any. */
export function childWithClass(
  node: HTMLElement,
  name: string
): HTMLElement | null {
  for (const child of Array.from(node.children)) {
    if (child.classList.contains(name)) {
      return child as HTMLElement;
    }
  }
  return null;
}
