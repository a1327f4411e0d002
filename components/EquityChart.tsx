import { useMemo, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import { chartScale, isDrawnValue, linePath, type ChartLine } from '@/lib/backtests/series';

export interface EquityChartLine extends ChartLine {
  /** What the legend says (the table's column header is `label`). */
  legend?: string;
}

export interface EquityChartProps {
  /** The figure's accessible name ("Equity curve", "Comparison chart"). */
  name: string;
  /** The data table's accessible name; "Show data" reveals it as the chart's alternative. */
  tableName: string;
  /** One date per index, ascending (YYYY-MM-DD). */
  dates: readonly string[];
  /** Growth of 1.0, one value per date (null where a line has no value). */
  lines: readonly EquityChartLine[];
  formatDate: (date: string) => string;
  formatValue: (value: number) => string;
}

const SERIES_CLASSES = ['series-0', 'series-1', 'series-2', 'series-3'];

/** A value as the readout and the table say it: "–" where the line has none or none it can draw (never ∞ or NaN). */
function shownValue(value: number | null | undefined, formatValue: (value: number) => string): string {
  return isDrawnValue(value) ? formatValue(value) : t('backtests.chart.noValue');
}

/**
 * Right to left: the SVG keeps `dir="ltr"` and time runs left to right in every language, as on
 * financial charts in Arabic and Hebrew products; only the text around it (readout, legend, table)
 * follows the page's direction, and the arrow keys keep moving the cursor the way the line runs.
 *
 * An equity chart as hand-written SVG: one path per line in a fixed viewBox, strokes that keep
 * their width at any zoom, a baseline at 1.0, and a readout of the date and values under the
 * pointer or the keyboard cursor (arrows, Home, End). Pure: props in, nothing out.
 */
export function EquityChart({ name, tableName, dates, lines, formatDate, formatValue }: EquityChartProps) {
  const [active, setActive] = useState<number | undefined>();
  const [showData, setShowData] = useState(false);
  const count = dates.length;
  const scale = useMemo(() => chartScale(count, lines), [count, lines]);
  const paths = useMemo(() => lines.map((line) => linePath(line.values, scale)), [lines, scale]);
  const last = count - 1;
  const move = (index: number) => setActive(Math.max(0, Math.min(last, index)));
  const readout =
    active === undefined
      ? undefined
      : `${formatDate(dates[active])}: ${lines
          .map((line) => {
            return `${line.legend ?? line.label} ${shownValue(line.values[active], formatValue)}`;
          })
          .join(', ')}`;
  const baseline = scale.y(1);

  return (
    <div class="equity-chart stack">
      <svg
        role="img"
        aria-label={name}
        dir="ltr"
        tabindex={0}
        viewBox={`0 0 ${scale.width} ${scale.height}`}
        class="equity-chart-svg"
        onKeyDown={(event) => {
          const step = event.shiftKey ? Math.max(1, Math.round(count / 20)) : 1;
          const from = active ?? last;
          if (event.key === 'ArrowLeft') move(from - step);
          else if (event.key === 'ArrowRight') move(active === undefined ? last : from + step);
          else if (event.key === 'Home') move(0);
          else if (event.key === 'End') move(last);
          else if (event.key === 'Escape') setActive(undefined);
          else return;
          event.preventDefault();
        }}
        onFocus={() => setActive((current) => current ?? last)}
        onBlur={() => setActive(undefined)}
        onPointerMove={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          if (box.width > 0 && count > 0) move(Math.round(((event.clientX - box.left) / box.width) * last));
        }}
        onPointerLeave={() => setActive(undefined)}
      >
        {baseline >= 0 && baseline <= scale.height ? (
          <line
            class="baseline"
            x1={0}
            x2={scale.width}
            y1={baseline}
            y2={baseline}
            vector-effect="non-scaling-stroke"
          />
        ) : null}
        {paths.map((d, i) => (
          <path
            key={lines[i].label}
            d={d}
            class={`line ${SERIES_CLASSES[i % SERIES_CLASSES.length]}`}
            vector-effect="non-scaling-stroke"
          />
        ))}
        {active !== undefined ? (
          <line
            class="cursor"
            x1={scale.x(active)}
            x2={scale.x(active)}
            y1={0}
            y2={scale.height}
            vector-effect="non-scaling-stroke"
          />
        ) : null}
      </svg>
      <p class="chart-readout hint" aria-live="polite">
        {readout ?? t('backtests.chart.hint', { start: formatDate(dates[0]), end: formatDate(dates[last]) })}
      </p>
      <ul class="chart-legend row" aria-label={t('backtests.chart.legend', { name })}>
        {lines.map((line, i) => (
          <li key={line.label}>
            <span class={`swatch ${SERIES_CLASSES[i % SERIES_CLASSES.length]}`} aria-hidden="true" />
            {line.legend ?? line.label}
          </li>
        ))}
      </ul>
      <button type="button" aria-expanded={showData} onClick={() => setShowData(!showData)}>
        {showData ? t('backtests.chart.hideData') : t('backtests.chart.showData')}
      </button>
      {showData ? (
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
                    <time dateTime={date}>{formatDate(date)}</time>
                  </td>
                  {lines.map((line) => (
                    <td key={line.label}>{shownValue(line.values[i], formatValue)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
