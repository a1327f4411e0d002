/**
 * Firefox: a catalyst reminder. The seeded NVDA earnings tomorrow is due with the
 * default "1 day before": the worker's check shows it as a `basic` notification naming the
 * ticker and the playbook, a click opens that playbook (Firefox's notifications have no buttons),
 * it is not shown again for the same `sequence`, and once more when the sandbox moves it.
 *
 * Headless Firefox shows no alert at all (the API closes each one at once), so the system's
 * notification centre is a fake installed in the browser's own scope (harness fakeSystemAlerts):
 * what reaches it is what Firefox's notifications API asked the system to show, and its click is
 * the callback a real centre sends.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_USER_ID } from '../../sandbox/store';
import type { Sandbox } from '../../sandbox/server';
import {
  admin,
  configure,
  fakeSystemAlerts,
  launchFirefox,
  sandboxForTest,
  until,
  type Firefox,
  type ShownAlert,
  type SystemAlerts,
} from './harness';

let firefox: Firefox;
let alerts: SystemAlerts;
let sandbox: Sandbox | undefined;

beforeAll(async () => {
  // A Firefox of its own: the record of shown reminders outlives a test's sandbox, and another
  // file's tests would already have been reminded of the seeded catalysts.
  firefox = await launchFirefox();
  alerts = await fakeSystemAlerts(firefox);
});
afterAll(async () => {
  await sandbox?.close();
  await firefox?.close();
});

const reminders = async () => (await alerts.shown()).filter((alert) => alert.id.startsWith('reminder|'));

/** The ids of the extension's notifications Firefox holds open (notifications.getAll in an extension page). */
const openNotifications = async () =>
  Object.keys(
    await firefox.inExtension(
      () =>
        (
          globalThis as unknown as { browser: { notifications: { getAll(): Promise<object> } } }
        ).browser.notifications.getAll(),
      null,
    ),
  );

/** Waits until `count` reminders were shown; returns them all. */
const shownCount = async (count: number): Promise<ShownAlert[]> => {
  await until(async () => (await reminders()).length >= count, `${count} reminder(s)`);
  return reminders();
};

it('a reminder names the ticker and playbook, opens the playbook on a click, and comes once per sequence', async () => {
  sandbox = await sandboxForTest();
  const playbooks = sandbox.db.listPlaybooks({ ownerId: DEMO_USER_ID }, null, 100).rows;
  // Saving the key checks at once, as after every settings change.
  await configure(firefox, sandbox);

  const [first] = await shownCount(1);
  expect(first.title).toBe('NVDA: catalyst ahead');
  expect(first.text).toContain('Decision support, not financial advice');
  const named = playbooks.find((p) => first.text.includes(`Playbook “${p.title}”`));
  expect(named?.tickers).toContain('NVDA');
  expect(first.text).not.toContain('cat_nvda');
  // Firefox's notifications API holds it as the extension's own.
  expect(await openNotifications()).toContain(first.id);

  // A click opens the playbook it names (the side panel's page in a tab) and clears the notification.
  await alerts.click(first.id);
  const page = await firefox.pageAt(`playbook=${encodeURIComponent(named!.id)}`);
  await page.waitForSelector('[aria-label="Catalysts"]');
  await until(
    async () => !(await openNotifications()).includes(first.id),
    'the clicked notification to be cleared',
  );

  // Another check, then the sandbox moves it (sequence 2) and a further check. Checks run one at a
  // time, so when the change shows, the check before it has run: it showed nothing new.
  const check = () => firefox.send('saveSettings', { serviceUrl: sandbox!.baseUrl, apiUrl: sandbox!.apiUrl });
  expect((await check()).ok).toBe(true);
  const moved = new Date(Date.now() + 30 * 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await admin(sandbox, 'catalysts/cat_nvda_q_earnings', { at: moved });
  expect((await check()).ok).toBe(true);
  const [, second] = await shownCount(2);
  expect(second.text).toContain(`Playbook “${named!.title}”`);
  expect((await reminders()).map((alert) => alert.title)).toEqual([
    'NVDA: catalyst ahead',
    'NVDA: catalyst changed',
  ]);
});
