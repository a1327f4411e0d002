import type { AppState, ServiceOverview } from '@/lib/messaging/protocol';
import { planName } from '@/lib/pages/playbookWords';
import { clockTime, relativeTime } from './format';
import { formatDate, plural, t, formatList } from '@/lib/i18n';
import { apiCode, meaningOf } from '@/lib/messaging/errors';

export interface StatusRegionProps {
  state?: AppState;
  overview?: ServiceOverview;
  /** The overview itself could not be read (the extension did not answer). */
  error?: string;
  loading?: boolean;
  /** The clock for relative times; defaults to the time of rendering. */
  now?: number;
  onRefresh?: () => void;
  /** The button's words when it does more than refresh the status ("Retry" for a failed list). */
  refreshLabel?: string;
  /** A banner below already says the key was refused (with where to fix it): not said twice. */
  keyRefusalShown?: boolean;
}

function keyLine(
  state: AppState | undefined,
  overview: ServiceOverview | undefined,
): { text: string; tone: string } {
  if (!state) return { text: t('popup.status.checking'), tone: '' };
  if (!state.key.set) return { text: t('popup.status.keyNotSet'), tone: 'warn' };
  if (overview?.account) return { text: t('popup.status.keyValid'), tone: 'ok' };
  const kind = overview?.accountError?.kind;
  if (kind === 'unauthorized') return { text: t('popup.status.keyRejected'), tone: 'error' };
  if (kind === 'forbidden') return { text: t('popup.status.keyForbidden'), tone: 'warn' };
  if (overview?.accountError) return { text: t('popup.status.keyNotChecked'), tone: 'muted' };
  return { text: t('popup.status.keyStored'), tone: '' };
}

/** "3 documents fetched, 1 failed · 2 skills verified · stale · 5 minutes ago". */
function discoveryLine(discovery: NonNullable<ServiceOverview['discovery']>, now: number): string {
  const documents = [plural('common.discovery.documentsFetched', discovery.documentsOk)];
  if (discovery.documentsFailed)
    documents.push(plural('common.discovery.documentsFailed', discovery.documentsFailed));
  const skills = [plural('common.discovery.skillsVerified', discovery.skillsVerified)];
  if (discovery.skillsFailed)
    skills.push(plural('common.discovery.skillsNotVerified', discovery.skillsFailed));
  const comma = t('common.separator.list');
  return [
    documents.join(comma),
    skills.join(comma),
    ...(discovery.stale ? [t('popup.status.stale')] : []),
    relativeTime(discovery.fetchedAt, now),
  ].join(' · ');
}

/** "12 of 60 requests left, resets 14:05", or the pause while the service holds requests back. */
function rateLine(rate: NonNullable<ServiceOverview['rateLimit']>, held: boolean, now: number): string {
  if (held) return t('popup.status.pausedUntil', { clock: clockTime(rate.heldUntil ?? now) });
  const remaining = rate.remaining ?? 0;
  const left =
    rate.quota !== undefined
      ? plural('popup.status.requestsLeftOf', remaining, { quota: rate.quota })
      : plural('popup.status.requestsLeft', remaining);
  return rate.resetAt !== undefined
    ? `${left}${t('common.separator.list')}${t('popup.status.resets', { clock: clockTime(rate.resetAt) })}`
    : left;
}

/** "listPlaybooks is deprecated; sunset on 1 Dec 2026; replaced by listPlaybooksV2." */
function deprecationLine(notice: ServiceOverview['deprecations'][number], now: number): string {
  const parts = [t('popup.status.deprecated', { operation: notice.operationId })];
  if (notice.sunsetAt !== undefined) {
    const date = formatDate(notice.sunsetAt);
    parts.push(t(notice.sunsetAt <= now ? 'popup.status.sunsetPast' : 'popup.status.sunsetOn', { date }));
  }
  if (notice.replacedBy) parts.push(t('popup.status.replacedBy', { replacement: notice.replacedBy }));
  return `${parts.join(t('common.separator.clause'))}${t('common.separator.end')}`;
}

/**
 * The one word for the service: its own status; unreachable (not reached) or unavailable (it answered
 * with a server error), by the one error table; otherwise not known (yet).
 */
function serviceWord(
  overview: ServiceOverview | undefined,
  loading: boolean | undefined,
): { text: string; tone: string } {
  const service = overview?.status?.status;
  if (service) return { text: t(`common.serviceStatus.${service}`), tone: `svc-${service}` };
  const failed = overview?.statusError && meaningOf(apiCode(overview.statusError.kind)).problem;
  if (failed === 'offline') return { text: t('popup.status.unreachable'), tone: 'svc-outage' };
  if (failed === 'service-trouble') return { text: t('popup.status.unavailable'), tone: 'svc-outage' };
  if (failed) return { text: t('popup.status.unknown'), tone: 'svc-unknown' };
  return { text: loading ? t('popup.status.checking') : t('popup.status.unknown'), tone: 'svc-unknown' };
}

