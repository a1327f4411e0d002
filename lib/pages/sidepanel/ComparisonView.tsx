import { useMemo } from 'preact/hooks';
import { EquityChart } from '@/components/EquityChart';
import { ErrorMessage } from '@/components/ErrorMessage';
import { formatDay, formatGrowth, formatPercent, formatRatio } from '@/lib/backtests/format';
import type { Backtest } from '@/lib/backtests/schema';
import { alignSeries, checkSeries, rebaseToCommonStart } from '@/lib/backtests/series';
import { PAST_RESULTS } from './BacktestsSection';

/** The metrics table's columns: the contract's terms (CONTRACT.md section 6) and what a narrow panel shows. */
const METRIC_COLUMNS = [
  { name: 'Total return', short: 'Return' },
  { name: 'Benchmark return', short: 'Bench.' },
  { name: 'Max drawdown', short: 'Max DD' },
  { name: 'Sharpe ratio', short: 'Sharpe' },
] as const;

export interface ComparedPlaybook {
  id: string;
  title: string;
  backtest?: Backtest;
  error?: string;
}

export interface ComparisonViewProps {
  playbooks?: ComparedPlaybook[];
  loading: boolean;
  error?: string;
  locale?: string;
  onClose: () => void;
}

/** Each chosen playbook's newest completed backtest, rebased to 1.0 at a common start, and their figures. */
export function ComparisonView({ playbooks, loading, error, locale, onClose }: ComparisonViewProps) {
  const chart = useMemo(() => {
    if (!playbooks) return undefined;
    const notes: string[] = [];
    const drawable: { label: string; points: { date: string; value: number; benchmark: number }[] }[] = [];
    for (const playbook of playbooks) {
      if (!playbook.backtest) {
        notes.push(`${playbook.title}: ${playbook.error ?? 'no completed backtest yet'}.`);
        continue;
      }
      const series = checkSeries(playbook.backtest.equity);
      if (series.ok) drawable.push({ label: playbook.title, points: series.points });
      else notes.push(`${playbook.title}: ${series.message}`);
    }
    const rebased = rebaseToCommonStart(drawable);
    for (const label of rebased.skipped) notes.push(`${label}: its backtest ends before the common start.`);
    return { start: rebased.start, ...alignSeries(rebased.series), notes };
  }, [playbooks]);

  return (
    <section class="stack card comparison" aria-label="Comparison">
      <div class="row">
        <h3>Comparison</h3>
        <button type="button" onClick={onClose}>
          Close comparison
        </button>
      </div>
      <ErrorMessage message={error} />
      {loading ? <p class="hint">Reading the newest backtests…</p> : null}
      {chart?.notes.map((note) => (
        <p key={note} class="hint" role="note">
          {note}
        </p>
      ))}
      {chart && chart.lines.length > 0 && chart.start ? (
        <>
          <p class="hint">
            Growth of 1.0 from {formatDay(chart.start, locale)}, the first date all curves share.
          </p>
          <EquityChart
            name="Comparison chart"
            tableName="Comparison data"
            dates={chart.dates}
            lines={chart.lines}
            formatDate={(date) => formatDay(date, locale)}
            formatValue={(value) => formatGrowth(value, locale)}
          />
        </>
      ) : null}
      {playbooks ? (
        <div class="chart-table">
          <table aria-label="Comparison metrics" class="comparison-metrics">
            <thead>
              <tr>
                <th scope="col">Playbook</th>
                {METRIC_COLUMNS.map(({ name, short }) => (
                  <th key={name} scope="col">
                    {/* Short on screen, so four figures fit a 400 px panel; the full name is the header's name and its tooltip. */}
                    <abbr title={name} aria-hidden="true">
                      {short}
                    </abbr>
                    <span class="visually-hidden">{name}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {playbooks.map(({ id, title, backtest }) => (
                <tr key={id}>
                  <th scope="row">
                    {title}
                    {backtest ? (
                      <span class="hint period">
                        {formatDay(backtest.start, locale)} – {formatDay(backtest.end, locale)} vs{' '}
                        {backtest.benchmark}
                      </span>
                    ) : null}
                  </th>
                  {backtest?.metrics ? (
                    <>
                      <td>{formatPercent(backtest.metrics.total_return, locale, true)}</td>
                      <td>{formatPercent(backtest.metrics.benchmark_return, locale, true)}</td>
                      <td>{formatPercent(backtest.metrics.max_drawdown, locale)}</td>
                      <td>{formatRatio(backtest.metrics.sharpe, locale)}</td>
                    </>
                  ) : (
                    <td colSpan={4}>No completed backtest</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <p class="disclaimer">{PAST_RESULTS}</p>
    </section>
  );
}
