// The load benchmark's interval of a ratio of medians (ui-tests/bench/stats.ts).
import { median, ratioInterval } from '../../ui-tests/bench/stats';

describe('ratioInterval', () => {
  const loads = (base: number, n: number, spread: number) =>
    Array.from({ length: n }, (_, i) => base + ((i * 37) % spread));

  it('holds the ratio of the medians, and is the same for the same loads', () => {
    const a = loads(1_650, 20, 80);
    const b = loads(1_600, 20, 80);
    const [low, high] = ratioInterval(a, b);
    const ratio = median(a) / median(b);
    expect(low).toBeLessThanOrEqual(ratio);
    expect(high).toBeGreaterThanOrEqual(ratio);
    expect(low).toBeLessThan(high);
    expect(ratioInterval(a, b)).toEqual([low, high]);
  });

  it('narrows as the loads get more alike and more numerous', () => {
    const wide = ratioInterval(loads(1_650, 20, 200), loads(1_600, 20, 200));
    const narrow = ratioInterval(loads(1_650, 20, 20), loads(1_600, 20, 20));
    const more = ratioInterval(loads(1_650, 200, 200), loads(1_600, 200, 200));
    const width = ([low, high]: [number, number]) => high - low;
    expect(width(narrow)).toBeLessThan(width(wide));
    expect(width(more)).toBeLessThan(width(wide));
  });

  it('is a single point when every load took the same time', () => {
    expect(ratioInterval([1_100, 1_100, 1_100], [1_000, 1_000])).toEqual([
      1.1, 1.1
    ]);
  });
});
