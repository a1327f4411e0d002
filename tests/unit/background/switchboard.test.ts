import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setLogSink } from '@/lib/log';
import { playbookPageUrl } from '@/lib/pages/navigation';
import { ALARMS, NOTIFICATIONS } from '@/lib/store/inventory';

const calls = vi.hoisted(() => ({
  resend: [] as string[],
  polls: 0,
  accepted: [] as unknown[],
  dropped: [] as unknown[],
}));

vi.mock('@/lib/background/writes', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/background/writes')>()),
  resendDeferredWrite: (id: string) => {
    calls.resend.push(id);
    return Promise.resolve();
  },
}));
vi.mock('@/lib/events', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/events')>()),
  onPollAlarm: () => {
    calls.polls++;
  },
  acceptEventsPort: (port: unknown) => {
    calls.accepted.push(port);
  },
  dropEventsPort: (port: unknown) => {
    calls.dropped.push(port);
  },
}));

const { startBackground } = await import('@/lib/background');
const { eventNotificationId } = await import('@/lib/events');

type Listener = (...args: unknown[]) => unknown;

/**
 * Every `on*` event of every namespace of the fake browser, replaced by one that records its
 * listeners: WXT's fake leaves some (runtime.onConnect, commands, contextMenus) unimplemented.
 */
function recordAllEvents(): Map<string, Listener[]> {
  const added = new Map<string, Listener[]>();
  const browser = fakeBrowser as unknown as Record<string, Record<string, unknown> | undefined>;
  for (const namespace of Object.keys(browser)) {
    const api = browser[namespace];
    if (!api || typeof api !== 'object') continue;
    for (const name of Object.keys(api)) {
      if (!/^on[A-Z]/.test(name)) continue;
      const key = `${namespace}.${name}`;
      api[name] = {
        addListener: (listener: Listener) => added.set(key, [...(added.get(key) ?? []), listener]),
        removeListener: () => undefined,
        hasListener: () => false,
      };
    }
  }
  return added;
}

/** Every event the worker must hear, once each. */
const EXPECTED = [
  'alarms.onAlarm',
  'commands.onCommand',
  'contextMenus.onClicked',
  'notifications.onClicked',
  'runtime.onConnect',
  'runtime.onInstalled',
  'runtime.onMessage',
];

let listeners: Map<string, Listener[]>;

function only(event: string): Listener {
  const found = listeners.get(event) ?? [];
  expect(found).toHaveLength(1);
  return found[0];
}

const EXTENSION_ORIGIN = `chrome-extension://${fakeBrowser.runtime.id}`;

function port(name: string, sender: Record<string, unknown>) {
  return {
    name,
    sender,
    disconnect: vi.fn(),
    postMessage: vi.fn(),
    onMessage: { addListener: vi.fn() },
    onDisconnect: { addListener: vi.fn() },
  };
}

beforeEach(() => {
  vi.restoreAllMocks();
  calls.resend.length = 0;
  calls.polls = 0;
  calls.accepted.length = 0;
  calls.dropped.length = 0;
  listeners = recordAllEvents();
  setLogSink(() => undefined);
  startBackground();
});

describe('startBackground', () => {
  it('adds exactly one listener to each event the worker must hear, and to no other', () => {
    expect([...listeners.keys()].sort()).toEqual(EXPECTED);
    for (const event of EXPECTED) expect(listeners.get(event), event).toHaveLength(1);
  });

  it('routes a write-retry alarm to the write resend with its draft id', async () => {
    await only('alarms.onAlarm')({ name: `${ALARMS.writeRetry.namePrefix}draft-1`, scheduledTime: 0 });
    expect(calls.resend).toEqual(['draft-1']);
    expect(calls.polls).toBe(0);
  });

  it('routes the poll alarm to polling, and an unknown alarm nowhere', async () => {
    await only('alarms.onAlarm')({ name: ALARMS.eventsPoll.name, scheduledTime: 0 });
    await only('alarms.onAlarm')({ name: 'someone-else', scheduledTime: 0 });
    expect(calls.polls).toBe(1);
    expect(calls.resend).toEqual([]);
  });

  it.each([
    [`${NOTIFICATIONS.event.idPrefix}${encodeURIComponent('pb 1/x')}|ev_9`, 'pb 1/x', undefined],
    [`${NOTIFICATIONS.writtenPlaybook.idPrefix}pb_new`, 'pb_new', undefined],
    [
      eventNotificationId({
        id: 'ev|7',
        playbook_id: 'pb,1|x',
        type: 'backtest.completed',
        data: { backtest_id: 'bt 3,|y' },
      }),
      'pb,1|x',
      'bt 3,|y',
    ],
    // A backtest id the schema refuses (too long) is not carried: the click opens the playbook only.
    [
      eventNotificationId({
        id: 'ev_8',
        playbook_id: 'pb_2',
        type: 'backtest.completed',
        data: { backtest_id: 'b'.repeat(201) },
      }),
      'pb_2',
      undefined,
    ],
  ])(
    'a click on notification %s opens playbook %s at backtest %s',
    async (notificationId, playbookId, backtestId) => {
      const create = vi.spyOn(fakeBrowser.tabs, 'create');
      await only('notifications.onClicked')(notificationId);
      await vi.waitFor(() => expect(create).toHaveBeenCalledOnce());
      expect(create.mock.calls[0][0]).toEqual({ url: playbookPageUrl(playbookId, backtestId) });
      const opened = new URL(create.mock.calls[0][0].url!);
      expect(opened.searchParams.get('playbook')).toBe(playbookId);
      expect(opened.searchParams.get('backtest')).toBe(backtestId ?? null);
    },
  );

  it.each([
    `${NOTIFICATIONS.write.idPrefix}draft-1`,
    'unknown:pb_1',
    `${NOTIFICATIONS.event.idPrefix}%E0%A4%A`,
  ])('a click on notification %s opens nothing', async (notificationId) => {
    const create = vi.spyOn(fakeBrowser.tabs, 'create');
    await only('notifications.onClicked')(notificationId);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(create).not.toHaveBeenCalled();
  });

  it('accepts the events port from an extension page, through the sender classifier', async () => {
    const panel = port('events', { id: fakeBrowser.runtime.id, origin: EXTENSION_ORIGIN });
    await only('runtime.onConnect')(panel);
    expect(calls.accepted).toEqual([panel]);
    expect(panel.disconnect).not.toHaveBeenCalled();
    expect(panel.onMessage.addListener).toHaveBeenCalledOnce();
    // The panel closing tells the events module, which stops the stream after the last one.
    expect(panel.onDisconnect.addListener).toHaveBeenCalledOnce();
    (panel.onDisconnect.addListener.mock.calls[0][0] as () => void)();
    expect(calls.dropped).toEqual([panel]);
  });

  it('refuses the events port from a content script and ignores ports of other names', async () => {
    const page = port('events', {
      id: fakeBrowser.runtime.id,
      tab: { id: 4 },
      frameId: 0,
      origin: 'https://finance.example',
    });
    await only('runtime.onConnect')(page);
    expect(page.disconnect).toHaveBeenCalledOnce();
    const other = port('other', { id: fakeBrowser.runtime.id, origin: EXTENSION_ORIGIN });
    await only('runtime.onConnect')(other);
    expect(calls.accepted).toEqual([]);
  });
});
