import { isolatedMessage } from '@/components/ServiceText';
import { useMemo } from 'preact/hooks';
import { EquityChart } from '@/components/EquityChart';
import { ProblemMessage } from '@/components/ProblemMessage';
import type { ErrorParts } from '@/lib/pages/errorText';
import { chartFormat, formatAxisPercent, formatDay, formatReturn } from '@/lib/backtests/format';
import type { Backtest, EquityPoint } from '@/lib/contract/backtest';
import {
  alignSeries,
  checkSeries,
  compareOverSharedPeriod,
  type ComparedSeries,
  type SharedPeriod,
} from '@/lib/backtests/series';
import { t, type TextKey } from '@/lib/i18n';
import { PastResults } from './BacktestsSection';

/**
 * The metrics table's columns: the contract's terms (CONTRACT.md section 6) and what a narrow panel
 * shows. Each is worked out over the shared period; a Sharpe ratio is not, so it is not compared.
 */
const METRIC_COLUMNS: readonly { name: TextKey; short: TextKey }[] = [
  { name: 'backtests.totalReturn', short: 'backtests.comparison.shortTotalReturn' },
  { name: 'backtests.benchmarkReturn', short: 'backtests.comparison.shortBenchmarkReturn' },
  { name: 'backtests.maxDrawdown', short: 'backtests.comparison.shortMaxDrawdown' },
];

export interface ComparedPlaybook {
  id: string;
  title: string;
  /** The backtest compared, with its equity: the one picked, else the newest completed one. */
  backtest?: Backtest;
  /** Why it has none: its technical record stays out of the chart's notes. */
  error?: ErrorParts;
  /** The playbook's completed backtests the user may pick from, newest first. */
  choices?: Backtest[];
  /** Where its older backtests start, when the list has more than the choices read so far. */
  older?: OlderBacktests;
}

export interface OlderBacktests {
  /** The list page that follows the ones read. */
  cursor: string;
  loading?: boolean;
  /** Why the last read of older backtests failed: asking again retries it. */
  error?: ErrorParts;
}

export interface ComparisonViewProps {
  playbooks?: ComparedPlaybook[];
  loading: boolean;
  error?: ErrorParts;
  onClose: () => void;
  /** Compare this backtest of this playbook instead. */
  onPick?: (playbookId: string, backtestId: string) => void;
  /** Offer this playbook's older backtests too. */
  onOlder?: (playbookId: string) => void;
}

interface ComparisonChart {
  period?: SharedPeriod;
  /** Whether there were series to compare but they share no date. */
  noOverlap: boolean;
  dates: string[];
  lines: { label: string; values: readonly (number | null)[] }[];
  figures: Map<string, ComparedSeries>;
  notes: string[];
}

/** Each playbook's backtest over the period they all cover, or a note saying why it is not drawn. */
function comparisonChart(playbooks: readonly ComparedPlaybook[]): ComparisonChart {
  const notes: string[] = [];
  const drawable: { label: string; points: EquityPoint[] }[] = [];
  for (const playbook of playbooks) {
    if (!playbook.backtest) {
      // The worker's messages are sentences with their own full stop; "no completed backtest yet" is not.
      notes.push(
        playbook.error
          ? t('backtests.comparison.seriesNote', { title: playbook.title, reason: playbook.error.message })
          : t('backtests.comparison.note', {
              title: playbook.title,
              reason: t('backtests.comparison.noCompleted'),
            }),
      );
      continue;
    }
    const series = checkSeries(playbook.backtest.equity);
    if (series.ok) drawable.push({ label: playbook.id, points: series.points });
    else notes.push(t('backtests.comparison.seriesNote', { title: playbook.title, reason: series.message }));
  }
  const titleOf = (id: string) => playbooks.find((p) => p.id === id)?.title ?? id;
  const compared = compareOverSharedPeriod(drawable);
  for (const id of compared.refused) notes.push(t('backtests.comparison.outOfRange', { title: titleOf(id) }));
  const aligned = alignSeries(compared.series);
  return {
    period: compared.period,
    noOverlap: drawable.length > 0 && !compared.period,
    dates: aligned.dates,
    lines: aligned.lines.map((line) => ({ ...line, label: titleOf(line.label) })),
    figures: new Map(compared.series.map((s) => [s.label, s])),
    notes,
  };
}

