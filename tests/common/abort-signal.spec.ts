import { ownSignal } from '../../src/common/abort-signal';

/** A signal of another realm, as an iframe or an isolated world hands one. */
function foreignController(): AbortController {
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  const realm = frame.contentWindow as unknown as {
    AbortController: typeof AbortController;
  };
  return new realm.AbortController();
}

/** A look-alike: no AbortSignal at all, only what a signal does. */
function lookAlike(): { signal: object; abort(reason?: unknown): void } {
  const target = new EventTarget();
  const state = { aborted: false, reason: undefined as unknown };
  const signal = {
    get aborted() {
      return state.aborted;
    },
    get reason() {
      return state.reason;
    },
    addEventListener: target.addEventListener.bind(target)
  };
  return {
    signal,
    abort(reason?: unknown) {
      state.aborted = true;
      state.reason = reason;
      target.dispatchEvent(new Event('abort'));
    }
  };
}

describe('ownSignal', () => {
  it('keeps a signal of this realm as it is', () => {
    const controller = new AbortController();
    expect(ownSignal(controller.signal)).toBe(controller.signal);
  });

  it('follows a signal of another realm, with its reason', () => {
    const foreign = foreignController();
    expect(foreign.signal instanceof AbortSignal).toBe(false);
    const signal = ownSignal(foreign.signal);
    expect(signal.aborted).toBe(false);
    const heard = jest.fn();
    signal.addEventListener('abort', heard);
    foreign.abort('gave up');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('gave up');
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it('is aborted at once for a foreign signal that already fired', () => {
    const foreign = foreignController();
    foreign.abort('before');
    const signal = ownSignal(foreign.signal);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('before');
  });

  it('follows any object that behaves as a signal', () => {
    const like = lookAlike();
    const signal = ownSignal(like.signal);
    expect(signal.aborted).toBe(false);
    like.abort();
    expect(signal.aborted).toBe(true);
  });

  it.each([
    undefined,
    null,
    42,
    'abort',
    {},
    { aborted: 'yes' },
    { aborted: false }
  ])('gives a signal that never fires for %p', value => {
    const signal = ownSignal(value);
    expect(signal instanceof AbortSignal).toBe(true);
    expect(signal.aborted).toBe(false);
  });
});
