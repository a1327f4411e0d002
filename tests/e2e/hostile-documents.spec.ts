/**
 * A hostile service's documents against the built extension: a lying OpenAPI document cannot change
 * the write the user confirmed, parser-attacking discovery documents (Markdown bombs, endless front
 * matter, table bombs) leave the worker and the pages answering, and servers[0].url or a redirect
 * to plain http on a remote host is refused before the key goes out. Each test proves what the
 * user sees, what the service received, and that the worker still answers afterwards.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { confirmPause, openPause } from './helpers/flows';
import {
  activePlaybook,
  expectDiscoveryLeavesWorkerFree,
  expectPauseWorks,
  expectWorkerAnswers,
  liveExecutionCalls,
  openDetail,
  useService,
} from './helpers/hostile';
import { expect, proxyTo, startOtherOrigin, test, type OtherOrigin } from './helpers/proof';
import { ConfirmPage, SidePanelPage } from './pages/surfaces';
import { longTable, wideTable } from '../fixtures/hostile/tableBomb';

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
    await confirmPause(confirm);
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
    // Refused when the window opens, or at the latest when the user confirms.
    if (await confirm.confirm.isEnabled()) await confirm.confirm.click();
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
    await confirmPause(confirm);
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

// Every redirect hop passes the https-except-loopback rule. The service (on loopback,
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

// A 1 MB Markdown table bomb as /pricing.md, which the side panel parses on open and
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
