import type { CDPSession, Page } from '@playwright/test';
import { messages } from '../../lib/messaging/protocol';
import { ConfirmPage, SidePanelPage } from './pages/surfaces';
import { clickOffer, expectOffer } from './helpers/offer';
import { NEW_PLAYBOOK, queueCreate, uniqueTitle, writesTo } from './helpers/flows';
import { expect, forward, startOtherOrigin, test, type Answer, type RecordedCall } from './helpers/proof';

/**
 * Security proofs against the built extension: where the API key may never appear, who may send
 * privileged messages, and what a hostile page or a hostile service can make the extension do.
 */

const CONTENT_SCRIPT_WORLD = 'Playbook Companion';

/** Every storage area a content script can read (session only when its access level allows, so we read it anyway). */
async function storageDump(probe: { worker(): Promise<import('@playwright/test').Worker> }): Promise<string> {
  const worker = await probe.worker();
  return worker.evaluate(async () =>
    JSON.stringify({
      local: await chrome.storage.local.get(null),
      sync: await chrome.storage.sync.get(null).catch(() => ({})),
      session: await chrome.storage.session.get(null).catch(() => ({})),
    }),
  );
}

function callText(call: RecordedCall): string {
  return `${call.method} ${call.url}\n${JSON.stringify(call.headers)}\n${call.body}`;
}

/** The content script's isolated world on a page, found through CDP, to speak as the content script. */
async function contentScriptWorld(page: Page): Promise<{ cdp: CDPSession; contextId: number }> {
  const cdp = await page.context().newCDPSession(page);
  const worlds: { id: number; name: string }[] = [];
  cdp.on('Runtime.executionContextCreated', ({ context }) => worlds.push(context));
  await cdp.send('Runtime.enable');
  await expect.poll(() => worlds.some((world) => world.name === CONTENT_SCRIPT_WORLD)).toBe(true);
  const world = worlds.filter((w) => w.name === CONTENT_SCRIPT_WORLD).at(-1);
  if (!world) throw new Error('no content-script world');
  return { cdp, contextId: world.id };
}

async function sendAsContentScript(
  world: { cdp: CDPSession; contextId: number },
  type: string,
  payload: unknown,
): Promise<Answer> {
  const { result, exceptionDetails } = await world.cdp.send('Runtime.evaluate', {
    contextId: world.contextId,
    expression: `chrome.runtime.sendMessage(${JSON.stringify({ type, payload })})`,
    awaitPromise: true,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(exceptionDetails.text);
  return result.value as Answer;
}

test.beforeEach(({ sandbox }) => {
  sandbox.resetFaults();
  sandbox.clearRequests();
});

test('the sentinel API key never appears in a message answer, a log line, readable storage, a page DOM or a request to another origin', async ({
  context,
  sandbox,
  pages,
  probe,
}) => {
  test.setTimeout(90_000);
  const sentinel = sandbox.demoKey;
  expect(sentinel).toMatch(/^pbk_sentinel_/);
  // The site and discovery documents come from a second loopback origin (a recording proxy of the
  // sandbox); the API origin stays the sandbox. Neither the proxy nor the sandbox's non-API paths
  // may ever see the key.
  const site = await startOtherOrigin((call) => forward(sandbox.baseUrl, call));
  try {
    await probe.value('saveSettings', { serviceUrl: site.origin, apiUrl: sandbox.apiUrl });
    await probe.value('saveApiKey', { key: sentinel });

    const report = await probe.value<{ steps: unknown[] }>('runDiscovery');
    expect(report.steps.length).toBeGreaterThan(5);
    await probe.value('getOverview', { refresh: true });
    await probe.value('testConnection');
    const page = await probe.value<{ items: { id: string }[] }>('listPlaybooks', {});
    await probe.value('listPlaybooks', { visibility: 'public' });
    await probe.value('readView', { scope: 'public' });
    await probe.value('getPlaybook', { id: page.items[0].id });
    await probe.value('refreshPlaybooks', { ids: [page.items[0].id, 'pb_missing'] });
    await probe.send('getPlaybook', { id: 'pb_missing' }); // an API error's details
    await probe.value('mcpListTools');
    await probe.value('mcpCallTool', { name: 'search_public_playbooks', args: { query: 'grid' } });
    await probe.value('getState');

    // A confirmed write and a failed one (a 500 the retries cannot fix).
    const title = uniqueTitle('Sentinel write');
    const { confirm } = await queueCreate(context, probe, { ...NEW_PLAYBOOK, title });
    await confirm.confirm.click();
    await expect(confirm.page.getByRole('status')).toContainText('Sent');
    sandbox.setFaults({ serverErrorEvery: 1 });
    const failing = await queueCreate(context, probe, { ...NEW_PLAYBOOK, title: uniqueTitle('Failing') });
    await failing.confirm.confirm.click();
    await expect(failing.confirm.page.getByRole('alert')).toBeVisible();
    sandbox.resetFaults();
    await probe.value('listOutbox');

    // A key the service rejects (401): its error must not echo it either.
    // Its tail is letters no page, log or id would show by chance: not even its last four may leak.
    const rejected = `pbk_sentinel_rejected_${Date.now()}_QZXW`;
    await probe.value('saveApiKey', { key: rejected });
    const unauthorized = await probe.send('listPlaybooks', { visibility: 'private' });
    expect(unauthorized.ok).toBe(false);

    // A finance page with the content script, its button used.
    const finance = await context.newPage();
    await finance.goto(pages.url('quote-aapl.html'));
    await expectOffer(finance);

    // Each key whole, and a fragment of each: the sentinel's last six, the rejected key's last four.
    for (const secret of [sentinel, rejected, sentinel.slice(-6), rejected.slice(-4)]) {
      for (const answer of probe.answers) expect(answer).not.toContain(secret);
      for (const line of probe.logs) expect(line).not.toContain(secret);
      expect(await storageDump(probe)).not.toContain(secret);
      for (const open of context.pages()) {
        if (open.isClosed()) continue;
        expect(await open.content()).not.toContain(secret);
        const webStorage = await open
          .evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))
          .catch(() => ''); // pages without web storage (opaque origins)
        expect(webStorage).not.toContain(secret);
      }
      for (const call of site.calls) expect(callText(call)).not.toContain(secret);
    }
    expect(probe.logs.length).toBeGreaterThan(10); // the logs were really collected
    expect(site.calls.length).toBeGreaterThan(5); // discovery really went to the other origin
    for (const call of site.calls) expect(call.headers.authorization).toBeUndefined();
    // On the API origin the key goes only to the API, never to MCP or documents.
    for (const request of sandbox.requests().filter((r) => !r.path.startsWith('/api/')))
      expect(request.headers.authorization ?? '').not.toContain('pbk_');
    const withKey = sandbox.requests().filter((r) => r.headers.authorization === `Bearer ${sentinel}`);
    expect(withKey.length).toBeGreaterThan(3);
  } finally {
    await site.close();
  }
});

