import type { AppState } from '@/lib/messaging/protocol';

export interface StatusRegionProps {
  state?: AppState;
  error?: string;
}

/** What the extension knows about its service right now. */
export function StatusRegion({ state, error }: StatusRegionProps) {
  return (
    <section role="region" aria-label="Service status" class="stack">
      {error ? <p class="error">{error}</p> : null}
      {!state && !error ? <p class="hint">Checking the service…</p> : null}
      {state ? (
        <dl>
          <dt>Service</dt>
          <dd>{state.settings.serviceUrl}</dd>
          <dt>API key</dt>
          <dd>{state.key.set ? `Stored (ends in ${state.key.last4 ?? '????'})` : 'Not set'}</dd>
          {state.hostAccess.missingOrigins.length > 0 ? (
            <>
              <dt>Access</dt>
              <dd class="warn">Not yet granted for {state.hostAccess.missingOrigins.join(', ')}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
    </section>
  );
}
