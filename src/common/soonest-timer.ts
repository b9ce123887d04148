import type { IDisposable } from '@lumino/disposable';

/**
 * One pending run of a callback, at the soonest delay asked for since it last
 * ran. Asking again with the same or a longer delay keeps the run already
 * planned; asking with a shorter one moves it earlier. The panel's models and
 * the status item batch their repaints with it, so a burst of changes paints
 * once, and a change that must show at once is not held behind a settle delay.
 *
 * (A debounce from a library would push the run later on every request; here
 * a later request never delays an earlier one.)
 */
export class SoonestTimer implements IDisposable {
  constructor(run: () => void) {
    this._run = run;
  }

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  /** Whether a run is planned. */
  get pending(): boolean {
    return this._timer !== null;
  }

  /** Run after `delay` ms, unless a run is already planned as soon or sooner. */
  schedule(delay: number): void {
    if (this._isDisposed) {
      return;
    }
    if (this._timer !== null && delay >= this._delay) {
      return;
    }
    this.cancel();
    this._delay = delay;
    this._timer = setTimeout(() => {
      this._timer = null;
      this._run();
    }, delay);
  }

  /** Drop the planned run, if any. */
  cancel(): void {
    if (this._timer !== null) {
      clearTimeout(this._timer);
      this._timer = null;
    }
  }

  dispose(): void {
    this.cancel();
    this._isDisposed = true;
  }

  private readonly _run: () => void;
  private _timer: ReturnType<typeof setTimeout> | null = null;
  private _delay = 0;
  private _isDisposed = false;
}
