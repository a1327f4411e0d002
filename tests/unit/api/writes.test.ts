import { describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/i18n';
import {
  ApiError,
  canonicalJson,
  newIdempotencyKey,
  type ApiClient,
  type ConfirmedIntent,
  type WriteOperation,
} from '@/lib/api';
import type { WriteDraft } from '@/lib/contract/outbox';
import type { ClaimedWrite } from '@/lib/api/writes';
import { fingerprintOfKey } from '@/lib/store/apiKey';
import {
  API_URL,
  bookIdDialectDocument,
  keepKeyOutOfLogs,
  clientFor,
  json,
  playbook,
  problem,
  rejection,
  SENTINEL_KEY,
  SITE_URL,
  writesDocument,
} from './support';

keepKeyOutOfLogs();

const NEW_PLAYBOOK = { title: 'Semis', thesis: 'Capex cycle', visibility: 'private', tickers: ['NVDA'] };

interface DraftSpec {
  operationId?: WriteOperation;
  playbookId?: string;
  body?: Record<string, unknown>;
  ifMatch?: string;
  idempotencyKey?: string;
  /** The key the user confirmed with (its fingerprint is bound). */
  confirmedKey?: string;
}

/** What the confirm flow hands the client: the resolved, confirmed intent of a claimed write. */
async function claimedWrite(client: ApiClient, spec: DraftSpec = {}): Promise<ClaimedWrite> {
  const operationId = spec.operationId ?? 'createPlaybook';
  const body = spec.body ?? (spec.operationId === undefined ? NEW_PLAYBOOK : undefined);
  const resolution = client.resolveWrite(operationId, spec.playbookId);
  const idempotencyKey = spec.idempotencyKey ?? newIdempotencyKey();
  const confirmed: ConfirmedIntent = {
    operationId,
    method: resolution.method,
    url: resolution.url,
    body: body === undefined ? null : canonicalJson(body),
    ifMatch: spec.ifMatch,
    idempotencyKey,
    keyFingerprint: await fingerprintOfKey(spec.confirmedKey ?? SENTINEL_KEY),
    serviceUrl: SITE_URL,
    apiUrl: API_URL,
  };
  const draft: WriteDraft = { playbookId: spec.playbookId, body, ifMatch: spec.ifMatch };
  return { id: crypto.randomUUID(), operationId, draft: { ...draft, idempotencyKey, confirmed } };
}

describe('canonicalJson', () => {
  it.each([
    [{ b: 1, a: 2 }, '{"a":2,"b":1}'],
    [{ a: { d: 1, c: [{ z: 1, y: 2 }] } }, '{"a":{"c":[{"y":2,"z":1}],"d":1}}'],
    [[3, 1, 2], '[3,1,2]'],
    [{ a: undefined, b: null }, '{"b":null}'],
    ['text', '"text"'],
  ])('%j → %s', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });
});

