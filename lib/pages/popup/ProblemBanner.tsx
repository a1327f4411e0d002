import type { ProblemView } from './format';
import { withParts } from './withParts';
import { sentenceGap, t } from '@/lib/i18n';

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
        <h2>{t('popup.problem.unauthorizedHeading')}</h2>
        <p>
          {withParts('popup.problem.unauthorizedBody', {
            keyPage: keyPage ? (
              <a href={keyPage} target="_blank" rel="noreferrer">
                {keyPage}
              </a>
            ) : (
              '/apikey'
            ),
            options: (
              <a href={optionsUrl} target="_blank" rel="noreferrer">
                {t('popup.problem.options')}
              </a>
            ),
          })}
        </p>
      </div>
    );
  }
  if (problem.kind === 'forbidden') {
    return (
      <div class="callout problem" role="alert">
        <h2>{t('popup.problem.forbiddenHeading')}</h2>
        <p>
          {problem.code
            ? t('popup.problem.forbiddenBodyCode', { code: problem.code, message: problem.message })
            : t('popup.problem.forbiddenBody', { message: problem.message })}
        </p>
      </div>
    );
  }
  if (problem.kind === 'document-refused') {
    // The list is unknown, not empty: what to do first, the document's contradiction behind Details.
    const statusPage = serviceUrl ? `${serviceUrl}/status` : undefined;
    return (
      <div class="callout problem" role="alert">
        <h2>{t('popup.problem.documentRefusedHeading')}</h2>
        <p>
          {withParts('popup.problem.documentRefusedBody', {
            statusPage: statusPage ? (
              <a href={statusPage} target="_blank" rel="noreferrer">
                {t('popup.problem.statusPage')}
              </a>
            ) : (
              t('popup.problem.statusPage')
            ),
          })}
        </p>
        <details>
          <summary>{t('popup.problem.details')}</summary>
          <p class="problem-details">{problem.message}</p>
        </details>
        <button type="button" onClick={onRetry}>
          {t('popup.problem.retry')}
        </button>
      </div>
    );
  }
  const title =
    problem.kind === 'offline'
      ? t('popup.problem.offline')
      : problem.kind === 'rate-limited'
        ? t('popup.problem.rateLimited')
        : t('popup.problem.unexpected');
  // A wait is the user's business (when to try again); a failure's wording is technical: Details.
  return (
    <div class="callout problem" role="alert">
      <h2>{title}</h2>
      {problem.kind === 'rate-limited' ? (
        <p class="problem-details">{problem.message}</p>
      ) : (
        <details>
          <summary>{t('popup.problem.details')}</summary>
          <p class="problem-details">{problem.message}</p>
        </details>
      )}
      <button type="button" onClick={onRetry}>
        {t('popup.problem.retry')}
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
      <h2>{t('popup.problem.insecureHeading')}</h2>
      <p>
        {message}
        {sentenceGap()}
        <a href={optionsUrl} target="_blank" rel="noreferrer">
          {t('popup.problem.openOptions')}
        </a>
      </p>
    </div>
  );
}
