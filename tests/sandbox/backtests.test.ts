import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateBacktest, MAX_EQUITY_POINTS } from '../../sandbox/backtestModel';
import type { Sandbox } from '../../sandbox/server';
import { DEMO_USER_ID, OTHER_USER_ID } from '../../sandbox/store';
import { api, createPlaybook, expectProblem, newKey, startTestSandbox, type Json } from './helpers';

let sb: Sandbox;
let seeded: ReturnType<Sandbox['db']['listPlaybooks']>['rows'];
const ADA_KEY = 'iak_ada_backtests_0123456789';
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 6 });
  sb.db.addApiKey(OTHER_USER_ID, ADA_KEY, 'ada');
  seeded = sb.db.listPlaybooks({ ownerId: DEMO_USER_ID }, null, 100).rows;
});
afterAll(() => sb.close());

/** The seeded demo playbooks, newest first (the seed gives the newest ones a history). */
const demoPlaybooks = () => seeded;

async function walk(playbookId: string, limit: number): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 20; pages++) {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const result = await api(sb, `/playbooks/${playbookId}/backtests${query}`);
    expect(result.status).toBe(200);
    expect(result.json.data.length).toBeLessThanOrEqual(limit);
    items.push(...result.json.data);
    if (!result.json.has_more) {
      expect(result.json.next_cursor).toBeNull();
      return items;
    }
    cursor = result.json.next_cursor;
  }
  throw new Error('too many pages');
}

describe('listBacktests', () => {
  it('the seed: completed backtests on several demo playbooks, one failed, one queued', async () => {
    const [newest, second, third, fourth] = demoPlaybooks();
    const statuses = async (id: string) => (await walk(id, 20)).map((b: Json) => b.status);
    expect(await statuses(newest.id)).toEqual(['completed', 'failed', 'completed']);
    expect(await statuses(second.id)).toEqual(['queued', 'completed']);
    expect(await statuses(third.id)).toEqual(['completed']);
    expect(await statuses(fourth.id)).toEqual(['completed']);
    const [failed] = (await walk(newest.id, 20)).filter((b: Json) => b.status === 'failed');
    expect(failed.error).toMatchObject({ status: 422, code: 'backtest_failed' });
    expect(failed.error.type).toBe(`${sb.baseUrl}/problems/backtest_failed`);
    expect(failed.metrics).toBeNull();
  });

  it('pages newest first with a cursor; items carry metrics but never equity', async () => {
    const playbook = await createPlaybook(sb);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const queued = await api(sb, `/playbooks/${playbook.id}/backtests`, {
        body: { start: `201${i}-01-04`, end: `201${i + 1}-12-30` },
        idempotencyKey: newKey(),
      });
      expect(queued.status).toBe(202);
      ids.push(queued.json.id);
    }
    await expect
      .poll(async () => (await walk(playbook.id, 100)).every((b: Json) => b.status === 'completed'))
      .toBe(true);
    const walked = await walk(playbook.id, 2);
    expect(walked.map((b: Json) => b.id)).toEqual([...ids].reverse());
    for (const item of walked) {
      expect(item).not.toHaveProperty('equity');
      expect(item.metrics).toMatchObject({ total_return: expect.any(Number), sharpe: expect.any(Number) });
      expect(item.benchmark).toBe('SPY');
    }
  });

  it('refuses a cursor of another playbook and unknown parameters', async () => {
    const [newest, second] = demoPlaybooks();
    const first = await api(sb, `/playbooks/${newest.id}/backtests?limit=1`);
    expect(first.json.has_more).toBe(true);
    expectProblem(
      await api(sb, `/playbooks/${second.id}/backtests?cursor=${first.json.next_cursor}`),
      400,
      'invalid_cursor',
    );
    expectProblem(await api(sb, `/playbooks/${newest.id}/backtests?sort=asc`), 400, 'unknown_parameter');
  });

  it("another user's playbook, even a public one, lists as missing", async () => {
    const [newest] = demoPlaybooks();
    expectProblem(await api(sb, `/playbooks/${newest.id}/backtests`, { key: ADA_KEY }), 404, 'not_found');
    const adaPublic = sb.db.listPlaybooks({ ownerId: OTHER_USER_ID, visibility: 'public' }, null, 1).rows[0];
    expectProblem(await api(sb, `/playbooks/${adaPublic.id}/backtests`), 404, 'not_found');
  });
});

