import { SoonestTimer } from '../../src/common/soonest-timer';

describe('SoonestTimer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs once for a burst of requests', () => {
    const run = jest.fn();
    const timer = new SoonestTimer(run);
    for (let i = 0; i < 5; i++) {
      timer.schedule(0);
    }
    expect(timer.pending).toBe(true);
    jest.runAllTimers();
    expect(run).toHaveBeenCalledTimes(1);
    expect(timer.pending).toBe(false);
    timer.dispose();
  });

  it('keeps the sooner run when a later one is asked for', () => {
    const run = jest.fn();
    const timer = new SoonestTimer(run);
    timer.schedule(100);
    jest.advanceTimersByTime(60);
    timer.schedule(100); // does not push the run to 160
    jest.advanceTimersByTime(40);
    expect(run).toHaveBeenCalledTimes(1);
    timer.dispose();
  });

  it('moves the run earlier when a shorter delay is asked for', () => {
    const run = jest.fn();
    const timer = new SoonestTimer(run);
    timer.schedule(500);
    timer.schedule(0);
    jest.advanceTimersByTime(0);
    expect(run).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(1);
    timer.dispose();
  });

  it('runs again for a request after it ran', () => {
    const run = jest.fn();
    const timer = new SoonestTimer(run);
    timer.schedule(10);
    jest.advanceTimersByTime(10);
    timer.schedule(10);
    jest.advanceTimersByTime(10);
    expect(run).toHaveBeenCalledTimes(2);
    timer.dispose();
  });

  it('cancel drops the planned run; dispose also refuses new ones', () => {
    const run = jest.fn();
    const timer = new SoonestTimer(run);
    timer.schedule(10);
    timer.cancel();
    jest.advanceTimersByTime(20);
    expect(run).not.toHaveBeenCalled();
    timer.schedule(10);
    timer.dispose();
    timer.schedule(0);
    jest.runAllTimers();
    expect(run).not.toHaveBeenCalled();
    expect(timer.isDisposed).toBe(true);
    expect(timer.pending).toBe(false);
  });
});
