import { Fragment } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import { dateTickIndexes, returnTicks, spansMonths } from '@/lib/backtests/axes';
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  chartScale,
  isDrawnValue,
  linePath,
  type ChartLine,
  type ChartScale,
} from '@/lib/backtests/series';

export interface EquityChartLine extends ChartLine {
  /** What the legend and the readout say (the table's column header is `label`). */
  legend?: string;
  /** A benchmark line takes the palette's benchmark style; the others take the series styles in order. */
  benchmark?: boolean;
}

/** How the chart words its figures and dates, in the user's language (lib/backtests/format.ts). */
export interface EquityChartFormat {
  /** A date in the readout and the table ("Jan 3, 2022"). */
  date: (date: string) => string;
  /** A date on the axis: month and year over a long range ("Jan 2022"), else month and day. */
  axisDate: (date: string, months: boolean) => string;
  /** A return in the readout and the table ("+12.3%", "−4.0%"). */
  return: (fraction: number) => string;
  /** A return on the axis, with the decimals its step needs ("+20%", "−10%", "0%"). */
  axisPercent: (fraction: number, digits: number) => string;
}

export interface EquityChartProps {
  /** The figure's accessible name ("Equity curve", "Comparison chart"). */
  name: string;
  /** The data table's accessible name; "Show data" reveals it as the chart's alternative. */
  tableName: string;
  /** One date per index, ascending (YYYY-MM-DD). */
  dates: readonly string[];
  /** Growth of 1.0, one value per date (null where a line has no value); shown as returns. */
  lines: readonly EquityChartLine[];
  format: EquityChartFormat;
}

/** Classes of the one palette (sidepanel.css): colour and dash pattern together, so colour is never the only cue. */
const SERIES_CLASSES = ['series-0', 'series-1', 'series-2', 'series-3'];
const FONT = 11;
/** About the width of a digit at FONT, to leave room for the longest percent label. */
const GLYPH = 7;

export function seriesClass(lines: readonly EquityChartLine[], index: number): string {
  if (lines[index].benchmark) return 'series-benchmark';
  const order = lines.slice(0, index).filter((line) => !line.benchmark).length;
  return SERIES_CLASSES[order % SERIES_CLASSES.length];
}

/**
 * The date under the cursor and each line's return there. Each figure is isolated left to right and
 * the list joined as the language joins one: in Arabic a bare "+25.0%" between words came out as
 * "%25.0+", and the comma was the Latin one.
 */
function Readout(props: {
  at: number;
  dates: readonly string[];
  lines: readonly EquityChartLine[];
  format: EquityChartFormat;
}) {
  const { at, lines, format } = props;
  return (
    <>
      {format.date(props.dates[at])}:{' '}
      {lines.map((line, i) => (
        <Fragment key={line.label}>
          {i > 0 ? t('common.separator.list') : null}
          <bdi dir="auto">{line.legend ?? line.label}</bdi>{' '}
          <bdi dir="ltr">{shownValue(line.values[at], format)}</bdi>
        </Fragment>
      ))}
    </>
  );
}

/** A value as the readout and the table say it: a return, or "–" where the line has none it can draw (never ∞ or NaN). */
function shownValue(value: number | null | undefined, format: EquityChartFormat): string {
  return isDrawnValue(value) ? format.return(value - 1) : t('backtests.chart.noValue');
}

/** The characters a label draws: Arabic's direction marks (U+200E, U+061C) take no room. */
function visibleLength(label: string): number {
  return label.replace(/\p{Cf}/gu, '').length;
}

type XTick = { x: number; label: string; anchor: 'start' | 'middle' | 'end' };

/** Where a date label is drawn along the axis, from its anchor and its width in glyphs. */
function labelSpan(tick: XTick): [number, number] {
  const width = visibleLength(tick.label) * GLYPH;
  const left = tick.anchor === 'start' ? tick.x : tick.anchor === 'end' ? tick.x - width : tick.x - width / 2;
  return [left, left + width];
}

/**
 * The date labels that fit: the first and last always, a middle one only with a glyph's gap on both
 * sides (a locale's longer month names, "ديسمبر 2024", would otherwise run into the next one).
 */
