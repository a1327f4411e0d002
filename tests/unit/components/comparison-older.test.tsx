// @vitest-environment happy-dom
/**
 * A playbook with more backtests than one list page (lib/pages/sidepanel/useComparison.ts): the
 * comparison still defaults to the newest completed one, and "Show older backtests of …" reads
 * the next pages through the worker, one request at a time and a bounded number of pages per
 * request, so that an older completed backtest can be picked and compared.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { OLDER_MAX_PAGES } from '@/lib/backtests/choices';
import type { Backtest } from '@/lib/contract/backtest';
import type { BacktestPage } from '@/lib/contract/wire';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { ComparisonView } from '@/lib/pages/sidepanel/ComparisonView';
import { useComparison } from '@/lib/pages/sidepanel/useComparison';

vi.mock('@/lib/messaging/client', async (original) => ({
  ...(await original<typeof import('@/lib/messaging/client')>()),
  sendMessage: vi.fn(),
}));

const run = (
  id: string,
  start: string,
  total: number,
  status: Backtest['status'] = 'completed',
): Backtest => ({
  id,
  playbook_id: 'pb_1',
  status,
  start,
  end: '2024-12-31',
  benchmark: 'SPY',
  created_at: '2025-01-01T00:00:00Z',
  completed_at: status === 'completed' ? '2025-01-01T00:00:20Z' : null,
  metrics: null,
  equity: [
    { date: start, value: 1, benchmark: 1 },
    { date: '2024-12-31', value: 1 + total, benchmark: 1 },
  ],
});
const newest = run('bt_new', '2024-01-02', 0.2);
const oldest = run('bt_old', '2020-01-02', -0.3);
/** The first page: the newest completed one, then 19 that failed (a page is 20). */
const firstPage: BacktestPage = {
  items: [newest, ...Array.from({ length: 19 }, (_, i) => run(`bt_failed_${i}`, '2023-01-03', 0, 'failed'))],
  nextCursor: 'c2',
  hasMore: true,
};

let pages: Map<string | undefined, BacktestPage>;
beforeEach(() => {
  pages = new Map([
    [undefined, firstPage],
    [
      'c2',
      { items: [run('bt_running', '2022-01-03', 0, 'running'), oldest], nextCursor: null, hasMore: false },
    ],
  ]);
  vi.mocked(sendMessage).mockReset();
  vi.mocked(sendMessage).mockImplementation(((type: string, payload: { id?: string; cursor?: string }) => {
    if (type === 'latestBacktests') return Promise.resolve([{ playbookId: 'pb_1', backtest: newest }]);
    if (type === 'listBacktests') return Promise.resolve(pages.get(payload.cursor));
    if (type === 'getBacktest') return Promise.resolve([newest, oldest].find((b) => b.id === payload.id));
    return Promise.reject(new Error(`unexpected ${type}`));
  }) as typeof sendMessage);
});
afterEach(cleanup);

function Harness() {
  const { comparison, compare, pick, older, close } = useComparison();
  return comparison ? (
    <ComparisonView {...comparison} onClose={close} onPick={pick} onOlder={older} />
  ) : (
    <button type="button" onClick={() => compare([{ id: 'pb_1', title: 'Grid' }])}>
      Compare
    </button>
  );
}

const total = () =>
  within(screen.getByRole('table', { name: 'Comparison metrics' })).getAllByRole('cell')[0].textContent;
const listReads = () => vi.mocked(sendMessage).mock.calls.filter(([type]) => type === 'listBacktests');

