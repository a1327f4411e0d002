// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { catalystSchema, performanceSchema, type Catalyst } from '@/lib/contract/catalyst';
import { CatalystsSection } from '@/lib/pages/sidepanel/CatalystsSection';
import { SinceCapturedSection } from '@/lib/pages/sidepanel/SinceCapturedSection';
import { calendarFileName, calendarText } from '@/lib/pages/sidepanel/calendarFile';
import { soonestFirst, MAX_CATALYSTS } from '@/lib/catalysts/reads';
import { parseCalendar, prop, text } from '../../../fixtures/icsReader';
import { useLocale } from '../../../fixtures/i18n';

afterEach(cleanup);

const catalyst = (overrides: Partial<Catalyst>): Catalyst =>
  catalystSchema.parse({
    id: 'cat_1',
    ticker: 'NVDA',
    kind: 'earnings',
    title: 'NVIDIA quarterly earnings',
    at: '2026-03-05T21:20:00Z',
    all_day: false,
    status: 'confirmed',
    session: 'after-close',
    playbook_ids: ['pb_1'],
    sequence: 2,
    updated_at: '2026-03-01T00:00:00Z',
    ...overrides,
  });

const nvda = catalyst({});
const amd = catalyst({
  id: 'cat_2',
  ticker: 'AMD',
  title: 'AMD earnings',
  at: '2026-03-07',
  all_day: true,
  status: 'estimated',
  session: 'unknown',
});
const lly = catalyst({
  id: 'cat_3',
  ticker: 'LLY',
  kind: 'regulatory',
  title: 'FDA decision',
  at: '2026-03-06',
  all_day: true,
  status: 'cancelled',
  session: undefined,
});

const section = (
  items: Catalyst[] | undefined,
  extra: Partial<Parameters<typeof CatalystsSection>[0]> = {},
) =>
  render(<CatalystsSection items={items} complete loading={false} onAddToCalendar={() => {}} {...extra} />);

