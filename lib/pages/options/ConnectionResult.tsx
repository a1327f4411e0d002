import type { ServiceOverview } from '@/lib/messaging/protocol';

export interface ConnectionResultProps {
  testing?: boolean;
  result?: ServiceOverview;
  error?: string;
}

/** What "Test connection" found: discovery, service status and the account behind the key. */
export function ConnectionResult({ testing, result, error }: ConnectionResultProps) {
  if (testing)
    return (
      <p class="hint" role="status">
        Testing the connection…
      </p>
    );
  if (error)
    return (
      <p class="error" role="status">
        {error}
      </p>
    );
  if (!result) return null;
  const discovery = result.discovery;
  const ok = Boolean(result.account && discovery && discovery.documentsFailed === 0);
  return (
    <div
      class={`test-result ${ok ? 'ok-box' : 'warn-box'}`}
      role="status"
      aria-label="Connection test result"
    >
      <p>
        <strong>{ok ? 'Connected.' : 'Connected with problems.'}</strong>
      </p>
      <dl class="status-grid">
        <dt>Discovery</dt>
        <dd>
          {discovery
            ? `${discovery.documentsOk} documents fetched, ${discovery.documentsFailed} failed; ${discovery.skillsVerified} skills verified${discovery.skillsFailed ? `, ${discovery.skillsFailed} not verified` : ''}`
            : 'Could not run.'}
        </dd>
        <dt>Service</dt>
        <dd>{result.status ? result.status.status : (result.statusError?.message ?? 'Unknown')}</dd>
        <dt>Account</dt>
        <dd class={result.account ? '' : 'error'}>
          {result.account
            ? `${result.account.name} (${result.account.email}) · ${result.account.plan} plan`
            : (result.accountError?.message ?? 'Not read.')}
        </dd>
      </dl>
    </div>
  );
}
