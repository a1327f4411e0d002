import { useMemo } from 'preact/hooks';
import { EquityChart } from '@/components/EquityChart';
import { ErrorMessage } from '@/components/ErrorMessage';
import { formatDay, formatGrowth, formatPercent, formatRatio } from '@/lib/backtests/format';
import type { Backtest, BacktestMetrics } from '@/lib/backtests/schema';
import { checkSeries } from '@/lib/backtests/series';

export const PAST_RESULTS =
  'Past results, simulated on historical data: they do not predict future results. Decision support, not financial advice.';

export interface BacktestsSectionProps {
  items?: Backtest[];
  loading: boolean;
  error?: string;
  hasMore: boolean;
  /** The backtest whose result is shown, with its equity, once read: the chosen one, else the newest completed one. */
  shown?: Backtest;
  shownError?: string;
  /** The backtest the user (or a notification) chose; absent, the newest completed one is shown. */
  chosenId?: string;
  /** The user's locale for numbers and dates; the browser's when absent. */
  locale?: string;
  onLoadMore: () => void;
  /** Show this completed backtest's result. */
  onShow: (backtestId: string) => void;
}

const STATUS_TEXT: Record<Backtest['status'], string> = {
  queued: 'queued',
  running: 'running',
  completed: 'completed',
  failed: 'failed',
};

/** The four figures the contract names, in the user's locale. */
export function BacktestMetricsList({ metrics, locale }: { metrics: BacktestMetrics; locale?: string }) {
  return (
    <dl class="facts metrics">
      <dt>Total return</dt>
      <dd>{formatPercent(metrics.total_return, locale, true)}</dd>
      <dt>Benchmark return</dt>
      <dd>{formatPercent(metrics.benchmark_return, locale, true)}</dd>
      <dt>Max drawdown</dt>
      <dd>{formatPercent(metrics.max_drawdown, locale)}</dd>
      <dt>Sharpe ratio</dt>
      <dd>{formatRatio(metrics.sharpe, locale)}</dd>
    </dl>
  );
}

function ShownResult({ backtest, chosen, locale }: { backtest: Backtest; chosen: boolean; locale?: string }) {
  const series = useMemo(() => checkSeries(backtest.equity), [backtest]);
  const chart = useMemo(
    () =>
      series.ok
        ? {
            dates: series.points.map((p) => p.date),
            lines: [
              { label: 'Playbook', values: series.points.map((p) => p.value) },
              {
                label: 'Benchmark',
                legend: `Benchmark (${backtest.benchmark})`,
                values: series.points.map((p) => p.benchmark),
              },
            ],
          }
        : undefined,
    [series, backtest.benchmark],
  );
  return (
    <div class="stack backtest-result">
      <h4>
        {chosen ? 'Result' : 'Latest result'}: {formatDay(backtest.start, locale)} –{' '}
        {formatDay(backtest.end, locale)} vs {backtest.benchmark}
      </h4>
      {backtest.metrics ? <BacktestMetricsList metrics={backtest.metrics} locale={locale} /> : null}
      {chart ? (
        <EquityChart
          name="Equity curve"
          tableName="Equity curve data"
          dates={chart.dates}
          lines={chart.lines}
          formatDate={(date) => formatDay(date, locale)}
          formatValue={(value) => formatGrowth(value, locale)}
        />
      ) : (
        <ErrorMessage message={series.ok ? undefined : series.message} />
      )}
    </div>
  );
}

/** The playbook's backtests (range, benchmark, status) and one completed one as a chart: the chosen, else the newest. */
export function BacktestsSection(props: BacktestsSectionProps) {
  const { items, locale } = props;
  return (
    <section class="stack backtests" aria-label="Backtests">
      <h3>Backtests</h3>
      <ErrorMessage message={props.error} />
      {!items && props.loading ? <p class="hint">Loading backtests…</p> : null}
      {items && items.length === 0 ? <p class="hint">No backtests yet.</p> : null}
      {items && items.length > 0 ? (
        <ul class="stack backtest-list" aria-label="Backtest runs">
          {items.map((backtest) => (
            <li key={backtest.id} class="row">
              <span>
                {formatDay(backtest.start, locale)} – {formatDay(backtest.end, locale)}
              </span>
              <span class="hint">vs {backtest.benchmark}</span>
              <span class={`badge status-${backtest.status}`}>{STATUS_TEXT[backtest.status]}</span>
              {backtest.status === 'failed' && backtest.error?.detail ? (
                <span class="hint">{backtest.error.detail}</span>
              ) : null}
              {backtest.status === 'completed' ? (
                <button
                  type="button"
                  aria-pressed={props.shown?.id === backtest.id}
                  aria-label={`Show the result of ${formatDay(backtest.start, locale)} – ${formatDay(backtest.end, locale)} vs ${backtest.benchmark}`}
                  onClick={() => props.onShow(backtest.id)}
                >
                  Show
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {props.hasMore ? (
        <button type="button" onClick={props.onLoadMore} disabled={props.loading}>
          More backtests
        </button>
      ) : null}
      <ErrorMessage message={props.shownError} />
      {props.shown ? (
        <ShownResult backtest={props.shown} chosen={props.chosenId === props.shown.id} locale={locale} />
      ) : null}
      {items?.length || props.shown ? <p class="disclaimer">{PAST_RESULTS}</p> : null}
    </section>
  );
}
