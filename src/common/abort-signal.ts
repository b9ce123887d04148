/**
 * The caller's abort signal as one of this page's own. WebMCP hands
 * `execute` the invocation's signal, but a caller in another realm (an
 * extension's isolated world, an iframe, a polyfill) passes a signal that is
 * not an `instanceof` this realm's `AbortSignal`. Any object that behaves as
 * a signal (a boolean `aborted` and `addEventListener`) is followed: its
 * abort, with its reason, aborts the returned signal. Anything else gives a
 * signal that never fires. Pure: no app import.
 */

/** The part of a signal this module relies on, from whatever realm. */
interface ISignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(
    type: 'abort',
    listener: () => void,
    options?: { once?: boolean }
  ): void;
}

function isSignalLike(value: unknown): value is ISignalLike {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const candidate = value as Partial<Record<keyof ISignalLike, unknown>>;
  return (
    typeof candidate.aborted === 'boolean' &&
    typeof candidate.addEventListener === 'function'
  );
}

/** A signal of this realm that fires when `candidate` does (or never). */
export function ownSignal(candidate: unknown): AbortSignal {
  if (candidate instanceof AbortSignal) {
    return candidate;
  }
  const controller = new AbortController();
  if (!isSignalLike(candidate)) {
    return controller.signal;
  }
  if (candidate.aborted) {
    controller.abort(candidate.reason);
    return controller.signal;
  }
  try {
    candidate.addEventListener(
      'abort',
      () => controller.abort(candidate.reason),
      {
        once: true
      }
    );
  } catch {
    // a look-alike whose listener cannot be added: it cannot abort the call
  }
  return controller.signal;
}
