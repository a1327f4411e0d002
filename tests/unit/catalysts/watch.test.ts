/**
 * The worker's reminder check (lib/catalysts/watch.ts) over the real API client, the real state
 * store (fake IndexedDB) and fakeBrowser's alarms and notifications, against a fake service whose
 * catalysts a test moves. A "worker restart" re-imports the modules (their memory is gone) while
 * the database keeps what was saved.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { setLogSink } from '@/lib/log';
import { clearState } from '@/lib/store/state';
import { clientFor, json, openApiDocument, playbook, type Route } from '../api/support';

const seam = vi.hoisted(() => ({ route: undefined as unknown as Route }));

vi.mock('@/lib/api/service', () => ({
  serviceClient: () => {
    const doc = openApiDocument() as { paths: Record<string, unknown> };
    doc.paths['/catalysts'] = {
      get: {
        operationId: 'listCatalysts',
        parameters: [
          { $ref: '#/components/parameters/Limit' },
          { $ref: '#/components/parameters/Cursor' },
          { name: 'tickers', in: 'query', schema: { type: 'string' } },
        ],
        responses: {},
      },
    };
    return Promise.resolve(
      clientFor((request) => seam.route(request, undefined as never), { openApi: doc }).client,
    );
  },
}));

beforeAll(() => setLogSink(() => undefined));

const HOUR = 3_600_000;
/** A fixed instant; the catalysts are date-times 11 h later, so "1 day before" holds in any zone from −11 to +12. */
const NOW = Date.parse('2026-03-05T10:00:00Z');

interface FakeCatalyst {
  id: string;
  ticker: string;
  title: string;
  at: string;
  sequence: number;
  status?: string;
}

const catalysts = new Map<string, FakeCatalyst>();
let catalystCalls = 0;

function add(id: string, ticker: string, sequence = 1, at = '2026-03-05T21:00:00Z') {
  catalysts.set(id, { id, ticker, title: `${ticker} quarterly earnings`, at, sequence });
}

/** The fake service: one playbook tracking the tickers, and their catalysts. */
function serve(tickers: string[]) {
  seam.route = (request) => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/v1/, '');
    if (path === '/playbooks')
      return json({
        data: [playbook('pb_1', { title: 'Chips into earnings', tickers })],
        has_more: false,
        next_cursor: null,
      });
    if (path === '/catalysts') {
      catalystCalls += 1;
      const asked = new Set((url.searchParams.get('tickers') ?? '').split(','));
      const data = [...catalysts.values()]
        .filter((c) => asked.has(c.ticker))
        .map((c) => ({
          kind: 'earnings',
          all_day: false,
          status: 'confirmed',
          session: 'after-close',
          playbook_ids: ['pb_1'],
          updated_at: '2026-03-01T00:00:00Z',
          ...c,
        }));
      return json({ data, has_more: false, next_cursor: null });
    }
    return json({}, { status: 404 });
  };
}

/** A fresh worker: modules re-imported (no memory), the same database. */
async function worker() {
  vi.resetModules();
  (await import('@/lib/log')).setLogSink(() => undefined);
  return import('@/lib/catalysts/watch');
}

/** What the worker asked the browser to show: id, title and message of each notification. */
function shown(): { id: string; title: string; message: string }[] {
  const calls = vi.mocked(browser.notifications.create).mock.calls as unknown as [
    string,
    { title: string; message: string },
  ][];
  return calls.map(([id, options]) => ({ id, title: options.title, message: options.message }));
}

beforeEach(async () => {
  await clearState();
  // Reminders are the user's: a check reads only with a key saved.
  await (await import('@/lib/store/apiKey')).storeApiKey('iak_watch_account_0123456789');
  catalysts.clear();
  catalystCalls = 0;
  vi.restoreAllMocks();
  vi.spyOn(browser.notifications, 'create');
});

