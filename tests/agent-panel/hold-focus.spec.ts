import { holdFocus } from '../../src/agent-panel/hold-focus';

describe('holdFocus', () => {
  let target: HTMLTextAreaElement;
  let other: HTMLButtonElement;

  beforeEach(() => {
    jest.useFakeTimers();
    target = document.createElement('textarea');
    other = document.createElement('button');
    document.body.append(target, other);
  });

  afterEach(() => {
    jest.useRealTimers();
    target.remove();
    other.remove();
  });

  it('takes the focus back from a programmatic move, for a while', () => {
    holdFocus(target, { ms: 500 });
    expect(document.activeElement).toBe(target);
    other.focus();
    expect(document.activeElement).toBe(target);
    jest.advanceTimersByTime(600);
    other.focus();
    expect(document.activeElement).toBe(other);
  });

  it('lets the person move it: a key or a pointer press ends the hold', () => {
    holdFocus(target);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    other.focus();
    expect(document.activeElement).toBe(other);
    holdFocus(target);
    document.dispatchEvent(new Event('pointerdown'));
    other.focus();
    expect(document.activeElement).toBe(other);
  });

  it('stops when asked, and keeps focus moves inside `within`', () => {
    const form = document.createElement('form');
    const inner = document.createElement('input');
    const field = document.createElement('textarea');
    form.append(field, inner);
    document.body.append(form);
    const stop = holdFocus(field, { within: form });
    inner.focus();
    expect(document.activeElement).toBe(inner);
    stop();
    other.focus();
    expect(document.activeElement).toBe(other);
    form.remove();
  });
});
