/**
 * Equity series as the chart draws them: checked (a malformed series becomes a message, never a
 * broken chart), rebased to 1.0 at a common start for comparison, and scaled into a viewBox.
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

/** One curve of a comparison: a playbook's series rebased to 1.0 at the common start. */
export interface ComparedSeries {
  label: string;
  points: { date: string; value: number }[];
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

/** A series' points from `baseIndex` on, divided by its value there; undefined if any ratio leaves the drawn range. */
function rebased(
  points: readonly EquityPoint[],
  baseIndex: number,
  start: string,
): ComparedSeries['points'] | undefined {
  const base = points[baseIndex].value;
  const result = [{ date: start, value: 1 }];
  for (let i = baseIndex + 1; i < points.length; i++) {
    const value = points[i].value / base;
    if (!isDrawnValue(value)) return undefined;
    result.push({ date: points[i].date, value });
  }
  return result;
}

/**
 * Rebases each playbook's curve to 1.0 on the first date every series has reached (the latest
 * start), dropping earlier points; a series that ends before that date is left out (`skipped`),
 * and so is one whose rebased values leave the drawn range (`refused`, see MAX_DRAWN_GROWTH). Each
 * series holds its last value on or before the common start as the base.
 */
export function rebaseToCommonStart(series: { label: string; points: EquityPoint[] }[]): {
  start: string | undefined;
  series: ComparedSeries[];
  skipped: string[];
  refused: string[];
} {
  const drawable = series.filter((s) => s.points.length > 0);
  const skipped: string[] = series.filter((s) => s.points.length === 0).map((s) => s.label);
  if (drawable.length === 0) return { start: undefined, series: [], skipped, refused: [] };
  const start = drawable.reduce((latest, s) => (s.points[0].date > latest ? s.points[0].date : latest), '');
  const result: ComparedSeries[] = [];
  const refused: string[] = [];
  for (const s of drawable) {
    let baseIndex = -1;
    for (let i = 0; i < s.points.length && s.points[i].date <= start; i++) baseIndex = i;
    if (baseIndex < 0 || s.points[s.points.length - 1].date < start) {
      skipped.push(s.label);
      continue;
    }
    const points = rebased(s.points, baseIndex, start);
    if (points) result.push({ label: s.label, points });
    else refused.push(s.label);
  }
  return { start, series: result, skipped, refused };
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

export const CHART_WIDTH = 600;
export const CHART_HEIGHT = 240;
const PAD = 8;

/** x by index (one point per trading day or coarser), y over the range of every line's drawn values (isDrawnValue). */
export function chartScale(count: number, lines: readonly ChartLine[]): ChartScale {
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
  const innerW = CHART_WIDTH - 2 * PAD;
  const innerH = CHART_HEIGHT - 2 * PAD;
  return {
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    min,
    max,
    x: (index) => PAD + (count > 1 ? (index / (count - 1)) * innerW : innerW / 2),
    y: (value) => PAD + ((max - value) / span) * innerH,
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
  series: readonly ComparedSeries[],
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
