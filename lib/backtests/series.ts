/**
 * Equity series as the chart draws them: checked (a malformed series becomes a message, never a
 * broken chart), compared over their shared period (rebased to 1.0 on its first date, with the
 * figures worked out there), and scaled into a viewBox.
 * Pure functions, linear in the number of points.
 */
import { t } from '@/lib/i18n';
import { fieldProblemText } from '@/lib/i18n/problems';
import { equitySeriesSchema, type Backtest, type EquityPoint } from '@/lib/contract/backtest';

export type SeriesCheck = { ok: true; points: EquityPoint[] } | { ok: false; message: string };

/** The equity of a completed backtest, or why it cannot be drawn. */
export function checkSeries(equity: unknown): SeriesCheck {
  if (equity === undefined) return { ok: false, message: t('backtests.noSeries') };
  const parsed = equitySeriesSchema.safeParse(equity);
  if (parsed.success) return { ok: true, points: parsed.data };
  const issue = parsed.error.issues[0];
  // Worded from the issue's code in the UI language, never with zod's English.
  const reason = issue ? fieldProblemText(issue) : t('errors.field.shape');
  return {
    ok: false,
    message:
      issue && issue.path.length > 0
        ? t('backtests.malformedAt', { point: String(issue.path[0]), reason })
        : t('backtests.malformed', { reason }),
  };
}

/** One curve of a comparison over the shared period: rebased to 1.0 on its first date, and its figures there. */
export interface ComparedSeries {
  label: string;
  points: { date: string; value: number }[];
  /** Over the shared period, as fractions: growth at its end − 1, the benchmark's likewise, the worst fall from a peak. */
  totalReturn: number;
  benchmarkReturn: number;
  maxDrawdown: number;
}

/** The dates every compared series covers: the latest first date to the earliest last date. */
export interface SharedPeriod {
  start: string;
  end: string;
}

/**
 * The one rule for every number the chart draws, rebased or not: a growth of 1.0 that is finite
 * and in (0, MAX_DRAWN_GROWTH]. The schema holds raw values to (0, 10,000], but rebasing divides by
 * a base that may be as small as 5e-324: a ratio can overflow to Infinity or underflow to 0, and one
 * such value stretches the common scale until every curve, the honest ones too, is NaN. So a series
 * with any rebased value outside the range is refused whole (a message for that series; the others
 * still draw), never clipped: a clipped curve would be another curve. ×1,000,000 is far beyond any
 * real backtest (the schema's raw bound is ×10,000) and keeps the scale's span, and so every
 * coordinate, finite. Values of 5e-324 are drawn (at the bottom) as long as their ratio is in range.
 */
export const MAX_DRAWN_GROWTH = 1_000_000;

export function isDrawnValue(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_DRAWN_GROWTH;
}

/** The shared period of non-empty series (dates ascending), or undefined when they have no date in common. */
export function sharedPeriod(
  series: readonly { points: readonly EquityPoint[] }[],
): SharedPeriod | undefined {
  if (series.length === 0) return undefined;
  let start = '';
  let end = '\uffff';
  for (const { points } of series) {
    if (points.length === 0) return undefined;
    if (points[0].date > start) start = points[0].date;
    if (points[points.length - 1].date < end) end = points[points.length - 1].date;
  }
  return start <= end ? { start, end } : undefined;
}

/** The index of the last point on or before `date` (-1 if none), searching forward from `from`. */
function lastOnOrBefore(points: readonly EquityPoint[], date: string, from = 0): number {
  let index = from - 1;
  while (index + 1 < points.length && points[index + 1].date <= date) index++;
  return index;
}

/**
 * One series over `period`: rebased to 1.0 on `period.start` (its last value on or before it is the
 * base), cut after `period.end`, with its return, benchmark return and max drawdown there. Undefined
 * if any rebased value leaves the drawn range (see MAX_DRAWN_GROWTH). One pass over the points.
 */
function overPeriod(
  series: { label: string; points: readonly EquityPoint[] },
  period: SharedPeriod,
): ComparedSeries | undefined {
  const { points } = series;
  const baseIndex = lastOnOrBefore(points, period.start);
  if (baseIndex < 0) return undefined;
  const endIndex = lastOnOrBefore(points, period.end, baseIndex + 1);
  const base = points[baseIndex];
  const result = [{ date: period.start, value: 1 }];
  let peak = 1;
  let maxDrawdown = 0;
  for (let i = baseIndex + 1; i <= endIndex; i++) {
    const value = points[i].value / base.value;
    if (!isDrawnValue(value)) return undefined;
    result.push({ date: points[i].date, value });
    peak = Math.max(peak, value);
    maxDrawdown = Math.min(maxDrawdown, value / peak - 1);
  }
  return {
    label: series.label,
    points: result,
    totalReturn: result[result.length - 1].value - 1,
    benchmarkReturn: points[endIndex].benchmark / base.benchmark - 1,
    maxDrawdown,
  };
}

