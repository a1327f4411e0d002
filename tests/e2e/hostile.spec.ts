import type { BrowserContext, Page } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RecordedRequest, Sandbox } from '../../sandbox/server';
import { NEW_PLAYBOOK, queueCreate, uniqueTitle, writesTo } from './helpers/flows';
import { expect, proxyTo, startOtherOrigin, test, type OtherOrigin, type Probe } from './helpers/proof';
import { ConfirmPage, PopupPage, SidePanelPage } from './pages/surfaces';
import { longTable, wideTable } from '../fixtures/hostile/tableBomb';

/**
 * Issue 11 end to end: a hostile service (lying OpenAPI document, parser-attacking documents,
 * hostile headers, bodies and event streams) against the built extension. Each test proves what
 * the user sees, what the service received, and that the worker still answers afterwards.
 */

interface StoredPlaybook {
  id: string;
  title: string;
  thesis: string;
  etag: string;
}

function demoPlaybooks(sandbox: Sandbox): StoredPlaybook[] {
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  return sandbox.db.listPlaybooks({ ownerId: user.id }, null, 20).rows;
}

/** A playbook of the demo user running live automation, so that Pause is offered. */
function activePlaybook(sandbox: Sandbox, index = 0): StoredPlaybook {
  const playbook = demoPlaybooks(sandbox)[index];
  return sandbox.db.updatePlaybook(playbook.id, { status: 'active' });
}

