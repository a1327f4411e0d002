// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppState, ServiceOverview } from '@/lib/messaging/protocol';
import { OptionsPage } from '@/lib/pages/options/OptionsPage';
import { serveMessages, workerFailure } from '../support';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const state: AppState = {
  version: '0.1.0',
  settings: { serviceUrl: 'http://127.0.0.1:8787', apiUrl: 'http://127.0.0.1:8787/api/v1', pollMinutes: 5 },
  key: { set: true },
  hostAccess: { missingOrigins: [] },
};

const GAVE_UP = 'getAccount failed after 2 attempts: the service answered 503 (the retry budget is spent).';
const STATUS_GAVE_UP =
  'getStatus failed after 2 attempts: the service could not be reached (no attempts left).';

/** The text a user sees without opening anything: a closed "Details" shows its summary only. */
function visibleText(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('details > :not(summary)')) hidden.remove();
  return copy.textContent ?? '';
}

/** The one "Details" disclosure inside `element`, and what it holds. */
function detailsIn(element: Element): string {
  const details = element.querySelectorAll('details');
  expect(details).toHaveLength(1);
  expect(details[0].querySelector('summary')?.textContent).toBe('Details');
  return details[0].textContent ?? '';
}

async function testConnection() {
  fireEvent.click(await screen.findByRole('button', { name: 'Test connection' }));
}

describe('The options page says failures in the user’s words', () => {
  it('keeps the account and status reads’ technical text under Details', async () => {
    const overview: ServiceOverview = {
      deprecations: [],
      statusError: { name: 'ApiError', kind: 'network', operationId: 'getStatus', message: STATUS_GAVE_UP },
      accountError: {
        name: 'ApiError',
        kind: 'server',
        operationId: 'getAccount',
        message: GAVE_UP,
        status: 503,
      },
    };
    serveMessages(
      { getState: () => state, listSites: () => ({ extra: [] }), testConnection: () => overview },
      '/options.html',
    );
    render(<OptionsPage />);
    await testConnection();
    const result = await screen.findByRole('status', { name: 'Connection test result' });
    const shown = visibleText(result);
    for (const technical of ['failed after', 'getAccount', 'getStatus', 'retry budget', 'attempts'])
      expect(shown).not.toContain(technical);
    expect(shown).toContain('The service is having trouble right now.');
    expect(shown).toContain('The service could not be reached.');
    const cells = result.querySelectorAll('dd');
    expect(detailsIn(cells[1])).toContain(STATUS_GAVE_UP);
    expect(detailsIn(cells[2])).toContain(GAVE_UP);
  });

  it('says a failed connection test in the table’s words, the operation and retries under Details', async () => {
    serveMessages(
      {
        getState: () => state,
        listSites: () => ({ extra: [] }),
        testConnection: () => {
          throw workerFailure({
            code: 'api.server',
            message: GAVE_UP,
            details: { operationId: 'getAccount' },
          });
        },
      },
      '/options.html',
    );
    render(<OptionsPage />);
    await testConnection();
    const section = (await screen.findByRole('heading', { name: 'Connection' })).closest('section')!;
    await screen.findByText(/The service is having trouble right now\./);
    const shown = visibleText(section);
    expect(shown).not.toContain('failed after');
    expect(shown).not.toContain('getAccount');
    expect(detailsIn(section)).toContain(GAVE_UP);
  });

  it('says a failed save in the table’s words on the status line, its record under Details', async () => {
    serveMessages(
      {
        getState: () => state,
        listSites: () => ({ extra: [] }),
        saveSettings: () => {
          throw workerFailure({
            code: 'api.timeout',
            message: GAVE_UP,
            details: { operationId: 'getAccount' },
          });
        },
      },
      '/options.html',
    );
    render(<OptionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    const line = await screen.findByText(/The service did not answer in time\./);
    expect(line.textContent).not.toContain('failed after');
    const form = line.closest('form')!;
    expect(visibleText(form)).not.toContain('getAccount');
    expect(detailsIn(form)).toContain(GAVE_UP);
  });
});
