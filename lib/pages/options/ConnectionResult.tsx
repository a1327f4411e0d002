import { plural, t } from '@/lib/i18n';
import { planName } from '@/lib/pages/playbookWords';
import type { ServiceOverview } from '@/lib/messaging/protocol';
import type { ApiErrorData } from '@/lib/contract/api';
import { meaningOf } from '@/lib/messaging/errors';
import type { ErrorParts } from '@/lib/pages/errorText';
import { apiErrorParts } from './overviewProblems';
import { ProblemDetails } from '@/components/ProblemMessage';
import { isolatedMessage } from '@/components/ServiceText';

export interface ConnectionResultProps {
  testing?: boolean;
  result?: ServiceOverview;
  error?: ErrorParts;
}

/** "3 documents fetched, 0 failed; 2 skills verified, 1 not verified", with the UI language's punctuation. */
function discoveryText(discovery: NonNullable<ServiceOverview['discovery']>): string {
  const comma = t('common.separator.list');
  const documents = [
    plural('common.discovery.documentsFetched', discovery.documentsOk),
    plural('common.discovery.documentsFailed', discovery.documentsFailed),
  ].join(comma);
  const skills = [plural('common.discovery.skillsVerified', discovery.skillsVerified)];
  if (discovery.skillsFailed)
    skills.push(plural('common.discovery.skillsNotVerified', discovery.skillsFailed));
  return `${documents}${t('common.separator.clause')}${skills.join(comma)}`;
}

/** A read that failed, in the user's words, its technical record under Details; `fallback` when none is known. */
function ReadProblem({ error, fallback }: { error: ApiErrorData | undefined; fallback: string }) {
  if (!error) return <>{fallback}</>;
  const parts = apiErrorParts(error);
  return (
    <>
      {parts.message}
      <ProblemDetails lines={[parts.details]} />
    </>
  );
}

/** A read that never reached the service, by the one error table (none read counts as not reached). */
const offline = (error: ApiErrorData | undefined) =>
  !error || meaningOf(`api.${error.kind}`).problem === 'offline';

/** What "Test connection" found: discovery, service status and the account behind the key. */
export function ConnectionResult({ testing, result, error }: ConnectionResultProps) {
  if (testing)
    return (
      <p class="hint" role="status">
        {t('options.testing')}
      </p>
    );
  if (error)
    return (
      <div>
        <p class="error" role="status">
          {error.message}
        </p>
        <ProblemDetails lines={[error.details]} />
      </div>
    );
  if (!result) return null;
  const discovery = result.discovery;
  const ok = Boolean(result.account && discovery && discovery.documentsFailed === 0);
  // Neither the status nor the account answered (the error table calls both failures "offline";
  // a server error is an answer, so the service was reached):
  // not "connected", whatever an earlier discovery fetched.
  const reached =
    Boolean(result.status || result.account) || ![result.statusError, result.accountError].every(offline);
  const heading = ok ? 'options.connected' : reached ? 'options.connectedProblems' : 'options.notConnected';
  return (
    <div
      class={`test-result ${ok ? 'ok-box' : reached ? 'warn-box' : 'error-box'}`}
      role="status"
      aria-label={t('options.resultLabel')}
    >
      <p>
        <strong>{t(heading)}</strong>
      </p>
      <dl class="status-grid">
        <dt>{t('options.discovery')}</dt>
        <dd>{discovery ? discoveryText(discovery) : t('options.discoveryFailed')}</dd>
        <dt>{t('options.service')}</dt>
        <dd>
          {result.status ? (
            t(`common.serviceStatus.${result.status.status}`)
          ) : (
            <ReadProblem error={result.statusError} fallback={t('options.unknown')} />
          )}
        </dd>
        <dt>{t('options.account')}</dt>
        <dd class={result.account ? '' : 'error'}>
          {result.account ? (
            isolatedMessage(
              t('options.accountLine'),
              { name: result.account.name, email: result.account.email, plan: planName(result.account.plan) },
              ['email'],
            )
          ) : (
            <ReadProblem error={result.accountError} fallback={t('options.notRead')} />
          )}
        </dd>
      </dl>
    </div>
  );
}
