// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageErrorCode } from '@/lib/contract/wire';
import { clockTime, problemOf } from '@/lib/pages/popup/format';
import { ProblemBanner } from '@/lib/pages/popup/ProblemBanner';
import { apiFailureParts } from '@/lib/pages/errorText';
import { useLocale } from '../../../fixtures/i18n';

/**
 * Issue 33: the popup's banner for a failed read says what happened and what to do in the user's
 * words; the worker's record (operation, attempts, retry budget) only under "Details".
 */

afterEach(cleanup);
beforeEach(() => useLocale('en'));

const record =
  'listPlaybooks failed after 2 attempts: the service could not be reached (the retry budget is spent).';

function banner(code: MessageErrorCode, extra: Record<string, unknown> = {}) {
  const problem = problemOf({ code, message: record, details: { operationId: 'listPlaybooks', ...extra } });
  render(
    <ProblemBanner
      problem={problem}
      serviceUrl="https://agent.example"
      optionsUrl="chrome-extension://x/options.html"
      onRetry={() => undefined}
    />,
  );
  const alert = screen.getByRole('alert');
  const details = alert.querySelector('details');
  const main = [...alert.childNodes]
    .filter((node) => node !== details)
    .map((node) => node.textContent)
    .join(' ');
  return { main, details };
}

describe('the popup’s problem banner', () => {
  it.each([
    ['service down', 'api.network', {}, 'Check your connection, then try again.'],
    ['service in trouble', 'api.server', { status: 503 }, 'Try again in a little while.'],
    ['rate-limited, no time given', 'api.rate-limited', {}, 'Try again in a little while.'],
    [
      'key refused',
      'api.unauthorized',
      { status: 401 },
      'The service refused this API key. Check it in the options',
    ],
    ['not allowed', 'api.forbidden', { status: 403, code: 'plan_limit' }, 'Check your plan'],
    ['document refused', 'api.document-refused', {}, 'Check the service'],
    ['anything else', 'api.not-found', {}, 'If it keeps happening, check the service'],
  ] as const)('%s: what to do in the main text; the record only under Details', (_, code, extra, todo) => {
    const { main, details } = banner(code, extra);
    expect(main).toContain(todo);
    expect(main).not.toMatch(/failed after|listPlaybooks|retry budget/);
    // A status code is technical: never in the main text.
    expect(main).not.toMatch(/\b(401|403|503)\b/);
    expect(details?.querySelector('summary')?.textContent).toBe('Details');
    expect(details?.textContent).toContain(record);
    // An English record keeps its full stop at its end on a right-to-left page.
    expect(details?.querySelector('p')?.getAttribute('dir')).toBe('auto');
  });

  it('a wait with a time says until when; the service’s problem code is under Details too', () => {
    const at = Date.UTC(2026, 0, 7, 14, 5);
    expect(banner('api.rate-limited', { retryAt: at }).main).toContain(`Try again after ${clockTime(at)}.`);
    cleanup();
    const forbidden = banner('api.forbidden', { status: 403, code: 'plan_limit' });
    expect(forbidden.main).not.toContain('plan_limit');
    expect(forbidden.details?.textContent).toContain('plan_limit');
  });
});

describe('a server error is not the user’s connection', () => {
  it('the banner: a 503 says the service is in trouble, a network failure says to check the connection', () => {
    const server = banner('api.server', { status: 503 });
    const heading = screen.getByRole('heading').textContent;
    cleanup();
    const network = banner('api.network');
    expect(heading).toBe('The service is having trouble');
    expect(server.main).toContain('The service answered but could not handle the request.');
    expect(server.main).not.toContain('connection');
    expect(screen.getByRole('heading').textContent).toBe('The service could not be reached');
    expect(network.main).toContain('Check your connection, then try again.');
  });

  it('what every other page says (side panel, options, confirm window): the same difference', () => {
    expect(apiFailureParts('api.server', 'getPlaybook failed: 503').message).toBe(
      'The service is having trouble right now. Try again in a little while.',
    );
    expect(apiFailureParts('api.network', 'getPlaybook failed').message).toBe(
      'The service could not be reached. Check your connection, then try again.',
    );
    expect(apiFailureParts('api.timeout', 'getPlaybook failed').message).toBe(
      'The service did not answer in time. Check your connection, then try again.',
    );
  });

  it('in German too', () => {
    useLocale('de');
    expect(apiFailureParts('api.server', 'x').message).toBe(
      'Der Dienst hat gerade Probleme. Versuchen Sie es in Kürze erneut.',
    );
    expect(apiFailureParts('api.network', 'x').message).not.toContain('Kürze');
  });
});
