// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StatusRegion } from '@/lib/pages/popup/StatusRegion';
import type { AppState, ServiceOverview } from '@/lib/messaging/protocol';

afterEach(cleanup);

const NOW = Date.parse('2026-03-01T12:00:00Z');
const state: AppState = {
  version: '0.1.0',
  settings: { serviceUrl: 'http://127.0.0.1:8787', apiUrl: 'http://127.0.0.1:8787/api/v1', pollMinutes: 5 },
  key: { set: true, savedAt: Date.UTC(2026, 10, 2, 9, 30) },
  hostAccess: { missingOrigins: [] },
};

const region = () => screen.getByRole('region', { name: 'Service status' });

describe('StatusRegion', () => {
  it.each([
    ['operational', 'Operational'],
    ['degraded', 'Degraded'],
    ['outage', 'Outage'],
  ] as const)('shows the service status %s', (status, text) => {
    render(
      <StatusRegion
        state={state}
        now={NOW}
        overview={{
          deprecations: [],
          status: { status, components: [], updated_at: '2026-03-01T11:00:00Z' },
        }}
      />,
    );
    expect(region().textContent).toContain(text);
  });

  it('lists the components that are not operational', () => {
    render(
      <StatusRegion
        state={state}
        now={NOW}
        overview={{
          deprecations: [],
          status: {
            status: 'degraded',
            components: [
              { name: 'api', status: 'operational' },
              { name: 'backtests', status: 'degraded' },
            ],
            updated_at: '2026-03-01T11:00:00Z',
          },
        }}
      />,
    );
    expect(region().textContent).toContain('backtests: degraded');
    expect(region().textContent).not.toContain('api: operational');
  });

  it('says the key is valid with the account name and plan, never the key itself', () => {
    const overview: ServiceOverview = {
      deprecations: [],
      account: {
        id: 'usr',
        name: 'Demo Investor',
        email: 'd@example.com',
        plan: 'pro',
        permissions: [],
        brokerage_linked: false,
      },
    };
    render(<StatusRegion state={state} overview={overview} now={NOW} />);
    expect(region().textContent).toContain('Stored · valid');
    expect(region().textContent).toContain('Demo Investor · Pro plan');
  });

  it('says when the service rejects the stored key', () => {
    render(
      <StatusRegion
        state={state}
        now={NOW}
        overview={{
          deprecations: [],
          accountError: {
            name: 'ApiError',
            kind: 'unauthorized',
            operationId: 'getAccount',
            message: 'no',
            status: 401,
          },
        }}
      />,
    );
    expect(region().textContent).toContain('The service refused this API key.');
  });

  it('shows discovery health, deprecations and the rate-limit hold', () => {
    render(
      <StatusRegion
        state={state}
        now={NOW}
        overview={{
          discovery: {
            fetchedAt: '2026-03-01T11:58:00Z',
            documentsOk: 20,
            documentsFailed: 2,
            skillsVerified: 3,
            skillsFailed: 1,
            stale: false,
          },
          deprecations: [
            {
              operationId: 'listPlaybooksLegacy',
              deprecated: true,
              sunsetAt: Date.parse('2026-01-01T00:00:00Z'),
              replacedBy: 'listPlaybooks',
              lastSeenAt: NOW,
            },
          ],
          rateLimit: { origin: 'http://127.0.0.1:8787', remaining: 0, quota: 120, heldUntil: NOW + 30_000 },
        }}
      />,
    );
    const text = region().textContent ?? '';
    expect(text).toContain('20 documents fetched, 2 failed');
    expect(text).toContain('3 skills verified, 1 not verified');
    expect(text).toContain(
      'listPlaybooksLegacy is deprecated; past its sunset since Jan 1, 2026; replaced by listPlaybooks',
    );
    expect(text).toContain('Paused until');
  });

  it('shows remaining requests when not held, and refreshes on request', () => {
    const onRefresh = vi.fn();
    render(
      <StatusRegion
        state={state}
        now={NOW}
        onRefresh={onRefresh}
        overview={{ deprecations: [], rateLimit: { origin: 'o', remaining: 118, quota: 120 } }}
      />,
    );
    expect(region().textContent).toContain('118 of 120 requests left');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh status' }));
    expect(onRefresh).toHaveBeenCalledOnce();
  });

  it('without a key says so', () => {
    render(<StatusRegion state={{ ...state, key: { set: false } }} now={NOW} />);
    expect(region().textContent).toContain('Not set');
  });

  it('is one line while all is well: a word, no problem lines, the record behind Details', () => {
    render(
      <StatusRegion
        state={state}
        now={NOW}
        overview={{
          deprecations: [],
          status: { status: 'operational', components: [], updated_at: '2026-03-01T11:00:00Z' },
          rateLimit: { origin: 'o', remaining: 118, quota: 120 },
        }}
      />,
    );
    expect(region().querySelectorAll(':scope > p')).toHaveLength(0);
    const details = region().querySelector('details');
    expect(details?.open).toBe(false);
    expect(details?.textContent).toContain('http://127.0.0.1:8787');
    expect(details?.textContent).toContain('118 of 120 requests left');
  });

  it('service down: says "Unreachable" on the line, the technical message only behind Details', () => {
    const message =
      'getStatus failed after 2 attempts: the service could not be reached (the retry budget is spent).';
    render(
      <StatusRegion
        state={state}
        now={NOW}
        overview={{
          deprecations: [],
          statusError: { name: 'ApiError', kind: 'network', operationId: 'getStatus', message },
        }}
      />,
    );
    expect(region().querySelector('.status-head')?.textContent).toContain('Unreachable');
    const outside = Array.from(region().children).filter((child) => child.tagName !== 'DETAILS');
    expect(outside.map((child) => child.textContent).join(' ')).not.toContain('retry budget');
    expect(region().querySelector('details')?.textContent).toContain(message);
  });

  it('a refused key is a problem line, outside Details', () => {
    render(
      <StatusRegion
        state={state}
        now={NOW}
        overview={{
          deprecations: [],
          accountError: {
            name: 'ApiError',
            kind: 'unauthorized',
            operationId: 'getAccount',
            message: 'no',
            status: 401,
          },
        }}
      />,
    );
    const lines = Array.from(region().querySelectorAll(':scope > p')).map((p) => p.textContent);
    expect(lines).toEqual(['The service refused this API key.']);
  });

  it.each([
    ['the service was not reached', 'network', undefined, 'Unreachable'],
    ['the service did not answer in time', 'timeout', undefined, 'Unreachable'],
    ['the service answered 503', 'server', 503, 'Unavailable'],
    ['the service answered 500', 'server', 500, 'Unavailable'],
  ] as const)('%s: the status word says so (%s)', (_, kind, status, word) => {
    render(
      <StatusRegion
        state={state}
        now={NOW}
        overview={{
          deprecations: [],
          statusError: { name: 'ApiError', kind, operationId: 'getStatus', message: 'x', status },
        }}
      />,
    );
    expect(region().querySelector('.status-word')?.textContent).toBe(word);
  });
});