describe('catalyst reminders in the worker', () => {
  it('reads nothing and shows nothing without a key, so a key saved next is the one a reminder is recorded for', async () => {
    serve(['NVDA']);
    add('cat_nvda', 'NVDA');
    await (await import('@/lib/store/apiKey')).removeApiKey();
    expect(await (await worker()).checkReminders(NOW)).toBeNull();
    expect(shown()).toHaveLength(0);
    await (await import('@/lib/store/apiKey')).storeApiKey('iak_watch_account_0123456789');
    await (await worker()).checkReminders(NOW);
    await (await worker()).checkReminders(NOW);
    expect(shown()).toHaveLength(1);
  });

  it('fires once, not again after a worker restart, and once more after a move', async () => {
    serve(['NVDA']);
    add('cat_nvda', 'NVDA');
    await (await worker()).checkReminders(NOW);
    expect(shown()).toHaveLength(1);
    const [first] = shown();
    expect(first.title).toBe('NVDA: catalyst ahead');
    expect(first.message).toContain('NVDA quarterly earnings');
    expect(first.message).toContain('“Chips into earnings”');
    expect(first.message).not.toContain('cat_nvda');
    expect(first.message).not.toContain('pb_1');

    // The same worker checks again, then a restarted one: nothing new.
    await (await worker()).checkReminders(NOW + HOUR);
    await (await worker()).checkReminders(NOW + 2 * HOUR);
    expect(shown()).toHaveLength(1);

    // Moved later the same evening: sequence 2, one more.
    add('cat_nvda', 'NVDA', 2, '2026-03-05T22:00:00Z');
    await (await worker()).checkReminders(NOW + 3 * HOUR);
    expect(shown()).toHaveLength(2);
    expect(shown()[1].title).toBe('NVDA: catalyst changed');
    await (await worker()).checkReminders(NOW + 4 * HOUR);
    expect(shown()).toHaveLength(2);
  });

  it('keeps a record per service and key: another key is reminded of a catalyst with the same id', async () => {
    serve(['NVDA']);
    add('cat_nvda', 'NVDA');
    const { removeApiKey, storeApiKey } = await import('@/lib/store/apiKey');
    await storeApiKey('iak_first_account_0123456789');
    try {
      await (await worker()).checkReminders(NOW);
      expect(shown()).toHaveLength(1);
      await storeApiKey('iak_second_account_0123456789');
      await (await worker()).checkReminders(NOW + HOUR);
      expect(shown()).toHaveLength(2);
      expect(shown()[1].title).toBe('NVDA: catalyst ahead');
      await (await worker()).checkReminders(NOW + 2 * HOUR);
      expect(shown()).toHaveLength(2);
    } finally {
      await removeApiKey();
    }
  });

  it('keeps the record unsaved when the notification could not be shown, and shows it next time', async () => {
    serve(['NVDA']);
    add('cat_nvda', 'NVDA');
    vi.mocked(browser.notifications.create).mockRejectedValueOnce(new Error('no notifications'));
    await (await worker()).checkReminders(NOW);
    await (await worker()).checkReminders(NOW + HOUR);
    expect(vi.mocked(browser.notifications.create)).toHaveBeenCalledTimes(2);
  });

  it('shows nothing in quiet hours and sets the alarm at their end, where the reminder is shown', async () => {
    serve(['NVDA']);
    add('cat_nvda', 'NVDA');
    const local = new Date(NOW);
    const minutes = local.getHours() * 60 + local.getMinutes();
    const { saveSettings } = await import('@/lib/store/settings');
    await saveSettings({ quietHours: { start: (minutes + 1380) % 1440, end: (minutes + 90) % 1440 } });
    try {
      const watch = await worker();
      const plan = await watch.checkReminders(NOW);
      expect(shown()).toHaveLength(0);
      expect(plan?.deferredUntil).toBe(NOW + 1.5 * HOUR);
      const alarm = await browser.alarms.get(watch.REMINDER_ALARM);
      expect(alarm?.scheduledTime).toBe(NOW + 1.5 * HOUR);
      await (await worker()).checkReminders(NOW + 1.5 * HOUR - 60_000);
      expect(shown()).toHaveLength(0);
      await (await worker()).checkReminders(alarm?.scheduledTime);
      expect(shown()).toHaveLength(1);
    } finally {
      await saveSettings({ quietHours: null });
    }
  });

  it('makes one summary when many are due at once, naming their tickers', async () => {
    const tickers = ['NVDA', 'AMD', 'CAT', 'LLY', 'NEE', 'CRWD', 'TSLA'];
    serve(tickers);
    tickers.forEach((ticker, i) => add(`cat_${i}`, ticker));
    await (await worker()).checkReminders(NOW);
    expect(shown()).toHaveLength(1);
    expect(shown()[0].title).toBe('Catalysts ahead');
    expect(shown()[0].message).toContain('NVDA');
    expect(shown()[0].message).toContain('2 more');
    // Every one of them is recorded: none comes back one by one.
    await (await worker()).checkReminders(NOW + HOUR);
    expect(shown()).toHaveLength(1);
  });

  it('reads catalysts 50 tickers per call', async () => {
    const tickers = Array.from({ length: 120 }, (_, i) => `T${i}`);
    serve(tickers);
    await (await worker()).checkReminders(NOW);
    expect(catalystCalls).toBe(3);
  });

  it('is silent with reminders off, and clears its alarm', async () => {
    serve(['NVDA']);
    add('cat_nvda', 'NVDA');
    const { saveSettings } = await import('@/lib/store/settings');
    await saveSettings({ reminderLead: 'off' });
    try {
      const watch = await worker();
      expect(await watch.checkReminders(NOW)).toBeNull();
      expect(shown()).toHaveLength(0);
      expect(await browser.alarms.get(watch.REMINDER_ALARM)).toBeUndefined();
    } finally {
      await saveSettings({ reminderLead: '1-day' });
    }
  });

  it('opens the playbook it names when clicked (Firefox too: a basic notification, no buttons)', async () => {
    serve(['NVDA']);
    add('cat_nvda', 'NVDA');
    await (await worker()).checkReminders(NOW);
    const [notice] = vi.mocked(browser.notifications.create).mock.calls[0] as unknown as [
      string,
      { type: string; buttons?: unknown },
    ];
    expect(vi.mocked(browser.notifications.create).mock.calls[0][1]).toMatchObject({ type: 'basic' });
    expect(vi.mocked(browser.notifications.create).mock.calls[0][1]).not.toHaveProperty('buttons');
    const { routeNotificationClick } = await import('@/lib/background');
    const { playbookPageUrl } = await import('@/lib/pages/navigation');
    const opened = vi.spyOn(browser.tabs, 'create');
    routeNotificationClick(notice);
    await vi.waitFor(() => expect(opened).toHaveBeenCalledWith({ url: playbookPageUrl('pb_1') }));
  });
});
