/**
 * The chart's axes: a few round percentages of return up the side and a few dates along the
 * bottom, chosen from the drawn range alone. Pure, and bounded: at most MAX_TICKS of each.
 */

const MAX_TICKS = 8;

/** A round step of return (1, 2 or 5 times a power of ten) giving about `target` ticks over `span`. */
function niceStep(span: number, target: number): number {
  const raw = span / Math.max(1, target - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  // The geometric midpoints between 1, 2, 5 and 10, as d3's ticks use: the step nearest the target.
  const factor = norm >= Math.sqrt(50) ? 10 : norm >= Math.sqrt(10) ? 5 : norm >= Math.SQRT2 ? 2 : 1;
  return factor * magnitude;
}

/** The decimals a percentage needs to show every multiple of `step` (a fraction) exactly: 0.005 → 1 ("0.5%"). */
function percentDigits(step: number): number {
  let digits = 0;
  while (digits < 3) {
    const scaled = step * 100 * 10 ** digits;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6) break;
    digits++;
  }
  return digits;
}

/**
 * Round returns (fractions) inside the drawn range of growth of 1 (`min`…`max`), about `target` of
 * them, with 0 among them whenever the range crosses it; and the decimals their labels need.
 */
export function returnTicks(min: number, max: number, target = 5): { ticks: number[]; digits: number } {
  const [low, high] = [min - 1, max - 1];
  if (!Number.isFinite(low) || !Number.isFinite(high) || !(high > low)) return { ticks: [], digits: 0 };
  let step = niceStep(high - low, target);
  // Rounding can leave one more tick than asked for: widen the step until the count is bounded.
  while ((high - low) / step + 1 > MAX_TICKS) step *= 2;
  const ticks: number[] = [];
  for (let k = Math.ceil(low / step - 1e-9); k * step <= high + step * 1e-9 && ticks.length < MAX_TICKS; k++)
    ticks.push(Number((k * step).toPrecision(12)) || 0);
  return { ticks, digits: percentDigits(step) };
}

/** Indexes of `count` dates to label, evenly spread from the first to the last, at most `target`. */
export function dateTickIndexes(count: number, target = 4): number[] {
  if (count <= 0) return [];
  const n = Math.max(1, Math.min(target, count, MAX_TICKS));
  if (n === 1) return [0];
  const indexes = new Set<number>();
  for (let i = 0; i < n; i++) indexes.add(Math.round((i * (count - 1)) / (n - 1)));
  return [...indexes];
}

const DAY_MS = 86_400_000;

/** Whether dates `first`…`last` (YYYY-MM-DD) span long enough for month-and-year labels ("Jan 2022") rather than days. */
export function spansMonths(first: string, last: string): boolean {
  const span = Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`);
  return Number.isFinite(span) && span >= 120 * DAY_MS;
}
