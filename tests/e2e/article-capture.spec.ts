import type { RecordedRequest } from '../../sandbox/server';
import { ConfirmPage } from './pages/surfaces';
import { expect, test } from './fixtures';
import { clickOffer } from './helpers/offer';

const HEADLINE = 'Nvidia rallies as data-centre sales double';
const LEAD =
  "Nvidia's data-centre revenue doubled from a year earlier as cloud providers kept buying its accelerators, and the company guided above what analysts had expected for the coming quarter.";

interface SentDraft {
  title: string;
  thesis: string;
  tickers: string[];
  visibility: string;
  source: { url: string; title: string; excerpt: string };
}

const playbookPosts = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'POST' && r.path.endsWith('/playbooks'));

test('the draft that reaches the service is the article: headline, lead and body, never the price line', async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  await extension.configure();
  sandbox.clearRequests();
  const page = await context.newPage();
  await page.goto(pages.url('article-nvda.html'));
  const opened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
  const clicked = Date.now();
  await clickOffer(page);
  const confirm = new ConfirmPage(await opened);
  await expect(confirm.dialog).toBeVisible();
  test
    .info()
    .annotations.push({ type: 'click to confirm window', description: `${Date.now() - clicked} ms` });
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');

  const writes = playbookPosts(sandbox.requests());
  expect(writes).toHaveLength(1);
  const sent = JSON.parse(writes[0].body) as SentDraft;
  expect(sent.title).toBe(`NVDA — ${HEADLINE}`);
  expect(sent.thesis.startsWith(`${HEADLINE}\n\n${LEAD}\n\n`)).toBe(true);
  // Key paragraphs follow; the quote line, byline, caption, share bar and related stories do not.
  expect(sent.thesis).toContain('Rival Advanced Micro Devices (NASDAQ: AMD)');
  for (const chrome of [
    '$1,184.20',
    'By Jane Doe',
    'Photo:',
    'Copy link',
    'AMD wins a cloud order',
    'iPhone',
  ])
    expect(sent.thesis).not.toContain(chrome);
  expect(sent.source).toEqual({ url: pages.url('article-nvda.html'), title: HEADLINE, excerpt: LEAD });
  // The page's own symbol (its quote header) first, then the article body; never the sidebar's AAPL.
  expect(sent.tickers).toEqual(['NVDA', 'AMD']);
  expect(sent.visibility).toBe('private');
});

test('a selection opens the thesis; the excerpt stays the lead', async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  await extension.configure();
  sandbox.clearRequests();
  const page = await context.newPage();
  await page.goto(pages.url('article-nvda.html'));
  await page.evaluate(() => {
    const paragraph = [...document.querySelectorAll('article p')].find((p) =>
      p.textContent?.includes('Investors will watch'),
    );
    if (paragraph) getSelection()?.selectAllChildren(paragraph);
  });
  const opened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
  await clickOffer(page);
  const confirm = new ConfirmPage(await opened);
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  const sent = JSON.parse(playbookPosts(sandbox.requests())[0].body) as SentDraft;
  expect(sent.thesis.startsWith('Investors will watch whether hyperscalers')).toBe(true);
  expect(sent.thesis).toContain(`\n\n${HEADLINE}\n\n${LEAD}`);
  expect(sent.source.excerpt).toBe(LEAD);
});
