import { ConfirmPage, FinancePage } from './pages/surfaces';
import { expect, test } from './fixtures';

test('turning a page into a playbook writes it once, after Confirm, with the edited title', async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  await extension.configure();
  sandbox.clearRequests();
  const before = sandbox.db.playbookCount();
  const page = await context.newPage();
  await page.goto(pages.url('quote-aapl.html'));
  const confirmOpened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
  await new FinancePage(page).offer.click();
  const confirm = new ConfirmPage(await confirmOpened);
  await expect(confirm.dialog).toBeVisible();
  await expect(confirm.dialog).toContainText('Demo Investor');
  expect(sandbox.db.playbookCount()).toBe(before);

  await confirm.dialog.getByLabel('Title').fill('AAPL services margin thesis');
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  expect(sandbox.db.playbookCount()).toBe(before + 1);
  const writes = sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/playbooks'));
  expect(writes).toHaveLength(1);
  expect(writes[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.parse(writes[0].body)).toMatchObject({
    title: 'AAPL services margin thesis',
    visibility: 'private',
    tickers: ['AAPL'],
  });
});

test('cancel writes nothing and removes the draft', async ({ context, extension, pages, sandbox }) => {
  await extension.configure();
  sandbox.clearRequests();
  const before = sandbox.db.playbookCount();
  const page = await context.newPage();
  await page.goto(pages.url('quote-aapl.html'));
  const confirmOpened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
  await new FinancePage(page).offer.click();
  const confirm = new ConfirmPage(await confirmOpened);
  const closed = confirm.page.waitForEvent('close');
  await confirm.cancel.click();
  await closed;
  expect(sandbox.db.playbookCount()).toBe(before);
  expect(sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/playbooks'))).toHaveLength(
    0,
  );
});
