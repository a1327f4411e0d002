import type { AppState, ServiceOverview } from '@/lib/messaging/protocol';
import { clockTime, relativeTime } from './format';
import { formatDate, plural, t, formatList } from '@/lib/i18n';

export interface StatusRegionProps {
  state?: AppState;
  overview?: ServiceOverview;
  /** The overview itself could not be read (the extension did not answer). */
  error?: string;
  loading?: boolean;
  /** The clock for relative times; defaults to the time of rendering. */
  now?: number;
  onRefresh?: () => void;
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

/** What the extension knows about its service right now: status, key, discovery, limits. */
export function StatusRegion({
  state,
  overview,
  error,
  loading,
  now = Date.now(),
  onRefresh,
}: StatusRegionProps) {
  const service = overview?.status?.status;
  const key = keyLine(state, overview);
  const troubled = overview?.status?.components.filter((c) => c.status !== 'operational') ?? [];
  const discovery = overview?.discovery;
  const rate = overview?.rateLimit;
  const held = rate?.heldUntil !== undefined && rate.heldUntil > now;
  return (
    <section
      role="region"
      aria-label={t('popup.status.heading')}
      class="status-region"
      aria-busy={loading ? 'true' : undefined}
    >
      <div class="status-head">
        <h2>{t('popup.status.heading')}</h2>
        {service ? (
          <span class={`pill svc-${service}`}>{t(`common.serviceStatus.${service}`)}</span>
        ) : overview?.statusError ? (
          <span class="pill svc-unknown">{t('popup.status.unreachable')}</span>
        ) : (
          <span class="pill svc-unknown">
            {loading ? t('popup.status.checking') : t('popup.status.unknown')}
          </span>
        )}
        {onRefresh ? (
          <button type="button" class="small" onClick={onRefresh} disabled={loading}>
            {t('popup.status.refresh')}
          </button>
        ) : null}
      </div>
      {error ? <p class="error">{error}</p> : null}
      {overview?.statusError && !service ? <p class="error">{overview.statusError.message}</p> : null}
      {troubled.length > 0 ? (
        <p class="warn">
          {troubled.map((component) => `${component.name}: ${component.status}`).join(' · ')}
        </p>
      ) : null}
      <dl class="status-grid">
        <dt>{t('popup.status.service')}</dt>
        <dd>{state?.settings.serviceUrl ?? '…'}</dd>
        <dt>{t('popup.status.apiKey')}</dt>
        <dd class={key.tone}>{key.text}</dd>
        {overview?.account ? (
          <>
            <dt>{t('popup.status.account')}</dt>
            <dd>
              {t('popup.status.accountPlan', { name: overview.account.name, plan: overview.account.plan })}
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
    </section>
  );
}
