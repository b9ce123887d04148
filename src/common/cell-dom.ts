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

/** Where a cell's decoration goes, and the decoration there already. */
export interface IDecorationPlace {
  /** The cell's input wrapper. */
  host: HTMLElement;
  /** Its child with the decoration's class; null when there is none yet. */
  node: HTMLElement | null;
}

/**
 * One kind of decoration (a class name) in the input wrappers of a
 * notebook's cells, as the access markers and the review badges place
 * theirs. Under windowing a cell may be a placeholder whose input wrapper is
 * not rendered yet: the decoration is then placed once it renders, by
 * calling `render` again, waiting once per cell widget.
 */
export class InputDecorations {
  constructor(className: string, render: (cell: Cell) => void) {
    this._className = className;
    this._render = render;
  }

  /**
   * Where `cell`'s decoration goes. When it is not `wanted` the one there
   * is removed, and null returned; null too while the cell is a placeholder
   * (`render` is called for it once it renders).
   */
  place(cell: Cell, wanted: boolean): IDecorationPlace | null {
    const host = inputWrapper(cell);
    const node = host ? childWithClass(host, this._className) : null;
    if (!wanted) {
      node?.remove();
      return null;
    }
    if (!host) {
      if (cell.isPlaceholder() && !this._pending.has(cell)) {
        this._pending.add(cell);
        void cell.ready.then(() => this._render(cell));
      }
      return null;
    }
    return { host, node };
  }

  private readonly _className: string;
  private readonly _render: (cell: Cell) => void;
  private readonly _pending = new WeakSet<Cell>();
}
