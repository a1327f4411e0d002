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
import type { IntentToSend, Sending } from '@/lib/api/writes';
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

/** Nothing checked before sending: lib/writes' own check is tested in tests/unit/writes. */
const OPEN = { beforeSend: () => Promise.resolve() };

/** What the confirm flow hands the client: the resolved, confirmed intent of a claimed write. */
async function claimedWrite(client: ApiClient, spec: DraftSpec = {}): Promise<IntentToSend> {
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
  return { intent: confirmed, playbookId: spec.playbookId };
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
    const result = await client.write(claimed, OPEN);
    expect(result.status).toBe(201);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', url: 'https://api.example.test/v1/playbooks' });
    expect(requests[0].body).toBe(canonicalJson(NEW_PLAYBOOK));
    expect(requests[0].headers['idempotency-key']).toBe(claimed.intent.idempotencyKey);
    expect(requests[0].headers.authorization).toBe(`Bearer ${SENTINEL_KEY}`);
  });

  it('hands beforeSend what would leave (route, contract, key, API URL), and sends nothing when it refuses', async () => {
    const { client, requests } = clientFor(() => json(playbook('pb_1'), { status: 201 }));
    const claimed = await claimedWrite(client);
    const seen: Sending[] = [];
    const refused = new Error('not the intent');
    const beforeSend = (sending: Sending) => {
      seen.push(sending);
      return Promise.reject(refused);
    };
    expect(await rejection(client.write(claimed, { beforeSend }))).toBe(refused);
    expect(requests).toEqual([]);
    expect(seen).toEqual([
      {
        resolution: {
          operationId: 'createPlaybook',
          method: 'POST',
          url: 'https://api.example.test/v1/playbooks',
        },
        contract: client.resolveWrite('createPlaybook').contract,
        keyFingerprint: await fingerprintOfKey(SENTINEL_KEY),
        requiresAuth: true,
        apiUrl: API_URL,
      },
    ]);
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
    const result = await client.write(claimed, OPEN);
    expect(result.idempotentReplayed).toBe(true);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.headers['idempotency-key']))).toEqual(
      new Set([claimed.intent.idempotencyKey]),
    );
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
  });

  it('validates the body against the operation schema before sending', async () => {
    const { client, requests } = clientFor(() => json(playbook('pb_1'), { status: 201 }));
    const claimed = await claimedWrite(client, {
      operationId: 'createPlaybook',
      body: { title: '', thesis: 'x', visibility: 'everyone' },
    });
    const error = (await rejection(client.write(claimed, OPEN))) as ApiError;
    expect(error.kind).toBe('validation');
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(['/title', '/visibility']);
    expect(requests).toEqual([]);
  });

  it('refuses an Idempotency-Key that is not a UUID', async () => {
    const { client, requests } = clientFor(() => json(playbook('pb_1'), { status: 201 }));
    const claimed = await claimedWrite(client, { idempotencyKey: 'not-a-uuid' });
    expect(((await rejection(client.write(claimed, OPEN))) as ApiError).kind).toBe('validation');
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
    const error = (await rejection(client.write(claimed, OPEN))) as ApiError;
    expect(error.kind).toBe('precondition-failed');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'PATCH', url: 'https://api.example.test/v1/playbooks/pb_1' });
    expect(requests[0].headers['if-match']).toBe('"pb_1-1"');
  });

  it('422 under an Idempotency-Key is idempotency-mismatch', async () => {
    const { client } = clientFor(() => problem(422, { title: 'Key reused', code: 'idempotency_key_reused' }));
    const error = (await rejection(client.write(await claimedWrite(client), OPEN))) as ApiError;
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
    const claims: IntentToSend[] = [];
    for (const title of ['one', 'two', 'three'])
      claims.push(
        await claimedWrite(client, { operationId: 'createPlaybook', body: { ...NEW_PLAYBOOK, title } }),
      );
    await Promise.all(claims.map((claimed) => client.write(claimed, OPEN)));
    expect(maxActive).toBe(1);
    expect(order).toEqual(['one', 'two', 'three']);
  });

  it('a failed write does not block the next one', async () => {
    let calls = 0;
    const { client } = clientFor(() =>
      ++calls === 1 ? problem(409, { title: 'In flight' }) : json(playbook('pb_2'), { status: 201 }),
    );
    const [first, second] = [await claimedWrite(client), await claimedWrite(client)];
    const [a, b] = await Promise.allSettled([client.write(first, OPEN), client.write(second, OPEN)]);
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
    await client.write(
      await claimedWrite(client, { operationId: 'pausePlaybook', playbookId: 'pb_1' }),
      OPEN,
    );
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

  it('resolves the route again at send time: a remapped pause is handed to beforeSend as it is now', async () => {
    const { client: atConfirm } = clientFor(() => json({}), { openApi: writesDocument() });
    const claimed = await claimedWrite(atConfirm, { operationId: 'pausePlaybook', playbookId: 'pb_1' });
    const remapped = writesDocument();
    remapped.paths['/playbooks/{id}/halt'] = remapped.paths['/playbooks/{id}/pause'];
    delete remapped.paths['/playbooks/{id}/pause'];
    const { client } = clientFor(() => json({}), { openApi: remapped });
    const urls: string[] = [];
    await client.write(claimed, {
      beforeSend: (sending) => Promise.resolve(void urls.push(sending.resolution.url)),
    });
    expect(urls).toEqual(['https://api.example.test/v1/playbooks/pb_1/halt']);
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
    expect(((await rejection(client.write(claimed, OPEN))) as ApiError).kind).toBe('sunset');
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
      OPEN,
    );
    await client.write(
      await claimedWrite(client, {
        operationId: 'runBacktest',
        playbookId: 'pb_1',
        body: { start: '2020-01-01', end: '2024-12-31' },
      }),
      OPEN,
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
