import type { ProblemView } from './format';

export interface ProblemBannerProps {
  problem: ProblemView;
  serviceUrl?: string;
  optionsUrl: string;
  onRetry: () => void;
}

/** A failed read, said plainly, with the one action that helps. */
export function ProblemBanner({ problem, serviceUrl, optionsUrl, onRetry }: ProblemBannerProps) {
  const keyPage = problem.link ?? (serviceUrl ? `${serviceUrl}/apikey` : undefined);
  if (problem.kind === 'no-key') return null;
  if (problem.kind === 'unauthorized') {
    return (
      <div class="callout problem" role="alert">
        <h2>Your API key was not accepted</h2>
        <p>
          The service answered 401: the key may be revoked or mistyped. Sign in or create a key at{' '}
          {keyPage ? (
            <a href={keyPage} target="_blank" rel="noreferrer">
              {keyPage}
            </a>
          ) : (
            '/apikey'
          )}
          , then save it in the{' '}
          <a href={optionsUrl} target="_blank" rel="noreferrer">
            options
          </a>
          .
        </p>
      </div>
    );
  }
  if (problem.kind === 'forbidden') {
    return (
      <div class="callout problem" role="alert">
        <h2>Not allowed</h2>
        <p>
          The service refused this for your account{problem.code ? ` (${problem.code})` : ''}:{' '}
          {problem.message}
        </p>
      </div>
    );
  }
  const title =
    problem.kind === 'offline'
      ? 'The service could not be reached'
      : problem.kind === 'rate-limited'
        ? 'Rate limit reached'
        : 'Something went wrong';
  return (
    <div class="callout problem" role="alert">
      <h2>{title}</h2>
      <p>{problem.message}</p>
      <button type="button" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

export interface InsecureSettingsBannerProps {
  message: string;
  optionsUrl: string;
}

/** Saved URLs that would carry the key over plain http: nothing is sent until they change. */
export function InsecureSettingsBanner({ message, optionsUrl }: InsecureSettingsBannerProps) {
  return (
    <div class="callout problem" role="alert">
      <h2>Nothing is sent over plain http</h2>
      <p>
        {message}{' '}
        <a href={optionsUrl} target="_blank" rel="noreferrer">
          Open Options
        </a>
      </p>
    </div>
  );
}
