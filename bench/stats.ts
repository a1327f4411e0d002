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
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { runs: sorted.length, median, p95: at(0.95), min: sorted[0], max: sorted[sorted.length - 1] };
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