describe('list faults apply to listBacktests as to listPlaybooks', () => {
  /** The newest demo playbook: three seeded backtests, so a page of 1 has a next one. */
  const path = () => `/playbooks/${demoPlaybooks()[0].id}/backtests`;
  const page = (query: string) => api(sb, `${path()}?${query}`);
  const afterFaults = () =>
    sb.setFaults({ oversizedResponse: 0, repeatingCursor: false, endlessHasMore: false });

  it('oversizedResponse pads the next backtests page past 5 MB', async () => {
    sb.setFaults({ oversizedResponse: 1 });
    try {
      expect((await page('limit=1')).text.length).toBeGreaterThan(5 * 1024 * 1024);
      expect((await page('limit=1')).text.length).toBeLessThan(100_000);
    } finally {
      afterFaults();
    }
  });

  it('repeatingCursor: every page names the same next_cursor, the last one too', async () => {
    sb.setFaults({ repeatingCursor: true });
    try {
      const first = await page('limit=1');
      const cursor = first.json.next_cursor as string;
      for (const limit of [1, 100]) {
        const next = await page(`limit=${limit}&cursor=${encodeURIComponent(cursor)}`);
        expect(next.status, next.text).toBe(200);
        expect(next.json.has_more).toBe(true);
        expect(next.json.next_cursor).toBe(cursor);
      }
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
        const next = await page(`limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(next.status, next.text).toBe(200);
        expect(next.json.has_more).toBe(true);
        expect(seen.has(next.json.next_cursor as string)).toBe(false);
        seen.add(next.json.next_cursor as string);
        cursor = next.json.next_cursor as string;
      }
    } finally {
      afterFaults();
    }
  });
});

describe('getBacktest', () => {
  it('a completed backtest has its equity: growth of 1.0, dates ascending, at most 2,000 points', async () => {
    const [newest] = demoPlaybooks();
    const [latest] = await walk(newest.id, 1);
    const result = await api(sb, `/backtests/${latest.id}`);
    expect(result.status).toBe(200);
    const equity: Json[] = result.json.equity;
    expect(equity.length).toBeGreaterThan(500);
    expect(equity.length).toBeLessThanOrEqual(MAX_EQUITY_POINTS);
    expect(equity[0]).toMatchObject({ value: 1, benchmark: 1 });
    expect(equity[0].date >= latest.start).toBe(true);
    for (let i = 1; i < equity.length; i++) expect(equity[i].date > equity[i - 1].date).toBe(true);
    const last = equity[equity.length - 1];
    expect(last.value - 1).toBeCloseTo(result.json.metrics.total_return, 3);
    expect(last.benchmark - 1).toBeCloseTo(result.json.metrics.benchmark_return, 3);
    // A drawdown is visible, and the playbook differs from its benchmark.
    expect(result.json.metrics.max_drawdown).toBeLessThan(-0.05);
    expect(result.json.metrics.total_return).not.toBe(result.json.metrics.benchmark_return);
  });

  it('queued and failed backtests come without equity', async () => {
    const [newest, second] = demoPlaybooks();
    const queued = (await walk(second.id, 20)).find((b: Json) => b.status === 'queued');
    const failed = (await walk(newest.id, 20)).find((b: Json) => b.status === 'failed');
    for (const item of [queued, failed]) {
      const result = await api(sb, `/backtests/${item.id}`);
      expect(result.status).toBe(200);
      expect(result.json.status).toBe(item.status);
      expect(result.json).not.toHaveProperty('equity');
      expect(result.json.metrics).toBeNull();
    }
  });

  it("another user's backtest is a 404, exactly like a missing one", async () => {
    const [newest] = demoPlaybooks();
    const [latest] = await walk(newest.id, 1);
    const foreign = await api(sb, `/backtests/${latest.id}`, { key: ADA_KEY });
    expectProblem(foreign, 404, 'not_found');
    const missing = await api(sb, '/backtests/bt_missing', { key: ADA_KEY });
    expectProblem(missing, 404, 'not_found');
    expect(foreign.json.detail).toBe(missing.json.detail);
  });

  it('a run goes queued → completed and its event carries exactly the contract data', async () => {
    const playbook = await createPlaybook(sb);
    const queued = await api(sb, `/playbooks/${playbook.id}/backtests`, {
      body: { start: '2020-01-02', end: '2023-06-30', benchmark: 'QQQ' },
      idempotencyKey: newKey(),
    });
    // Not done yet: queued, or already running on a machine slow enough to pass half the delay
    // before this read arrives (the sandbox marks it running after half of it).
    const early = (await api(sb, `/backtests/${queued.json.id}`)).json;
    expect(['queued', 'running']).toContain(early.status);
    expect(early).toMatchObject({ completed_at: null, metrics: null });
    await expect
      .poll(async () =>
        (await api(sb, '/events?limit=100')).json.data.find(
          (e: Json) => e.type === 'backtest.completed' && e.data.backtest_id === queued.json.id,
        ),
      )
      .toBeDefined();
    const done = await api(sb, `/backtests/${queued.json.id}`);
    expect(done.json.status).toBe('completed');
    const events = (await api(sb, '/events?limit=100')).json.data;
    const completed = events.find((e: Json) => e.data.backtest_id === queued.json.id);
    const m = done.json.metrics;
    expect(completed.data).toEqual({
      backtest_id: queued.json.id,
      total_return: m.total_return,
      benchmark_return: m.benchmark_return,
      max_drawdown: m.max_drawdown,
      sharpe: m.sharpe,
    });
  });
});

describe('the backtest model', () => {
  it('is deterministic per playbook, window and benchmark, and differs between them', () => {
    const a = simulateBacktest('pb_1', '2020-01-01', '2022-12-31', 'SPY');
    expect(simulateBacktest('pb_1', '2020-01-01', '2022-12-31', 'SPY')).toEqual(a);
    expect(simulateBacktest('pb_2', '2020-01-01', '2022-12-31', 'SPY').metrics).not.toEqual(a.metrics);
  });

  it('the benchmark is one market: the same curve for every playbook over the same window', () => {
    const a = simulateBacktest('pb_1', '2022-01-03', '2024-12-31', 'SPY');
    const b = simulateBacktest('pb_2', '2022-01-03', '2024-12-31', 'SPY');
    expect(b.equity.map((p) => p.benchmark)).toEqual(a.equity.map((p) => p.benchmark));
    expect(b.equity.map((p) => p.value)).not.toEqual(a.equity.map((p) => p.value));
    const qqq = simulateBacktest('pb_1', '2022-01-03', '2024-12-31', 'QQQ');
    expect(qqq.equity.map((p) => p.benchmark)).not.toEqual(a.equity.map((p) => p.benchmark));
  });

  it('a day is a day: two windows that share dates agree on them, rebased to their first shared date', () => {
    // A real market does not depend on the window asked for: the comparison over the shared
    // period then shows one benchmark return, not one per backtest.
    for (const playbook of ['pb_1', 'pb_2']) {
      const long = simulateBacktest(playbook, '2021-01-04', '2024-12-31', 'SPY');
      const short = simulateBacktest(playbook, '2022-01-03', '2024-12-31', 'SPY');
      const from = long.equity.find((p) => p.date === short.equity[0].date);
      if (!from) throw new Error('no shared first date');
      const rebased = long.equity
        .filter((p) => p.date >= short.equity[0].date)
        .map((p) => ({ date: p.date, value: p.value / from.value, benchmark: p.benchmark / from.benchmark }));
      expect(rebased.map((p) => p.date)).toEqual(short.equity.map((p) => p.date));
      rebased.forEach((p, i) => {
        expect(p.benchmark).toBeCloseTo(short.equity[i].benchmark, 3);
        expect(p.value).toBeCloseTo(short.equity[i].value, 3);
      });
    }
  });

  it('thins a 20-year window to at most 2,000 points, keeping the first and last day', () => {
    const long = simulateBacktest('pb_1', '2000-01-03', '2019-12-31', 'SPY');
    expect(long.equity.length).toBeLessThanOrEqual(MAX_EQUITY_POINTS);
    expect(long.equity.length).toBeGreaterThan(1000);
    expect(long.equity[0].date).toBe('2000-01-03');
    expect(long.equity[long.equity.length - 1].date).toBe('2019-12-31');
  });
});
