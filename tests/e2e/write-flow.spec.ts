import type { BrowserContext } from '@playwright/test';
import type { RecordedRequest, Sandbox } from '../../sandbox/server';
import { expect, test, type ExtensionHandle, type PagesServer } from './fixtures';
import { confirmWindowFrom } from './helpers/flows';
import { clickOffer } from './helpers/offer';
import { startGatedService } from './helpers/proof';

interface FlowFixtures {
  context: BrowserContext;
  extension: ExtensionHandle;
  pages: PagesServer;
  sandbox: Sandbox;
}

/** The common start: a configured extension, a finance page, the offer clicked, the confirm window open. */
async function draftFromQuotePage({ context, extension, pages, sandbox }: FlowFixtures, serviceUrl?: string) {
  await extension.configure({ serviceUrl });
  sandbox.clearRequests();
  const before = sandbox.db.playbookCount();
  const page = await context.newPage();
  await page.goto(pages.url('quote-aapl.html'));
  const confirm = await confirmWindowFrom(context, () => clickOffer(page));
  return { page, confirm, before };
}

const playbookPosts = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'POST' && r.path.endsWith('/playbooks'));

test('turning a page into a playbook writes it once, after Confirm, with the edited title', async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  const { confirm, before } = await draftFromQuotePage({ context, extension, pages, sandbox });
  await expect(confirm.dialog).toContainText('Demo Investor');
  await expect(confirm.dialog).toContainText('createPlaybook');
  await expect(confirm.dialog).toContainText('Decision support, not financial advice');
  await expect(confirm.visibility).toHaveValue('private');
  expect(sandbox.db.playbookCount()).toBe(before);

  await confirm.dialog.getByLabel('Title').fill('AAPL services margin thesis');
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  expect(sandbox.db.playbookCount()).toBe(before + 1);
  const writes = playbookPosts(sandbox.requests());
  expect(writes).toHaveLength(1);
  expect(writes[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  const sent = JSON.parse(writes[0].body) as { title: string };
  expect(sent).toMatchObject({
    title: 'AAPL services margin thesis',
    visibility: 'private',
    tickers: ['AAPL'],
  });
  // The success view links to the new playbook in the side panel page.
  const created = (await (
    await fetch(`${sandbox.apiUrl}/playbooks?limit=100`, {
      headers: { authorization: `Bearer ${sandbox.demoKey}` },
    })
  ).json()) as { data: Array<{ id: string; title: string }> };
  const playbook = created.data.find((p) => p.title === sent.title);
  expect(playbook).toBeDefined();
  await expect(confirm.page.getByRole('link', { name: 'Open the playbook' })).toHaveAttribute(
    'href',
    extension.url(`sidepanel.html?playbook=${playbook?.id}`),
  );
});

test('cancel writes nothing and removes the draft', async ({ context, extension, pages, sandbox }) => {
  const { confirm, before } = await draftFromQuotePage({ context, extension, pages, sandbox });
  const draftId = new URL(confirm.page.url()).searchParams.get('draft');
  const closed = confirm.page.waitForEvent('close');
  await confirm.cancel.click();
  await closed;
  expect(sandbox.db.playbookCount()).toBe(before);
  expect(playbookPosts(sandbox.requests())).toHaveLength(0);
  const reopened = await extension.open(`confirm.html?draft=${draftId}`);
  await expect(reopened.getByRole('alert')).toContainText('no longer exists');
});

test('a page script can neither reach the confirm window nor forge a confirmation', async ({
  context,
  extension,
  pages,
  sandbox,
  serviceWorker,
}) => {
  const { page, confirm, before } = await draftFromQuotePage({ context, extension, pages, sandbox });
  const draftId = new URL(confirm.page.url()).searchParams.get('draft') ?? '';

  // The page's own scripts have no extension messaging API at all.
  expect(
    await page.evaluate(
      () =>
        typeof (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime
          ?.sendMessage,
    ),
  ).toBe('undefined');
  // Nor can they load the confirm page to click it: it is not web-accessible.
  const framed = await page.evaluate(
    async (url) => {
      const frame = document.createElement('iframe');
      frame.src = url;
      document.body.append(frame);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      try {
        return frame.contentDocument?.querySelector('button')?.textContent ?? 'no access';
      } catch {
        return 'no access';
      }
    },
    extension.url(`confirm.html?draft=${draftId}`),
  );
  expect(framed).toBe('no access');

  // A forged confirmWrite from the content-script world (the most a compromised page could reach) is refused.
  const tabId = await serviceWorker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    return tab.id ?? -1;
  }, page.url());
  const forged = await serviceWorker.evaluate(
    async ({ tabId, draftId }) => {
      const [result] = await chrome.scripting.executeScript({
        target: { tabId },
        world: 'ISOLATED',
        func: (id: string) =>
          chrome.runtime.sendMessage<unknown, unknown>({ type: 'confirmWrite', payload: { id } }),
        args: [draftId],
      });
      return result.result as { ok: boolean; error?: { code: string } };
    },
    { tabId, draftId },
  );
  expect(forged).toMatchObject({ ok: false, error: { code: 'sender-not-allowed' } });
  expect(sandbox.db.playbookCount()).toBe(before);
  expect(playbookPosts(sandbox.requests())).toHaveLength(0);

  // The real confirmation still works: the draft was not consumed by the attempts.
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  expect(sandbox.db.playbookCount()).toBe(before + 1);
});

