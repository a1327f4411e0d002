import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalystSchema, performanceSchema } from '../../lib/contract/catalyst';
import { tickerPerformance } from '../../sandbox/catalystModel';
import type { Sandbox } from '../../sandbox/server';
import { DEMO_USER_ID, OTHER_USER_ID } from '../../sandbox/store';
import { admin, api, createPlaybook, expectProblem, startTestSandbox, type Json } from './helpers';

/** Wednesday 4 March 2026, noon UTC: "today" for the seed, the default `from` and `as_of`. */
const NOW = Date.parse('2026-03-04T12:00:00Z');
const SEEDED_TICKERS = 'NVDA,AMD,LLY,NEE,CAT,7203.T,CRWD';
const ADA_KEY = 'iak_ada_catalysts_0123456789';

let sb: Sandbox;
beforeAll(async () => {
  // 12 playbooks: one per sample theme, so every seeded catalyst's ticker is tracked.
  sb = await startTestSandbox({ seed: 12, now: () => NOW });
  sb.db.addApiKey(OTHER_USER_ID, ADA_KEY, 'ada');
});
afterAll(() => sb.close());

const demoPlaybooks = () => sb.db.listPlaybooks({ ownerId: DEMO_USER_ID }, null, 100).rows;
const tracking = (ticker: string) => demoPlaybooks().filter((p) => p.tickers.includes(ticker));