/** What needs the user now: troubled components, a refused key, a pause, access not granted. */
function problemLines(
  state: AppState | undefined,
  overview: ServiceOverview | undefined,
  now: number,
  keyRefusalShown = false,
): { text: string; tone: string }[] {
  const lines: { text: string; tone: string }[] = [];
  const troubled = overview?.status?.components.filter((c) => c.status !== 'operational') ?? [];
  if (troubled.length > 0)
    lines.push({ text: troubled.map((c) => `${c.name}: ${c.status}`).join(' · '), tone: 'warn' });
  const key = keyLine(state, overview);
  // A refused key (tone 'error') is said once: here, or in the banner that says where to fix it.
  if ((key.tone === 'error' && !keyRefusalShown) || key.tone === 'warn') lines.push(key);
  const rate = overview?.rateLimit;
  if (rate?.heldUntil !== undefined && rate.heldUntil > now)
    lines.push({ text: rateLine(rate, true, now), tone: 'warn' });
  if (state && state.hostAccess.missingOrigins.length > 0)
    lines.push({
      text: t('popup.status.notGranted', { origins: formatList(state.hostAccess.missingOrigins) }),
      tone: 'warn',
    });
  return lines;
}

/**
 * The service at a glance: a dot and a word, then the problems only when there are some. The full
 * record (address, key, account, discovery, limits, deprecations, a failure's technical message) is
 * one click away under "Details", wrapping inside the popup's width.
 */
export function StatusRegion({
  state,
  overview,
  error,
  loading,
  now = Date.now(),
  onRefresh,
  refreshLabel,
  keyRefusalShown,
}: StatusRegionProps) {
  const word = serviceWord(overview, loading);
  const problems = problemLines(state, overview, now, keyRefusalShown);
  return (
    <section
      role="region"
      aria-label={t('popup.status.heading')}
      class="status-region"
      aria-busy={loading ? 'true' : undefined}
    >
      <div class="status-head">
        <h2 class="visually-hidden">{t('popup.status.heading')}</h2>
        <span class={`status-word ${word.tone}`}>
          <span class="status-dot" aria-hidden="true" />
          {word.text}
        </span>
        {onRefresh ? (
          <button type="button" class="small" onClick={onRefresh} disabled={loading}>
            {refreshLabel ?? t('popup.status.refresh')}
          </button>
        ) : null}
      </div>
      {problems.map((line) => (
        <p key={line.text} class={line.tone}>
          {line.text}
        </p>
      ))}
      <details class="status-details">
        <summary>{t('popup.problem.details')}</summary>
        <StatusDetails state={state} overview={overview} error={error} loading={loading} now={now} />
      </details>
    </section>
  );
}

/** The technical record behind "Details": complete, and wrapping (a URL or a message never widens the popup). */
function StatusDetails({ state, overview, error, loading, now = Date.now() }: StatusRegionProps) {
  const key = keyLine(state, overview);
  const discovery = overview?.discovery;
  const rate = overview?.rateLimit;
  const held = rate?.heldUntil !== undefined && rate.heldUntil > now;
  return (
    <div class="status-details-body">
      {error ? <p class="error">{error}</p> : null}
      {overview?.statusError && !overview.status ? <p class="error">{overview.statusError.message}</p> : null}
      <dl class="status-grid">
        <dt>{t('popup.status.service')}</dt>
        <dd>{state?.settings.serviceUrl ?? '…'}</dd>
        <dt>{t('popup.status.apiKey')}</dt>
        <dd class={key.tone}>{key.text}</dd>
        {overview?.account ? (
          <>
            <dt>{t('popup.status.account')}</dt>
            <dd>
              {t('popup.status.accountPlan', {
                name: overview.account.name,
                plan: planName(overview.account.plan),
              })}
            </dd>
          </>
        ) : null}
        <dt>{t('popup.status.discovery')}</dt>
        <dd>
          {discovery
            ? discoveryLine(discovery, now)
            : loading
              ? t('popup.status.checking')
              : t('popup.status.notRun')}
        </dd>
        {rate && (rate.remaining !== undefined || held) ? (
          <>
            <dt>{t('popup.status.rateLimit')}</dt>
            <dd class={held ? 'warn' : ''}>{rateLine(rate, held, now)}</dd>
          </>
        ) : null}
        {state && state.hostAccess.missingOrigins.length > 0 ? (
          <>
            <dt>{t('popup.status.access')}</dt>
            <dd class="warn">
              {t('popup.status.notGranted', { origins: formatList(state.hostAccess.missingOrigins) })}
            </dd>
          </>
        ) : null}
      </dl>
      {overview && overview.deprecations.length > 0 ? (
        <ul class="deprecations" aria-label={t('popup.status.deprecations')}>
          {overview.deprecations.map((notice) => (
            <li key={notice.operationId} class="warn">
              {deprecationLine(notice, now)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
