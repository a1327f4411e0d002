// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { BacktestsSection } from '@/lib/pages/sidepanel/BacktestsSection';
import { ComparisonView } from '@/lib/pages/sidepanel/ComparisonView';
import { SidePanelView } from '@/lib/pages/sidepanel/SidePanelView';
import { completedBacktest, completedEquity } from '../../../fixtures/backtests';
import { localizeDocument } from '@/lib/i18n';
import { formatAxisPercent } from '@/lib/backtests/format';
import { useLocale } from '../../../fixtures/i18n';

afterEach(cleanup);

const completed = completedBacktest;
const equity = completedEquity;

const section = () =>
  render(
    <BacktestsSection
      items={[completed]}
      loading={false}
      hasMore={false}
      shown={completed}
      onLoadMore={() => {}}
      onShow={() => {}}
    />,
  );

const comparison = (title = 'Grid') =>
  render(
    <ComparisonView
      loading={false}
      onClose={() => {}}
      playbooks={[
        { id: 'pb_1', title, backtest: completed },
        { id: 'pb_2', title: 'Water' },
      ]}
    />,
  );

describe('the backtests in German', () => {
  it('names the region, the figures and the chart in German, with German percentages and dates', () => {
    useLocale('de');
    section();
    const region = screen.getByRole('region', { name: 'Backtests' });
    const term = (name: string) => within(region).getByText(name).nextElementSibling?.textContent;
    expect(term('Gesamtrendite')).toBe('+12,3\u00a0%');
    expect(term('Benchmark-Rendite')).toBe('+8,7\u00a0%');
    expect(term('Maximaler Drawdown')).toBe('\u221215,4\u00a0%');
    expect(term('Sharpe-Ratio')).toBe('1,20');
    expect(within(region).getByRole('heading', { level: 4 }).textContent).toBe(
      'Neuestes Ergebnis: 02.01.2024 – 05.01.2024 ggü. SPY',
    );
    expect(within(region).getByText('Abgeschlossen')).toBeTruthy();
    expect(within(region).queryByText('Total return')).toBeNull();

    const figure = screen.getByRole('img', { name: 'Kapitalkurve' });
    fireEvent.focus(figure);
    expect(region.querySelector('.chart-readout')?.textContent).toBe(
      '05.01.2024: Playbook +12,3\u00a0%, Benchmark (SPY) +8,7\u00a0%',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Daten anzeigen' }));
    const table = screen.getByRole('table', { name: 'Daten der Kapitalkurve' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Datum', 'Playbook', 'Benchmark']);
    expect(within(table).getAllByRole('row')[1].textContent).toBe('02.01.20240,0\u00a0%0,0\u00a0%');
  });

  it('compares in German, the playbook titles as sent', () => {
    useLocale('de');
    comparison('Grid {name} $1');
    const region = screen.getByRole('region', { name: 'Vergleich' });
    expect(within(region).getByRole('img', { name: 'Vergleichsdiagramm' })).toBeTruthy();
    const table = within(region).getByRole('table', { name: 'Vergleichskennzahlen' });
    for (const name of ['Gesamtrendite', 'Benchmark-Rendite', 'Maximaler Drawdown'])
      expect(within(table).getByRole('columnheader', { name })).toBeTruthy();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]).getByRole('rowheader').firstChild?.textContent).toBe('Grid {name} $1');
    expect(
      within(rows[0])
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['+12,3\u00a0%', '+8,7\u00a0%', '\u221214,3\u00a0%']);
    expect(screen.getByText('Water: noch kein abgeschlossener Backtest.')).toBeTruthy();
  });

  it('names the tabs in German', () => {
    useLocale('de');
    render(<SidePanelView panels={{ playbooks: null, discovery: null, events: null }} />);
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Playbooks',
      'Dienstangebot',
      'Ereignisse',
    ]);
  });
});

describe('the backtests in Arabic (right to left)', () => {
  it('still draws the chart and its table, the chart itself left to right in time', () => {
    useLocale('ar');
    localizeDocument(document);
    expect(document.documentElement.dir).toBe('rtl');
    section();
    const region = screen.getByRole('region', { name: 'الاختبارات الرجعية' });
    // The SVG keeps time running left to right (components/EquityChart.tsx says why): the first
    // date is leftmost and each later date further right, whatever the page's direction.
    const figure = within(region).getByRole('img', { name: 'منحنى رأس المال' });
    expect(figure.getAttribute('dir')).toBe('ltr');
    const xs = [...(figure.querySelector('path')?.getAttribute('d') ?? '').matchAll(/[ML]([\d.]+) /g)].map(
      (m) => Number(m[1]),
    );
    expect(xs).toHaveLength(equity.length);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(figure.querySelectorAll('path')).toHaveLength(2);
    expect(within(region).getByText('إجمالي العائد').nextElementSibling?.textContent).toContain(
      // The digits this runtime's ICU uses for Arabic: Latin in newer CLDR, Arabic-Indic before.
      new Intl.NumberFormat('ar', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(12.3),
    );

    fireEvent.click(within(region).getByRole('button', { name: 'عرض البيانات' }));
    const table = within(region).getByRole('table', { name: 'بيانات منحنى رأس المال' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['التاريخ', 'الدليل الاستثماري', 'المؤشر المرجعي']);
    expect(within(table).getAllByRole('row')).toHaveLength(equity.length + 1);
  });

  it('isolates each figure of the readout left to right and joins the list with the Arabic comma', () => {
    useLocale('ar');
    section();
    const region = screen.getByRole('region', { name: 'الاختبارات الرجعية' });
    fireEvent.focus(within(region).getByRole('img', { name: 'منحنى رأس المال' }));
    const readout = region.querySelector('.chart-readout');
    const figures = [...(readout?.querySelectorAll('bdi[dir="ltr"]') ?? [])].map((bdi) => bdi.textContent);
    expect(figures).toHaveLength(2);
    expect(figures.every((figure) => /[%٪]/.test(figure ?? ''))).toBe(true);
    expect(readout?.textContent).toContain('، ');
    expect(readout?.textContent).not.toContain(', ');
  });

  it('still draws the comparison and its metrics', () => {
    useLocale('ar');
    comparison();
    const region = screen.getByRole('region', { name: 'المقارنة' });
    expect(within(region).getByRole('img', { name: 'مخطط المقارنة' }).querySelectorAll('path')).toHaveLength(
      1,
    );
    const table = within(region).getByRole('table', { name: 'مقاييس المقارنة' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
  });

  it('says percentages the one way the locale does (the axis’s), and keeps a Latin title whole', () => {
    useLocale('ar');
    const title = 'Grid modernization: 6-month valuation band';
    render(
      <ComparisonView
        loading={false}
        onClose={() => {}}
        onPick={() => {}}
        playbooks={[
          { id: 'pb_1', title, backtest: completed, choices: [completed, { ...completed, id: 'bt_other' }] },
          { id: 'pb_2', title: 'Water', backtest: { ...completed, id: 'bt_2', playbook_id: 'pb_2' } },
        ]}
      />,
    );
    const zero = formatAxisPercent(0, 0);
    const period = document.querySelector('.comparison-period')?.textContent ?? '';
    expect(period).toContain(zero);
    expect(period).not.toContain('0٪');
    const axis = [...document.querySelectorAll('.axis-label')].map((label) => label.textContent);
    expect(axis).toContain(zero);
    // The title in its own isolate inside the Arabic words around it.
    const label = document.querySelector('.comparison-picks label > span');
    expect(label?.querySelector('bdi')?.textContent).toBe(title);
  });
});
