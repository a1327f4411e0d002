import { describe, expect, it } from 'vitest';
import { keepKeyOutOfLogs, clientFor, json, playbook, problem } from './support';

keepKeyOutOfLogs();

describe('batchGet', () => {
  it('splits into chunks of at most 50 and keeps request order with per-item status', async () => {
    const ids = Array.from({ length: 120 }, (_, index) => `pb_${index}`);
    const { client, requests } = clientFor(async (request) => {
      const { ids: chunk } = (await request.json()) as { ids: string[] };
      // The service answers in reverse order; the client must restore request order.
      const results = chunk
        .map((id) =>
          Number(id.slice(3)) % 7 === 0
            ? { id, status: 404, error: { title: 'Not found', status: 404 } }
            : { id, status: 200, playbook: playbook(id) },
        )
        .reverse();
      return json({ results });
    });
    const results = await client.batchGet(ids);
    expect(requests.map((request) => (JSON.parse(request.body) as { ids: string[] }).ids.length)).toEqual([
      50, 50, 20,
    ]);
    expect(results.map((item) => item.id)).toEqual(ids);
    expect(results.filter((item) => item.status === 404).map((item) => item.id)).toEqual(
      ids.filter((_, index) => index % 7 === 0),
    );
  });

  it('a chunk that fails after retries marks its items failed and keeps the others', async () => {
    let call = 0;
    const { client } = clientFor(async (request) => {
      call++;
      const { ids: chunk } = (await request.json()) as { ids: string[] };
      if (call === 1)
        return json({ results: chunk.map((id) => ({ id, status: 200, playbook: playbook(id) })) });
      return problem(500, { title: 'Boom' });
    });
    const ids = Array.from({ length: 60 }, (_, index) => `pb_${index}`);
    const results = await client.batchGet(ids);
    expect(results.slice(0, 50).every((item) => item.status === 200)).toBe(true);
    expect(results.slice(50).every((item) => item.status === 'failed')).toBe(true);
    expect(results[55]).toMatchObject({
      status: 'failed',
      error: { kind: 'server', operationId: 'batchGetPlaybooks' },
    });
  });

  it('an empty list sends nothing', async () => {
    const { client, requests } = clientFor(() => json({ results: [] }));
    expect(await client.batchGet([])).toEqual([]);
    expect(requests).toEqual([]);
  });
});
