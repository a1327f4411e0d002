/**
 * Firefox: the playbook detail's catalysts (region "Catalysts", soonest first, status in words)
 * and its figures since capture, against the sandbox's seeds.
 */
import { expect, it } from 'vitest';
import { utcDate } from '../../sandbox/catalystModel';
import { DEMO_USER_ID } from '../../sandbox/store';
import { configure, firefoxPerFile, textOf, until } from './harness';

const session = firefoxPerFile();

it('sidebar page: the playbook detail lists its catalysts soonest first, and its return since capture', async () => {
  const { firefox } = session;
  const sandbox = await session.newSandbox();
  await configure(firefox, sandbox);
  const playbook = sandbox.db
    .listPlaybooks({ ownerId: DEMO_USER_ID }, null, 100)
    .rows.find((p) => p.tickers.includes('NVDA') && p.tickers.includes('AMD'))!;
  const catalysts = sandbox.db.catalysts.list(DEMO_USER_ID, {
    tickers: playbook.tickers,
    from: utcDate(Date.now()),
    to: null,
    after: null,
    limit: 100,
  }).rows;
  const panel = await firefox.open(`sidepanel.html?playbook=${encodeURIComponent(playbook.id)}`, 'main');
  await panel.waitForSelector('[aria-label="Catalysts"] li');
  const items = await panel.$$eval('[aria-label="Catalysts"] li', (lis) =>
    lis.map((li) => li.textContent ?? ''),
  );
  expect(items).toHaveLength(catalysts.length);
  expect(items.map((text, i) => text.includes(catalysts[i].title))).toEqual(catalysts.map(() => true));
  expect(items[0]).toContain('Confirmed');
  expect(items[0]).toContain('After the close');
  expect(items[1]).toContain('Estimated date');
  expect(await panel.$('::-p-aria(Add to calendar[role="button"])')).not.toBeNull();

  await until(
    async () => (await textOf(panel, '[aria-label="Since captured"]')).includes('SPY'),
    'the figures since capture',
  );
  expect(await textOf(panel, '[aria-label="Since captured"]')).toContain(
    'Past moves do not predict future ones',
  );
});