test('a 5xx after the commit, then Retry, still makes exactly one playbook with one key', async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  const service = await startGatedService(sandbox.baseUrl);
  try {
    const { confirm, before } = await draftFromQuotePage(
      { context, extension, pages, sandbox },
      service.origin,
    );
    // The write commits but its answer is lost (500); the client's own retries then meet 503s, so the
    // failure reaches the user. The first retry waits at the proxy while the 503s are switched on
    // (a hold of 1.5 s in the sandbox raced that switch on a busy machine).
    sandbox.setFaults({ serverErrorAfterCommit: 1 });
    let writes = 0;
    service.hold(
      (call) => call.method === 'POST' && call.url.split('?')[0].endsWith('/playbooks') && ++writes > 1,
    );
    await confirm.confirm.click();
    await service.held();
    expect(playbookPosts(sandbox.requests())).toHaveLength(1);
    sandbox.setFaults({ serverErrorEvery: 1 });
    await service.release();
    await expect(confirm.dialog.getByRole('alert')).toBeVisible({ timeout: 30_000 });
    await expect(confirm.dialog.getByRole('alert')).toContainText('The draft is kept');
    expect(sandbox.db.playbookCount()).toBe(before + 1);

    sandbox.resetFaults();
    await confirm.dialog.getByRole('button', { name: 'Retry' }).click();
    await expect(confirm.page.getByRole('status')).toContainText('Sent');
    expect(sandbox.db.playbookCount()).toBe(before + 1);
    const sent = playbookPosts(sandbox.requests());
    expect(sent.length).toBeGreaterThan(1);
    expect(new Set(sent.map((w) => w.headers['idempotency-key'])).size).toBe(1);
    expect(new Set(sent.map((w) => w.body)).size).toBe(1);
  } finally {
    await service.close();
  }
});

test('stopping the service worker between the click and Confirm loses nothing', async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  const { page, confirm, before } = await draftFromQuotePage({ context, extension, pages, sandbox });

  const cdp = await context.newCDPSession(page);
  const states: string[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const version of versions)
      if (version.scriptURL.includes(extension.id)) states.push(version.runningStatus);
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await expect.poll(() => states.at(-1)).toBe('stopped');

  // The draft is in IndexedDB: a reloaded confirm window still has it, and the worker wakes to send it.
  await confirm.page.reload();
  await expect(confirm.dialog.getByLabel('Title')).toHaveValue(/AAPL/);
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  expect(sandbox.db.playbookCount()).toBe(before + 1);
  expect(playbookPosts(sandbox.requests())).toHaveLength(1);
  await cdp.detach();
});

test('script payloads in the page title and selection show as text and never run', async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  await extension.configure();
  sandbox.clearRequests();
  const page = await context.newPage();
  await page.goto(pages.url('xss-news.html'));
  await page.evaluate(() => {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('hostile') as HTMLElement);
    const selection = getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  });
  const confirm = await confirmWindowFrom(context, () => clickOffer(page));
  await expect(confirm.dialog.getByLabel('Title')).toHaveValue(/<img src=x onerror="window\.pwned=1">/);
  await expect(confirm.dialog.getByLabel('Thesis')).toHaveValue(/<script>window\.pwned=2<\/script>/);
  // The page's own title and excerpt are sent too, so they are shown, as text, before Confirm.
  const source = confirm.dialog.getByRole('region', { name: 'Source' });
  await expect(source).toContainText('<img src=x onerror="window.pwned=1"> TSLA deliveries beat');
  await expect(source).toContainText('<script>window.pwned=2</script>');
  expect(await confirm.dialog.locator('img, script').count()).toBe(0);

  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  const [write] = playbookPosts(sandbox.requests());
  expect((JSON.parse(write.body) as { thesis: string }).thesis).toContain('<script>window.pwned=2</script>');
  expect(await page.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();
  expect(await confirm.page.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();
});
