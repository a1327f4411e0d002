import { useMemo } from 'preact/hooks';
import { EquityChart } from '@/components/EquityChart';
import { ErrorMessage } from '@/components/ErrorMessage';
import { formatDay, formatGrowth, formatPercent, formatRatio } from '@/lib/backtests/format';
import type { Backtest } from '@/lib/contract/backtest';
import { alignSeries, checkSeries, rebaseToCommonStart } from '@/lib/backtests/series';
import { t, type TextKey } from '@/lib/i18n';
import { PastResults } from './BacktestsSection';

/** The metrics table's columns: the contract's terms (CONTRACT.md section 6) and what a narrow panel shows. */
const METRIC_COLUMNS: readonly { name: TextKey; short: TextKey }[] = [
  { name: 'backtests.totalReturn', short: 'backtests.comparison.shortTotalReturn' },
  { name: 'backtests.benchmarkReturn', short: 'backtests.comparison.shortBenchmarkReturn' },
  { name: 'backtests.maxDrawdown', short: 'backtests.comparison.shortMaxDrawdown' },
  { name: 'backtests.sharpeRatio', short: 'backtests.comparison.shortSharpe' },
];

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
  onClose: () => void;
}

/** Each chosen playbook's newest completed backtest, rebased to 1.0 at a common start, and their figures. */
export function ComparisonView({ playbooks, loading, error, onClose }: ComparisonViewProps) {
  const chart = useMemo(() => {
    if (!playbooks) return undefined;
    const notes: string[] = [];
    const drawable: { label: string; points: { date: string; value: number; benchmark: number }[] }[] = [];
    for (const playbook of playbooks) {
      if (!playbook.backtest) {
        // The worker's messages are sentences with their own full stop; "no completed backtest yet" is not.
        notes.push(
          playbook.error
            ? t('backtests.comparison.seriesNote', { title: playbook.title, reason: playbook.error })
            : t('backtests.comparison.note', {
                title: playbook.title,
                reason: t('backtests.comparison.noCompleted'),
              }),
        );
        continue;
      }
      const series = checkSeries(playbook.backtest.equity);
      if (series.ok) drawable.push({ label: playbook.title, points: series.points });
      else
        notes.push(t('backtests.comparison.seriesNote', { title: playbook.title, reason: series.message }));
    }
    const rebased = rebaseToCommonStart(drawable);
    for (const label of rebased.skipped) notes.push(t('backtests.comparison.endsEarly', { title: label }));
    for (const label of rebased.refused) notes.push(t('backtests.comparison.outOfRange', { title: label }));
    return { start: rebased.start, ...alignSeries(rebased.series), notes };
  }, [playbooks]);

  return (
    <section class="stack card comparison" aria-label={t('backtests.comparison.region')}>
      <div class="row">
        <h3>{t('backtests.comparison.heading')}</h3>
        <button type="button" onClick={onClose}>
          {t('backtests.comparison.close')}
        </button>
      </div>
      <ErrorMessage message={error} />
      {loading ? <p class="hint">{t('backtests.comparison.reading')}</p> : null}
      {chart?.notes.map((note) => (
        <p key={note} class="hint" role="note">
          {note}
        </p>
      ))}
      {chart && chart.lines.length > 0 && chart.start ? (
        <>
          <p class="hint">{t('backtests.comparison.growthFrom', { date: formatDay(chart.start) })}</p>
          <EquityChart
            name={t('backtests.comparison.chart')}
            tableName={t('backtests.comparison.data')}
            dates={chart.dates}
            lines={chart.lines}
            formatDate={formatDay}
            formatValue={formatGrowth}
          />
        </>
      ) : null}
      {playbooks ? (
        <div class="chart-table">
          <table aria-label={t('backtests.comparison.metrics')} class="comparison-metrics">
            <thead>
              <tr>
                <th scope="col">{t('backtests.comparison.playbook')}</th>
                {METRIC_COLUMNS.map(({ name, short }) => (
                  <th key={name} scope="col">
                    {/* Short on screen, so four figures fit a 400 px panel; the full name is the header's name and its tooltip. */}
                    <abbr title={t(name)} aria-hidden="true">
                      {t(short)}
                    </abbr>
                    <span class="visually-hidden">{t(name)}</span>
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
                        {t('backtests.rangeVersus', {
                          start: formatDay(backtest.start),
                          end: formatDay(backtest.end),
                          benchmark: backtest.benchmark,
                        })}
                      </span>
                    ) : null}
                  </th>
                  {backtest?.metrics ? (
                    <>
                      <td>{formatPercent(backtest.metrics.total_return, true)}</td>
                      <td>{formatPercent(backtest.metrics.benchmark_return, true)}</td>
                      <td>{formatPercent(backtest.metrics.max_drawdown)}</td>
                      <td>{formatRatio(backtest.metrics.sharpe)}</td>
                    </>
                  ) : (
                    <td colSpan={4}>{t('backtests.comparison.noBacktest')}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <PastResults />
    </section>
  );
}
