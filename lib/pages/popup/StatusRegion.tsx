import type { AppState, ServiceOverview } from '@/lib/messaging/protocol';
import { clockTime, relativeTime } from './format';

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

const STATUS_TEXT = { operational: 'Operational', degraded: 'Degraded', outage: 'Outage' } as const;

function keyLine(
  state: AppState | undefined,
  overview: ServiceOverview | undefined,
): { text: string; tone: string } {
  if (!state) return { text: 'Checking…', tone: '' };
  if (!state.key.set) return { text: 'Not set', tone: 'warn' };
  const ends = `ends in ${state.key.last4 ?? '????'}`;
  if (overview?.account) return { text: `Stored (${ends}) · valid`, tone: 'ok' };
  const kind = overview?.accountError?.kind;
  if (kind === 'unauthorized') return { text: `Stored (${ends}) · rejected by the service`, tone: 'error' };
  if (kind === 'forbidden')
    return { text: `Stored (${ends}) · not allowed to read the account`, tone: 'warn' };
  if (overview?.accountError) return { text: `Stored (${ends}) · not checked`, tone: 'muted' };
  return { text: `Stored (${ends})`, tone: '' };
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
      aria-label="Service status"
      class="status-region"
      aria-busy={loading ? 'true' : undefined}
    >
      <div class="status-head">
        <h2>Service status</h2>
        {service ? (
          <span class={`pill svc-${service}`}>{STATUS_TEXT[service]}</span>
        ) : overview?.statusError ? (
          <span class="pill svc-unknown">Unreachable</span>
        ) : (
          <span class="pill svc-unknown">{loading ? 'Checking…' : 'Unknown'}</span>
        )}
        {onRefresh ? (
          <button type="button" class="small" onClick={onRefresh} disabled={loading}>
            Refresh status
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
        <dt>Service</dt>
        <dd>{state?.settings.serviceUrl ?? '…'}</dd>
        <dt>API key</dt>
        <dd class={key.tone}>{key.text}</dd>
        {overview?.account ? (
          <>
            <dt>Account</dt>
            <dd>
              {overview.account.name} · {overview.account.plan} plan
            </dd>
          </>
        ) : null}
        <dt>Discovery</dt>
        <dd>
          {discovery
            ? `${discovery.documentsOk} documents fetched${
                discovery.documentsFailed ? `, ${discovery.documentsFailed} failed` : ''
              } · ${discovery.skillsVerified} skills verified${
                discovery.skillsFailed ? `, ${discovery.skillsFailed} not verified` : ''
              }${discovery.stale ? ' · stale' : ''} · ${relativeTime(discovery.fetchedAt, now)}`
            : loading
              ? 'Checking…'
              : 'Not run yet'}
        </dd>
        {rate && (rate.remaining !== undefined || held) ? (
          <>
            <dt>Rate limit</dt>
            <dd class={held ? 'warn' : ''}>
              {held
                ? `Paused until ${clockTime(rate.heldUntil ?? now)}`
                : `${rate.remaining}${rate.quota !== undefined ? ` of ${rate.quota}` : ''} requests left${
                    rate.resetAt !== undefined ? `, resets ${clockTime(rate.resetAt)}` : ''
                  }`}
            </dd>
          </>
        ) : null}
        {state && state.hostAccess.missingOrigins.length > 0 ? (
          <>
            <dt>Access</dt>
            <dd class="warn">Not yet granted for {state.hostAccess.missingOrigins.join(', ')}</dd>
          </>
        ) : null}
      </dl>
      {overview && overview.deprecations.length > 0 ? (
        <ul class="deprecations" aria-label="Deprecation warnings">
          {overview.deprecations.map((notice) => (
            <li key={notice.operationId} class="warn">
              {notice.operationId} is deprecated
              {notice.sunsetAt !== undefined
                ? `; ${notice.sunsetAt <= now ? 'past its sunset since' : 'sunset on'} ${new Date(notice.sunsetAt).toISOString().slice(0, 10)}`
                : ''}
              {notice.replacedBy ? `; replaced by ${notice.replacedBy}` : ''}.
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