/**
 * A comparison over the period every series covers (CONTRACT.md section 6): each curve rebased to
 * 1.0 on the first shared date and cut at the last, its figures worked out over that period only.
 * No period when the series share no date: nothing is drawn then. A series whose rebased values
 * leave the drawn range is `refused` (named, not drawn); an empty one is `skipped`. Linear in the
 * number of points.
 */
export function compareOverSharedPeriod(
  series: readonly { label: string; points: readonly EquityPoint[] }[],
): {
  period: SharedPeriod | undefined;
  series: ComparedSeries[];
  skipped: string[];
  refused: string[];
} {
  const drawable = series.filter((s) => s.points.length > 0);
  const skipped = series.filter((s) => s.points.length === 0).map((s) => s.label);
  const period = sharedPeriod(drawable);
  if (!period) return { period, series: [], skipped, refused: [] };
  const result: ComparedSeries[] = [];
  const refused: string[] = [];
  for (const s of drawable) {
    const compared = overPeriod(s, period);
    if (compared) result.push(compared);
    else refused.push(s.label);
  }
  return { period, series: result, skipped, refused };
}

export interface ChartLine {
  label: string;
  /** One value per date; null where the line has none (a gap). */
  values: readonly (number | null)[];
}

export interface ChartScale {
  /** viewBox size; the SVG scales it to its box. */
  width: number;
  height: number;
  min: number;
  max: number;
  x: (index: number) => number;
  y: (value: number) => number;
}

/** The viewBox: near a side panel's real width, so its text is drawn at about its font size. */
export const CHART_WIDTH = 320;
export const CHART_HEIGHT = 200;
const PAD = 8;

/** Where the lines are drawn inside the viewBox; the rest holds the axes' labels. */
export interface PlotFrame {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const FULL_FRAME: PlotFrame = { left: PAD, right: CHART_WIDTH - PAD, top: PAD, bottom: CHART_HEIGHT - PAD };

/** x by index (one point per trading day or coarser), y over the range of every line's drawn values (isDrawnValue). */
export function chartScale(
  count: number,
  lines: readonly ChartLine[],
  frame: PlotFrame = FULL_FRAME,
): ChartScale {
  let min = Infinity;
  let max = -Infinity;
  for (const line of lines)
    for (const value of line.values) {
      if (!isDrawnValue(value)) continue;
      if (value < min) min = value;
      if (value > max) max = value;
    }
  if (!Number.isFinite(min)) [min, max] = [0.9, 1.1];
  if (max - min < 1e-6) [min, max] = [min - 0.05, max + 0.05];
  const span = max - min;
  const innerW = frame.right - frame.left;
  const innerH = frame.bottom - frame.top;
  return {
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    min,
    max,
    x: (index) => frame.left + (count > 1 ? (index / (count - 1)) * innerW : innerW / 2),
    y: (value) => frame.top + ((max - value) / span) * innerH,
  };
}

/**
 * An SVG path `d` for one line, built in one pass, two decimals per coordinate; a null, or a value
 * outside the drawn range (isDrawnValue), starts a new stretch, so no coordinate is ever NaN or ∞.
 */
export function linePath(values: readonly (number | null)[], scale: ChartScale): string {
  const parts: string[] = [];
  let drawing = false;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (!isDrawnValue(value)) {
      drawing = false;
      continue;
    }
    parts.push(`${drawing ? 'L' : 'M'}${scale.x(i).toFixed(2)} ${scale.y(value).toFixed(2)}`);
    drawing = true;
  }
  return parts.join('');
}

/**
 * Several rebased curves on one date axis: the union of their dates, each value carried forward
 * within its own range (null outside it), thinned evenly to at most `maxPoints` dates.
 */
export function alignSeries(
  series: readonly Pick<ComparedSeries, 'label' | 'points'>[],
  maxPoints = 2000,
): { dates: string[]; lines: ChartLine[] } {
  const union = [...new Set(series.flatMap((s) => s.points.map((p) => p.date)))].sort();
  const step = union.length > maxPoints ? Math.ceil(union.length / maxPoints) : 1;
  const dates = union.filter((_d, i) => i % step === 0 || i === union.length - 1);
  const lines = series.map((s) => {
    const values: (number | null)[] = [];
    let j = 0;
    let current: number | null = null;
    const lastDate = s.points[s.points.length - 1]?.date ?? '';
    for (const date of dates) {
      while (j < s.points.length && s.points[j].date <= date) current = s.points[j++].value;
      values.push(date > lastDate ? null : current);
    }
    return { label: s.label, values };
  });
  return { dates, lines };
}

/** The newest completed backtest of a list (lists are newest first). */
export function newestCompleted(backtests: readonly Backtest[]): Backtest | undefined {
  return backtests.find((b) => b.status === 'completed');
}
