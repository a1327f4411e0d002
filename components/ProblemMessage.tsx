import { t } from '@/lib/i18n';

/** A failure as a page shows it: the user's words, and the technical record when there is one. */
export interface Problem {
  /** What happened and what the user can do, in the UI language. */
  message: string;
  /** The operation, status and retries as the worker described them: shown only under "Details". */
  details?: string;
}

/**
 * A failure in the user's terms, announced when it appears; the technical record (operation,
 * status, retries) one click away under "Details". Both lines may hold service text in another
 * script: `dir="auto"` keeps an English record's full stop at its end on a right-to-left page.
 * Renders nothing without a problem.
 */
export function ProblemMessage({ problem }: { problem: Problem | null | undefined }) {
  if (!problem) return null;
  return (
    <div class="problem">
      <p role="alert" class="error" dir="auto">
        {problem.message}
      </p>
      <ProblemDetails lines={[problem.details]} />
    </div>
  );
}

/** The technical record of a failure, closed under "Details"; nothing when it has no line. */
export function ProblemDetails({ lines }: { lines: readonly (string | undefined)[] }) {
  const shown = lines.filter((line): line is string => Boolean(line));
  if (shown.length === 0) return null;
  return (
    <details class="problem-details">
      <summary>{t('popup.problem.details')}</summary>
      {shown.map((line) => (
        <p key={line} class="hint" dir="auto">
          {line}
        </p>
      ))}
    </details>
  );
}
