/**
 * Firefox against dialect c, a service in the AIP-136 style (writes as custom methods such as
 * `/strategies/{name}:goLive`, the batch read `/strategies:batchGet`): the list and a create.
 */
import { expect, it } from 'vitest';
import { DEMO_USER_ID } from '../../sandbox/store';
import { configure, firefoxPerFile, textOf, typeInto, until } from './harness';

const session = firefoxPerFile();

it('popup: the list is read at the dialect’s collection, in pages of its default size', async () => {
  const { firefox } = session;
  const sandbox = await session.newSandbox({ dialect: 'c' });
  await configure(firefox, sandbox);
  const expected = sandbox.db.listPlaybooks({ ownerId: DEMO_USER_ID }, null, 1000).rows;
  const popup = await firefox.open('popup.html', 'main');
  await popup.waitForSelector(`::-p-text(${expected[0].title})`);
  await popup.waitForSelector('::-p-text(Updated just now)');
  expect(await textOf(popup)).not.toContain('could not be trusted');
  const lists = sandbox.requests().filter((r) => r.method === 'GET' && r.path === '/api/v3/strategies');
  expect(lists.length).toBeGreaterThan(0);
  expect(sandbox.requests().filter((r) => r.path.startsWith('/api/v1/'))).toEqual([]);
});

it('a create through the confirm window lands once at the collection', async () => {
  const { firefox } = session;
  const sandbox = await session.newSandbox({ dialect: 'c' });
  await configure(firefox, sandbox);
  await firefox.open('popup.html', 'main');
  const title = `Firefox dialect c ${Math.random().toString(36).slice(2, 8)}`;
  const answer = await firefox.send('requestWrite', {
    operationId: 'createPlaybook',
    body: {
      title: 'Draft title',
      thesis: 'Custom methods are honest.',
      visibility: 'private',
      tickers: ['NEE'],
    },
  });
  expect(answer.ok).toBe(true);
  const confirm = await firefox.pageAt('/confirm.html?draft=');
  await confirm.waitForSelector('::-p-aria(Confirm[role="button"])');
  await typeInto(confirm, 'Title', title);
  sandbox.clearRequests();
  await confirm.locator('::-p-aria(Confirm[role="button"])').click();
  await until(async () => (await textOf(confirm)).includes('Sent'), 'Sent', 20_000);
  const writes = sandbox.requests().filter((r) => r.method === 'POST' && r.path.startsWith('/api/'));
  expect(writes.map((r) => r.path)).toEqual(['/api/v3/strategies']);
  expect(JSON.parse(writes[0].body)).toMatchObject({ title, visibility: 'private' });
  expect(sandbox.db.listPlaybooks({}, null, 1_000_000).rows.filter((p) => p.title === title)).toHaveLength(1);
});