describe('write() sends only a claimed outbox entry, as confirmed', () => {
  it('sends the bound method, URL, body bytes, key and Idempotency-Key', async () => {
    const { client, requests } = clientFor(() => json(playbook('pb_1'), { status: 201 }));
    const claimed = await claimedWrite(client);
    const result = await client.write(claimed);
    expect(result.status).toBe(201);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', url: 'https://api.example.test/v1/playbooks' });
    expect(requests[0].body).toBe(canonicalJson(NEW_PLAYBOOK));
    expect(requests[0].headers['idempotency-key']).toBe(claimed.draft.confirmed?.idempotencyKey);
    expect(requests[0].headers.authorization).toBe(`Bearer ${SENTINEL_KEY}`);
  });

  it('refuses an entry without a confirmed intent', async () => {
    const { client, requests } = clientFor(() => json(playbook('pb_1'), { status: 201 }));
    const claimed = await claimedWrite(client);
    const forged = { ...claimed, draft: { ...claimed.draft, confirmed: undefined } };
    expect(((await rejection(client.write(forged))) as ApiError).kind).toBe('unconfirmed-write');
    expect(requests).toEqual([]);
  });

  it('refuses when the body is not the body that was confirmed', async () => {
    const { client, requests } = clientFor(() => json(playbook('pb_1'), { status: 201 }));
    const claimed = await claimedWrite(client);
    const changed = { ...claimed, draft: { ...claimed.draft, body: { ...NEW_PLAYBOOK, title: 'Swapped' } } };
    expect(((await rejection(client.write(changed))) as ApiError).kind).toBe('unconfirmed-write');
    expect(requests).toEqual([]);
  });

  it('refuses when the key is not the one the user confirmed with', async () => {
    const { client, requests } = clientFor(() => json(playbook('pb_1'), { status: 201 }));
    const claimed = await claimedWrite(client, { confirmedKey: 'sk_another_account_key_0001' });
    const error = (await rejection(client.write(claimed))) as ApiError;
    expect(error.message).toMatch(/API key changed/);
    expect(requests).toEqual([]);
  });

  it('refuses when the API URL is not the one the user confirmed for', async () => {
    const { client: before } = clientFor(() => json({}));
    const claimed = await claimedWrite(before);
    const { client, requests } = clientFor(() => json({}), {
      apiUrl: 'https://api.example.test/v2',
      openApi: { ...writesDocument(), servers: [{ url: 'https://api.example.test/v2' }] },
    });
    expect(((await rejection(client.write(claimed))) as ApiError).message).toMatch(/API URL changed/);
    expect(requests).toEqual([]);
  });

  it('reuses the same Idempotency-Key and the identical body on every retry; a replay is success', async () => {
    let calls = 0;
    const { client, requests } = clientFor(() => {
      calls++;
      if (calls === 1) return problem(502, { title: 'Bad gateway' });
      if (calls === 2) throw new TypeError('connection reset');
      return json(playbook('pb_1'), { status: 201, headers: { 'idempotent-replayed': 'true' } });
    });
    const claimed = await claimedWrite(client);
    const result = await client.write(claimed);
    expect(result.idempotentReplayed).toBe(true);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.headers['idempotency-key']))).toEqual(
      new Set([claimed.draft.confirmed?.idempotencyKey]),
    );
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
  });

  it('validates the body against the operation schema before sending', async () => {
    const { client, requests } = clientFor(() => json(playbook('pb_1'), { status: 201 }));
    const claimed = await claimedWrite(client, {
      operationId: 'createPlaybook',
      body: { title: '', thesis: 'x', visibility: 'everyone' },
    });
    const error = (await rejection(client.write(claimed))) as ApiError;
    expect(error.kind).toBe('validation');
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(['/title', '/visibility']);
    expect(requests).toEqual([]);
  });

  it('refuses an Idempotency-Key that is not a UUID', async () => {
    const { client, requests } = clientFor(() => json(playbook('pb_1'), { status: 201 }));
    const claimed = await claimedWrite(client, { idempotencyKey: 'not-a-uuid' });
    expect(((await rejection(client.write(claimed))) as ApiError).kind).toBe('validation');
    expect(requests).toEqual([]);
  });

  it('passes If-Match through for updatePlaybook; 412 is precondition-failed and not retried', async () => {
    const { client, requests } = clientFor(() => problem(412, { title: 'Precondition failed' }));
    const claimed = await claimedWrite(client, {
      operationId: 'updatePlaybook',
      playbookId: 'pb_1',
      body: { title: 'New' },
      ifMatch: '"pb_1-1"',
    });
    const error = (await rejection(client.write(claimed))) as ApiError;
    expect(error.kind).toBe('precondition-failed');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'PATCH', url: 'https://api.example.test/v1/playbooks/pb_1' });
    expect(requests[0].headers['if-match']).toBe('"pb_1-1"');
  });

  it('422 under an Idempotency-Key is idempotency-mismatch', async () => {
    const { client } = clientFor(() => problem(422, { title: 'Key reused', code: 'idempotency_key_reused' }));
    const error = (await rejection(client.write(await claimedWrite(client)))) as ApiError;
    expect(error.kind).toBe('idempotency-mismatch');
  });

  it('writes go one at a time, in order', async () => {
    let active = 0;
    let maxActive = 0;
    const order: string[] = [];
    const { client } = clientFor(async (request) => {
      active++;
      maxActive = Math.max(maxActive, active);
      const { title } = (await request.json()) as { title: string };
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(title);
      active--;
      return json(playbook(title), { status: 201 });
    });
    const claims: ClaimedWrite[] = [];
    for (const title of ['one', 'two', 'three'])
      claims.push(
        await claimedWrite(client, { operationId: 'createPlaybook', body: { ...NEW_PLAYBOOK, title } }),
      );
    await Promise.all(claims.map((claimed) => client.write(claimed)));
    expect(maxActive).toBe(1);
    expect(order).toEqual(['one', 'two', 'three']);
  });

  it('a failed write does not block the next one', async () => {
    let calls = 0;
    const { client } = clientFor(() =>
      ++calls === 1 ? problem(409, { title: 'In flight' }) : json(playbook('pb_2'), { status: 201 }),
    );
    const [first, second] = [await claimedWrite(client), await claimedWrite(client)];
    const [a, b] = await Promise.allSettled([client.write(first), client.write(second)]);
    expect((a as PromiseRejectedResult).reason).toMatchObject({ kind: 'conflict' });
    expect(b.status).toBe('fulfilled');
  });
});

