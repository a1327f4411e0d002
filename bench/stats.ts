/** Medians with their spread: every timed figure in the bench is reported this way. */
export interface Spread {
  runs: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

export function spread(samples: number[]): Spread {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return {
    runs: sorted.length,
    median: median(sorted),
    p95: at(0.95),
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
}

function median(sorted: number[]): number {
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A small seeded generator (mulberry32): the same samples give the same interval on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export interface Interval {
  low: number;
  high: number;
}

/**
 * How far the ratio of two medians could move by chance: a 95 % percentile-bootstrap interval of
 * median(numerators) / median(denominators), resampling the pairs (numerators[i], denominators[i])
 * together, as they were measured together.
 */
export function medianRatioInterval(
  numerators: number[],
  denominators: number[],
  resamples = 2000,
): Interval {
  if (numerators.length === 0 || numerators.length !== denominators.length)
    throw new Error('the interval needs pairs');
  // Seeded from the samples: the same samples give the same interval, other samples (another
  // condition) other resamples.
  const random = seeded(
    [...numerators, ...denominators].reduce(
      (hash, value) => Math.imul(hash ^ Math.round(value * 1000), 0x9e3779b1),
      numerators.length,
    ),
  );
  const ratios: number[] = [];
  const top: number[] = [];
  const bottom: number[] = [];
  for (let round = 0; round < resamples; round++) {
    top.length = 0;
    bottom.length = 0;
    for (let pick = 0; pick < numerators.length; pick++) {
      const index = Math.floor(random() * numerators.length);
      top.push(numerators[index]);
      bottom.push(denominators[index]);
    }
    ratios.push(median(top.sort((a, b) => a - b)) / median(bottom.sort((a, b) => a - b)));
  }
  return percentileInterval(ratios.sort((a, b) => a - b));
}

/** The central `level` share of values sorted ascending, as a percentile bootstrap reports it. */
export function percentileInterval(sorted: number[], level = 0.95): Interval {
  // As many values left out below as above; rounded, as (1 - 0.8) / 2 is 0.09999… in floating point.
  const cut = Math.round(((1 - level) / 2) * sorted.length);
  return { low: sorted[cut], high: sorted[sorted.length - 1 - cut] };
}

export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

export function describe(
  figure: Spread,
  unit: (value: number) => string = ms,
): Record<string, string | number> {
  return {
    runs: figure.runs,
    median: unit(figure.median),
    p95: unit(figure.p95),
    spread: `${unit(figure.min)} – ${unit(figure.max)}`,
  };
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
