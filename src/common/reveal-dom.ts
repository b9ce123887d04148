/**
 * Text an agent wrote or a notebook holds, put into the page with every
 * bidirectional control, invisible and tag character drawn as a visible
 * mark that names its code point (./invisible.ts), and the warning a block
 * or thread shows at its top when it holds any. DOM only: no JupyterLab
 * import but the translation bundle's type.
 */
import { type TranslationBundle } from '@jupyterlab/translation';

import { type IInvisibleChar, markText, splitInvisibles } from './invisible';

/** The class of a mark. */
export const MARK_CLASS = 'jp-AgentInvisible';

/** The class of the warning at the top of a block or thread. */
export const WARNING_CLASS = 'jp-AgentInvisible-warning';

/** One mark: the code point in a box, its name in the tooltip. */
export function markElement(char: IInvisibleChar): HTMLElement {
  const mark = document.createElement('span');
  mark.className = `${MARK_CLASS} jp-mod-${char.kind}`;
  mark.dataset.codePoint = char.label;
  mark.title = `${char.label} ${char.name}`;
  mark.textContent = markText(char);
  return mark;
}

/**
 * Replaces the node's content with the text, each such character marked;
 * returns how many were marked.
 */
export function fillRevealed(node: HTMLElement, text: string): number {
  node.textContent = '';
  let marked = 0;
  for (const piece of splitInvisibles(text)) {
    if (typeof piece === 'string') {
      node.appendChild(document.createTextNode(piece));
    } else {
      node.appendChild(markElement(piece));
      marked++;
    }
  }
  return marked;
}

/** The words of the warning: "3 invisible or direction-changing characters". */
export function invisibleWarningText(
  count: number,
  trans: TranslationBundle
): string {
  return trans._n(
    'Warning: %1 invisible or direction-changing character, shown marked',
    'Warning: %1 invisible or direction-changing characters, shown marked',
    count
  );
}

/** The warning a block or thread shows at its top; null for none. */
export function invisibleWarning(
  count: number,
  trans: TranslationBundle
): HTMLElement | null {
  if (count <= 0) {
    return null;
  }
  const warning = document.createElement('p');
  warning.className = WARNING_CLASS;
  warning.setAttribute('role', 'note');
  warning.textContent = invisibleWarningText(count, trans);
  return warning;
}
