import { ConfirmPage, FinancePage, OptionsPage, PopupPage, SidePanelPage } from './pages/surfaces';
import { expect, test } from './fixtures';

test('the popup renders its landmarks and asks the background for its state', async ({ extension }) => {
  await extension.configure();
  const popup = new PopupPage(await extension.open('popup.html'));
  await expect(popup.list).toBeAttached();
  await expect(popup.status).toContainText('Stored');
  await expect(popup.openSidePanel).toBeVisible();
  await expect(popup.disclaimer).toBeVisible();
});

test('the popup explains the first run when no key is stored', async ({ extension }) => {
  await extension.configure({ key: null });
  const popup = new PopupPage(await extension.open('popup.html'));
  await expect(popup.status).toContainText('Not set');
  await expect(popup.page.getByRole('link', { name: /\/apikey$/ })).toBeVisible();
});

test('the options page saves the key without ever showing it again', async ({ extension, sandbox }) => {
  await extension.configure({ key: null });
  const options = new OptionsPage(await extension.open('options.html'));
  await expect(options.serviceUrl).toHaveValue(sandbox.baseUrl);
  await expect(options.apiUrl).toHaveValue(sandbox.apiUrl);
  await expect(options.createKeyLink).toHaveAttribute('href', `${sandbox.baseUrl}/apikey`);
  await options.apiKey.fill(sandbox.demoKey);
  await options.save.click();
  // Save asks the service about a new key at once.
  await expect(options.status).toHaveText('Saved. The service accepted the key.');
  await expect(options.apiKey).toHaveValue('');
  await expect(options.page.getByText(/^A key saved on .* is stored\./)).toBeVisible();
  expect(await options.page.content()).not.toContain(sandbox.demoKey.slice(-6));
});

test('a wrong key is refused right where it was typed, not later in the popup', async ({ extension }) => {
  await extension.configure({ key: null });
  const options = new OptionsPage(await extension.open('options.html'));
  await options.apiKey.fill('pbk_not_a_real_key_0123456789');
  await options.save.click();
  await expect(options.status).toHaveText(
    'This key was refused by the service: check that you copied all of it, then paste it again. Until then it stays stored.',
  );
  await expect(options.status).toHaveClass('error');
  // The popup says so too, and never an empty-list message beside it.
  const popup = new PopupPage(await extension.open('popup.html'));
  await expect(popup.page.getByRole('heading', { name: 'Your API key was not accepted' })).toBeVisible();
  await expect(popup.page.getByText(/No playbooks yet/)).toHaveCount(0);
});

test('the side panel page renders its three tabs', async ({ extension }) => {
  const panel = new SidePanelPage(await extension.open('sidepanel.html'));
  for (const name of ['Playbooks', 'Discovery', 'Events'] as const)
    await expect(panel.tab(name)).toBeVisible();
  await expect(panel.tab('Playbooks')).toHaveAttribute('aria-selected', 'true');
  await panel.tab('Events').click();
  await expect(panel.tab('Events')).toHaveAttribute('aria-selected', 'true');
});

test('the content script offers its button on a finance page', async ({ context, extension, pages }) => {
  await extension.configure();
  const page = await context.newPage();
  await page.goto(pages.url('quote-aapl.html'));
  const finance = new FinancePage(page);
  await finance.expectOffer();
  const confirmOpened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
  await finance.clickOffer();
  const confirm = new ConfirmPage(await confirmOpened);
  await expect(confirm.dialog).toBeVisible();
  await expect(confirm.visibility).toHaveValue('private');
});

test('the context-menu handler turns a page into a draft and opens the confirm dialog', async ({
  context,
  extension,
  serviceWorker,
  pages,
}) => {
  await extension.configure();
  const page = await context.newPage();
  const pageUrl = pages.url('quote-aapl.html');
  await page.goto(pageUrl);
  const confirmOpened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
  await serviceWorker.evaluate(
    ({ pageUrl }) => {
      const onClicked = chrome.contextMenus.onClicked as unknown as {
        dispatch(info: unknown, tab: unknown): void;
      };
      onClicked.dispatch(
        { menuItemId: 'playbook-from-page', pageUrl, editable: false },
        { id: 1, url: pageUrl, title: 'Apple Inc. (AAPL)' },
      );
    },
    { pageUrl },
  );
  const confirm = new ConfirmPage(await confirmOpened);
  await expect(confirm.dialog).toBeVisible();
  await expect(confirm.dialog.getByLabel('Title')).toHaveValue(/AAPL/);
});

test("the sandbox's own demo quote page gets the offer, as npm start shows it", async ({
  context,
  extension,
  sandbox,
}) => {
  await extension.configure();
  const page = await context.newPage();
  await page.goto(`${sandbox.baseUrl}/demo/quote/NVDA`);
  await expect(page).toHaveTitle(/NVIDIA Corporation \(NVDA\)/);
  await new FinancePage(page).expectOffer();
});