async function walk(query: string, limit: number): Promise<Json[]> {
  const items: Json[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let pages = 0; pages < 20; pages++) {
    const page = await api(
      sb,
      `/catalysts?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(page.status, page.text).toBe(200);
    expect(page.json.data.length).toBeLessThanOrEqual(limit);
    items.push(...page.json.data);
    if (!page.json.has_more) {
      expect(page.json.next_cursor).toBeNull();
      return items;
    }
    cursor = page.json.next_cursor as string;
    expect(seen.has(cursor)).toBe(false);
    seen.add(cursor);
  }
  throw new Error('too many pages');
}

describe('listCatalysts', () => {
  it('the seed, relative to today: ascending by date, the passed one left out, cancelled still listed', async () => {
    const items = await walk(`tickers=${SEEDED_TICKERS}`, 100);
    expect(items.map((c) => [c.id, c.at])).toEqual([
      ['cat_nvda_q_earnings', '2026-03-05T21:20:00Z'],
      ['cat_lly_fda_decision', '2026-03-06'],
      ['cat_amd_q_earnings', '2026-03-07'],
      ['cat_nee_dividend', '2026-03-08'],
      ['cat_7203_earnings', '2026-03-09T06:25:00Z'],
      ['cat_cat_construction', '2026-03-10T14:00:00Z'],
      ['cat_amd_product', '2026-07-02'],
    ]);
    const byId = new Map(items.map((c) => [c.id, c]));
    expect(byId.get('cat_nvda_q_earnings')).toMatchObject({
      ticker: 'NVDA',
      kind: 'earnings',
      all_day: false,
      status: 'confirmed',
      session: 'after-close',
      sequence: 1,
      source_url: 'https://investor.example.com/nvda/events',
      updated_at: '2026-03-04T12:00:00Z',
    });
    expect(byId.get('cat_lly_fda_decision')).toMatchObject({ all_day: true, status: 'cancelled' });
    expect(byId.get('cat_amd_q_earnings')).toMatchObject({ status: 'estimated', session: 'unknown' });
    expect(byId.get('cat_7203_earnings')!.title).toMatch(/^トヨタ自動車/);
    // What the extension's worker accepts (lib/contract/catalyst.ts), unchanged by its parsing.
    for (const item of items) expect(catalystSchema.parse(item)).toEqual(item);
  });

  it("playbook_ids: the caller's playbooks that track the ticker, newest first; none of another user's", async () => {
    const items = await walk('tickers=NVDA,7203.T', 100);
    const nvda = items.find((c) => c.ticker === 'NVDA')!;
    expect(tracking('NVDA').length).toBeGreaterThan(0);
    expect(nvda.playbook_ids).toEqual(tracking('NVDA').map((p) => p.id));
    expect(items.find((c) => c.ticker === '7203.T')!.playbook_ids).toEqual([]);
    const asAda = await api(sb, '/catalysts?tickers=NVDA', { key: ADA_KEY });
    expect(asAda.json.data[0].playbook_ids).toEqual([]);
  });

  it("playbook_id lists the catalysts of that playbook's tickers", async () => {
    const [withAmd] = tracking('AMD');
    const items = await walk(`playbook_id=${withAmd.id}`, 100);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(withAmd.tickers).toContain(item.ticker);
    expect(items.map((c) => c.id)).toContain('cat_amd_product');
    const bare = await createPlaybook(sb, { tickers: [] });
    expect((await api(sb, `/catalysts?playbook_id=${bare.id}`)).json).toEqual({
      data: [],
      has_more: false,
      next_cursor: null,
    });
  });

  it('pages follow the cursor within the declared limit, in the same order as one page', async () => {
    const whole = await walk(`tickers=${SEEDED_TICKERS}`, 100);
    const paged = await walk(`tickers=${SEEDED_TICKERS}`, 2);
    expect(paged.map((c) => c.id)).toEqual(whole.map((c) => c.id));
    const first = await api(sb, `/catalysts?tickers=${SEEDED_TICKERS}&limit=2`);
    const elsewhere = await api(
      sb,
      `/catalysts?tickers=NVDA&limit=2&cursor=${encodeURIComponent(first.json.next_cursor)}`,
    );
    expectProblem(elsewhere, 400, 'invalid_cursor');
    expectProblem(await api(sb, '/catalysts?tickers=NVDA&cursor=bogus'), 400, 'invalid_cursor');
    expectProblem(await api(sb, '/catalysts?tickers=NVDA&limit=101'), 400, 'invalid_limit');
  });

  it('from and to bound the dates, inclusive; a date-time counts by its UTC day', async () => {
    const window = await walk(`tickers=${SEEDED_TICKERS}&from=2026-03-03&to=2026-03-06`, 100);
    expect(window.map((c) => c.id)).toEqual([
      'cat_crwd_past_earnings',
      'cat_nvda_q_earnings',
      'cat_lly_fda_decision',
    ]);
  });

  it.each([
    ['', 'invalid_query'],
    ['tickers=NVDA&playbook_id=pb_x', 'invalid_query'],
    ['tickers=nvda', 'invalid_query'],
    ['tickers=NVDA,,AMD', 'invalid_query'],
    [`tickers=${Array.from({ length: 51 }, (_, i) => `T${i}`).join(',')}`, 'invalid_query'],
    ['tickers=NVDA&from=2026-3-1', 'invalid_query'],
    ['tickers=NVDA&from=2026-03-05&to=2026-03-04', 'invalid_query'],
    ['tickers=NVDA&sort=desc', 'unknown_parameter'],
  ])('refuses %s with a 400 problem', async (query, code) => {
    expectProblem(await api(sb, `/catalysts?${query}`), 400, code);
  });

  it("another user's private playbook answers 404 like a missing one; no key is 401", async () => {
    const [adaPrivate] = sb.db.listPlaybooks({ ownerId: OTHER_USER_ID, visibility: 'private' }, null, 1).rows;
    expectProblem(await api(sb, `/catalysts?playbook_id=${adaPrivate.id}`), 404, 'not_found');
    expectProblem(await api(sb, '/catalysts?playbook_id=pb_missing'), 404, 'not_found');
    expectProblem(await api(sb, '/catalysts?tickers=NVDA', { key: null }), 401, 'missing_api_key');
  });
});

describe('getPlaybookPerformance', () => {
  it('exact figures: whole-percent moves on prices that are multiples of 5, the mean as the return', async () => {
    const [playbook] = tracking('NVDA');
    const result = await api(sb, `/playbooks/${playbook.id}/performance`);
    expect(result.status).toBe(200);
    const body = result.json;
    expect(body).toMatchObject({ playbook_id: playbook.id, since: '2025-01-06', as_of: '2026-03-03' });
    expect(body.tickers.map((t: Json) => t.symbol)).toEqual(playbook.tickers);
    for (const t of body.tickers) {
      expect(t.currency).toBe('USD');
      expect(t.start_price % 5).toBe(0);
      expect(Number.isInteger(Math.round(t.return * 100))).toBe(true);
      expect(t.last_price).toBeCloseTo(t.start_price * (1 + t.return), 9);
    }
    const mean = body.tickers.reduce((s: number, t: Json) => s + t.return, 0) / body.tickers.length;
    expect(body.return).toBeCloseTo(mean, 6);
    expect(body.benchmark.symbol).toBe('SPY');
    expect(performanceSchema.parse(body)).toEqual(body);
    // Pinned, so a change to the model shows here: the same ticker and day always give these.
    expect(body.tickers.find((t: Json) => t.symbol === 'NVDA')).toEqual({
      symbol: 'NVDA',
      currency: 'USD',
      start_price: 160,
      last_price: 182.4,
      return: 0.14,
    });
    expect(tickerPerformance('NVDA', '2025-01-06', '2026-03-03').return).toBe(0.14);
  });

  it('as_of is the last weekday close; captured after it, nothing has moved; no tickers, a null return', async () => {
    const monday = await startTestSandbox({ seed: 1, now: () => Date.parse('2026-03-02T09:00:00Z') });
    try {
      const [p] = monday.db.listPlaybooks({ ownerId: DEMO_USER_ID }, null, 1).rows;
      const body = (await api(monday, `/playbooks/${p.id}/performance`)).json;
      expect(body.as_of).toBe('2026-02-27');
    } finally {
      await monday.close();
    }
    const fresh = await createPlaybook(sb, { tickers: ['SAP.DE', 'MSFT'] });
    const figures = (await api(sb, `/playbooks/${fresh.id}/performance`)).json;
    expect(figures.return).toBe(0);
    expect(figures.tickers.map((t: Json) => [t.currency, t.return, t.start_price === t.last_price])).toEqual([
      ['EUR', 0, true],
      ['USD', 0, true],
    ]);
    const bare = await createPlaybook(sb, { tickers: [] });
    const none = (await api(sb, `/playbooks/${bare.id}/performance`)).json;
    expect(none).toMatchObject({ return: null, tickers: [], benchmark: { symbol: 'SPY' } });
  });

  it("another user's private playbook is a 404", async () => {
    const [adaPrivate] = sb.db.listPlaybooks({ ownerId: OTHER_USER_ID, visibility: 'private' }, null, 1).rows;
    expectProblem(await api(sb, `/playbooks/${adaPrivate.id}/performance`), 404, 'not_found');
  });
});

describe('moving a catalyst (admin)', () => {
  it('bumps sequence, lists the new date and sends catalyst.changed to those who track the ticker', async () => {
    const events = await api(sb, '/events?limit=100');
    const cursor = events.json.next_cursor as string;
    const adaBefore = (await api(sb, '/events?limit=100', { key: ADA_KEY })).json.next_cursor as string;
    const moved = await admin(sb, 'POST', '/catalysts/cat_amd_q_earnings', {
      at: '2026-03-12T21:05:00+01:00',
      all_day: false,
      status: 'confirmed',
      session: 'after-close',
    });
    expect(moved.status).toBe(200);
    expect(moved.json).toMatchObject({ at: '2026-03-12T20:05:00Z', sequence: 2, status: 'confirmed' });
    const listed = (await walk('tickers=AMD', 100)).find((c) => c.id === 'cat_amd_q_earnings');
    expect(listed).toMatchObject({ at: '2026-03-12T20:05:00Z', all_day: false, sequence: 2 });
    const after = (await api(sb, `/events?cursor=${encodeURIComponent(cursor)}`)).json.data;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      type: 'catalyst.changed',
      playbook_id: tracking('AMD')[0].id,
      data: {
        catalyst_id: 'cat_amd_q_earnings',
        ticker: 'AMD',
        at: '2026-03-12T20:05:00Z',
        status: 'confirmed',
      },
    });
    const adaAfter = await api(sb, `/events?cursor=${encodeURIComponent(adaBefore)}`, { key: ADA_KEY });
    expect(adaAfter.json.data).toEqual([]);
  });

  it('a title alone keeps the sequence; a bad change is refused; an unknown id is 404', async () => {
    const renamed = await admin(sb, 'POST', '/catalysts/cat_nee_dividend', { title: 'Dividend (ex-date)' });
    expect(renamed.json).toMatchObject({ sequence: 1, title: 'Dividend (ex-date)' });
    expect(
      (await admin(sb, 'POST', '/catalysts/cat_nee_dividend', { at: '2026-03-09T10:00:00Z' })).status,
    ).toBe(400);
    expect((await admin(sb, 'POST', '/catalysts/cat_nee_dividend', { status: 'maybe' })).status).toBe(400);
    expect((await admin(sb, 'POST', '/catalysts/cat_missing', { status: 'cancelled' })).status).toBe(404);
  });

  it('the SSE stream carries it with event: catalyst.changed and its id', async () => {
    const controller = new AbortController();
    const response = await fetch(`${sb.apiUrl}/events/stream`, {
      headers: { Authorization: `Bearer ${sb.demoKey}` },
      signal: controller.signal,
    });
    const got: { event?: string; id?: string; data: string }[] = [];
    const parser = createParser({ onEvent: (e) => void (e.event === 'catalyst.changed' && got.push(e)) });
    const reader = response.body!.getReader();
    await reader.read(); // ": connected"
    await admin(sb, 'POST', '/catalysts/cat_lly_fda_decision', { status: 'confirmed' });
    while (got.length < 1) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(new TextDecoder().decode(value));
    }
    controller.abort();
    expect(got[0].id).toMatch(/^evt_\d+$/);
    expect(JSON.parse(got[0].data)).toMatchObject({
      id: got[0].id,
      type: 'catalyst.changed',
      data: { catalyst_id: 'cat_lly_fda_decision', status: 'confirmed' },
    });
  });

  it('a created catalyst is listed with sequence 1', async () => {
    const created = await admin(sb, 'POST', '/catalysts', {
      id: 'cat_test_one',
      ticker: 'NVDA',
      kind: 'other',
      title: 'Investor day',
      at: '2026-03-05',
      all_day: true,
      status: 'estimated',
    });
    expect(created.status).toBe(201);
    expect((await walk('tickers=NVDA', 100)).map((c) => c.id)).toContain('cat_test_one');
    expect((await admin(sb, 'POST', '/catalysts', { ...created.json, playbook_ids: [] })).status).toBe(400);
  });
});

describe.each([
  ['b', '/v2/calendar/catalysts', '/v2/books/{}/since-capture', 25],
  ['c', '/catalysts', '/strategies/{}/performance', 50],
] as const)('dialect %s', (dialect, listPath, performancePath, max) => {
  let other: Sandbox;
  beforeAll(async () => {
    other = await startTestSandbox({ dialect, seed: 12, now: () => NOW });
  });
  afterAll(() => other.close());

  it('serves both operations at its own paths, under its own parameter name and limits', async () => {
    const doc = await (await fetch(`${other.baseUrl}/openapi.json`)).json();
    const ops = new Map<string, { path: string; op: Json }>();
    for (const [path, item] of Object.entries<Json>(doc.paths))
      for (const op of Object.values<Json>(item)) ops.set(op.operationId, { path, op });
    expect(ops.get('listCatalysts')!.path).toBe(listPath);
    const param = { b: 'bookId', c: 'name' }[dialect];
    expect(ops.get('getPlaybookPerformance')!.path).toBe(performancePath.replace('{}', `{${param}}`));
    const limit = ops.get('listCatalysts')!.op.parameters.find((p: Json) => p.name === 'limit');
    expect(limit.schema.maximum).toBe(max);
    const page = await api(other, `${listPath}?tickers=${SEEDED_TICKERS}&limit=${max}`);
    expect(page.status).toBe(200);
    expect(page.json.data[0].id).toBe('cat_nvda_q_earnings');
    expectProblem(await api(other, `${listPath}?tickers=NVDA&limit=${max + 1}`), 400, 'invalid_limit');
    const [p] = other.db.listPlaybooks({ ownerId: DEMO_USER_ID }, null, 1).rows;
    const figures = await api(other, performancePath.replace('{}', p.id));
    expect(figures.status).toBe(200);
    expect(figures.json.playbook_id).toBe(p.id);
  });
});

describe('list faults apply to listCatalysts as to listPlaybooks', () => {
  const first = () => api(sb, `/catalysts?tickers=${SEEDED_TICKERS}&limit=2`);
  const afterFaults = () =>
    sb.setFaults({ oversizedResponse: 0, repeatingCursor: false, endlessHasMore: false });

  it('oversizedResponse pads the next catalysts page past 5 MB', async () => {
    sb.setFaults({ oversizedResponse: 1 });
    try {
      expect((await first()).text.length).toBeGreaterThan(5 * 1024 * 1024);
      expect((await first()).text.length).toBeLessThan(100_000);
    } finally {
      afterFaults();
    }
  });

  it('repeatingCursor: every page names the same next_cursor', async () => {
    sb.setFaults({ repeatingCursor: true });
    try {
      const page = await first();
      const next = await api(
        sb,
        `/catalysts?tickers=${SEEDED_TICKERS}&limit=2&cursor=${encodeURIComponent(page.json.next_cursor as string)}`,
      );
      expect(next.status, next.text).toBe(200);
      expect(next.json.has_more).toBe(true);
      expect(next.json.next_cursor).toBe(page.json.next_cursor);
    } finally {
      afterFaults();
    }
  });

  it('endlessHasMore: has_more with a fresh cursor, even past the end', async () => {
    sb.setFaults({ endlessHasMore: true });
    try {
      const seen = new Set<string>();
      let cursor = '';
      for (let i = 0; i < 5; i++) {
        const page = await api(
          sb,
          `/catalysts?tickers=${SEEDED_TICKERS}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.status, page.text).toBe(200);
        expect(page.json.has_more).toBe(true);
        expect(seen.has(page.json.next_cursor as string)).toBe(false);
        seen.add(page.json.next_cursor as string);
        cursor = page.json.next_cursor as string;
      }
    } finally {
      afterFaults();
    }
  });
});