describe('the resolved operation is bound', () => {
  function deprecatedPause() {
    const doc = writesDocument();
    (doc.paths['/playbooks/{id}/pause'] as { post: Record<string, unknown> }).post = {
      operationId: 'pausePlaybook',
      deprecated: true,
      'x-sunset': '2030-01-01',
      'x-replaced-by': 'activatePlaybook',
      responses: {},
    };
    return doc;
  }

  it('a deprecated pause replaced by activate is resolved and sent as pause, with a warning', async () => {
    const { client, requests } = clientFor(() => json(playbook('pb_1', { status: 'paused' })), {
      openApi: deprecatedPause(),
    });
    const preview = client.resolveWrite('pausePlaybook', 'pb_1');
    expect(preview).toMatchObject({
      operationId: 'pausePlaybook',
      method: 'POST',
      url: 'https://api.example.test/v1/playbooks/pb_1/pause',
      deprecated: true,
    });
    expect(preview.warnings.join(' ')).toMatch(/deprecated.*sent as itself/);
    await client.write(await claimedWrite(client, { operationId: 'pausePlaybook', playbookId: 'pb_1' }));
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST https://api.example.test/v1/playbooks/pb_1/pause',
    ]);
  });

  it('reads still follow x-replaced-by', async () => {
    const { client, requests } = clientFor(() => json({ data: [], has_more: false, next_cursor: null }));
    const pages = [];
    for await (const page of client.paginate('listPlaybooksLegacy')) pages.push(page);
    expect(new URL(requests[0].url).pathname).toBe('/v1/playbooks');
  });

  it('a pause whose path the document remapped after it was confirmed is not sent', async () => {
    const { client: atConfirm } = clientFor(() => json({}), { openApi: writesDocument() });
    const claimed = await claimedWrite(atConfirm, { operationId: 'pausePlaybook', playbookId: 'pb_1' });
    const remapped = writesDocument();
    remapped.paths['/playbooks/{id}/halt'] = remapped.paths['/playbooks/{id}/pause'];
    delete remapped.paths['/playbooks/{id}/pause'];
    const { client, requests } = clientFor(() => json({}), { openApi: remapped });
    const error = (await rejection(client.write(claimed))) as ApiError;
    expect(error).toMatchObject({ kind: 'unconfirmed-write', code: 'operation-changed' });
    expect(error.message).toBe(
      'The service changed how this action is sent (was POST /v1/playbooks/pb_1/pause, now POST /v1/playbooks/pb_1/halt). Nothing was sent. Review and confirm again.',
    );
    expect(requests).toEqual([]);
  });

  it('a write whose method the document changed is not sent', async () => {
    const { client: atConfirm } = clientFor(() => json({}), { openApi: writesDocument() });
    const claimed = await claimedWrite(atConfirm, { operationId: 'pausePlaybook', playbookId: 'pb_1' });
    const changed = writesDocument();
    changed.paths['/playbooks/{id}/pause'] = { delete: { operationId: 'pausePlaybook', responses: {} } };
    const { client, requests } = clientFor(() => json({}), { openApi: changed });
    expect(((await rejection(client.write(claimed))) as ApiError).message).toMatch(/was POST .*now DELETE/);
    expect(requests).toEqual([]);
  });

  it('a write past its sunset is refused before and at send time', async () => {
    const doc = deprecatedPause();
    (doc.paths['/playbooks/{id}/pause'] as { post: Record<string, unknown> }).post['x-sunset'] = '2025-06-30';
    const { client: atConfirm } = clientFor(() => json({}), { openApi: writesDocument() });
    const claimed = await claimedWrite(atConfirm, { operationId: 'pausePlaybook', playbookId: 'pb_1' });
    const { client, requests } = clientFor(() => json({}), { openApi: doc });
    const early = (await rejection(
      Promise.resolve().then(() => client.resolveWrite('pausePlaybook', 'pb_1')),
    )) as ApiError;
    expect(early.kind).toBe('sunset');
    expect(early.message).toContain(
      `pausePlaybook reached its sunset on ${formatDate(Date.UTC(2025, 5, 30))}`,
    );
    expect(early.message).toMatch(/Nothing was sent/);
    expect(((await rejection(client.write(claimed))) as ApiError).kind).toBe('sunset');
    expect(requests).toEqual([]);
  });
});