export function spacedDateTicks(ticks: readonly XTick[]): XTick[] {
  if (ticks.length <= 2) return [...ticks];
  const last = ticks[ticks.length - 1];
  const kept = [ticks[0]];
  for (const tick of ticks.slice(1, -1)) {
    const [left, right] = labelSpan(tick);
    if (left >= labelSpan(kept[kept.length - 1])[1] + GLYPH && right + GLYPH <= labelSpan(last)[0])
      kept.push(tick);
  }
  return [...kept, last];
}

interface Layout {
  scale: ChartScale;
  yTicks: { y: number; label: string; zero: boolean }[];
  xTicks: XTick[];
}

/** The plot and its axes: percent labels sized into a left gutter, a few dates along the bottom. */
function layout(dates: readonly string[], lines: readonly ChartLine[], format: EquityChartFormat): Layout {
  const range = chartScale(dates.length, lines);
  const { ticks, digits } = returnTicks(range.min, range.max);
  const labels = ticks.map((tick) => format.axisPercent(tick, digits));
  const gutter = Math.ceil(Math.max(3, ...labels.map(visibleLength)) * GLYPH) + 10;
  const frame = { left: gutter, right: CHART_WIDTH - 8, top: 10, bottom: CHART_HEIGHT - 24 };
  const scale = chartScale(dates.length, lines, frame);
  const months = dates.length > 0 && spansMonths(dates[0], dates[dates.length - 1]);
  const indexes = dateTickIndexes(dates.length);
  return {
    scale,
    yTicks: ticks.map((tick, i) => ({ y: scale.y(1 + tick), label: labels[i], zero: tick === 0 })),
    xTicks: spacedDateTicks(
      indexes.map((index, i) => ({
        x: scale.x(index),
        label: format.axisDate(dates[index], months),
        anchor:
          indexes.length === 1 ? 'middle' : i === 0 ? 'start' : i === indexes.length - 1 ? 'end' : 'middle',
      })),
    ),
  };
}

function Axes({ scale, yTicks, xTicks }: Layout) {
  const left = scale.x(0);
  const right = CHART_WIDTH - 8;
  return (
    <g class="axes" font-size={FONT}>
      {yTicks.map((tick) => (
        <g key={tick.label}>
          <line
            class={tick.zero ? 'zero-line' : 'grid-line'}
            x1={left}
            x2={right}
            y1={tick.y}
            y2={tick.y}
            vector-effect="non-scaling-stroke"
          />
          <text class="axis-label" x={left - 4} y={tick.y} text-anchor="end" dominant-baseline="middle">
            {tick.label}
          </text>
        </g>
      ))}
      {xTicks.map((tick) => (
        <text key={tick.x} class="axis-label" x={tick.x} y={CHART_HEIGHT - 6} text-anchor={tick.anchor}>
          {tick.label}
        </text>
      ))}
    </g>
  );
}

function Legend({ name, lines }: { name: string; lines: readonly EquityChartLine[] }) {
  return (
    <ul class="chart-legend row" aria-label={t('backtests.chart.legend', { name })}>
      {lines.map((line, i) => (
        <li key={line.label}>
          <svg class="swatch" viewBox="0 0 24 8" aria-hidden="true">
            <line class={`line ${seriesClass(lines, i)}`} x1={0} x2={24} y1={4} y2={4} />
          </svg>
          {line.legend ?? line.label}
        </li>
      ))}
    </ul>
  );
}

