import { describe, expect, it } from 'vitest';
import { knownResponseSchema } from '@/lib/api/schemas';
import { MAX_CATALYST_PLAYBOOKS, MAX_CATALYST_TITLE, MAX_PERFORMANCE_TICKERS } from '@/lib/contract/catalyst';

/** The contract's Catalyst and Performance (CONTRACT.md 2.1) as the worker checks service output. */
const catalyst = (overrides: Record<string, unknown> = {}) => ({
  id: 'cat_nvda_q_earnings',
  ticker: 'NVDA',
  kind: 'earnings',
  title: 'NVIDIA quarterly earnings',
  at: '2026-03-05T21:20:00Z',
  all_day: false,
  status: 'confirmed',
  session: 'after-close',
  source_url: 'https://investor.example.com/nvda/events',
  playbook_ids: ['pb_1'],
  sequence: 1,
  updated_at: '2026-03-04T12:00:00Z',
  ...overrides,
});
const page = (...items: unknown[]) => ({ data: items, has_more: false, next_cursor: null });
const listCatalysts = knownResponseSchema('listCatalysts')!;
const getPerformance = knownResponseSchema('getPlaybookPerformance')!;
const accepts = (item: Record<string, unknown>) => listCatalysts.safeParse(page(item)).success;

const performance = (overrides: Record<string, unknown> = {}) => ({
  playbook_id: 'pb_1',
  since: '2025-01-06',
  as_of: '2026-03-03',
  return: 0.14,
  benchmark: { symbol: 'SPY', return: 0.05 },
  tickers: [{ symbol: 'NVDA', currency: 'USD', start_price: 160, last_price: 182.4, return: 0.14 }],
  ...overrides,
});

describe('listCatalysts answers', () => {
  it('accepts the contract shapes: a date-time with a session, an all-day one, an offset', () => {
    expect(accepts(catalyst())).toBe(true);
    expect(accepts(catalyst({ at: '2026-03-05', all_day: true, session: undefined }))).toBe(true);
    expect(accepts(catalyst({ at: '2026-03-05T16:20:00.5-05:00' }))).toBe(true);
  });

  it.each([
    ['a date-time marked all-day', { all_day: true }],
    ['a full-date not marked all-day', { at: '2026-03-05' }],
    ['a day that does not exist', { at: '2026-02-30', all_day: true }],
    ['a date-time without an offset', { at: '2026-03-05T21:20:00' }],
    ['an unknown status', { status: 'rumoured' }],
    ['an over-long title', { title: 'x'.repeat(MAX_CATALYST_TITLE + 1) }],
    ['an empty title', { title: '' }],
    [
      'too many playbook ids',
      { playbook_ids: Array.from({ length: MAX_CATALYST_PLAYBOOKS + 1 }, (_, i) => `pb_${i}`) },
    ],
    ['a negative sequence', { sequence: -1 }],
    ['a fractional sequence', { sequence: 1.5 }],
    ['a ticker with spaces', { ticker: 'NV DA' }],
    ['an over-long id', { id: 'c'.repeat(201) }],
  ])('refuses %s', (_, overrides) => {
    expect(accepts(catalyst(overrides))).toBe(false);
  });

  it('reads an unknown kind as other and an unknown session as unknown; drops a non-http link', () => {
    const parsed = listCatalysts.parse(
      page(catalyst({ kind: 'split', session: 'lunch', source_url: 'javascript:alert(1)' })),
    ) as { data: Record<string, unknown>[] };
    expect(parsed.data[0]).toMatchObject({ kind: 'other', session: 'unknown' });
    expect(parsed.data[0].source_url).toBeUndefined();
  });
});

describe('getPlaybookPerformance answers', () => {
  it('accepts the contract shape, and no tickers with a null return', () => {
    expect(getPerformance.safeParse(performance()).success).toBe(true);
    expect(getPerformance.safeParse(performance({ tickers: [], return: null })).success).toBe(true);
  });

  it.each([
    ['a return below -100%', { return: -1.5 }],
    ['an absurd return', { return: 5000 }],
    ['a bad since', { since: '6 Jan 2025' }],
    [
      'a lowercase currency',
      { tickers: [{ symbol: 'NVDA', currency: 'usd', start_price: 1, last_price: 1, return: 0 }] },
    ],
    [
      'a zero start price',
      { tickers: [{ symbol: 'NVDA', currency: 'USD', start_price: 0, last_price: 1, return: 0 }] },
    ],
    [
      'too many tickers',
      { tickers: Array.from({ length: MAX_PERFORMANCE_TICKERS + 1 }, () => performance().tickers[0]) },
    ],
    ['no benchmark', { benchmark: undefined }],
  ])('refuses %s', (_, overrides) => {
    expect(getPerformance.safeParse(performance(overrides)).success).toBe(false);
  });
});

describe('catalyst.changed events', () => {
  it('a listEvents page holding one is accepted (the whole page was refused before)', () => {
    const event = {
      id: 'evt_9',
      type: 'catalyst.changed',
      playbook_id: 'pb_1',
      at: '2026-03-04T12:00:01Z',
      data: { catalyst_id: 'cat_amd', ticker: 'AMD', at: '2026-03-12T20:05:00Z', status: 'confirmed' },
    };
    expect(knownResponseSchema('listEvents')!.safeParse({ ...page(event), next_cursor: 'c1' }).success).toBe(
      true,
    );
  });
});