/** One select per playbook: which of its completed backtests is compared (the newest by default). */
function BacktestPicks({
  playbooks,
  onPick,
  onOlder,
}: {
  playbooks: ComparedPlaybook[];
  onPick: ComparisonViewProps['onPick'];
  onOlder: ComparisonViewProps['onOlder'];
}) {
  const pickable = playbooks.filter((p) => (p.choices?.length ?? 0) > 1 || (onOlder && p.older));
  if (!onPick || pickable.length === 0) return null;
  return (
    <div class="stack comparison-picks">
      {pickable.map((playbook) => (
        <div key={playbook.id} class="stack">
          <label class="stack">
            {/* The title isolated: a Latin title inside Arabic words stays one piece when it wraps. */}
            <span>{isolatedMessage(t('backtests.shared.pick'), { title: playbook.title })}</span>
            <select
              value={playbook.backtest?.id ?? ''}
              onChange={(event) => onPick(playbook.id, event.currentTarget.value)}
            >
              {playbook.choices?.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {t('backtests.rangeVersus', {
                    start: formatDay(choice.start),
                    end: formatDay(choice.end),
                    benchmark: choice.benchmark,
                  })}
                </option>
              ))}
            </select>
          </label>
          {onOlder && playbook.older ? <OlderButton playbook={playbook} onOlder={onOlder} /> : null}
        </div>
      ))}
    </div>
  );
}

/** Reads the playbook's next list pages, so that its older backtests can be picked too. */
function OlderButton({ playbook, onOlder }: { playbook: ComparedPlaybook; onOlder: (id: string) => void }) {
  return (
    <>
      <button type="button" disabled={playbook.older?.loading} onClick={() => onOlder(playbook.id)}>
        {isolatedMessage(t('backtests.shared.older'), { title: playbook.title })}
      </button>
      <ProblemMessage problem={playbook.older?.error} />
    </>
  );
}

function MetricsTable({ playbooks, chart }: { playbooks: ComparedPlaybook[]; chart: ComparisonChart }) {
  return (
    <div class="chart-table">
      <table aria-label={t('backtests.comparison.metrics')} class="comparison-metrics">
        <thead>
          <tr>
            <th scope="col">{t('backtests.comparison.playbook')}</th>
            {METRIC_COLUMNS.map(({ name, short }) => (
              <th key={name} scope="col">
                {/* Short on screen, so the figures fit a 400 px panel; the full name is the header's name and its tooltip. */}
                <abbr title={t(name)} aria-hidden="true">
                  {t(short)}
                </abbr>
                <span class="visually-hidden">{t(name)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {playbooks.map(({ id, title, backtest }) => {
            const figures = chart.figures.get(id);
            return (
              <tr key={id}>
                <th scope="row">
                  {title}
                  {backtest ? (
                    <span class="hint period">
                      {t('backtests.versus', { benchmark: backtest.benchmark })}
                    </span>
                  ) : null}
                </th>
                {figures ? (
                  <>
                    <td>{formatReturn(figures.totalReturn)}</td>
                    <td>{formatReturn(figures.benchmarkReturn)}</td>
                    <td>{formatReturn(figures.maxDrawdown, false)}</td>
                  </>
                ) : (
                  <td colSpan={METRIC_COLUMNS.length}>
                    {t(backtest ? 'backtests.shared.notCompared' : 'backtests.comparison.noBacktest')}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The chosen backtests of the chosen playbooks over the period they all cover, drawn and in figures. */
export function ComparisonView({ playbooks, loading, error, onClose, onPick, onOlder }: ComparisonViewProps) {
  const chart = useMemo(() => (playbooks ? comparisonChart(playbooks) : undefined), [playbooks]);
  return (
    <section class="stack card comparison" aria-label={t('backtests.comparison.region')}>
      <div class="row">
        <h3>{t('backtests.comparison.heading')}</h3>
        <button type="button" onClick={onClose}>
          {t('backtests.comparison.close')}
        </button>
      </div>
      <ProblemMessage problem={error} />
      {loading ? <p class="hint">{t('backtests.comparison.reading')}</p> : null}
      {playbooks ? <BacktestPicks playbooks={playbooks} onPick={onPick} onOlder={onOlder} /> : null}
      {chart?.notes.map((note) => (
        <p key={note} class="hint" role="note">
          {note}
        </p>
      ))}
      {chart?.noOverlap ? <p role="note">{t('backtests.shared.noOverlap')}</p> : null}
      {chart?.period ? (
        <p class="comparison-period">
          {t('backtests.shared.period', {
            start: formatDay(chart.period.start),
            end: formatDay(chart.period.end),
            // The locale's own percent, as on the chart's axis ("0%", "0 %", "0٪").
            zero: formatAxisPercent(0, 0),
          })}
        </p>
      ) : null}
      {chart?.period && chart.lines.length > 0 ? (
        <EquityChart
          name={t('backtests.comparison.chart')}
          tableName={t('backtests.comparison.data')}
          dates={chart.dates}
          lines={chart.lines}
          format={chartFormat}
        />
      ) : null}
      {playbooks && chart ? <MetricsTable playbooks={playbooks} chart={chart} /> : null}
      <PastResults />
    </section>
  );
}
