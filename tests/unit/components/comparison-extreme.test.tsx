// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, expect, it } from 'vitest';
import { ComparisonView } from '@/lib/pages/sidepanel/ComparisonView';
import type { Backtest } from '@/lib/contract/backtest';
import { completedBacktest, completedEquity } from '../../fixtures/backtests';

afterEach(cleanup);

/** Passes the schema (every value in (0, 10,000]), but its ratio to its first point is 2e323: Infinity. */
const extreme: Backtest = {
  ...completedBacktest,
  id: 'bt_x',
  playbook_id: 'pb_2',
  equity: completedEquity.map((p, i) => ({ ...p, value: i === 0 ? 5e-324 : 1 })),
  metrics: { ...completedBacktest.metrics!, total_return: 1e308, sharpe: 1e300 },
};

it('one extreme series is a note of its own; the honest curve, the readout and the table stay finite', () => {
  render(
    <ComparisonView
      loading={false}
      onClose={() => {}}
      playbooks={[
        { id: 'pb_1', title: 'Grid', backtest: completedBacktest },
        { id: 'pb_2', title: 'Wild', backtest: extreme },
      ]}
    />,
  );
  const region = screen.getByRole('region', { name: 'Comparison' });
  expect(within(region).getByRole('note').textContent).toMatch(
    /^Wild: its equity series holds values too extreme/,
  );
  const chart = within(region).getByRole('img', { name: 'Comparison chart' });
  const paths = [...chart.querySelectorAll('path')].map((p) => p.getAttribute('d') ?? '');
  expect(paths).toHaveLength(1);
  expect(paths[0]).toMatch(/^(?:[ML]\d+\.\d{2} \d+\.\d{2}){4}$/);
  fireEvent.focus(chart);
  expect(region.querySelector('.chart-readout')?.textContent).toBe('Jan 5, 2024: Grid +12.3%');
  fireEvent.click(within(region).getByRole('button', { name: 'Show data' }));
  expect(within(region).getByRole('table', { name: 'Comparison data' }).textContent).not.toMatch(/∞|NaN/);
  // The refused series gets no figures over the shared period: "Not compared", never 300 digits.
  const metrics = within(region).getByRole('table', { name: 'Comparison metrics' });
  const wild = within(metrics).getAllByRole('row')[2];
  expect(
    within(wild)
      .getAllByRole('cell')
      .map((c) => c.textContent),
  ).toEqual(['Not compared']);
  expect(region.textContent).not.toMatch(/∞|NaN/);
});