/** Every request to a live-execution route (pause or activate, any method, either dialect). */
function liveExecutionCalls(sandbox: Sandbox): string[] {
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
const LIVENESS_MS = 15_000;

/**
 * Runs discovery and, while it is in flight, keeps asking getState: each must answer within
 * `limitMs` (a parser that freezes the worker freezes getState too). Returns the run's answer.
 */
async function expectDiscoveryLeavesWorkerFree(probe: Probe, limitMs = LIVENESS_MS) {
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
async function useService(
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
async function recordNotifications(probe: Probe): Promise<() => Promise<unknown[]>> {
  const worker = await probe.worker();
  await worker.evaluate(() => {
    const shown: unknown[] = [];
    (globalThis as { __notifications?: unknown[] }).__notifications = shown;
    const create = chrome.notifications.create.bind(chrome.notifications);
    chrome.notifications.create = ((...args: unknown[]) => {
      shown.push(args.find((a) => typeof a === 'object'));
      return (create as (...a: unknown[]) => unknown)(...args);
    }) as typeof chrome.notifications.create;
  });
  return () => worker.evaluate(() => (globalThis as { __notifications?: unknown[] }).__notifications ?? []);
}

/** getState answers within `limitMs`: the worker is not frozen. */
async function expectWorkerAnswers(probe: Probe, limitMs = LIVENESS_MS): Promise<void> {
  const answer = await Promise.race([probe.send('getState'), sleep(limitMs).then(() => 'timeout' as const)]);
  expect(answer, `getState answered within ${limitMs} ms`).not.toBe('timeout');
  expect(answer).toMatchObject({ ok: true });
}

async function openDetail(extension: { open(page: string): Promise<Page> }, playbook: StoredPlaybook) {
  const panel = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(playbook.id)}`);
  await expect(panel.getByRole('heading', { name: playbook.title })).toBeVisible();
  return panel;
}

/** Clicks Pause in the side panel's detail and returns the confirm window it opens. */
async function openPause(context: BrowserContext, panel: Page): Promise<ConfirmPage> {
  const opened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
  await panel.getByRole('button', { name: 'Pause live automation' }).click();
  const confirm = new ConfirmPage(await opened);
  await expect(confirm.dialog).toBeVisible();
  return confirm;
}

async function typeAndConfirm(confirm: ConfirmPage, typed: string): Promise<void> {
  await confirm.dialog.getByLabel(`Type “${typed}” to confirm`).fill(typed);
  await expect(confirm.confirm).toBeEnabled();
  await confirm.confirm.click();
}

/** Pause from the side panel, confirmed: the sandbox receives exactly one POST …/pause. */
async function expectPauseWorks(
  context: BrowserContext,
  extension: { open(page: string): Promise<Page> },
  sandbox: Sandbox,
  index = 3,
) {
  const target = activePlaybook(sandbox, index);
  const panel = await openDetail(extension, target);
  const before = liveExecutionCalls(sandbox).length;
  const confirm = await openPause(context, panel);
  await typeAndConfirm(confirm, target.title);
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  expect(liveExecutionCalls(sandbox).slice(before)).toEqual([
    expect.stringMatching(new RegExp(`^POST .*/${target.id}/(pause|live/stop)$`)),
  ]);
  expect(sandbox.db.getPlaybook(target.id)?.status).toBe('paused');
  await panel.close();
}

/** Every 8-character piece of the key: none may appear in any text that left the worker. */
function keyFragments(key: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i + 8 <= key.length; i++) pieces.push(key.slice(i, i + 8));
  return pieces;
}

function leakedFragments(key: string, texts: Record<string, string>): string[] {
  const leaks: string[] = [];
  for (const [where, text] of Object.entries(texts))
    for (const piece of keyFragments(key)) if (text.includes(piece)) leaks.push(`${where}: …${piece}…`);
  return leaks;
}

/** From now on, the tabs opened that are not the extension's own (read their URLs when asked). */
function watchForeignTabs(context: BrowserContext): () => string[] {
  const opened: Page[] = [];
  context.on('page', (page) => opened.push(page));
  return () => opened.map((p) => p.url()).filter((url) => !url.startsWith('chrome-extension://'));
}

test.describe('a hostile OpenAPI document cannot change the confirmed write', () => {
  test('pausePlaybook deprecated with x-replaced-by activatePlaybook: Pause is sent as pause, with a warning', async ({
    context,
    extension,
    sandbox,
    probe,
  }) => {
    sandbox.setFaults({ openapiTamper: ['pause-replaced-by-activate'], legacySunsetPast: false });
    await extension.configure();
    const target = activePlaybook(sandbox);
    const panel = await openDetail(extension, target);
    sandbox.clearRequests();
    const confirm = await openPause(context, panel);
    // The window shows the resolved method and path, and says the operation is deprecated.
    await expect(confirm.dialog).toContainText('POST');
    await expect(confirm.dialog).toContainText(new RegExp(`POST \\S*/${target.id}/pause`));
    await expect(confirm.dialog).toContainText(/deprecated/i);
    await typeAndConfirm(confirm, target.title);
    await expect(confirm.page.getByRole('status')).toContainText('Sent');
    expect(liveExecutionCalls(sandbox)).toEqual([`POST /api/v1/playbooks/${target.id}/pause`]);
    expect(sandbox.db.getPlaybook(target.id)?.status).toBe('paused');
    await expectWorkerAnswers(probe);
  });

  test('the same document past its sunset: Pause is refused with a clear message, nothing is sent', async ({
    context,
    extension,
    sandbox,
    probe,
  }) => {
    sandbox.setFaults({ openapiTamper: ['pause-replaced-by-activate'], legacySunsetPast: true });
    await extension.configure();
    const target = activePlaybook(sandbox);
    const panel = await openDetail(extension, target);
    sandbox.clearRequests();
    const confirm = await openPause(context, panel);
    const typed = confirm.dialog.getByLabel(`Type “${target.title}” to confirm`);
    // Refused when the window opens, or at the latest when the user confirms.
    if (await typed.isVisible()) {
      await typed.fill(target.title);
      if (await confirm.confirm.isEnabled()) await confirm.confirm.click();
    }
    await expect(confirm.dialog.getByRole('alert')).toContainText(/sunset/i);
    await sleep(500);
    expect(liveExecutionCalls(sandbox)).toEqual([]);
    expect(sandbox.db.getPlaybook(target.id)?.status).toBe('active');
    await expectWorkerAnswers(probe);
  });

  test('pause remapped to activate’s path after the window opened: nothing is sent, the user confirms again', async ({
    context,
    extension,
    sandbox,
    probe,
  }) => {
    await extension.configure();
    const target = activePlaybook(sandbox);
    const panel = await openDetail(extension, target);
    const confirm = await openPause(context, panel);
    await expect(confirm.dialog).toContainText(new RegExp(`POST \\S*/${target.id}/pause`));
    const honest = await fetch(`${sandbox.baseUrl}/openapi.json`);
    sandbox.setFaults({ openapiTamper: ['pause-activate-swapped'] });
    const flipped = await fetch(`${sandbox.baseUrl}/openapi.json`);
    expect(flipped.headers.get('etag')).not.toBe(honest.headers.get('etag'));
    sandbox.clearRequests();
    await typeAndConfirm(confirm, target.title);
    await expect(confirm.dialog).toContainText(/confirm again|changed/i);
    await expect(confirm.confirm).toBeVisible();
    await sleep(500);
    expect(liveExecutionCalls(sandbox)).toEqual([]);
    expect(sandbox.db.getPlaybook(target.id)?.status).toBe('active');
    // The worker re-read the document before sending (a conditional GET that got the new bytes).
    expect(sandbox.requests().some((r) => r.path === '/openapi.json')).toBe(true);
    await expectWorkerAnswers(probe);
  });

  test('popup: a refused document says nothing was sent and what to do, and never calls the list empty', async ({
    extension,
    sandbox,
  }) => {
    sandbox.setFaults({ openapiTamper: ['duplicate-operation'] });
    await extension.configure();
    const popup = await extension.open('popup.html');
    const alert = popup.getByRole('alert').filter({ hasText: 'could not be trusted' });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText('Nothing was sent');
    await expect(alert.getByRole('link', { name: 'status page' })).toHaveAttribute(
      'href',
      `${sandbox.baseUrl}/status`,
    );
    await expect(popup.getByText(/No playbooks yet/)).toHaveCount(0);
    expect(sandbox.requests().filter((r) => r.path.startsWith('/api/v1/playbooks'))).toEqual([]);
  });

  for (const tamper of ['duplicate-operation', 'writes-as-get'] as const)
    test(`a document with ${tamper} is refused: the user is told, Pause sends nothing`, async ({
      context,
      extension,
      sandbox,
      probe,
    }) => {
      sandbox.setFaults({ openapiTamper: [tamper] });
      await extension.configure();
      const target = activePlaybook(sandbox);
      sandbox.clearRequests();
      const panel = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(target.id)}`);
      // The document is refused as a whole: the panel says so instead of showing the playbook.
      await expect(panel.getByRole('alert').first()).toBeVisible();
      expect(((await panel.getByRole('alert').first().textContent()) ?? '').length).toBeLessThan(1_000);
      const opened = context
        .waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html'), timeout: 5_000 })
        .catch(() => null);
      const answer = await probe.send('requestWrite', {
        operationId: 'pausePlaybook',
        path: { id: target.id },
      });
      const window = answer.ok ? await opened : null;
      if (window) {
        const confirm = new ConfirmPage(window);
        const typed = confirm.dialog.getByLabel(`Type “${target.title}” to confirm`);
        if (await typed.isVisible().catch(() => false)) {
          await typed.fill(target.title);
          if (await confirm.confirm.isEnabled().catch(() => false)) await confirm.confirm.click();
        }
        await expect(confirm.dialog.getByRole('alert')).toBeVisible();
      }
      await sleep(500);
      expect(liveExecutionCalls(sandbox)).toEqual([]);
      expect(sandbox.db.getPlaybook(target.id)?.status).toBe('active');
      await expectWorkerAnswers(probe);
    });
});

