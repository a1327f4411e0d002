import type { Page, TestInfo } from '@playwright/test';
import { OptionsPage, PopupPage } from './pages/surfaces';
import { expect, test } from './fixtures';

async function snap(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test('Test connection runs discovery and getAccount and shows what it found', async ({
  extension,
  sandbox,
}, testInfo) => {
  await extension.configure();
  const options = new OptionsPage(await extension.open('options.html'));
  sandbox.clearRequests();
  await options.page.getByRole('button', { name: 'Test connection' }).click();
  const result = options.page.getByRole('status', { name: 'Connection test result' });
  await expect(result).toContainText('Connected.');
  await expect(result).toContainText('Demo Investor');
  // The worker's sandbox is shared: an earlier checkout may have changed the plan, so ask the store.
  await expect(result).toContainText(`${shownPlan(sandbox.db.userForKey(sandbox.demoKey)!.plan)} plan`);
  await expect(result).toContainText(/(?<!\d)\d+ documents fetched, 0 failed/);
  await snap(options.page, 'options-test-connection', testInfo);

  const requests = sandbox.requests();
  const paths = requests.map((r) => r.path);
  expect(paths).toContain('/llms.txt');
  expect(paths).toContain('/openapi.json');
  const account = requests.filter((r) => r.path.endsWith('/api/v1/account'));
  expect(account.length).toBeGreaterThan(0);
  expect(account[0].headers.authorization).toBe(`Bearer ${sandbox.demoKey}`);
  // The key goes to the API only, never to discovery documents.
  expect(requests.filter((r) => !r.path.startsWith('/api/')).every((r) => !r.headers.authorization)).toBe(
    true,
  );
  expect(await options.page.content()).not.toContain(sandbox.demoKey);
});

test('an invalid URL is refused at the field and nothing is saved', async ({ extension, sandbox }) => {
  await extension.configure();
  const options = new OptionsPage(await extension.open('options.html'));
  await options.serviceUrl.fill('javascript:alert(1)');
  await options.save.click();
  await expect(options.serviceUrl).toHaveAttribute('aria-invalid', 'true');
  await expect(options.page.getByText('Only http and https URLs work.')).toBeVisible();
  await options.page.reload();
  await expect(options.serviceUrl).toHaveValue(sandbox.baseUrl);
});

test('Remove key forgets the key and the popup returns to its first run', async ({ extension }) => {
  await extension.configure();
  const options = new OptionsPage(await extension.open('options.html'));
  await expect(options.page.getByText(/^A key saved on .* is stored\./)).toBeVisible();
  await options.page.getByRole('button', { name: 'Remove key' }).click();
  await expect(options.status).toHaveText('Key removed.');
  await expect(options.page.getByText('No key stored yet.')).toBeVisible();
  const popup = new PopupPage(await extension.open('popup.html'));
  await expect(popup.status).toContainText('Not set');
  await expect(popup.page.getByRole('heading', { name: 'Connect your account' })).toBeVisible();
});

test('changing the service URL clears what was cached from the old service', async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  const first = new PopupPage(await extension.open('popup.html'));
  await expect(first.list.getByRole('listitem')).toHaveCount(20);
  await first.page.close();

  // The API is down from here on, so nothing can be read anew (not even the snapshot read each
  // Save starts): any row the popup shows afterwards would have survived the switch.
  sandbox.setFaults({ resetConnection: 999 });
  try {
    // Away to another service (the same sandbox under another origin) and back: a cache that
    // survived the switch would come back with the old URL.
    const other = sandbox.baseUrl.replace('127.0.0.1', 'localhost');
    const options = new OptionsPage(await extension.open('options.html'));
    for (const serviceUrl of [other, sandbox.baseUrl]) {
      await options.serviceUrl.fill(serviceUrl);
      await options.save.click();
      await expect(options.status).toHaveText(
        'Saved. Everything cached from the previous service was cleared.',
      );
      await expect(options.save).toBeEnabled();
    }

    const popup = new PopupPage(await extension.open('popup.html'));
    // With the network down, a surviving cache would show 20 rows; a cleared one shows the failure.
    await expect(popup.page.getByRole('alert')).toContainText('could not be reached', { timeout: 30_000 });
    await expect(popup.list.getByRole('listitem')).toHaveCount(0);
  } finally {
    sandbox.resetFaults();
  }
});

test('a finance site is refused when it is not a site address', async ({ extension, serviceWorker }) => {
  const options = await extension.open('options.html');
  await options.getByLabel('Site address').fill('javascript:alert(1)');
  await options.getByRole('button', { name: 'Add site' }).click();
  await expect(options.getByText('Only http and https sites can be added.')).toBeVisible();
  const stored = await serviceWorker.evaluate(
    async () => (await chrome.storage.local.get('extraSites')).extraSites,
  );
  expect(stored ?? []).toEqual([]);
});

/** A plan id as the pages name it (lib/pages/playbookWords.ts planName): 'pro' → 'Pro'. */
function shownPlan(plan: string): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}

test('the quiet hours group has no browser frame, its legend reads like a label, light and dark', async ({
  extension,
}, testInfo) => {
  await extension.configure();
  const page = await extension.open('options.html');
  const group = page.getByRole('group', { name: 'Quiet hours' });
  await expect(group).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const look = await group.evaluate((fieldset) => {
      const style = getComputedStyle(fieldset);
      const legend = getComputedStyle(fieldset.querySelector('legend')!);
      const label = getComputedStyle(document.querySelector('label[for="field-pollMinutes"]')!);
      return {
        borders: [
          style.borderTopWidth,
          style.borderRightWidth,
          style.borderBottomWidth,
          style.borderLeftWidth,
        ],
        padding: style.paddingInlineStart,
        legend: [legend.color, legend.fontWeight],
        label: [label.color, label.fontWeight],
      };
    });
    expect(look.borders, scheme).toEqual(['0px', '0px', '0px', '0px']);
    expect(look.padding, scheme).toBe('0px');
    expect(look.legend, scheme).toEqual(look.label);
    await snap(page, `options-quiet-hours-${scheme}`, testInfo);
  }
});
