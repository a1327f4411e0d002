/**
 * What the hostile-service specs (hostile-*.spec.ts) share: the demo user's playbooks, the calls a
 * live-execution write makes, pointing the extension at a proxy of the sandbox, and the checks
 * that the worker still answers and that no piece of the key left it.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Sandbox } from '../../../sandbox/server';
import { confirmPause, openPause } from './flows';
import { expect, type Probe } from './proof';

export interface StoredPlaybook {
  id: string;
  title: string;
  thesis: string;
  etag: string;
}

export function demoPlaybooks(sandbox: Sandbox): StoredPlaybook[] {
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  return sandbox.db.listPlaybooks({ ownerId: user.id }, null, 20).rows;
}

/** A playbook of the demo user running live automation, so that Pause is offered. */
export function activePlaybook(sandbox: Sandbox, index = 0): StoredPlaybook {
  const playbook = demoPlaybooks(sandbox)[index];
  return sandbox.db.updatePlaybook(playbook.id, { status: 'active' });
}

/** Every request to a live-execution route (pause or activate, any method, either dialect). */
export function liveExecutionCalls(sandbox: Sandbox): string[] {
  return sandbox
    .requests()
    .filter((r) => r.method !== 'OPTIONS' && /\/(pause|activate|live\/start|live\/stop)$/.test(r.path))
    .map((r) => `${r.method} ${r.path}`);
}

/**
 * How long getState may take before the worker counts as frozen. A liveness bound, not a speed
 * claim: a parser stuck in super-linear work or a worker serialised behind a flood freezes it for
 * good, while a slow, busy CI machine only stretches it (2.5 s seen here at load 8 during the
 * event flood). Speed is the bench's and the unit suites' (CPU time against a linear yardstick).
 */
export const LIVENESS_MS = 15_000;

/**
 * Runs discovery and, while it is in flight, keeps asking getState: each must answer within
 * `limitMs` (a parser that freezes the worker freezes getState too). Returns the run's answer.
 */
export async function expectDiscoveryLeavesWorkerFree(probe: Probe, limitMs = LIVENESS_MS) {
  const started = Date.now();
  let settled = false;
  const run = probe.send('runDiscovery', {}).finally(() => (settled = true));
  const latencies: number[] = [];
  while (!settled && Date.now() - started < 60_000) {
    const asked = Date.now();
    await Promise.race([probe.send('getState'), sleep(limitMs * 2)]);
    latencies.push(Date.now() - asked);
    await sleep(200);
  }
  expect(Math.max(...latencies, 0), `getState while discovery ran: ${latencies.join(', ')} ms`).toBeLessThan(
    limitMs,
  );
  expect(settled, 'discovery finished within a minute').toBe(true);
  return await run;
}

/** Points the extension at `serviceUrl` (a loopback proxy of the sandbox) with the sandbox's API and key. */
export async function useService(
  extension: { open(page: string): Promise<Page> },
  sandbox: Sandbox,
  serviceUrl: string,
): Promise<void> {
  const options = await extension.open('options.html');
  await options.evaluate(
    async ({ serviceUrl, apiUrl, key }) => {
      for (const [type, payload] of [
        ['saveSettings', { serviceUrl, apiUrl }],
        ['saveApiKey', { key }],
      ] as const) {
        const answer = await chrome.runtime.sendMessage<unknown, { ok: boolean }>({ type, payload });
        if (!answer.ok) throw new Error(type);
      }
    },
    { serviceUrl, apiUrl: sandbox.apiUrl, key: sandbox.demoKey },
  );
  await options.close();
}

/**
 * Records what the worker asks Chrome to show (the polyfill calls chrome.notifications at call
 * time); the function returned reads the options of every notification created since.
 */
export async function recordNotifications(probe: Probe): Promise<() => Promise<unknown[]>> {
  const worker = await probe.worker();
  await worker.evaluate(() => {
    const shown: unknown[] = [];
    (globalThis as { __notifications?: unknown[] }).__notifications = shown;
    const create = chrome.notifications.create.bind(chrome.notifications);
    chrome.notifications.create = ((...args: unknown[]) => {
      // Events' notifications only: the sandbox seeds a catalyst due tomorrow, whose reminder
      // (id "reminder|…") the key's save may show at any moment of the test.
      const id = args.find((a) => typeof a === 'string');
      if (!(typeof id === 'string' && id.startsWith('reminder|')))
        shown.push(args.find((a) => typeof a === 'object'));
      return (create as (...a: unknown[]) => unknown)(...args);
    }) as typeof chrome.notifications.create;
  });
  return () => worker.evaluate(() => (globalThis as { __notifications?: unknown[] }).__notifications ?? []);
}

/** getState answers within `limitMs`: the worker is not frozen. */
export async function expectWorkerAnswers(probe: Probe, limitMs = LIVENESS_MS): Promise<void> {
  const answer = await Promise.race([probe.send('getState'), sleep(limitMs).then(() => 'timeout' as const)]);
  expect(answer, `getState answered within ${limitMs} ms`).not.toBe('timeout');
  expect(answer).toMatchObject({ ok: true });
}

export async function openDetail(extension: { open(page: string): Promise<Page> }, playbook: StoredPlaybook) {
  const panel = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(playbook.id)}`);
  await expect(panel.getByRole('heading', { name: playbook.title })).toBeVisible();
  return panel;
}

/** Pause from the side panel, confirmed: the sandbox receives exactly one POST …/pause. */
export async function expectPauseWorks(
  context: BrowserContext,
  extension: { open(page: string): Promise<Page> },
  sandbox: Sandbox,
  index = 3,
) {
  const target = activePlaybook(sandbox, index);
  const panel = await openDetail(extension, target);
  const before = liveExecutionCalls(sandbox).length;
  const confirm = await openPause(context, panel);
  await confirmPause(confirm);
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  expect(liveExecutionCalls(sandbox).slice(before)).toEqual([
    expect.stringMatching(new RegExp(`^POST .*/${target.id}/(pause|live/stop)$`)),
  ]);
  expect(sandbox.db.getPlaybook(target.id)?.status).toBe('paused');
  await panel.close();
}

/** Every 8-character piece of the key: none may appear in any text that left the worker. */
export function keyFragments(key: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i + 8 <= key.length; i++) pieces.push(key.slice(i, i + 8));
  return pieces;
}

export function leakedFragments(key: string, texts: Record<string, string>): string[] {
  const leaks: string[] = [];
  for (const [where, text] of Object.entries(texts))
    for (const piece of keyFragments(key)) if (text.includes(piece)) leaks.push(`${where}: …${piece}…`);
  return leaks;
}

/** From now on, the tabs opened that are not the extension's own (read their URLs when asked). */
export function watchForeignTabs(context: BrowserContext): () => string[] {
  const opened: Page[] = [];
  context.on('page', (page) => opened.push(page));
  return () => opened.map((p) => p.url()).filter((url) => !url.startsWith('chrome-extension://'));
}
