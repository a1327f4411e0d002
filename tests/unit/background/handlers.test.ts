import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { POLL_ALARM, schedulePolling } from '@/lib/events';
import type { HandlerRegistry } from '@/lib/messaging';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import { OPTIONS_PAGE, workerRegistry } from './registry';

let registry: HandlerRegistry;

afterEach(() => {
  vi.restoreAllMocks();
});

beforeEach(async () => {
  await saveSettings(DEFAULT_SETTINGS);
  const worker = workerRegistry();
  registry = worker.registry;
  return worker.restoreLog;
});

describe('saveSettings', () => {
  it('reschedules the polling alarm when the interval changes', async () => {
    await schedulePolling(5);
    const answer = await registry.dispatch(
      {
        type: 'saveSettings',
        payload: {
          serviceUrl: DEFAULT_SETTINGS.serviceUrl,
          apiUrl: DEFAULT_SETTINGS.apiUrl,
          pollMinutes: 15,
        },
      },
      OPTIONS_PAGE,
    );
    expect(answer).toMatchObject({ ok: true, value: { settings: { pollMinutes: 15 } } });
    expect((await browser.alarms.get(POLL_ALARM))?.periodInMinutes).toBe(15);
  });

  it.each([
    ['http://example.com', 'Use https for a service that is not on this computer.'],
    ['http://10.0.0.5:8787', 'Use https for a service that is not on this computer.'],
    ['http://user:pw@127.0.0.1:8787', 'Leave out any user name or password.'],
  ])('refuses %s as the service URL, and saves nothing', async (url, problem) => {
    const answer = await registry.dispatch(
      { type: 'saveSettings', payload: { serviceUrl: url, apiUrl: `${url}/api/v1` } },
      OPTIONS_PAGE,
    );
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'malformed-message', fields: { serviceUrl: problem } },
    });
    const state = await registry.dispatch({ type: 'getState', payload: {} }, OPTIONS_PAGE);
    expect(state).toMatchObject({
      ok: true,
      value: { settings: { serviceUrl: DEFAULT_SETTINGS.serviceUrl } },
    });
  });
});
