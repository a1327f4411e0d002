import { ProblemMessage } from '@/components/ProblemMessage';
import { isolatedMessage } from '@/components/ServiceText';
import type { ErrorParts } from '@/lib/pages/errorText';
import { formatDay, formatPercent } from '@/lib/backtests/format';
import type { Performance } from '@/lib/contract/catalyst';
import { formatCurrency, t } from '@/lib/i18n';
import type { SavedCopy } from '@/lib/contract/wire';
import { SavedCopyMark } from './SavedCopyMark';

export interface SinceCapturedSectionProps {
  performance?: Performance;
  loading: boolean;
  error?: ErrorParts;
  /** The service could not be reached and nothing was saved (the detail says it once for its sections). */
  unreachable?: boolean;
  /** Shown from the copy saved when the playbook was last opened. */
  savedCopy?: SavedCopy;
}

/** "+14.0% since Jan 6, 2025 · SPY +8.2%", or, without tickers, that there is no return. */
export function sinceCapturedSummary(performance: Performance): string {
  const values = {
    date: formatDay(performance.since),
    benchmark: performance.benchmark.symbol,
    benchmarkReturn: formatPercent(performance.benchmark.return, true),
  };
  return performance.return === null
    ? t('sinceCaptured.noReturn', values)
    : t('sinceCaptured.summary', { ...values, return: formatPercent(performance.return, true) });
}

function TickerTable({ tickers }: { tickers: Performance['tickers'] }) {
  return (
    <table aria-label={t('sinceCaptured.tickers')}>
      <thead>
        <tr>
          <th scope="col">{t('sinceCaptured.symbol')}</th>
          <th scope="col">{t('sinceCaptured.move')}</th>
          <th scope="col">{t('sinceCaptured.return')}</th>
        </tr>
      </thead>
      <tbody>
        {tickers.map((ticker) => (
          <tr key={ticker.symbol}>
            <th scope="row">{ticker.symbol}</th>
            <td>
              {/* Each amount isolated left to right ("100.00 US$" stays whole in Arabic); the arrow is the locale's, as in the header. */}
              {isolatedMessage(
                t('sinceCaptured.priceMove'),
                {
                  start: formatCurrency(ticker.start_price, ticker.currency),
                  last: formatCurrency(ticker.last_price, ticker.currency),
                },
                ['start', 'last'],
              )}
            </td>
            <td>{formatPercent(ticker.return, true)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** How the idea has done since it was captured: the playbook against its benchmark, then each ticker. */
export function SinceCapturedSection({ performance, loading, error, savedCopy }: SinceCapturedSectionProps) {
  return (
    <section class="stack since-captured" aria-label={t('sinceCaptured.region')}>
      <h3>{t('sinceCaptured.heading')}</h3>
      <SavedCopyMark saved={savedCopy} />
      <ProblemMessage problem={error} />
      {!performance && loading ? <p class="hint">{t('sinceCaptured.loading')}</p> : null}
      {performance ? (
        <>
          <p class="figure">{sinceCapturedSummary(performance)}</p>
          {performance.tickers.length > 0 ? <TickerTable tickers={performance.tickers} /> : null}
          <p class="hint">
            <time dateTime={performance.as_of}>
              {t('sinceCaptured.asOf', { date: formatDay(performance.as_of) })}
            </time>
          </p>
          <p class="disclaimer">{t('sinceCaptured.pastMoves')}</p>
        </>
      ) : null}
    </section>
  );
}
