import { useMemo } from 'preact/hooks';
import { EquityChart } from '@/components/EquityChart';
import { ErrorMessage } from '@/components/ErrorMessage';
import { ProblemMessage } from '@/components/ProblemMessage';
import { ServiceText } from '@/components/ServiceText';
import { backtestStatusText, isKnownBacktestStatus } from '@/lib/pages/playbookWords';
import { chartFormat, formatDay, formatRatio, formatReturn } from '@/lib/backtests/format';
import type { Backtest, BacktestMetrics } from '@/lib/contract/backtest';
import { checkSeries } from '@/lib/backtests/series';
import type { ErrorParts } from '@/lib/pages/errorText';
import { t } from '@/lib/i18n';
import type { SavedCopy } from '@/lib/contract/wire';
import { SavedCopyMark } from './SavedCopyMark';

export interface BacktestsSectionProps {
  items?: Backtest[];
  loading: boolean;
  error?: ErrorParts;
  /** The service could not be reached and nothing was saved (the detail says it once for its sections). */
  unreachable?: boolean;
  /** Shown from the copy saved when the playbook was last opened. */
  savedCopy?: SavedCopy;
  hasMore: boolean;
  /** The backtest whose result is shown, with its equity, once read: the chosen one, else the newest completed one. */
  shown?: Backtest;
  shownError?: ErrorParts;
  /** The backtest the user (or a notification) chose; absent, the newest completed one is shown. */
  chosenId?: string;
  onLoadMore: () => void;
  /** Show this completed backtest's result. */
  onShow: (backtestId: string) => void;
}

/** A run's status: the UI language's word, or an unknown one as sent, isolated, its class never taken from the service. */
export function BacktestStatusBadge({ status }: { status: string }) {
  const word = backtestStatusText(status);
  return (
    <span class={`badge status-${isKnownBacktestStatus(status) ? status : 'unknown'}`}>
      {word ?? <ServiceText>{status}</ServiceText>}
    </span>
  );
}

/** Whether two failures say the same (one refusal can fail the list and the shown result alike). */
function sameProblem(a: ErrorParts | undefined, b: ErrorParts | undefined): boolean {
  return a?.message === b?.message && a?.details === b?.details;
}

/** "Past results … not financial advice", under every backtest figure. */
export function PastResults() {
  return <p class="disclaimer">{t('backtests.pastResults')}</p>;
}

/** "1 Jan 2024 – 31 Dec 2024 vs SPY": the dates in the UI language, the benchmark as sent. */
function rangeValues(backtest: Backtest) {
  return { start: formatDay(backtest.start), end: formatDay(backtest.end), benchmark: backtest.benchmark };
}

/** The four figures the contract names, in the UI language. */
export function BacktestMetricsList({ metrics }: { metrics: BacktestMetrics }) {
  return (
    <dl class="facts metrics">
      <dt>{t('backtests.totalReturn')}</dt>
      <dd>{formatReturn(metrics.total_return)}</dd>
      <dt>{t('backtests.benchmarkReturn')}</dt>
      <dd>{formatReturn(metrics.benchmark_return)}</dd>
      <dt>{t('backtests.maxDrawdown')}</dt>
      <dd>{formatReturn(metrics.max_drawdown, false)}</dd>
      <dt>{t('backtests.sharpeRatio')}</dt>
      <dd>{formatRatio(metrics.sharpe)}</dd>
    </dl>
  );
}

function ShownResult({ backtest, chosen }: { backtest: Backtest; chosen: boolean }) {
  const series = useMemo(() => checkSeries(backtest.equity), [backtest]);
  const chart = useMemo(
    () =>
      series.ok
        ? {
            dates: series.points.map((p) => p.date),
            lines: [
              { label: t('backtests.playbook'), values: series.points.map((p) => p.value) },
              {
                label: t('backtests.benchmark'),
                legend: t('backtests.benchmarkLegend', { benchmark: backtest.benchmark }),
                benchmark: true,
                values: series.points.map((p) => p.benchmark),
              },
            ],
          }
        : undefined,
    [series, backtest.benchmark],
  );
  return (
    <div class="stack backtest-result">
      <h4>{t(chosen ? 'backtests.result' : 'backtests.latestResult', rangeValues(backtest))}</h4>
      {backtest.metrics ? <BacktestMetricsList metrics={backtest.metrics} /> : null}
      {chart ? (
        <EquityChart
          name={t('backtests.equityCurve')}
          tableName={t('backtests.equityCurveData')}
          dates={chart.dates}
          lines={chart.lines}
          format={chartFormat}
        />
      ) : (
        <ErrorMessage message={series.ok ? undefined : series.message} />
      )}
    </div>
  );
}

/** The playbook's backtests (range, benchmark, status) and one completed one as a chart: the chosen, else the newest. */
export function BacktestsSection(props: BacktestsSectionProps) {
  const { items } = props;
  return (
    <section class="stack backtests" aria-label={t('backtests.region')}>
      <h3>{t('backtests.heading')}</h3>
      <SavedCopyMark saved={props.savedCopy} />
      <ProblemMessage problem={props.error} />
      {!items && props.loading ? <p class="hint">{t('backtests.loading')}</p> : null}
      {items && items.length === 0 ? <p class="hint">{t('backtests.empty')}</p> : null}
      {items && items.length > 0 ? (
        <ul class="stack backtest-list" aria-label={t('backtests.runs')}>
          {items.map((backtest) => (
            <li key={backtest.id} class="row">
              <span>{t('backtests.range', rangeValues(backtest))}</span>
              <span class="hint">{t('backtests.versus', { benchmark: backtest.benchmark })}</span>
              <BacktestStatusBadge status={backtest.status} />
              {backtest.status === 'failed' && backtest.error?.detail ? (
                <span class="hint" dir="auto">
                  {backtest.error.detail}
                </span>
              ) : null}
              {backtest.status === 'completed' ? (
                <button
                  type="button"
                  aria-pressed={props.shown?.id === backtest.id}
                  aria-label={t('backtests.showResult', rangeValues(backtest))}
                  onClick={() => props.onShow(backtest.id)}
                >
                  {t('backtests.show')}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {props.hasMore ? (
        <button type="button" onClick={props.onLoadMore} disabled={props.loading}>
          {t('backtests.more')}
        </button>
      ) : null}
      {/* One refusal (another playbook's backtests) can fail the list and the shown result alike: said once. */}
      <ProblemMessage problem={sameProblem(props.shownError, props.error) ? undefined : props.shownError} />
      {props.shown ? <ShownResult backtest={props.shown} chosen={props.chosenId === props.shown.id} /> : null}
      {items?.length || props.shown ? <PastResults /> : null}
    </section>
  );
}