test.describe('discovery documents that attack parsers', () => {
  test('an 8,000-character llms.txt heading: popup and side panel answer within seconds; Pause still works', async ({
    context,
    extension,
    sandbox,
    probe,
  }) => {
    test.setTimeout(90_000);
    sandbox.setFaults({ llmsHeadingChars: 8_000 });
    await extension.configure();
    await expectDiscoveryLeavesWorkerFree(probe);
    const popup = await extension.open('popup.html');
    await expect(popup.getByRole('list', { name: 'Playbooks' }).getByRole('listitem').first()).toBeVisible({
      timeout: 8_000,
    });
    await expectWorkerAnswers(probe);
    const panel = await extension.open('sidepanel.html');
    await new SidePanelPage(panel).tab('Discovery').click();
    await panel.locator('.discovery-details > summary').click();
    const timeline = panel.getByRole('list', { name: 'Discovery run' });
    await expect(timeline.getByRole('listitem').first()).toContainText('llms.txt', { timeout: 8_000 });
    expect(sandbox.requests().some((r) => r.path === '/llms.txt')).toBe(true);
    await expectWorkerAnswers(probe);
    await expectPauseWorks(context, extension, sandbox);
  });

  test('Markdown bombs, endless skill front matter and huge cards: discovery finishes, renders inert, the worker answers', async ({
    extension,
    sandbox,
    probe,
  }) => {
    test.setTimeout(90_000);
    sandbox.setFaults({ hostileMarkdown: true, endlessSkillFrontMatter: true, hostileCards: true });
    await extension.configure();
    await expectDiscoveryLeavesWorkerFree(probe);
    const popup = await extension.open('popup.html');
    await expect(popup.getByRole('list', { name: 'Playbooks' }).getByRole('listitem').first()).toBeVisible({
      timeout: 10_000,
    });
    await expectWorkerAnswers(probe);
    const panel = await extension.open('sidepanel.html');
    await new SidePanelPage(panel).tab('Discovery').click();
    await panel.locator('.discovery-details > summary').click();
    const timeline = panel.getByRole('list', { name: 'Discovery run' });
    await expect(timeline.getByRole('listitem').first()).toContainText('llms.txt', { timeout: 10_000 });
    for (const path of ['/pricing.md', '/auth.md', '/agent.json', '/.well-known/mcp/server-card.json'])
      expect(
        sandbox.requests().some((r) => r.path === path),
        path,
      ).toBe(true);
    await expectWorkerAnswers(probe);
    for (const summary of await panel
      .locator('#panel-discovery details:not(.discovery-details) > summary')
      .all())
      await summary.click();
    await expectWorkerAnswers(probe);
    expect(await panel.locator('#panel-discovery script, #panel-discovery iframe').count()).toBe(0);
    const hrefs = await panel
      .locator('#panel-discovery a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    for (const href of hrefs) expect(href).toMatch(/^(https?:|mailto:)/);
    expect(hrefs.some((href) => href.includes('203.0.113.7'))).toBe(false);
  });
});

test.describe('hostile API answers', () => {
  test('hostile RateLimit, Link, Deprecation, Sunset and Retry-After headers: lists load, notices stay short', async ({
    extension,
    sandbox,
    probe,
  }) => {
    sandbox.setFaults({ hostileHeaders: true });
    await extension.configure();
    const popup = await extension.open('popup.html');
    await expect(popup.getByRole('list', { name: 'Playbooks' }).getByRole('listitem').first()).toBeVisible();
    const status = (await popup.getByRole('region', { name: 'Service status' }).textContent()) ?? '';
    expect(status.length).toBeLessThan(2_000);
    expect(status).not.toContain('9999999999');
    await expectWorkerAnswers(probe);
    // A 429 whose Retry-After is 1,500 nines: the nines are no number the worker reads, so it
    // waits for the 429's RateLimit-Reset (1 s) and its one retry brings the list fresh. Honouring
    // the nines as a wait would answer "deferred", or the cached page marked failed.
    sandbox.setFaults({ rateLimitBurst: 1 });
    const sent = sandbox.requests().length;
    const answer = await Promise.race([
      probe.send('listPlaybooks', {}),
      sleep(5_000).then(() => 'timeout' as const),
    ]);
    expect(answer).not.toBe('timeout');
    expect(JSON.stringify(answer).length).toBeLessThan(200_000);
    expect(answer).toMatchObject({ ok: true, value: { source: 'network' } });
    expect(answer).not.toHaveProperty('value.stale');
    const lists = sandbox
      .requests()
      .slice(sent)
      .filter((r) => r.path.endsWith('/playbooks'));
    expect(lists, 'the 429, then its retry').toHaveLength(2);
    await expectWorkerAnswers(probe);
  });

  test('a problem detail that echoes the key: no fragment of it in the window, outbox, answers or logs', async ({
    context,
    extension,
    sandbox,
    probe,
  }) => {
    await extension.configure();
    const key = sandbox.demoKey;
    // The key at every offset: whatever the cut, an unscrubbed text keeps a piece of it.
    sandbox.setFaults({ echoKeyInProblem: 1_000, echoKeyPadding: null });
    const { confirm } = await queueCreate(context, probe, { ...NEW_PLAYBOOK, title: uniqueTitle('Echo') });
    await expect(confirm.confirm).toBeEnabled();
    await confirm.confirm.click();
    await expect(confirm.dialog.getByRole('alert')).toBeVisible();
    const windowText = await confirm.page.evaluate(() => document.body.innerText);
    // The case: padded so that a 300-character cut lands one character before the key's end.
    sandbox.setFaults({ echoKeyInProblem: 1_000, echoKeyPadding: 300 - key.length + 1 });
    const popup = await extension.open('popup.html');
    await expect(popup.getByRole('alert').first()).toBeVisible();
    const popupText = await popup.evaluate(() => document.body.innerText);
    await probe.send('listPlaybooks', {});
    await probe.send('getPlaybook', { id: demoPlaybooks(sandbox)[0].id });
    const outbox = JSON.stringify(await probe.send('listOutbox'));
    const leaks = leakedFragments(key, {
      window: windowText,
      popup: popupText,
      outbox,
      answers: probe.answers.join('\n'),
      logs: probe.logs.join('\n'),
    });
    expect(leaks).toEqual([]);
    expect(
      sandbox.requests().filter((r) => r.headers.authorization === `Bearer ${key}`).length,
    ).toBeGreaterThan(0);
    sandbox.resetFaults();
    await expectWorkerAnswers(probe);
  });

  for (const mode of ['http-remote', 'javascript'] as const)
    test(`a ${mode} checkout_url is never opened`, async ({ context, extension, sandbox, probe }) => {
      sandbox.setFaults({ accountLinkUrl: mode });
      await extension.configure();
      const planBefore = sandbox.db.userForKey(sandbox.demoKey)?.plan;
      sandbox.clearRequests();
      const foreignTabs = watchForeignTabs(context);
      const opened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
      await probe.value('requestWrite', { operationId: 'createCheckoutSession', body: { plan: 'team' } });
      const confirm = new ConfirmPage(await opened);
      await typeAndConfirm(confirm, 'team');
      await expect(
        confirm.page.getByRole('status').or(confirm.dialog.getByRole('alert')).first(),
      ).toBeVisible();
      await sleep(1_500);
      expect(foreignTabs()).toEqual([]);
      expect(writesTo(sandbox, '/billing/checkout-sessions')).toHaveLength(1);
      expect(sandbox.requests().filter((r) => r.path.startsWith('/sandbox/'))).toEqual([]);
      expect(sandbox.db.userForKey(sandbox.demoKey)?.plan).toBe(planBefore);
      await expectWorkerAnswers(probe);
    });

  test('a checkout_url and link_url in createPlaybook’s answer are never opened', async ({
    context,
    extension,
    sandbox,
    probe,
  }) => {
    sandbox.setFaults({ foreignAccountUrls: true });
    await extension.configure();
    const before = sandbox.db.userForKey(sandbox.demoKey);
    sandbox.clearRequests();
    const foreignTabs = watchForeignTabs(context);
    const title = uniqueTitle('Foreign URLs');
    const { confirm } = await queueCreate(context, probe, { ...NEW_PLAYBOOK, title });
    await expect(confirm.confirm).toBeEnabled();
    await confirm.confirm.click();
    await expect(confirm.page.getByRole('status')).toContainText('Sent');
    await sleep(1_500);
    expect(writesTo(sandbox)).toHaveLength(1);
    expect(foreignTabs()).toEqual([]);
    expect(sandbox.requests().filter((r) => r.path.startsWith('/sandbox/'))).toEqual([]);
    const after = sandbox.db.userForKey(sandbox.demoKey);
    expect([after?.plan, after?.brokerage_linked]).toEqual([before?.plan, before?.brokerage_linked]);
    await expectWorkerAnswers(probe);
  });
});

// servers[0].url names a remote host over plain http; Chromium resolves that host to a recording
// proxy of the sandbox, so a request there (and the key on it) would be seen.
const remoteTest = test.extend<{ remote: OtherOrigin }>({
  remote: async ({ sandbox }, use) => {
    const remote: OtherOrigin = await startOtherOrigin(proxyTo(sandbox.baseUrl, () => remote.origin));
    await use(remote);
    await remote.close();
  },
  browserArgs: async ({ remote }, use) => {
    await use([`--host-resolver-rules=MAP api.remote.example 127.0.0.1:${new URL(remote.origin).port}`]);
  },
});

remoteTest(
  'servers[0].url over plain http to a remote host: refused before the key goes out',
  async ({ context, extension, sandbox, probe, remote }) => {
    sandbox.setFaults({ serversUrl: 'http://api.remote.example/api/v1' });
    await extension.configure();
    const popup = await extension.open('popup.html');
    await expect(popup.getByRole('alert').first()).toBeVisible();
    await probe.send('listPlaybooks', {});
    await sleep(1_000);
    expect(remote.calls.filter((call) => JSON.stringify(call.headers).includes(sandbox.demoKey))).toEqual([]);
    expect(remote.calls.filter((call) => call.url.startsWith('/api/'))).toEqual([]);
    await expectWorkerAnswers(probe);
    // The check can fail: the browser does reach the remote host's recorder.
    const check = await context.newPage();
    await check.goto('http://api.remote.example/status');
    expect(remote.calls.map((call) => call.url)).toContain('/status');
  },
);

// Issue 22: every redirect hop passes the https-except-loopback rule. The service (on loopback,
// allowed) redirects /openapi.json to plain http on a remote host name, which Chromium resolves to
// a recording proxy of the sandbox: a request there would be seen, and the document used.
remoteTest(
  'a discovery redirect to plain http on a remote host: not followed, the OpenAPI document not fetched there',
  async ({ context, extension, sandbox, probe, remote }) => {
    const service: OtherOrigin = await startOtherOrigin((call) =>
      new URL(call.url, 'http://x').pathname === '/openapi.json'
        ? Promise.resolve({
            status: 302,
            headers: { location: 'http://api.remote.example/openapi.json' },
            body: '',
          })
        : proxyTo(sandbox.baseUrl, () => service.origin)(call),
    );
    try {
      await useService(extension, sandbox, service.origin);
      const answer = (await probe.send('runDiscovery', {})) as {
        ok: boolean;
        value?: { steps: { id: string; status: string; error?: string }[] };
      };
      expect(service.calls.map((call) => call.url)).toContain('/openapi.json');
      expect(remote.calls.map((call) => call.url)).not.toContain('/openapi.json');
      const step = answer.value?.steps.find((s) => s.id === 'openapi');
      expect(step?.status).toBe('failed');
      expect(step?.error).toMatch(/redirect/i);
      await expectWorkerAnswers(probe);
      // The check can fail: the browser does reach the remote host's recorder.
      const check = await context.newPage();
      await check.goto('http://api.remote.example/status');
      expect(remote.calls.map((call) => call.url)).toContain('/status');
    } finally {
      await service.close();
    }
  },
);

// Issue 22: a 1 MB Markdown table bomb as /pricing.md, which the side panel parses on open and
// the Discovery tab renders: the panel's heap stays under 100 MB and the cells it draws bounded.
test('a 1 MB table bomb as /pricing.md: the side panel stays under 100 MB of heap', async ({
  context,
  extension,
  sandbox,
  probe,
}) => {
  const bomb = `${wideTable(200_000)}\n${longTable(290_000)}`;
  expect(bomb.length).toBeLessThan(1_000_000);
  const service: OtherOrigin = await startOtherOrigin((call) =>
    new URL(call.url, 'http://x').pathname === '/pricing.md'
      ? Promise.resolve({
          status: 200,
          headers: { 'content-type': 'text/markdown; charset=utf-8' },
          body: bomb,
        })
      : proxyTo(sandbox.baseUrl, () => service.origin)(call),
  );
  try {
    await useService(extension, sandbox, service.origin);
    const run = (await probe.send('runDiscovery', {})) as {
      value?: { steps: { id: string; bytes: number }[] };
    };
    expect(run.value?.steps.find((step) => step.id === 'pricing')?.bytes).toBe(bomb.length);
    const panel = await extension.open('sidepanel.html');
    const cdp = await context.newCDPSession(panel);
    await new SidePanelPage(panel).tab('Discovery').click();
    await panel.locator('.discovery-details > summary').click();
    const pricing = panel.getByRole('listitem').filter({ hasText: '/pricing.md' });
    await pricing.getByText('Read Pricing').click();
    await expect(pricing.getByText('(document shortened for display)')).toBeVisible({ timeout: 30_000 });
    expect(await pricing.locator('td, th').count()).toBeLessThanOrEqual(10_000);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    test.info().annotations.push({ type: 'side panel heap (MB)', description: String(heap.usedSize / 1e6) });
    expect(heap.usedSize, `side panel heap ${Math.round(heap.usedSize / 1e6)} MB`).toBeLessThan(100_000_000);
    await expectWorkerAnswers(probe);
  } finally {
    await service.close();
  }
});

test.describe('hostile event streams', () => {
  test('a stream that never sends a newline: the worker answers, the events tab still works', async ({
    extension,
    sandbox,
    probe,
  }) => {
    test.setTimeout(90_000);
    await extension.configure();
    sandbox.setFaults({ sseNoNewlineBytes: 128 * 1024 * 1024 });
    const [target] = demoPlaybooks(sandbox);
    const panel = await openDetail(extension, target);
    await expect.poll(() => sandbox.requests().some((r) => r.path.endsWith('/events/stream'))).toBe(true);
    await sleep(3_000); // the flood is under way
    await expectWorkerAnswers(probe);
    await new SidePanelPage(panel).tab('Events').click();
    await expect(panel.getByRole('tabpanel', { name: 'Events' }).getByRole('status').first()).toBeVisible();
    sandbox.resetFaults();
    const ownerId = sandbox.db.userForKey(sandbox.demoKey)!.id;
    const backtestId = `bt_after_flood_${Date.now()}`;
    sandbox.db.appendEvent(ownerId, 'backtest.completed', target.id, { backtest_id: backtestId });
    await probe.send('pollEventsNow', {});
    const item = panel
      .getByRole('list', { name: 'Events' })
      .getByRole('listitem')
      .filter({ hasText: backtestId });
    await expect(item).toBeVisible({ timeout: 20_000 });
    await expectWorkerAnswers(probe);
  });

  // Issue 22: 1,500 events of 4 KB while a panel streams. The reader ingests them in batches it
  // waits for, notifications are rate-limited across batches, and the popup still answers.
  test('a flood of 1,500 streamed events: few notifications, and the popup answers', async ({
    extension,
    sandbox,
    probe,
  }) => {
    test.setTimeout(240_000);
    await extension.configure();
    const [target] = demoPlaybooks(sandbox);
    const ownerId = sandbox.db.userForKey(sandbox.demoKey)!.id;
    const notified = await recordNotifications(probe);
    await probe.value('pollEventsNow', {}); // the first poll only sets where news starts
    const panel = await openDetail(extension, target);
    await expect.poll(() => sandbox.requests().some((r) => r.path.endsWith('/events/stream'))).toBe(true);
    await sleep(500);
    const FLOOD = 1_500;
    const lastId = `bt_flood_last_${Date.now()}`;
    for (let index = 0; index < FLOOD; index++) {
      const type = index % 2 === 0 ? 'backtest.completed' : 'execution.started';
      sandbox.db.appendEvent(ownerId, type, target.id, {
        backtest_id: index === FLOOD - 1 ? lastId : `bt_flood_${index}`,
        padding: 'p'.repeat(4_000),
      });
    }
    // While the flood is ingested the popup opens and shows the playbooks.
    const popup = await extension.open('popup.html');
    await expect(popup.getByRole('heading').first()).toBeVisible();
    await expectWorkerAnswers(probe);
    await new SidePanelPage(panel).tab('Events').click();
    await expect(
      panel.getByRole('list', { name: 'Events' }).getByRole('listitem').filter({ hasText: lastId }),
    ).toBeVisible({ timeout: 120_000 });
    const notifications = await notified();
    // Within one rate window: at most three, one of them a summary rather than one each.
    expect(notifications.length).toBeGreaterThan(0);
    expect(notifications.length).toBeLessThanOrEqual(3);
    await expectWorkerAnswers(probe);
  });

  test('giant events and hostile text: events still arrive; notifications and the list show known fields only', async ({
    extension,
    sandbox,
    probe,
  }) => {
    await extension.configure();
    sandbox.setFaults({ sseGiantEvent: true, hostileEventText: true });
    const [target] = demoPlaybooks(sandbox);
    const ownerId = sandbox.db.userForKey(sandbox.demoKey)!.id;
    const notified = await recordNotifications(probe);
    await probe.value('pollEventsNow', {}); // the first poll only sets where news starts
    sandbox.db.appendEvent(ownerId, 'execution.started', target.id, { status: 'active' });
    await probe.value('pollEventsNow', {});
    const notifications = await notified();
    expect(notifications.length).toBeGreaterThan(0);
    const shown = JSON.stringify(notifications);
    for (const hostile of ['Your API key expired', '203.0.113.7', '<img', 'AAAAAAAAAA'])
      expect(shown).not.toContain(hostile);

    // The stream: the giant events first, then a live event that still reaches the panel.
    const panel = await openDetail(extension, target);
    await expect.poll(() => sandbox.requests().some((r) => r.path.endsWith('/events/stream'))).toBe(true);
    await sleep(1_000);
    await expectWorkerAnswers(probe);
    const backtestId = `bt_after_giant_${Date.now()}`;
    sandbox.db.appendEvent(ownerId, 'backtest.completed', target.id, { backtest_id: backtestId });
    await new SidePanelPage(panel).tab('Events').click();
    const item = panel
      .getByRole('list', { name: 'Events' })
      .getByRole('listitem')
      .filter({ hasText: backtestId });
    await expect(item).toBeVisible({ timeout: 20_000 });
    // The list may show the data as text, but inert: no markup, no link to the lure.
    const events = panel.getByRole('list', { name: 'Events' });
    expect(await events.locator('img, script, iframe').count()).toBe(0);
    const hrefs = await events
      .locator('a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.filter((href) => href.includes('203.0.113.7'))).toEqual([]);
    await expectWorkerAnswers(probe);
  });
});

test.describe('dialect b: other paths, bookId, pages of 1–25', () => {
  test.use({ dialect: 'b' });

  const apiCalls = (sandbox: Sandbox): RecordedRequest[] =>
    sandbox.requests().filter((r) => r.path.startsWith('/api/') && r.method !== 'OPTIONS');

  test('popup: the list and Load more, at the dialect’s paths and within its bounds', async ({
    extension,
    sandbox,
  }) => {
    await extension.configure();
    sandbox.clearRequests();
    const popup = await extension.open('popup.html');
    const rows = popup.getByRole('list', { name: 'Playbooks' }).getByRole('listitem');
    await expect(rows.first()).toBeVisible();
    // Counted once the popup's own refresh has answered: a saved copy draws its first rows in one
    // frame and the rest in the next, and the refresh's request is one of the two counted below.
    await new PopupPage(popup).refreshed();
    const first = await rows.count();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(25);
    await popup.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(first);
    const lists = apiCalls(sandbox).filter((r) => r.method === 'GET' && r.path === '/api/v2/books');
    expect(lists.length).toBeGreaterThanOrEqual(2);
    for (const list of lists) {
      const limit = new URLSearchParams(list.query).get('limit');
      if (limit !== null) expect(Number(limit)).toBeLessThanOrEqual(25);
    }
    expect(apiCalls(sandbox).filter((r) => r.path.startsWith('/api/v1/'))).toEqual([]);
  });

  test('side panel: detail, edit, backtest and pause bind the bookId parameter', async ({
    context,
    extension,
    sandbox,
  }) => {
    test.setTimeout(90_000);
    await extension.configure();
    const target = activePlaybook(sandbox);
    const panel = await openDetail(extension, target);
    await expect(panel.getByText(target.thesis.slice(0, 40))).toBeVisible();

    const newTitle = uniqueTitle('Dialect b edit');
    const edit = panel.getByRole('form', { name: 'Edit playbook' });
    await edit.getByLabel('Title').fill(newTitle);
    let opened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
    await edit.getByRole('button', { name: 'Save changes' }).click();
    let confirm = new ConfirmPage(await opened);
    await expect(confirm.confirm).toBeEnabled();
    await confirm.confirm.click();
    await expect(confirm.page.getByRole('status')).toContainText('Sent');
    const patches = sandbox.requests().filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.path)).toEqual([`/api/v2/books/${target.id}`]);
    expect(patches[0].headers['if-match']).toBe(target.etag);
    expect(sandbox.db.getPlaybook(target.id)?.title).toBe(newTitle);

    await expect(panel.getByRole('heading', { name: newTitle })).toBeVisible();
    opened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
    await panel.getByRole('form', { name: 'Backtest' }).getByRole('button', { name: 'Run backtest' }).click();
    confirm = new ConfirmPage(await opened);
    await expect(confirm.confirm).toBeEnabled();
    await confirm.confirm.click();
    await expect(confirm.page.getByRole('status')).toContainText('Sent');
    expect(writesTo(sandbox, '/run-backtest').map((r) => r.path)).toEqual([
      `/api/v2/books/${target.id}/run-backtest`,
    ]);
    const ownerId = sandbox.db.userForKey(sandbox.demoKey)!.id;
    await new SidePanelPage(panel).expectNewestRunCompleted(
      () => sandbox.db.backtests.list(target.id, ownerId, null, 1).rows[0],
      15_000,
    );

    const pause = await openPause(context, panel);
    await typeAndConfirm(pause, newTitle);
    await expect(pause.page.getByRole('status')).toContainText('Sent');
    expect(liveExecutionCalls(sandbox)).toEqual([`POST /api/v2/books/${target.id}/live/stop`]);
    expect(sandbox.db.getPlaybook(target.id)?.status).toBe('paused');
  });

  test('a create write through the confirm window lands once at the dialect’s path', async ({
    context,
    sandbox,
    extension,
    probe,
  }) => {
    await extension.configure();
    sandbox.clearRequests();
    const title = uniqueTitle('Dialect b create');
    const { confirm } = await queueCreate(context, probe, { ...NEW_PLAYBOOK, title });
    await expect(confirm.confirm).toBeEnabled();
    await confirm.confirm.click();
    await expect(confirm.page.getByRole('status')).toContainText('Sent');
    expect(writesTo(sandbox, '/v2/books').map((r) => r.path)).toEqual(['/api/v2/books']);
    expect(demoPlaybooks(sandbox).filter((p) => p.title === title)).toHaveLength(1);
  });
});