test('an OpenAPI document that points operations at another origin gets no request and no key', async ({
  sandbox,
  probe,
}) => {
  let origin = '';
  // The site serves an OpenAPI document whose servers[0] is the site itself, not the configured API.
  const site = await startOtherOrigin((call) =>
    forward(sandbox.baseUrl, call, (path, text) =>
      path === '/openapi.json' ? text.split(sandbox.apiUrl).join(`${origin}/api/v1`) : text,
    ),
  );
  origin = site.origin;
  try {
    await probe.value('saveSettings', { serviceUrl: origin, apiUrl: sandbox.apiUrl });
    await probe.value('saveApiKey', { key: sandbox.demoKey });
    const answer = await probe.send('listPlaybooks', {});
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.error.code).toBe('api.origin-refused');
      expect(answer.error.message).toContain('not the configured API origin');
    }
    expect(site.calls.filter((call) => call.url.startsWith('/api/'))).toHaveLength(0);
    for (const call of site.calls) expect(callText(call)).not.toContain(sandbox.demoKey);
  } finally {
    await site.close();
  }
});

test('a content script cannot send any privileged message: each is refused and nothing changes', async ({
  context,
  extension,
  sandbox,
  pages,
  probe,
}) => {
  await extension.configure();
  const before = await probe.value<{ settings: unknown; key: { savedAt?: number } }>('getState');
  const { draftId } = await queueCreate(context, probe, { ...NEW_PLAYBOOK, title: uniqueTitle('Forged') });
  sandbox.clearRequests();

  const page = await context.newPage();
  await page.goto(pages.url('quote-aapl.html'));
  await expectOffer(page);
  const world = await contentScriptWorld(page);

  // A plausible payload for each, so only the sender rule can refuse it.
  const forged: Record<string, unknown> = {
    saveSettings: { serviceUrl: 'http://127.0.0.1:1/', apiUrl: 'http://127.0.0.1:1/api' },
    saveApiKey: { key: 'pbk_forged_by_a_page_0000' },
    removeApiKey: {},
    getDraft: { id: draftId },
    getPendingWrite: { id: draftId },
    confirmWrite: { id: draftId },
    discardDraft: { id: draftId },
    requestWrite: { operationId: 'activatePlaybook', playbookId: 'pb_x' },
    addSite: { site: 'https://evil.example/*' },
    getPlaybook: { id: 'pb_x' },
    mcpCallTool: { name: 'get_product_overview' },
  };
  const privileged = Object.entries(messages)
    .filter(([, spec]) => !(spec.senders as readonly string[]).includes('content-script'))
    .map(([name]) => name);
  expect(privileged.length).toBeGreaterThan(15);
  for (const name of privileged) {
    const answer = await sendAsContentScript(world, name, forged[name] ?? {});
    expect(answer, name).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'sender-not-allowed' }),
    });
  }
  // Unknown and malformed messages fail closed too.
  expect(await sendAsContentScript(world, 'exportApiKey', {})).toMatchObject({
    ok: false,
    error: { code: 'unknown-message' },
  });
  // The one message it may send still validates what it carries: a hostile draft is refused.
  const hostile = await sendAsContentScript(world, 'submitPageDraft', {
    draft: { ...NEW_PLAYBOOK, visibility: 'public', source: { url: 'javascript:alert(1)' } },
  });
  expect(hostile).toMatchObject({ ok: false, error: { code: 'invalid-draft' } });

  const after = await probe.value<{ settings: unknown; key: { savedAt?: number } }>('getState');
  expect(after).toEqual(before);
  expect((await probe.value<{ id: string; status: string }[]>('listOutbox')).map((e) => e.status)).toEqual([
    'pending',
  ]);
  expect(writesTo(sandbox)).toHaveLength(0);
  expect(sandbox.requests().filter((r) => r.method !== 'GET' && r.path.startsWith('/api/'))).toHaveLength(0);
});

