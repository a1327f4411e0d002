// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { BacktestsSection } from '@/lib/pages/sidepanel/BacktestsSection';
import { ComparisonView } from '@/lib/pages/sidepanel/ComparisonView';
import type { Backtest } from '@/lib/contract/backtest';
import { completedBacktest, completedEquity } from '../../fixtures/backtests';
import { localizeDocument } from '@/lib/i18n';
import { messageOf, useLocale } from '../../fixtures/i18n';

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
    expect(runs[0].textContent).toContain('Queued');
    expect(runs[1].textContent).toMatch(/Jan 2, 2024 – Jan 5, 2024.*vs SPY.*Completed/);
    const term = (name: string) => within(region).getByText(name).nextElementSibling?.textContent;
    expect(term('Total return')).toBe('+12.3%');
    expect(term('Benchmark return')).toBe('+8.7%');
    expect(term('Max drawdown')).toBe('−15.4%');
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
    expect(figure.getAttribute('viewBox')).toBe('0 0 320 200');
    const paths = figure.querySelectorAll('path');
    expect(paths).toHaveLength(2);
    for (const path of paths) {
      expect(path.getAttribute('vector-effect')).toBe('non-scaling-stroke');
      expect(path.getAttribute('d')?.match(/[ML]/g)).toHaveLength(equity.length);
    }
  });

  it('is keyboard reachable: focus and arrows read out the date and both returns', () => {
    section(completed);
    const figure = screen.getByRole('img', { name: 'Equity curve' });
    expect(figure.getAttribute('tabindex')).toBe('0');
    fireEvent.focus(figure);
    expect(document.querySelector('.chart-readout')?.textContent).toBe(
      'Jan 5, 2024: Playbook +12.3%, Benchmark (SPY) +8.7%',
    );
    fireEvent.keyDown(figure, { key: 'ArrowLeft' });
    expect(document.querySelector('.chart-readout')?.textContent).toBe(
      'Jan 4, 2024: Playbook −10.0%, Benchmark (SPY) −2.0%',
    );
    fireEvent.keyDown(figure, { key: 'Home' });
    expect(document.querySelector('.chart-readout')?.textContent).toBe(
      'Jan 2, 2024: Playbook 0.0%, Benchmark (SPY) 0.0%',
    );
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
    // Returns since the start, not growth of 1.
    expect(within(table).getAllByRole('row')[3].querySelectorAll('td')[1].textContent).toBe('−10.0%');
    expect(table.textContent).not.toMatch(/0\.900|1\.123/);
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
  const other: Backtest = {
    ...completed,
    id: 'bt_3',
    playbook_id: 'pb_2',
    start: '2024-01-03',
    equity: equity.slice(1).map((p, i) => ({ ...p, value: 1 + i / 10 })),
  };

  it('draws each curve from 0% on the first shared date, and works out the figures over the shared period', () => {
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
    expect(region.textContent).toContain('Shared period: Jan 3, 2024 – Jan 5, 2024.');
    const chart = within(region).getByRole('img', { name: 'Comparison chart' });
    expect(chart.querySelectorAll('path')).toHaveLength(2);
    // Rebased at the later start (Jan 3): both curves begin at 0% there.
    fireEvent.focus(chart);
    fireEvent.keyDown(chart, { key: 'Home' });
    expect(region.querySelector('.chart-readout')?.textContent).toBe('Jan 3, 2024: Grid 0.0%, Water 0.0%');
    const table = within(region).getByRole('table', { name: 'Comparison metrics' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').firstChild?.textContent)).toEqual([
      'Grid',
      'Water',
    ]);
    // Named by the contract's terms, whatever short form a narrow panel shows (with the full name as its tooltip).
    const headers = within(table).getAllByRole('columnheader');
    const names = ['Playbook', 'Total return', 'Benchmark return', 'Max drawdown'];
    expect(headers).toHaveLength(names.length);
    for (const [i, name] of names.entries())
      expect(within(table).getByRole('columnheader', { name })).toBe(headers[i]);
    for (const header of headers.slice(1))
      expect(header.querySelector('abbr')?.getAttribute('title')).toBe(names[headers.indexOf(header)]);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    // Grid from Jan 3 (1.05) to Jan 5 (1.123), not its own +12.3% from Jan 2; its benchmark 1.01 → 1.087;
    // its fall 1.05 → 0.9. Water rises steadily.
    expect(cells(rows[0])).toEqual(['+7.0%', '+7.6%', '−14.3%']);
    expect(cells(rows[1])).toEqual(['+20.0%', '+7.6%', '0.0%']);
  });

  it('says so in words, and draws nothing, when the backtests share no date', () => {
    const later: Backtest = {
      ...other,
      start: '2025-01-02',
      end: '2025-01-03',
      equity: [
        { date: '2025-01-02', value: 1, benchmark: 1 },
        { date: '2025-01-03', value: 1.1, benchmark: 1 },
      ],
    };
    render(
      <ComparisonView
        loading={false}
        onClose={() => {}}
        playbooks={[
          { id: 'pb_1', title: 'Grid', backtest: completed },
          { id: 'pb_2', title: 'Water', backtest: later },
        ]}
      />,
    );
    const region = screen.getByRole('region', { name: 'Comparison' });
    expect(within(region).queryByRole('img', { name: 'Comparison chart' })).toBeNull();
    expect(within(region).getByRole('note').textContent).toMatch(/^These backtests share no dates/);
    const rows = within(within(region).getByRole('table', { name: 'Comparison metrics' })).getAllByRole(
      'row',
    );
    expect(rows.slice(1).map((r) => within(r).getByRole('cell').textContent)).toEqual([
      'Not compared',
      'Not compared',
    ]);
  });

  it('offers a select per playbook with its completed backtests, the compared one chosen', () => {
    const older: Backtest = {
      ...completed,
      id: 'bt_0',
      start: '2023-01-03',
      end: '2023-12-29',
      equity: undefined,
    };
    const picked: [string, string][] = [];
    render(
      <ComparisonView
        loading={false}
        onClose={() => {}}
        onPick={(playbookId, backtestId) => picked.push([playbookId, backtestId])}
        playbooks={[
          { id: 'pb_1', title: 'Grid', backtest: completed, choices: [completed, older] },
          { id: 'pb_2', title: 'Water', backtest: other, choices: [other] },
        ]}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Backtest of Grid' });
    expect((select as HTMLSelectElement).value).toBe('bt_1');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Jan 2, 2024 – Jan 5, 2024 vs SPY', 'Jan 3, 2023 – Dec 29, 2023 vs SPY']);
    // A playbook with one completed backtest has nothing to pick.
    expect(screen.queryByRole('combobox', { name: 'Backtest of Water' })).toBeNull();
    fireEvent.change(select, { target: { value: 'bt_0' } });
    expect(picked).toEqual([['pb_1', 'bt_0']]);
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

describe('the axes', () => {
  it('labels returns in percent with the real minus and a 0% line, and dates along the bottom', () => {
    section(completed);
    const figure = screen.getByRole('img', { name: 'Equity curve' });
    const labels = [...figure.querySelectorAll('text')].map((t) => t.textContent);
    // Growth 0.9 … 1.123: returns −10% … +12.3%, every 5%.
    expect(labels).toEqual(expect.arrayContaining(['−10%', '−5%', '0%', '+5%', '+10%']));
    expect(labels.join(' ')).not.toContain('-');
    expect(labels).toEqual(expect.arrayContaining(['Jan 2', 'Jan 5']));
    expect(figure.querySelectorAll('.zero-line')).toHaveLength(1);
    // Every label sits inside the viewBox: nothing is cut at a narrow panel.
    for (const text of figure.querySelectorAll('text')) {
      const x = Number(text.getAttribute('x'));
      const y = Number(text.getAttribute('y'));
      expect(x >= 0 && x <= 320 && y >= 0 && y <= 200).toBe(true);
    }
  });

  it('names every line in words in the legend, each with its own style', () => {
    section(completed);
    const legend = screen.getByRole('list', { name: 'Equity curve legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Playbook', 'Benchmark (SPY)']);
    const classes = [...screen.getByRole('img', { name: 'Equity curve' }).querySelectorAll('path')].map((p) =>
      p.getAttribute('class'),
    );
    expect(classes).toEqual(['line series-0', 'line series-benchmark']);
  });
});

/**
 * Where an axis label's text runs from its x, as SVG lays it out: `text-anchor` is read in the text's
 * `direction`, which SVG takes from a `direction` attribute, or else inherits from the page (SVG
 * ignores `dir`). The width is the chart's estimate of a glyph (7 units) per drawn character.
 */
function labelExtent(text: SVGTextElement): [number, number] {
  const x = Number(text.getAttribute('x'));
  const width = text.textContent.replace(/\p{Cf}/gu, '').length * 7;
  const direction =
    text.closest('[direction]')?.getAttribute('direction') ?? document.documentElement.dir ?? 'ltr';
  const anchor = text.getAttribute('text-anchor') ?? 'start';
  if (anchor === 'middle') return [x - width / 2, x + width / 2];
  const runsRight = (anchor === 'start') === (direction !== 'rtl');
  return runsRight ? [x, x + width] : [x - width, x];
}

describe('the axis labels in a right-to-left page', () => {
  afterEach(() => document.documentElement.removeAttribute('dir'));

  it('ar: every date stays inside the chart, every percent in the gutter left of the plot', () => {
    const file = 'ar';
    useLocale(file);
    localizeDocument(document);
    section(completed);
    const svg = screen.getByRole('img', { name: messageOf(file, 'backtests.equityCurve') });
    const width = Number(svg.getAttribute('viewBox')!.split(' ')[2]);
    const plotLeft = Number(svg.querySelector('.grid-line, .zero-line')!.getAttribute('x1'));
    const labels = [...svg.querySelectorAll<SVGTextElement>('text.axis-label')];
    const dates = labels.filter((label) => !label.hasAttribute('dominant-baseline'));
    const percents = labels.filter((label) => label.hasAttribute('dominant-baseline'));
    expect(percents.length).toBeGreaterThan(1);
    expect(dates.length).toBeGreaterThan(1);
    for (const label of dates) {
      const [from, to] = labelExtent(label);
      expect(from, label.textContent).toBeGreaterThanOrEqual(0);
      expect(to, label.textContent).toBeLessThanOrEqual(width);
    }
    for (const label of percents) {
      const [from, to] = labelExtent(label);
      expect(from, label.textContent).toBeGreaterThanOrEqual(0);
      expect(to, label.textContent).toBeLessThan(plotLeft);
    }
  });
});