const rows = (name = 'Catalysts') =>
  within(screen.getByRole('region', { name }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('region "Catalysts"', () => {
  it('says status and session in words, the date of an all-day one as a date, and the kind', () => {
    useLocale('en');
    section([nvda, lly, amd]);
    const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(
      Date.parse(nvda.at),
    );
    expect(rows()).toEqual([
      `${dateTime}NVDAConfirmedAfter the closeEarningsNVIDIA quarterly earnings`,
      'Mar 6, 2026LLYCancelledRegulatoryFDA decision',
      'Mar 7, 2026AMDEstimated dateEarningsAMD earnings',
    ]);
    expect(screen.getByRole('button', { name: 'Add to calendar' })).toBeTruthy();
  });

  it('in Japanese', () => {
    useLocale('ja');
    section([amd]);
    expect(rows('カタリスト')).toEqual(['2026/03/07AMD日付は予想決算AMD earnings']);
    expect(screen.getByRole('button', { name: 'カレンダーに追加' })).toBeTruthy();
  });

  it('an empty list says so and offers no file; an error is shown', () => {
    useLocale('en');
    section([], { error: { message: 'The service could not be reached.' } });
    const region = screen.getByRole('region', { name: 'Catalysts' });
    expect(within(region).getByText("No upcoming catalysts for this playbook's tickers.")).toBeTruthy();
    expect(within(region).getByText('The service could not be reached.')).toBeTruthy();
    expect(within(region).queryByRole('button')).toBeNull();
  });

  it('a list cut at its bound says so', () => {
    useLocale('en');
    section([nvda], { complete: false });
    expect(screen.getByText('Only the first 1 catalysts are shown.')).toBeTruthy();
  });
});

describe('the worker orders and bounds the list', () => {
  it('soonest first (an all-day one at the start of its day), each id once, at most MAX_CATALYSTS', () => {
    const sameDay = catalyst({ id: 'cat_4', at: '2026-03-06T00:30:00Z' });
    expect(soonestFirst([amd, sameDay, lly, nvda, amd]).items.map((c) => c.id)).toEqual([
      'cat_1',
      'cat_3',
      'cat_4',
      'cat_2',
    ]);
    const many = Array.from({ length: MAX_CATALYSTS + 1 }, (_, i) => catalyst({ id: `c${i}` }));
    const bounded = soonestFirst(many);
    expect([bounded.items.length, bounded.complete]).toEqual([MAX_CATALYSTS, false]);
  });
});

describe('"Add to calendar" file', () => {
  it('is named after the playbook, sanitized', () => {
    expect(calendarFileName('AI / inference: "silicon" <2026>')).toBe('AI inference silicon 2026.ics');
    expect(calendarFileName('../../etc/passwd')).toBe('etc passwd.ics');
    expect(calendarFileName('トヨタの構想')).toBe('トヨタの構想.ics');
    expect(calendarFileName('///')).toBe('catalysts.ics');
  });

  it('holds the words of the UI language in DESCRIPTION and names only the API host', () => {
    useLocale('en');
    const file = calendarText([nvda, amd], 'https://api.example.com:8443', 'AI silicon', 0);
    const events = parseCalendar(file).components;
    expect(events.map((e) => prop(e, 'UID')?.value)).toEqual([
      'cat_1@api.example.com:8443',
      'cat_2@api.example.com:8443',
    ]);
    expect(events.map((e) => text(prop(e, 'DESCRIPTION')!.value))).toEqual([
      'AI silicon\nConfirmed\nAfter the close',
      'AI silicon\nEstimated date',
    ]);
  });
});

const performance = performanceSchema.parse({
  playbook_id: 'pb_1',
  since: '2025-01-06',
  as_of: '2026-03-04',
  return: 0.14,
  benchmark: { symbol: 'SPY', return: 0.082 },
  tickers: [
    { symbol: 'NVDA', currency: 'USD', start_price: 100, last_price: 120, return: 0.2 },
    { symbol: '7203.T', currency: 'JPY', start_price: 2500, last_price: 2700, return: 0.08 },
  ],
});

describe('region "Since captured"', () => {
  it('the return since capture against the benchmark, a row per ticker, as of, and the decision-support line', () => {
    useLocale('en');
    render(<SinceCapturedSection performance={performance} loading={false} />);
    const region = screen.getByRole('region', { name: 'Since captured' });
    expect(within(region).getByText('+14.0% since Jan 6, 2025 · SPY +8.2%')).toBeTruthy();
    const table = within(region).getByRole('table', { name: 'Tickers since capture' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'TickerStart → last priceReturn',
      'NVDA$100.00 → $120.00+20.0%',
      '7203.T¥2,500 → ¥2,700+8.0%',
    ]);
    expect(within(region).getByText('As of the close of Mar 4, 2026')).toBeTruthy();
    expect(region.textContent).toContain(
      'Past moves do not predict future ones. Decision support, not financial advice.',
    );
  });

  it('a playbook without tickers has no return, said in words', () => {
    useLocale('de');
    render(
      <SinceCapturedSection performance={{ ...performance, return: null, tickers: [] }} loading={false} />,
    );
    const region = screen.getByRole('region', { name: 'Seit Erfassung' });
    expect(
      within(region).getByText('Keine Rendite seit 06.01.2025: Dieses Playbook hat keine Ticker. SPY +8,2 %'),
    ).toBeTruthy();
    expect(within(region).queryByRole('table')).toBeNull();
  });
});

describe('"On this page": catalysts within a week', () => {
  it('one line per catalyst with ticker, what, when and status in words; nothing when none', async () => {
    const { WeekCatalysts } = await import('@/lib/pages/sidepanel/WeekCatalysts');
    useLocale('en');
    render(<WeekCatalysts items={[lly]} />);
    expect(
      within(screen.getByRole('list', { name: 'Catalysts within a week' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['LLY: FDA decision, Mar 6, 2026 (Cancelled)']);
    cleanup();
    const { container } = render(<WeekCatalysts items={[]} />);
    expect(container.childElementCount).toBe(0);
  });
});
