import { randomBytes } from 'node:crypto';
import { startSandbox } from '../../sandbox/server';
import { DEMO_USER_ID } from '../../sandbox/store';
import { PopupPage } from './pages/surfaces';
import { expect, test as base } from './fixtures';

/** This file's sandbox holds 250 playbooks for the demo user instead of the usual 25. */
const test = base.extend({
  // eslint-disable-next-line no-empty-pattern
  sandbox: async ({}, use) => {
    const sandbox = await startSandbox({
      port: 0,
      db: ':memory:',
      seed: 250,
      quiet: true,
      demoKey: `pbk_sentinel_${randomBytes(12).toString('hex')}`,
    });
    await use(sandbox);
    await sandbox.close();
  },
});

test('"Load more" follows the cursor to the end of 250 playbooks and only then says all are shown', async ({
  extension,
  sandbox,
}, testInfo) => {
  await extension.configure();
  sandbox.clearRequests();
  const total = sandbox.db.playbookCount(DEMO_USER_ID);
  expect(total).toBe(250);
  const page = await extension.open('popup.html');
  await page.setViewportSize({ width: 380, height: 640 });
  const popup = new PopupPage(page);
  const rows = popup.list.getByRole('listitem');
  const more = page.getByRole('button', { name: 'Load more' });
  await expect(rows).toHaveCount(20);

  for (let shown = 20; shown < total;) {
    await expect(page.getByText(/^All \d+ shown$/)).toHaveCount(0);
    await more.click();
    shown = Math.min(shown + 20, total);
    await expect(rows).toHaveCount(shown);
  }
  await expect(more).toHaveCount(0);
  await expect(page.getByText(`All ${total} shown`)).toBeVisible();
  const path = testInfo.outputPath('popup-250-end.png');
  await page.screenshot({ path });
  await testInfo.attach('popup-250-end', { path, contentType: 'image/png' });

  const titles = await rows.allTextContents();
  expect(new Set(titles).size).toBe(total);
  const lists = sandbox.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/api/v1/playbooks'));
  const cursors = lists.map((r) => new URLSearchParams(r.query).get('cursor')).filter(Boolean);
  // Every page after the first was asked for with a cursor, each one once.
  expect(cursors.length).toBe(Math.ceil(total / 20) - 1);
  expect(new Set(cursors).size).toBe(cursors.length);
});
