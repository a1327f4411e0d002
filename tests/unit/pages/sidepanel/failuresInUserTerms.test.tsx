// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessageErrorCode } from '@/lib/contract/wire';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { BacktestsSection } from '@/lib/pages/sidepanel/BacktestsSection';
import { CatalystsSection } from '@/lib/pages/sidepanel/CatalystsSection';
import { SinceCapturedSection } from '@/lib/pages/sidepanel/SinceCapturedSection';
import { useBacktests } from '@/lib/pages/sidepanel/useBacktests';
import { useCatalysts } from '@/lib/pages/sidepanel/useCatalysts';
import { useLocale } from '../../../fixtures/i18n';

/**
 * Issue 33: a read that failed says, in the section that needed it, what happened and what to do;
 * the operation, its attempts and the retry budget are only under "Details".
 */

vi.mock('@/lib/messaging/client', async (original) => ({
  ...(await original<typeof import('@/lib/messaging/client')>()),
  sendMessage: vi.fn(),
}));

afterEach(cleanup);
beforeEach(() => {
  useLocale('en');
  vi.mocked(sendMessage).mockReset();
});

const record = (operation: string) =>
  `${operation} failed after 2 attempts: the service answered 503 (the retry budget is spent).`;

const apiFailure = (operation: string, code: MessageErrorCode = 'api.server') =>
  new MessageError({ code, message: record(operation), details: { operationId: operation, kind: 'server' } });

/** A region's text outside its "Details", and the text inside them. */
function split(region: HTMLElement) {
  const details = [...region.querySelectorAll('details')];
  const alerts = within(region).getAllByRole('alert');
  return {
    main: alerts.map((alert) => alert.textContent ?? '').join(' '),
    alerts,
    details: details.map((element) => element.textContent ?? '').join(' '),
    detailLines: details.flatMap((element) => [...element.querySelectorAll('p')]),
  };
}

function CatalystsProbe() {
  const { catalysts, sinceCaptured } = useCatalysts('pb_1', 'Grid');
  return (
    <>
      <SinceCapturedSection {...sinceCaptured} />
      <CatalystsSection {...catalysts} />
    </>
  );
}

function BacktestsProbe() {
  const backtests = useBacktests('pb_1', 'v0');
  return <BacktestsSection {...backtests} onLoadMore={backtests.loadMore} onShow={() => undefined} />;
}

describe('the side panel’s sections when a read fails', () => {
  it('Catalysts and Since captured: the user’s words and what to do; the record under Details', async () => {
    vi.mocked(sendMessage).mockImplementation((type) =>
      Promise.reject(
        apiFailure(type === 'getPlaybookPerformance' ? 'getPlaybookPerformance' : 'listPlaybookCatalysts'),
      ),
    );
    render(<CatalystsProbe />);
    for (const [name, operation] of [
      ['Catalysts', 'listPlaybookCatalysts'],
      ['Since captured', 'getPlaybookPerformance'],
    ] as const) {
      const region = screen.getByRole('region', { name });
      await waitFor(() => expect(within(region).queryAllByRole('alert')).toHaveLength(1));
      const { main, details, alerts, detailLines } = split(region);
      expect(main).toBe('The service is having trouble right now. Try again in a little while.');
      expect(main).not.toMatch(/failed after|attempt|retry budget/);
      expect(main).not.toContain(operation);
      expect(details).toContain(record(operation));
      // An English record keeps its full stop at its end on a right-to-left page.
      expect(alerts[0]?.getAttribute('dir')).toBe('auto');
      expect(detailLines.map((line) => line.getAttribute('dir'))).toEqual(['auto']);
    }
  });

  it('Backtests: the list and the newest result failing alike are said once, the record under Details', async () => {
    vi.mocked(sendMessage).mockImplementation((type: string) =>
      type === 'latestBacktests'
        ? Promise.resolve([{ playbookId: 'pb_1', error: record('listBacktests'), code: 'api.server' }])
        : Promise.reject(apiFailure('listBacktests')),
    );
    render(<BacktestsProbe />);
    const region = screen.getByRole('region', { name: 'Backtests' });
    await waitFor(() => expect(vi.mocked(sendMessage)).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(within(region).queryAllByRole('alert')).toHaveLength(1));
    const { main, details } = split(region);
    expect(main).toBe('The service is having trouble right now. Try again in a little while.');
    expect(main).not.toMatch(/failed after|listBacktests|retry budget/);
    expect(details).toContain(record('listBacktests'));
  });

  it('Backtests: the newest result alone failing is said in the user’s words too', async () => {
    vi.mocked(sendMessage).mockImplementation((type: string) =>
      type === 'latestBacktests'
        ? Promise.resolve([{ playbookId: 'pb_1', error: record('getBacktest'), code: 'api.timeout' }])
        : Promise.resolve({ items: [], nextCursor: null, hasMore: false }),
    );
    render(<BacktestsProbe />);
    const region = screen.getByRole('region', { name: 'Backtests' });
    await waitFor(() => expect(within(region).queryAllByRole('alert')).toHaveLength(1));
    const { main, details } = split(region);
    expect(main).toBe('The service did not answer in time. Check your connection, then try again.');
    expect(main).not.toMatch(/failed after|getBacktest/);
    expect(details).toContain(record('getBacktest'));
  });
});

describe('service text in its own direction', () => {
  it('a catalyst’s title (service text) is isolated with dir="auto" on an Arabic page', () => {
    useLocale('ar');
    render(
      <CatalystsSection
        items={[
          {
            id: 'cat_1',
            ticker: 'NVDA',
            kind: 'earnings',
            title: 'NVIDIA quarterly earnings.',
            at: '2026-03-07',
            all_day: true,
            status: 'confirmed',
            playbook_ids: ['pb_1'],
            sequence: 1,
            updated_at: '2026-03-01T00:00:00Z',
          },
        ]}
        complete
        loading={false}
        onAddToCalendar={() => undefined}
      />,
    );
    expect(screen.getByText('NVIDIA quarterly earnings.').getAttribute('dir')).toBe('auto');
  });
});
