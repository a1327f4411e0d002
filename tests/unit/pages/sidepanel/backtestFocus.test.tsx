// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Playbook } from '@/lib/api/schemas';
import type { Backtest } from '@/lib/contract/backtest';
import { sendMessage } from '@/lib/messaging/client';
import { SidePanelPage } from '@/lib/pages/sidepanel/SidePanelPage';

vi.mock('@/lib/messaging/client', () => ({ sendMessage: vi.fn() }));
vi.mock('@/lib/pages/sidepanel/eventsPort', () => ({
  useEventsPort: () => ({ unread: 0, stream: 'off', setUnread: () => undefined, reload: () => undefined }),
}));

const playbook = {
  id: 'pb_1',
  title: 'Rates fall',
  thesis: 'Duration wins.',
  tickers: ['TLT'],
  visibility: 'private',
  status: 'draft',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  etag: 'e1',
} as unknown as Playbook;

const run = (id: string, start: string, end: string, benchmark: string, total: number): Backtest => ({
  id,
  playbook_id: 'pb_1',
  status: 'completed',
  start,
  end,
  benchmark,
  created_at: '2025-01-01T00:00:00Z',
  completed_at: '2025-01-01T00:00:20Z',
  metrics: {
    total_return: total,
    benchmark_return: 0.05,
    cagr: 0.1,
    max_drawdown: -0.1,
    sharpe: 1,
    volatility: 0.2,
  },
  equity: [
    { date: start, value: 1, benchmark: 1 },
    { date: end, value: 1 + total, benchmark: 1.05 },
  ],
});
const newest = run('bt_new', '2024-01-02', '2024-12-31', 'SPY', 0.2);
const older = run('bt_old', '2021-01-04', '2023-12-29', 'QQQ', -0.3);
const foreign = { ...run('bt_other', '2022-01-03', '2022-12-30', 'IWM', 0.1), playbook_id: 'pb_9' };
const byId = new Map([newest, older, foreign].map((b) => [b.id, b]));

beforeEach(() => {
  vi.mocked(sendMessage).mockReset();
  vi.mocked(sendMessage).mockImplementation(((type: string, payload: { id?: string }) => {
    // A saved service: the panel reads as usual.
    if (type === 'getState') return Promise.resolve({ settings: { serviceUrl: 'https://agent.example' } });
    if (type === 'listPlaybooks')
      return Promise.resolve({ items: [playbook], nextCursor: null, hasMore: false, source: 'network' });
    if (type === 'readPlaybook')
      return Promise.resolve({ playbook, source: 'network', fetchedAt: Date.now() });
    if (type === 'listBacktests')
      return Promise.resolve({
        items: [newest, older].map((b) => ({ ...b, equity: undefined })),
        nextCursor: null,
        hasMore: false,
      });
    if (type === 'latestBacktests') return Promise.resolve([{ playbookId: 'pb_1', backtest: newest }]);
    if (type === 'getBacktest') {
      const found = byId.get(payload.id ?? '');
      return found ? Promise.resolve(found) : Promise.reject(new Error('not found'));
    }
    return new Promise(() => undefined);
  }) as typeof sendMessage);
});
afterEach(cleanup);

const region = () => screen.getByRole('region', { name: 'Backtests' });
const heading = () => within(region()).queryByRole('heading', { level: 4 })?.textContent;
const asked = (type: string) => vi.mocked(sendMessage).mock.calls.filter(([t]) => t === type);

describe('the side panel opened at a backtest (a notification click)', () => {
  it('shows that backtest’s curve and figures, with its range and benchmark, not the newest one', async () => {
    render(<SidePanelPage search="?playbook=pb_1&backtest=bt_old" />);
    await waitFor(() => expect(heading()).toMatch(/^Result: .*2021.*2023.* vs QQQ$/));
    const total = within(region()).getByText('Total return').nextElementSibling?.textContent;
    expect(total).toContain('30.0%');
    expect(total?.startsWith('-') || total?.startsWith('−')).toBe(true);
    expect(within(region()).getByRole('img', { name: 'Equity curve' })).toBeTruthy();
    expect(asked('getBacktest').map(([, p]) => p)).toEqual([{ id: 'bt_old' }]);
    expect(asked('latestBacktests')).toHaveLength(0);
  });

  it('without a backtest shows the newest completed one; picking another run in the list shows its curve', async () => {
    render(<SidePanelPage search="?playbook=pb_1" />);
    await waitFor(() => expect(heading()).toMatch(/^Latest result: .* vs SPY$/));
    fireEvent.click(within(region()).getByRole('button', { name: /^Show the result of .* vs QQQ$/ }));
    await waitFor(() => expect(heading()).toMatch(/^Result: .*2021.* vs QQQ$/));
    expect(
      within(region())
        .getByRole('button', { name: /vs QQQ$/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
  });

  it('refuses a backtest of another playbook instead of showing it under this one', async () => {
    render(<SidePanelPage search="?playbook=pb_1&backtest=bt_other" />);
    await waitFor(() =>
      expect(within(region()).getByText('That backtest belongs to another playbook.')).toBeTruthy(),
    );
    expect(heading()).toBeUndefined();
  });
});
