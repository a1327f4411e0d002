/**
 * Catalyst reminders against the sandbox: the seeded NVDA earnings tomorrow is due
 * with the default "1 day before"; it is shown once, not again after the worker restarts, and
 * once more when the sandbox moves it (its `catalyst.changed` event reaches the worker through
 * the side panel's stream). The worker logs `reminders.shown` per notification and
 * `reminders.checked` per check, in every incarnation: the count of the first against the second
 * proves "not again" without waiting on a clock.
 */
import type { Worker } from '@playwright/test';
import { expect, test } from './helpers/proof';

/** Log lines of `event`; Playwright may hand a worker's line twice (worker and context), so each counts once (it carries its ms). */
const count = (logs: string[], event: string) =>
  new Set(logs.filter((line) => line.includes(`"${event}"`))).size;

/** Records what the worker asks Chrome to show from now on (the polyfill calls chrome.notifications at call time). */
async function recordNotifications(worker: Worker) {
  await worker.evaluate(() => {
    const shown: unknown[] = [];
    (globalThis as { __notifications?: unknown[] }).__notifications = shown;
    const create = chrome.notifications.create.bind(chrome.notifications);
    chrome.notifications.create = ((...args: unknown[]) => {
      shown.push({ id: args.find((a) => typeof a === 'string'), ...args.find((a) => typeof a === 'object') });
      return (create as (...a: unknown[]) => unknown)(...args);
    }) as typeof chrome.notifications.create;
  });
  return async () =>
    (await worker.evaluate(() => (globalThis as { __notifications?: unknown[] }).__notifications ?? [])) as {
      id: string;
      title: string;
      message: string;
    }[];
}

test('a reminder fires once, not again after a worker restart, and once more after a move', async ({
  extension,
  sandbox,
  probe,
}) => {
  await extension.configure();
  // Saving the settings checks at once: NVDA tomorrow is the one reminder due.
  await expect.poll(() => count(probe.logs, 'reminders.shown')).toBe(1);
  expect(probe.logs.find((line) => line.includes('"reminders.shown"'))).toContain('"reason":"reminder"');

  await probe.stopWorker();
  const checked = count(probe.logs, 'reminders.checked');
  // A woken worker checks again when the settings are saved: nothing new to show.
  await probe.value('saveSettings', { serviceUrl: sandbox.baseUrl, apiUrl: sandbox.apiUrl });
  await expect.poll(() => count(probe.logs, 'reminders.checked')).toBeGreaterThan(checked);
  expect(count(probe.logs, 'reminders.shown')).toBe(1);

  // The sandbox moves it an hour later: sequence 2 and a catalyst.changed event, streamed to an open panel.
  const shown = await recordNotifications(await probe.worker());
  const panel = await extension.open('sidepanel.html');
  // Moved once the stream is open, so the event comes on it (not on the next poll, minutes away).
  await expect.poll(() => count(probe.logs, 'events.stream-open')).toBeGreaterThan(0);
  const response = await fetch(`${sandbox.baseUrl}/__admin/catalysts/cat_nvda_q_earnings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ at: new Date(Date.now() + 30 * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z') }),
  });
  expect(response.ok).toBe(true);
  await expect.poll(() => count(probe.logs, 'reminders.shown')).toBe(2);
  const [changed] = await shown();
  expect(changed.title).toBe('NVDA: catalyst changed');
  expect(changed.message).toContain('“');
  expect(changed.message).not.toContain('cat_nvda');
  expect(changed.id).toMatch(/^reminder\|/);
  await panel.close();
  // And not a third time on the next check.
  const before = count(probe.logs, 'reminders.checked');
  await probe.value('saveSettings', { serviceUrl: sandbox.baseUrl, apiUrl: sandbox.apiUrl });
  await expect.poll(() => count(probe.logs, 'reminders.checked')).toBeGreaterThan(before);
  expect(count(probe.logs, 'reminders.shown')).toBe(2);
});