function DataTable({ tableName, dates, lines, format }: Omit<EquityChartProps, 'name'>) {
  return (
    <div class="chart-table">
      <table aria-label={tableName}>
        <thead>
          <tr>
            <th scope="col">{t('backtests.chart.date')}</th>
            {lines.map((line) => (
              <th scope="col" key={line.label}>
                {line.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {dates.map((date, i) => (
            <tr key={date}>
              <td>
                <time dateTime={date}>{format.date(date)}</time>
              </td>
              {lines.map((line) => (
                <td key={line.label}>{shownValue(line.values[i], format)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The keyboard cursor: arrows (a twentieth with Shift), Home, End, Escape; whether the key was one of them. */
function cursorKey(
  event: { key: string; shiftKey: boolean },
  count: number,
  active: number | undefined,
  move: (index: number) => void,
  clear: () => void,
): boolean {
  const last = count - 1;
  const step = event.shiftKey ? Math.max(1, Math.round(count / 20)) : 1;
  const from = active ?? last;
  if (event.key === 'ArrowLeft') move(from - step);
  else if (event.key === 'ArrowRight') move(active === undefined ? last : from + step);
  else if (event.key === 'Home') move(0);
  else if (event.key === 'End') move(last);
  else if (event.key === 'Escape') clear();
  else return false;
  return true;
}

/**
 * Right to left: the SVG keeps `dir="ltr"` and time runs left to right in every language, as on
 * financial charts in Arabic and Hebrew products; only the text around it (readout, legend, table)
 * follows the page's direction, and the arrow keys keep moving the cursor the way the line runs.
 *
 * An equity chart as hand-written SVG: one path per line in a fixed viewBox near the side panel's
 * width (so its labels are drawn at about their font size), strokes that keep their width at any
 * zoom, a percent axis of returns with its 0% line, a dates axis, and a readout of the date and the
 * returns under the pointer or the keyboard cursor (arrows, Home, End). Pure: props in, nothing out.
 */
export function EquityChart({ name, tableName, dates, lines, format }: EquityChartProps) {
  const [active, setActive] = useState<number | undefined>();
  const [showData, setShowData] = useState(false);
  const count = dates.length;
  const axes = useMemo(() => layout(dates, lines, format), [dates, lines, format]);
  const { scale } = axes;
  const paths = useMemo(() => lines.map((line) => linePath(line.values, scale)), [lines, scale]);
  const last = count - 1;
  const move = (index: number) => setActive(Math.max(0, Math.min(last, index)));
  const readout =
    active === undefined ? undefined : <Readout at={active} dates={dates} lines={lines} format={format} />;

  return (
    <div class="equity-chart stack">
      <svg
        role="img"
        aria-label={name}
        dir="ltr"
        // SVG text ignores `dir`: without `direction` a right-to-left page turns every text-anchor
        // around, the last date running past the right edge and the percent labels into the plot.
        direction="ltr"
        tabindex={0}
        viewBox={`0 0 ${scale.width} ${scale.height}`}
        class="equity-chart-svg"
        onKeyDown={(event) => {
          if (cursorKey(event, count, active, move, () => setActive(undefined))) event.preventDefault();
        }}
        onFocus={() => setActive((current) => current ?? last)}
        onBlur={() => setActive(undefined)}
        onPointerMove={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          const [left, right] = [scale.x(0), scale.x(last)].map((x) => (x / scale.width) * box.width);
          if (box.width > 0 && count > 0 && right > left)
            move(Math.round(((event.clientX - box.left - left) / (right - left)) * last));
        }}
        onPointerLeave={() => setActive(undefined)}
      >
        <Axes {...axes} />
        {paths.map((d, i) => (
          <path
            key={lines[i].label}
            d={d}
            class={`line ${seriesClass(lines, i)}`}
            vector-effect="non-scaling-stroke"
          />
        ))}
        {active !== undefined ? (
          <line
            class="cursor"
            x1={scale.x(active)}
            x2={scale.x(active)}
            y1={scale.y(scale.max)}
            y2={scale.y(scale.min)}
            vector-effect="non-scaling-stroke"
          />
        ) : null}
      </svg>
      <p class="chart-readout hint" aria-live="polite">
        {readout ??
          t('backtests.chart.hint', { start: format.date(dates[0]), end: format.date(dates[last]) })}
      </p>
      <Legend name={name} lines={lines} />
      <button type="button" aria-expanded={showData} onClick={() => setShowData(!showData)}>
        {showData ? t('backtests.chart.hideData') : t('backtests.chart.showData')}
      </button>
      {showData ? <DataTable tableName={tableName} dates={dates} lines={lines} format={format} /> : null}
    </div>
  );
}
