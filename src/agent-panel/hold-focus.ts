/**
 * Moving the keyboard focus to something the person asked for, and keeping
 * it there while the app settles. A command run from the palette is followed
 * by the palette giving the focus back to the widget that had it (the
 * notebook), a frame or two later: a composer or thread the command brought
 * up would lose it at once. So the focus is held for a moment: moved back
 * when something else takes it, until the person presses a key or a pointer
 * button anywhere (their own move always wins) or `ms` pass.
 */

/** How long the focus is held by default. */
export const HOLD_FOCUS_MS = 1000;

/**
 * Focuses `element` and holds the focus inside `within` (default: the
 * element) for `ms`; returns a function that stops holding early.
 */
export function holdFocus(
  element: HTMLElement,
  options: { within?: HTMLElement; ms?: number } = {}
): () => void {
  const within = options.within ?? element;
  const doc = element.ownerDocument;
  let done = false;
  const stop = () => {
    if (done) {
      return;
    }
    done = true;
    clearTimeout(timer);
    doc.removeEventListener('focusin', onFocusIn, true);
    doc.removeEventListener('keydown', stop, true);
    doc.removeEventListener('pointerdown', stop, true);
  };
  const onFocusIn = (event: FocusEvent) => {
    const target = event.target as Node | null;
    if (!element.isConnected) {
      stop();
    } else if (!target || !within.contains(target)) {
      element.focus();
    }
  };
  doc.addEventListener('focusin', onFocusIn, true);
  doc.addEventListener('keydown', stop, true);
  doc.addEventListener('pointerdown', stop, true);
  const timer = setTimeout(stop, options.ms ?? HOLD_FOCUS_MS);
  element.focus();
  return stop;
}
