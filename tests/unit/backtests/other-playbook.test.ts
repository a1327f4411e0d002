/**
 * A backtest belongs to the playbook it is shown under: the worker's backtest reads and the
 * `backtest.completed` notification, over the real API client, against a fake service that
 * answers with another playbook's backtests.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing';
import type { ServiceEvent } from '@/lib/api/schemas';
import { updateCursor } from '@/lib/events/feed';
import { setLogSink } from '@/lib/log';
import { clearState } from '@/lib/store/state';
import { completedBacktest } from '../../fixtures/backtests';
import { clientFor, json, playbook, writesDocument, type Route } from '../api/support';

/** The contract's document with the two backtest reads, on the sandbox's paths. */
function backtestsDocument() {
  const doc = writesDocument();
  const paths = doc.paths as Record<string, Record<string, unknown>>;
  const limits = [{ $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/Cursor' }];
  paths['/playbooks/{id}/backtests'].get = {
    operationId: 'listBacktests',
    parameters: limits,
    responses: {},
  };
  paths['/backtests/{id}'] = {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    get: { operationId: 'getBacktest', responses: {} },
  };
  return doc;
}

const seam = vi.hoisted(() => ({ route: undefined as unknown as Route }));

vi.mock('@/lib/api/service', () => ({
  serviceClient: () =>
    Promise.resolve(
      clientFor((request, recorded) => seam.route(request, recorded), { openApi: backtestsDocument() })
        .client,
    ),
}));

beforeAll(() => setLogSink(() => undefined));

const { latestBacktest, listBacktests } = await import('@/lib/backtests/reads');
const { ingestEvents } = await import('@/lib/events');

const OTHER = "The service answered with another playbook's backtests, so they are not shown here.";
const own = { ...completedBacktest, id: 'bt_1', playbook_id: 'pb_1' };
const borrowed = { ...completedBacktest, id: 'bt_2', playbook_id: 'pb_2' };
const page = (...items: unknown[]) => ({ data: items, has_more: false, next_cursor: null });

/** A fake service: each playbook's list, each backtest by id, each playbook by id. */
function serve(lists: Record<string, unknown[]>, backtests: Record<string, unknown>) {
  seam.route = (request) => {
    const path = new URL(request.url).pathname.replace(/^\/v1/, '');
    const list = /^\/playbooks\/([^/]+)\/backtests$/.exec(path);
    if (list) return json(page(...(lists[list[1]] ?? [])));
    const one = /^\/backtests\/([^/]+)$/.exec(path);
    if (one) return json(backtests[one[1]]);
    const book = /^\/playbooks\/([^/]+)$/.exec(path);
    if (book) return json(playbook(book[1], { title: `Title of ${book[1]}` }));
    return json({}, { status: 404 });
  };
}

describe("the newest completed backtest is the playbook's own", () => {
  it('is read when list and backtest are the playbook’s own (the control)', async () => {
    serve({ pb_1: [own] }, { bt_1: own });
    expect(await latestBacktest('pb_1')).toEqual({ playbookId: 'pb_1', backtest: own });
  });

  it("is refused, with a message, when the list answers with another playbook's backtest", async () => {
    serve({ pb_1: [borrowed], pb_2: [borrowed] }, { bt_2: borrowed });
    // The comparison asks for both: the borrowed curve is shown under its own playbook only.
    const answers = await Promise.all(['pb_1', 'pb_2'].map((id) => latestBacktest(id)));
    expect(answers).toEqual([
      { playbookId: 'pb_1', error: OTHER },
      { playbookId: 'pb_2', backtest: borrowed },
    ]);
  });

  it("is refused when the list is the playbook's own but the backtest read is another playbook's", async () => {
    serve({ pb_1: [own] }, { bt_1: borrowed });
    expect(await latestBacktest('pb_1')).toEqual({ playbookId: 'pb_1', error: OTHER });
  });

  it("the playbook's list refuses another playbook's backtests with the same message", async () => {
    serve({ pb_1: [own, borrowed] }, {});
    await expect(listBacktests('pb_1')).rejects.toMatchObject({ message: OTHER });
    serve({ pb_1: [own] }, {});
    expect((await listBacktests('pb_1')).items).toEqual([own]);
  });
});

describe('the backtest.completed notification says figures only for a backtest of its playbook', () => {
  // The worker's notification window (a few per minute, kept in memory) is left behind between tests.
  let hours = 0;
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 2, 1) + ++hours * 3_600_000);
    vi.restoreAllMocks();
    fakeBrowser.reset();
    await clearState();
    await updateCursor({ since: '2026-01-01T00:00:00.000Z' });
  });

  afterEach(() => vi.useRealTimers());

  const completed = (backtestId: string): ServiceEvent => ({
    id: `e_${backtestId}`,
    type: 'backtest.completed',
    playbook_id: 'pb_1',
    at: '2026-02-01T00:00:00.000Z',
    data: {
      backtest_id: backtestId,
      total_return: 0.123,
      benchmark_return: 0.087,
      max_drawdown: -0.154,
      sharpe: 1.2,
    },
  });

  async function notified(event: ServiceEvent): Promise<string> {
    const notify = vi.spyOn(browser.notifications, 'create');
    await ingestEvents([event], 'poll');
    expect(notify).toHaveBeenCalledTimes(1);
    return (notify.mock.calls[0][1] as unknown as { message: string }).message;
  }

  it('says the result of a backtest of the playbook (the control)', async () => {
    serve({}, { bt_1: own });
    expect(await notified(completed('bt_1'))).toBe(
      '+12.3% vs SPY +8.7%, max drawdown \u221215.4%. “Title of pb_1”. Decision support, not financial advice.',
    );
  });

  it.each([
    ["another playbook's backtest", { bt_2: borrowed }, 'bt_2'],
    ['a backtest under another id', { bt_1: borrowed, bt_3: { ...own, id: 'bt_9' } }, 'bt_3'],
    ['a backtest that cannot be read', {}, 'bt_4'],
  ])('names only the playbook for %s', async (_name, backtests, id) => {
    serve({}, backtests);
    expect(await notified(completed(id))).toBe('“Title of pb_1”. Decision support, not financial advice.');
  });
});
