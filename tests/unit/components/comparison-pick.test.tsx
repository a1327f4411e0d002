// @vitest-environment happy-dom
/**
 * Picking which backtest of a playbook is compared (lib/pages/sidepanel/useComparison.ts's
 * useComparison): the newest completed one by default, another on request, and only once it
 * proves to be that playbook's and completed: a service that answers with another playbook's
 * backtest gets a note, never a curve under this title.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Backtest } from '@/lib/contract/backtest';
import { sendMessage } from '@/lib/messaging/client';
import { ComparisonView } from '@/lib/pages/sidepanel/ComparisonView';
import { useComparison } from '@/lib/pages/sidepanel/useComparison';

vi.mock('@/lib/messaging/client', () => ({ sendMessage: vi.fn() }));

const run = (id: string, start: string, end: string, total: number, playbookId = 'pb_1'): Backtest => ({
  id,
  playbook_id: playbookId,
  status: 'completed',
  start,
  end,
  benchmark: 'SPY',
  created_at: '2025-01-01T00:00:00Z',
  completed_at: '2025-01-01T00:00:20Z',
  metrics: { total_return: total, benchmark_return: 0, cagr: 0, max_drawdown: 0, sharpe: 0, volatility: 0 },
  equity: [
    { date: start, value: 1, benchmark: 1 },
    { date: end, value: 1 + total, benchmark: 1 },
  ],
});
const newest = run('bt_new', '2024-01-02', '2024-12-31', 0.2);
const older = run('bt_old', '2024-01-02', '2024-12-31', -0.3);
/** Listed as pb_1's, but read back as another playbook's. */
const swapped = run('bt_swap', '2024-01-02', '2024-12-31', 0.5);
const read = new Map<string, Backtest>([
  [newest.id, newest],
  [older.id, older],
  [swapped.id, { ...swapped, playbook_id: 'pb_9' }],
]);

beforeEach(() => {
  vi.mocked(sendMessage).mockReset();
  vi.mocked(sendMessage).mockImplementation(((
    type: string,
    payload: { id?: string; playbookId?: string },
  ) => {
    if (type === 'latestBacktests') return Promise.resolve([{ playbookId: 'pb_1', backtest: newest }]);
    if (type === 'listBacktests')
      return Promise.resolve({ items: [newest, older, swapped], nextCursor: null, hasMore: false });
    if (type === 'getBacktest') return Promise.resolve(read.get(payload.id ?? ''));
    return Promise.reject(new Error(`unexpected ${type}`));
  }) as typeof sendMessage);
});
afterEach(cleanup);

function Harness() {
  const { comparison, compare, pick, close } = useComparison();
  return comparison ? (
    <ComparisonView {...comparison} onClose={close} onPick={pick} />
  ) : (
    <button type="button" onClick={() => compare([{ id: 'pb_1', title: 'Grid' }])}>
      Compare
    </button>
  );
}

const total = () =>
  within(screen.getByRole('table', { name: 'Comparison metrics' })).getAllByRole('cell')[0].textContent;

it('compares the newest completed backtest by default, another once picked, and refuses another playbook’s', async () => {
  render(<Harness />);
  fireEvent.click(screen.getByRole('button', { name: 'Compare' }));
  const select = await screen.findByRole('combobox', { name: 'Backtest of Grid' });
  expect((select as HTMLSelectElement).value).toBe('bt_new');
  expect(total()).toBe('+20.0%');

  fireEvent.change(select, { target: { value: 'bt_old' } });
  await waitFor(() => expect(total()).toBe('−30.0%'));
  expect(vi.mocked(sendMessage)).toHaveBeenCalledWith('getBacktest', { id: 'bt_old' });

  fireEvent.change(select, { target: { value: 'bt_swap' } });
  await waitFor(() =>
    expect(screen.getByRole('note').textContent).toBe('Grid: That backtest belongs to another playbook.'),
  );
  expect(screen.queryByRole('img', { name: 'Comparison chart' })).toBeNull();
  expect(total()).toBe('No completed backtest');
});
