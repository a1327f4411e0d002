// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { BacktestsSection } from '@/lib/pages/sidepanel/BacktestsSection';
import { ComparisonView } from '@/lib/pages/sidepanel/ComparisonView';
import type { Backtest } from '@/lib/contract/backtest';
import { completedBacktest, completedEquity } from '../../fixtures/backtests';

afterEach(cleanup);

const completed = completedBacktest;
const equity = completedEquity;
const queued: Backtest = {
  ...completed,
  id: 'bt_2',
  status: 'queued',
  metrics: null,
  completed_at: null,
  equity: undefined,
};

const section = (
  shown: Backtest | undefined,
  items: Backtest[] = [queued, completed],
  more: { chosenId?: string; onShow?: (id: string) => void } = {},
) =>
  render(
    <BacktestsSection
      items={items}
      loading={false}
      hasMore={false}
      shown={shown}
      onLoadMore={() => {}}
      onShow={more.onShow ?? (() => {})}
      chosenId={more.chosenId}
    />,
  );

describe('the Backtests section', () => {
  it('lists range, benchmark and status, and shows the newest result with the four figures', () => {
    section(completed);
    const region = screen.getByRole('region', { name: 'Backtests' });
    const runs = within(region).getAllByRole('listitem');
    expect(runs[0].textContent).toContain('queued');
    expect(runs[1].textContent).toMatch(/Jan 2, 2024 – Jan 5, 2024.*vs SPY.*completed/);
    const term = (name: string) => within(region).getByText(name).nextElementSibling?.textContent;
    expect(term('Total return')).toBe('+12.3%');
    expect(term('Benchmark return')).toBe('+8.7%');
    expect(term('Max drawdown')).toBe('-15.4%');
    expect(term('Sharpe ratio')).toBe('1.20');
    expect(within(region).getByText(/do not predict future results/)).toBeTruthy();
  });

  it("offers each completed run (and only those) to be shown, and names the chosen one's range and benchmark", () => {
    const older: Backtest = {
      ...completed,
      id: 'bt_0',
      start: '2023-01-03',
      end: '2023-12-29',
      benchmark: 'QQQ',
    };
    const asked: string[] = [];
    section(older, [queued, completed, older], { chosenId: 'bt_0', onShow: (id) => asked.push(id) });
    const region = screen.getByRole('region', { name: 'Backtests' });
    const shows = within(region).getAllByRole('button', { name: /^Show the result of/ });
    expect(shows).toHaveLength(2);
    expect(shows.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'true']);
    fireEvent.click(
      within(region).getByRole('button', { name: 'Show the result of Jan 2, 2024 – Jan 5, 2024 vs SPY' }),
    );
    expect(asked).toEqual(['bt_1']);
    expect(within(region).getByRole('heading', { level: 4 }).textContent).toBe(
      'Result: Jan 3, 2023 – Dec 29, 2023 vs QQQ',
    );
  });

  it('draws the equity curve as an SVG image with one path per line and non-scaling strokes', () => {
    section(completed);
    const figure = screen.getByRole('img', { name: 'Equity curve' });
    expect(figure.tagName.toLowerCase()).toBe('svg');
    expect(figure.getAttribute('viewBox')).toBe('0 0 600 240');
    const paths = figure.querySelectorAll('path');
    expect(paths).toHaveLength(2);
    for (const path of paths) {
      expect(path.getAttribute('vector-effect')).toBe('non-scaling-stroke');
      expect(path.getAttribute('d')?.match(/[ML]/g)).toHaveLength(equity.length);
    }
  });

  it('is keyboard reachable: focus and arrows read out the date and both values', () => {
    section(completed);
    const figure = screen.getByRole('img', { name: 'Equity curve' });
    expect(figure.getAttribute('tabindex')).toBe('0');
    fireEvent.focus(figure);
    expect(document.querySelector('.chart-readout')?.textContent).toBe(
      'Jan 5, 2024: Playbook 1.123, Benchmark (SPY) 1.087',
    );
    fireEvent.keyDown(figure, { key: 'ArrowLeft' });
    expect(document.querySelector('.chart-readout')?.textContent).toBe(
      'Jan 4, 2024: Playbook 0.900, Benchmark (SPY) 0.980',
    );
    fireEvent.keyDown(figure, { key: 'Home' });
    expect(document.querySelector('.chart-readout')?.textContent).toMatch(/^Jan 2, 2024: Playbook 1.000/);
  });

  it('"Show data" reveals the table Date, Playbook, Benchmark', () => {
    section(completed);
    expect(screen.queryByRole('table', { name: 'Equity curve data' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show data' }));
    const table = screen.getByRole('table', { name: 'Equity curve data' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Date', 'Playbook', 'Benchmark']);
    expect(within(table).getAllByRole('row')).toHaveLength(equity.length + 1);
  });

  it.each([
    ['dates out of order', [equity[1], equity[0]]],
    ['a value that is not a number', [{ date: '2024-01-02', value: 'x', benchmark: 1 }]],
    ['no series at all', undefined],
  ])('a malformed series (%s) shows a clear message and no chart', (_name, bad) => {
    section({ ...completed, equity: bad as unknown[] | undefined });
    expect(screen.queryByRole('img', { name: 'Equity curve' })).toBeNull();
    expect(screen.getByRole('alert').textContent).toMatch(/equity series/i);
    // The figures the service sent are still shown.
    expect(screen.getByText('Total return')).toBeTruthy();
  });
});

describe('the comparison', () => {
  it('draws one curve per playbook, rebased, and one metrics row each', () => {
    const other = {
      ...completed,
      id: 'bt_3',
      equity: equity.slice(1).map((p, i) => ({ ...p, value: 1 + i / 10 })),
    };
    render(
      <ComparisonView
        loading={false}
        onClose={() => {}}
        playbooks={[
          { id: 'pb_1', title: 'Grid', backtest: completed },
          { id: 'pb_2', title: 'Water', backtest: other },
        ]}
      />,
    );
    const region = screen.getByRole('region', { name: 'Comparison' });
    const chart = within(region).getByRole('img', { name: 'Comparison chart' });
    expect(chart.querySelectorAll('path')).toHaveLength(2);
    // Rebased at the later start (Jan 3): both curves begin at 1.000 there.
    fireEvent.focus(chart);
    fireEvent.keyDown(chart, { key: 'Home' });
    expect(region.querySelector('.chart-readout')?.textContent).toBe('Jan 3, 2024: Grid 1.000, Water 1.000');
    const table = within(region).getByRole('table', { name: 'Comparison metrics' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').firstChild?.textContent)).toEqual([
      'Grid',
      'Water',
    ]);
    // Every row has one cell per column, each figure under its own header.
    // Named by the contract's terms, whatever short form a narrow panel shows (with the full name as its tooltip).
    const headers = within(table).getAllByRole('columnheader');
    const names = ['Playbook', 'Total return', 'Benchmark return', 'Max drawdown', 'Sharpe ratio'];
    for (const [i, name] of names.entries())
      expect(within(table).getByRole('columnheader', { name })).toBe(headers[i]);
    for (const header of headers.slice(1))
      expect(header.querySelector('abbr')?.getAttribute('title')).toBe(names[headers.indexOf(header)]);
    const cells = within(rows[0])
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual(['+12.3%', '+8.7%', '-15.4%', '1.20']);
  });

  it('says which playbook has no completed backtest', () => {
    render(
      <ComparisonView
        loading={false}
        onClose={() => {}}
        playbooks={[
          { id: 'pb_1', title: 'Grid', backtest: completed },
          { id: 'pb_2', title: 'Water' },
        ]}
      />,
    );
    expect(screen.getByText('Water: no completed backtest yet.')).toBeTruthy();
    expect(screen.getByText('No completed backtest')).toBeTruthy();
  });
});
