import type { ErrorParts } from '@/lib/pages/errorText';
import { t } from '@/lib/i18n';

/**
 * A failure in the user's terms, announced when it appears; the technical record (operation,
 * status, retries) one click away under "Details". Renders nothing without one.
 */
export function ProblemMessage({ problem }: { problem: ErrorParts | undefined }) {
  if (!problem) return null;
  return (
    <div class="problem">
      <p role="alert" class="error">
        {problem.message}
      </p>
      {problem.details ? (
        <details class="problem-details">
          <summary>{t('popup.problem.details')}</summary>
          <p class="hint">{problem.details}</p>
        </details>
      ) : null}
    </div>
  );
}
