import { describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/api';
import {
  clientFor,
  customMethodDocument,
  json,
  keepKeyOutOfLogs,
  playbook,
  rejection,
  writesDocument,
} from './support';

keepKeyOutOfLogs();

type Doc = ReturnType<typeof writesDocument>;

/** The writes document with `write` left out and the POST read `read` moved to `path`. */
function hostileDocument(
  read: 'batchGetPlaybooks' | 'graphql',
  path: string,
  leaveOut: string[],
  base?: Doc,
): Doc {
  const doc = base ?? writesDocument();
  for (const [template, item] of Object.entries(doc.paths)) {
    const entry = item as Record<string, { operationId?: string }>;
    for (const method of Object.keys(entry)) {
      const operationId = entry[method]?.operationId;
      if (operationId !== undefined && leaveOut.includes(operationId)) delete entry[method];
      if (operationId === read && template !== path) {
        doc.paths[path] = { post: entry[method] };
        delete entry[method];
      }
    }
    if (Object.keys(entry).length === 0) delete doc.paths[template];
  }
  return doc;
}

const results = (ids: string[]) =>
  json({ results: ids.map((id) => ({ id, status: 200, playbook: playbook(id) })) });

async function batchAnswer(request: Request) {
  const { ids } = (await request.json()) as { ids: string[] };
  return results(ids);
}

describe('a read sent by POST never goes to a route that could be a write', () => {
  it('not to an action that names a write of the contract, even one the document leaves out', async () => {
    const doc = hostileDocument('batchGetPlaybooks', '/playbooks/pb_public1/activate', ['activatePlaybook']);
    const { client, requests } = clientFor(batchAnswer, { openApi: doc });
    const items = await client.batchGet(['pb_1']);
    expect(requests).toEqual([]);
    expect(items[0]).toMatchObject({ status: 'failed', error: { kind: 'unconfirmed-write' } });
  });

  it('not to a custom method that names a write (GraphQL as well)', async () => {
    const doc = hostileDocument('graphql', '/playbooks/{x}:pause', ['pausePlaybook']);
    // The template has no parameter the client fills: the path is literal, as a hostile one is.
    doc.paths['/playbooks/pb_public1:pause'] = doc.paths['/playbooks/{x}:pause'];
    delete doc.paths['/playbooks/{x}:pause'];
    const { client, requests } = clientFor(() => json({ data: {} }), { openApi: doc });
    const error = await rejection(
      client.call('graphql', { body: { query: '{ playbooks { edges { cursor } } }' } }),
    );
    expect(requests).toEqual([]);
    expect(isApiError(error) && error.kind).toBe('unconfirmed-write');
  });

  it('not to a path with a literal segment that is an id the client has seen', async () => {
    const doc = hostileDocument('batchGetPlaybooks', '/playbooks/pb_7/refresh', []);
    const { client, requests } = clientFor(
      (request) =>
        request.method === 'GET'
          ? json({ data: [playbook('pb_7')], has_more: false, next_cursor: null })
          : batchAnswer(request),
      { openApi: doc },
    );
    await client.listPage('listPublicPlaybooks');
    const items = await client.batchGet(['pb_1']);
    expect(requests.map((request) => request.method)).toEqual(['GET']);
    expect(items[0]).toMatchObject({ status: 'failed', error: { kind: 'unconfirmed-write' } });
  });

  it('the ids in the read itself count as seen', async () => {
    const doc = hostileDocument('batchGetPlaybooks', '/PB_9/anything', []);
    const { client, requests } = clientFor(batchAnswer, { openApi: doc });
    await client.batchGet(['pb_9']);
    expect(requests).toEqual([]);
  });

  it('not to the route a write had in the last trusted document, which this one leaves out', async () => {
    const doc = hostileDocument('batchGetPlaybooks', '/books/b1/ignite', ['activatePlaybook']);
    const remembered = [
      { operationId: 'activatePlaybook', method: 'POST' as const, pathTemplate: '/books/{bookId}/ignite' },
    ];
    const { client, requests } = clientFor(batchAnswer, { openApi: doc, rememberedWriteRoutes: remembered });
    const items = await client.batchGet(['pb_1']);
    expect(requests).toEqual([]);
    expect(items[0]).toMatchObject({ status: 'failed', error: { kind: 'unconfirmed-write' } });
    // Without the memory the shape alone would let this one through: the memory is what holds it.
    const unremembered = clientFor(batchAnswer, {
      openApi: hostileDocument('batchGetPlaybooks', '/books/b1/ignite', ['activatePlaybook']),
    });
    await unremembered.client.batchGet(['pb_1']);
    expect(unremembered.requests).toHaveLength(1);
  });

  it('a document that declares its writes tells which routes to remember', () => {
    const { client } = clientFor(batchAnswer, { openApi: customMethodDocument() });
    expect(client.declaredWriteRoutes()).toEqual(
      expect.arrayContaining([
        { operationId: 'activatePlaybook', method: 'POST', pathTemplate: '/strategies/{name}:goLive' },
        { operationId: 'pausePlaybook', method: 'POST', pathTemplate: '/strategies/{name}:halt' },
      ]),
    );
  });

  it.each([
    ['/playbooks:batchGet'],
    ['/strategies:batchGet'],
    ['/playbooks/batch-get'],
    ['/v2/batch/books'],
    ['/playbooks/batch'],
  ])('an honest batch route, %s, is used', async (path) => {
    const { client, requests } = clientFor(batchAnswer, {
      openApi: hostileDocument('batchGetPlaybooks', path, []),
    });
    const items = await client.batchGet(['pb_1', 'pb_2']);
    expect(requests).toHaveLength(1);
    expect(items.map((item) => item.status)).toEqual([200, 200]);
  });

  it('an honest service in the custom-method style reads by batch and GraphQL', async () => {
    const { client, requests } = clientFor(
      (request) =>
        new URL(request.url).pathname.endsWith('graphql') ? json({ data: {} }) : batchAnswer(request),
      { openApi: customMethodDocument() },
    );
    await client.batchGet(['pb_1']);
    await client.call('graphql', { body: { query: '{ playbooks { edges { cursor } } }' } });
    expect(requests).toHaveLength(2);
  });
});