describe('a service that names the playbook parameter bookId', () => {
  it("reads and writes bind the playbook id to the document's own parameter", async () => {
    const { client, requests } = clientFor(
      (request) =>
        request.url.endsWith('/backtests')
          ? json({ id: 'bt_1', playbook_id: 'pb_1', status: 'queued' }, { status: 202 })
          : json(playbook('pb_1')),
      {
        openApi: bookIdDialectDocument(),
      },
    );
    await client.call('getPlaybook', { playbookId: 'pb_1' });
    expect(requests[0]).toMatchObject({ method: 'GET', url: 'https://api.example.test/v1/books/pb_1' });
    for (const [operationId, path] of [
      ['pausePlaybook', '/v1/books/pb%2F1/live:stop'],
      ['activatePlaybook', '/v1/books/pb%2F1/live:start'],
    ] as const) {
      expect(client.resolveWrite(operationId, 'pb/1').url).toBe(`https://api.example.test${path}`);
    }
    await client.write(
      await claimedWrite(client, {
        operationId: 'updatePlaybook',
        playbookId: 'pb_1',
        body: { title: 'Renamed' },
        ifMatch: '"pb_1-1"',
      }),
    );
    await client.write(
      await claimedWrite(client, {
        operationId: 'runBacktest',
        playbookId: 'pb_1',
        body: { start: '2020-01-01', end: '2024-12-31' },
      }),
    );
    expect(requests.slice(1).map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'PATCH /v1/books/pb_1',
      'POST /v1/books/pb_1/backtests',
    ]);
  });

  it("takes the page size from the dialect's own bounds", async () => {
    const { client, requests } = clientFor(() => json({ data: [], has_more: false, next_cursor: null }), {
      openApi: bookIdDialectDocument(),
    });
    for await (const _page of client.paginate('listPlaybooks', { pageSize: 100 })) break;
    expect(new URL(requests[0].url).searchParams.get('limit')).toBe('25');
  });

  it('a playbook id for an operation without exactly one path parameter is refused, not guessed', async () => {
    const { client, requests } = clientFor(() => json({}));
    const error = (await rejection(client.call('getAccount', { playbookId: 'pb_1' }))) as ApiError;
    expect(error.message).toMatch(/0 path parameters/);
    expect(requests).toEqual([]);
  });
});
