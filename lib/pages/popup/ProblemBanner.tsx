import type { ComponentChildren } from 'preact';
import { ProblemDetails } from '@/components/ProblemMessage';
import { clockTime, type ProblemView } from './format';
import { withParts } from './withParts';
import { sentenceGap, t, type TextKey } from '@/lib/i18n';

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
        {/* The status code and the worker's wording are technical: under Details only. */}
        <ProblemDetails
          lines={[
            problem.status !== undefined
              ? t('errors.discovery.httpStatus', { status: String(problem.status) })
              : undefined,
            problem.message,
          ]}
        />
      </div>
    );
  }
  if (problem.kind === 'forbidden') {
    return (
      <div class="callout problem" role="alert">
        <h2>{t('popup.problem.forbiddenHeading')}</h2>
        <p>{t('popup.problem.forbiddenBody')}</p>
        <ProblemDetails lines={[problem.code, problem.message]} />
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
        <ProblemDetails lines={[problem.message]} />
        <button type="button" onClick={onRetry}>
          {t('popup.problem.retry')}
        </button>
      </div>
    );
  }
  // The heading and what to do in the user's words; the worker's wording (operation, retries) under Details.
  return (
    <div class="callout problem" role="alert">
      <h2>{t(FAILURE_HEADING[problem.kind])}</h2>
      <p>{whatToDo(problem, serviceUrl)}</p>
      <ProblemDetails lines={[problem.message]} />
      <button type="button" onClick={onRetry}>
        {t('popup.problem.retry')}
      </button>
    </div>
  );
}

const FAILURE_HEADING: Record<'offline' | 'service-trouble' | 'rate-limited' | 'other', TextKey> = {
  offline: 'popup.problem.offline',
  'service-trouble': 'popup.problem.serviceTrouble',
  'rate-limited': 'popup.problem.rateLimited',
  other: 'popup.problem.unexpected',
};

/**
 * What the user can do about a read that failed: wait (until when, if known), check the connection
 * (the service was not reached), or try again, later if the service said it is in trouble.
 */
function whatToDo(problem: ProblemView, serviceUrl: string | undefined): ComponentChildren {
  if (problem.kind === 'rate-limited')
    return problem.retryAt === undefined
      ? t('pageProblem.wait')
      : t('popup.problem.rateLimitedUntil', { clock: clockTime(problem.retryAt) });
  if (problem.kind === 'offline') return t('pageProblem.retry');
  const statusPage = serviceUrl ? `${serviceUrl}/status` : undefined;
  const body =
    problem.kind === 'service-trouble' ? 'popup.problem.serviceTroubleBody' : 'popup.problem.unexpectedBody';
  return withParts(body, {
    statusPage: statusPage ? (
      <a href={statusPage} target="_blank" rel="noreferrer">
        {t('popup.problem.statusPage')}
      </a>
    ) : (
      t('popup.problem.statusPage')
    ),
  });
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
