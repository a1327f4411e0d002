import { t } from '@/lib/i18n';

/**
 * The technical record of a failure (operation, status, retries), one click away under "Details"
 * below the line that says it in the user's words. Renders nothing without one.
 */
export function ProblemDetails({ details }: { details: string | undefined }) {
  if (!details) return null;
  return (
    <details class="problem-details">
      <summary>{t('confirm.details')}</summary>
      <p class="hint">{details}</p>
    </details>
  );
}