test('a page script cannot reach the shadow UI, message the extension or open the confirm window', async ({
  context,
  extension,
  sandbox,
  pages,
}) => {
  await extension.configure();
  sandbox.clearRequests();
  const page = await context.newPage();
  await page.goto(pages.url('quote-aapl.html'));
  await expectOffer(page);
  const confirmOpened: string[] = [];
  context.on('page', (p) => confirmOpened.push(p.url()));

  const confirmUrl = extension.url('confirm.html?draft=00000000-0000-4000-8000-000000000000');
  const attack = await page.evaluate(() => {
    const host = document.querySelector('playbook-companion-offer');
    const shadow = host?.shadowRoot ?? null;
    // Synthetic clicks on the host and everywhere the page can reach.
    host?.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
    for (const button of document.querySelectorAll('button')) button.click();
    const runtime = (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime;
    return {
      hostFound: Boolean(host),
      shadowReadable: shadow !== null,
      canMessage: typeof runtime?.sendMessage === 'function',
    };
  });
  expect(attack.hostFound).toBe(true);
  expect(attack.shadowReadable).toBe(false); // closed shadow root
  expect(attack.canMessage).toBe(false);

  // The page frames the confirm window. What the browser loaded is read from outside the page
  // (Playwright reaches cross-origin frames), so a rendered confirm page would be seen.
  const frameSettled = page.waitForEvent('framenavigated', {
    predicate: (frame) => frame !== page.mainFrame(),
    timeout: 5_000,
  });
  await page.evaluate((url) => {
    const frame = document.createElement('iframe');
    frame.src = url;
    document.body.append(frame);
  }, confirmUrl);
  const child = await frameSettled;
  await child.waitForLoadState('domcontentloaded').catch(() => undefined);
  expect(page.frames().filter((frame) => frame !== page.mainFrame())).toEqual([child]);
  // A blocked extension page commits as Chrome's error page, never as the extension URL.
  expect(child.url()).not.toMatch(/^chrome-extension:/);
  const framedText = await child.evaluate(() => document.body?.innerText ?? '');
  expect(framedText).not.toContain('Decision support');
  expect(framedText).not.toContain('Confirm');
  // window.open of the confirm page from the page: blocked, the extension page never renders.
  const popupOpened = page.waitForEvent('popup', { timeout: 3000 }).catch(() => undefined);
  await page.evaluate((url) => void window.open(url), extension.url('confirm.html'));
  const popup = await popupOpened;
  if (popup) {
    await popup.waitForLoadState().catch(() => undefined);
    expect(await popup.content().catch(() => '')).not.toContain('Decision support');
  }
  expect(
    confirmOpened.filter((url) => url.includes('/confirm.html') && url.startsWith('chrome-extension:')),
  ).toEqual([]);
  expect(writesTo(sandbox)).toHaveLength(0);
});

test('hostile JSON-LD, page title and selection reach the confirm window as inert text', async ({
  context,
  extension,
  sandbox,
}) => {
  await extension.configure();
  const payload = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>`;
  const hostile = `<!doctype html><html><head><title>NVDA ${payload}</title>
<script type="application/ld+json">${JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: `NVDA guidance ${payload}`,
    url: 'javascript:window.__pwned=1',
    description: `${payload} javascript:alert(1)`,
  }).replace(/</g, '\\u003c')}</script></head>
<body><main><h1>NASDAQ: NVDA ${payload.replace(/</g, '&lt;')}</h1>
<p id="pick">Thesis: NVDA data-centre demand &lt;b onmouseover=alert(1)&gt;holds&lt;/b&gt; through 2027.</p></main></body></html>`;
  const server = await startOtherOrigin(() =>
    Promise.resolve({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: hostile }),
  );
  try {
    const page = await context.newPage();
    await page.goto(`${server.origin}/demo/hostile.html`);
    await expectOffer(page);
    await page.evaluate(() => {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById('pick') as Node);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
    });
    const opened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
    await clickOffer(page);
    const confirm = new ConfirmPage(await opened);
    await expect(confirm.dialog).toBeVisible();
    const dialogs: string[] = [];
    confirm.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const inert = await confirm.page.evaluate(() => ({
      pwned: (window as { __pwned?: number }).__pwned,
      images: document.querySelectorAll('img').length,
      scripts: [...document.querySelectorAll('script')].filter((s) => !s.src).length,
      handlers: [...document.querySelectorAll('*')].filter((el) =>
        [...el.attributes].some((a) => a.name.startsWith('on')),
      ).length,
      jsLinks: [...document.querySelectorAll('a')].filter((a) => a.href.startsWith('javascript:')).length,
    }));
    expect(inert).toEqual({ pwned: undefined, images: 0, scripts: 0, handlers: 0, jsLinks: 0 });
    expect(dialogs).toEqual([]);
    // The confirm dialog still works: the body sent is what the dialog shows, private by default.
    await expect(confirm.visibility).toHaveValue('private');
    sandbox.clearRequests();
    await confirm.confirm.click();
    await expect(confirm.page.getByRole('status')).toContainText('Sent');
    const [write] = writesTo(sandbox);
    const body = JSON.parse(write.body) as { title: string; visibility: string; source?: { url: string } };
    expect(body.visibility).toBe('private');
    expect(body.source?.url ?? '').toMatch(/^https?:/);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  } finally {
    await server.close();
  }
});

test('hostile Markdown from the service renders as inert text in the side panel', async ({
  sandbox,
  probe,
  extension,
}) => {
  const hostileMarkdown = [
    '# Pricing <script>window.__pwned=1</script>',
    '',
    '[click me](javascript:window.__pwned=1) ![x](https://example.com/x.png) <img src=x onerror="window.__pwned=1">',
    '',
    '<iframe src="https://example.com"></iframe>',
    '',
    '| plan | price |',
    '| --- | --- |',
    '| pro <b onmouseover=alert(1)>x</b> | [data](data:text/html,<script>alert(1)</script>) |',
  ].join('\n');
  const site = await startOtherOrigin((call) =>
    forward(sandbox.baseUrl, call, (path, text) =>
      path === '/pricing.md' || path === '/auth.md' ? hostileMarkdown : text,
    ),
  );
  try {
    await probe.value('saveSettings', { serviceUrl: site.origin, apiUrl: sandbox.apiUrl });
    await probe.value('saveApiKey', { key: sandbox.demoKey });
    await probe.value('runDiscovery');
    const panel = new SidePanelPage(await extension.open('sidepanel.html'));
    await panel.tab('Discovery').click();
    await expect(panel.page.getByRole('tabpanel', { name: 'Discovery' })).toContainText('click me');
    const inert = await panel.page.evaluate(() => ({
      pwned: (window as { __pwned?: number }).__pwned,
      elements: document.querySelectorAll('script:not([src]), iframe, img[onerror], object, embed').length,
      handlers: [...document.querySelectorAll('*')].filter((el) =>
        [...el.attributes].some((a) => a.name.startsWith('on')),
      ).length,
      // Links may go to the web or to the extension's own pages, never run code.
      badLinks: [...document.querySelectorAll('a[href]')]
        .map((a) => (a as HTMLAnchorElement).href)
        .filter((href) => !/^(https?|mailto|chrome-extension):/.test(href)),
    }));
    expect(inert).toEqual({ pwned: undefined, elements: 0, handlers: 0, badLinks: [] });
  } finally {
    await site.close();
  }
});