it('offers a backtest older than the first list page once asked, and compares it when picked', async () => {
  render(<Harness />);
  fireEvent.click(screen.getByRole('button', { name: 'Compare' }));
  const select = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Backtest of Grid' });
  expect(select.value).toBe('bt_new');
  expect(total()).toBe('+20.0%');
  expect([...select.options].map((o) => o.value)).toEqual(['bt_new']);

  fireEvent.click(screen.getByRole('button', { name: 'Show older backtests of Grid' }));
  await waitFor(() => expect([...select.options].map((o) => o.value)).toEqual(['bt_new', 'bt_old']));
  expect(listReads().at(-1)).toEqual(['listBacktests', { playbookId: 'pb_1', cursor: 'c2' }]);
  // The list ends there: nothing older to ask for.
  expect(screen.queryByRole('button', { name: 'Show older backtests of Grid' })).toBeNull();
  expect(select.value).toBe('bt_new');

  fireEvent.change(select, { target: { value: 'bt_old' } });
  await waitFor(() => expect(total()).toBe('−30.0%'));
  expect(vi.mocked(sendMessage)).toHaveBeenCalledWith('getBacktest', { id: 'bt_old' });
});

it('reads at most a bounded number of pages per request, and one request at a time', async () => {
  // An endless list of failed backtests, each page leading to the next.
  vi.mocked(sendMessage).mockImplementation(((type: string, payload: { cursor?: string }) => {
    if (type === 'latestBacktests') return Promise.resolve([{ playbookId: 'pb_1', backtest: newest }]);
    if (type === 'listBacktests') {
      const n = Number(payload.cursor?.slice(1) ?? 1);
      const items = n === 1 ? firstPage.items : [run(`bt_f${n}`, '2023-01-03', 0, 'failed')];
      return Promise.resolve({ items, nextCursor: `c${n + 1}`, hasMore: true });
    }
    return Promise.reject(new Error(`unexpected ${type}`));
  }) as typeof sendMessage);
  render(<Harness />);
  fireEvent.click(screen.getByRole('button', { name: 'Compare' }));
  const older = await screen.findByRole('button', { name: 'Show older backtests of Grid' });
  expect(listReads()).toHaveLength(1);

  fireEvent.click(older);
  fireEvent.click(older);
  await waitFor(() => expect(older.hasAttribute('disabled')).toBe(false));
  expect(listReads()).toHaveLength(1 + OLDER_MAX_PAGES);
  // Asking again goes on from where the last request stopped.
  fireEvent.click(older);
  await waitFor(() => expect(listReads()).toHaveLength(1 + 2 * OLDER_MAX_PAGES));
  expect(listReads()[1 + OLDER_MAX_PAGES]).toEqual([
    'listBacktests',
    { playbookId: 'pb_1', cursor: `c${2 + OLDER_MAX_PAGES}` },
  ]);
});

it('says why the choices are missing when the first list page could not be read, and reads it again when asked', async () => {
  let failFirst = true;
  vi.mocked(sendMessage).mockImplementation(((type: string, payload: { id?: string; cursor?: string }) => {
    if (type === 'latestBacktests') return Promise.resolve([{ playbookId: 'pb_1', backtest: newest }]);
    if (type === 'listBacktests') {
      if (payload.cursor === undefined && failFirst) {
        failFirst = false;
        return Promise.reject(
          new MessageError({
            code: 'api.timeout',
            message: 'listBacktests failed after 2 attempts',
            details: { operationId: 'listBacktests', kind: 'timeout' },
          }),
        );
      }
      return Promise.resolve(pages.get(payload.cursor));
    }
    if (type === 'getBacktest') return Promise.resolve([newest, oldest].find((b) => b.id === payload.id));
    return Promise.reject(new Error(`unexpected ${type}`));
  }) as typeof sendMessage);
  render(<Harness />);
  fireEvent.click(screen.getByRole('button', { name: 'Compare' }));
  // The comparison runs on the newest completed one; the picker is there, with the failure under it.
  const select = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Backtest of Grid' });
  expect(total()).toBe('+20.0%');
  const older = screen.getByRole('button', { name: 'Show older backtests of Grid' });
  // In the user's words; the technical record only under Details.
  const alert = within(older.parentElement as HTMLElement).getByRole('alert');
  expect(alert.textContent).not.toBe('');
  expect(alert.textContent).not.toContain('failed after 2 attempts');

  fireEvent.click(older);
  await waitFor(() => expect([...select.options].map((o) => o.value)).toContain('bt_old'));
  expect(listReads()[1]).toEqual(['listBacktests', { playbookId: 'pb_1' }]);
});
