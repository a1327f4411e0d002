import { describe, expect, it } from 'vitest';
import { medianRatioInterval, percentileInterval, spread } from '../../../bench/stats';

/** Paint times as Chromium reports them: 4 ms steps. */
const steps = (values: number[]) => values.map((value) => Math.round(value / 4) * 4);

/** Test data from a fixed generator (a linear congruential one), so every run sees the same samples. */
function samples(seed: number, count: number, around: number, spreadMs: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return around + (state / 2 ** 32) * spreadMs;
  });
}

describe('percentileInterval', () => {
  const ascending = Array.from({ length: 2000 }, (_, index) => index);

  it('leaves out the same share below and above', () => {
    expect(percentileInterval(ascending)).toEqual({ low: 50, high: 1949 });
    expect(percentileInterval(ascending, 0.8)).toEqual({ low: 200, high: 1799 });
  });
});

describe('medianRatioInterval', () => {
  it('is a single point when every pair measured the same', () => {
    expect(medianRatioInterval([60, 60, 60], [40, 40, 40])).toEqual({ low: 1.5, high: 1.5 });
  });

  it('holds the ratio of the medians and gives the same interval for the same samples', () => {
    const popup = steps([52, 56, 60, 60, 64, 56, 60, 72, 56, 60, 64, 60, 52, 68, 60, 56, 60, 64, 60, 56]);
    const blank = steps([36, 40, 40, 36, 44, 40, 36, 48, 40, 40, 36, 44, 32, 40, 40, 36, 44, 40, 36, 40]);
    const interval = medianRatioInterval(popup, blank);
    const ratio = spread(popup).median / spread(blank).median;
    expect(interval.low).toBeLessThanOrEqual(ratio);
    expect(interval.high).toBeGreaterThanOrEqual(ratio);
    expect(interval.high).toBeGreaterThan(interval.low);
    expect(medianRatioInterval(popup, blank)).toEqual(interval);
  });

  it('holds the ratio of the medians, low before high, on data without steps', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const popup = samples(seed, 31, 50, 25);
      const blank = samples(seed + 100, 31, 34, 15);
      const ratio = spread(popup).median / spread(blank).median;
      const { low, high } = medianRatioInterval(popup, blank);
      expect(low).toBeLessThanOrEqual(ratio);
      expect(high).toBeGreaterThanOrEqual(ratio);
      expect(high).toBeGreaterThan(low);
    }
  });

  it('gives the same interval for the same samples and another for other samples', () => {
    const popup = samples(7, 30, 50, 25);
    const blank = samples(8, 30, 34, 15);
    expect(medianRatioInterval(popup, blank)).toEqual(medianRatioInterval([...popup], [...blank]));
    expect(medianRatioInterval(popup, blank)).not.toEqual(
      medianRatioInterval(
        popup.map((time) => time + 1),
        blank,
      ),
    );
  });

  it('narrows as pairs are added', () => {
    const popup = steps([52, 56, 60, 64, 68, 56, 60, 64, 60, 56]);
    const blank = steps([32, 36, 40, 44, 48, 40, 36, 44, 40, 36]);
    const width = ({ low, high }: { low: number; high: number }) => high - low;
    const repeat = (values: number[], times: number) => Array.from({ length: times }, () => values).flat();
    expect(width(medianRatioInterval(repeat(popup, 8), repeat(blank, 8)))).toBeLessThan(
      width(medianRatioInterval(popup, blank)),
    );
  });

  it('resamples pairs together, not each side alone', () => {
    // Each popup time is its blank time plus 20 ms, so a resample of pairs has a popup median of
    // its blank median m plus 20: a ratio (m + 20) / m between 78/58 and 50/30. Sides resampled
    // apart would pair a low popup median with a high blank one, below 78/58.
    const blank = [30, 34, 38, 42, 46, 50, 54, 58];
    const popup = blank.map((time) => time + 20);
    const { low, high } = medianRatioInterval(popup, blank);
    expect(low).toBeGreaterThanOrEqual(78 / 58 - 1e-9);
    expect(high).toBeLessThanOrEqual(50 / 30 + 1e-9);
    expect(high).toBeGreaterThan(low);
  });

  it('refuses samples that are not pairs', () => {
    expect(() => medianRatioInterval([60, 64], [40])).toThrow();
    expect(() => medianRatioInterval([], [])).toThrow();
  });
});
