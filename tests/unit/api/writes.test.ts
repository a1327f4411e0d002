import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore } from 'idb-keyval';
import type { LogRecord } from '@/lib/log';
import {
  ApiError,
  canonicalJson,
  createConfirmationLedger,
  intentHash,
  newIdempotencyKey,
  type ConfirmationLedger,
  type WriteIntent,
} from '@/lib/api';
import {
  captureLogs,
  clientFor,
  fakeClock,
  json,
  playbook,
  problem,
  rejection,
  SENTINEL_KEY,
} from './support';

let logs: LogRecord[];
let restoreLogs: () => void;
let storeCount = 0;
beforeEach(() => {
  ({ records: logs, restore: restoreLogs } = captureLogs());
});
afterEach(() => {
  expect(JSON.stringify(logs)).not.toContain(SENTINEL_KEY);
  restoreLogs();
});

/** A fresh IndexedDB store per test: fake-indexeddb keeps databases across tests. */
function freshStore() {
  storeCount++;
  return createStore(`test-confirmations-${storeCount}-${Date.now()}`, 'confirmations');
}

function createIntent(overrides: Partial<WriteIntent> = {}): WriteIntent {
  return {
    operationId: 'createPlaybook',
    body: { title: 'Semis', thesis: 'Capex cycle', visibility: 'private', tickers: ['NVDA'] },
    idempotencyKey: newIdempotencyKey(),
    ...overrides,
  };
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

  it('key order does not change the intent hash; a changed value does', async () => {
    const key = newIdempotencyKey();
    const a = await intentHash({
      operationId: 'createPlaybook',
      body: { title: 'x', thesis: 'y' },
      idempotencyKey: key,
    });
    const b = await intentHash({
      operationId: 'createPlaybook',
      body: { thesis: 'y', title: 'x' },
      idempotencyKey: key,
    });
    const c = await intentHash({
      operationId: 'createPlaybook',
      body: { thesis: 'y', title: 'X' },
      idempotencyKey: key,
    });
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('confirmation ledger', () => {
  it('issues a 128-bit one-time token that only the exact intent can consume', async () => {
    const ledger = createConfirmationLedger(freshStore());
    const intent = createIntent();
    const token = await ledger.issue(intent);
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(await ledger.consume(token, structuredClone(intent))).toBe(true);
    expect(await ledger.consume(token, intent)).toBe(false);
  });

  it.each<[string, (intent: WriteIntent) => WriteIntent]>([
    ['another body', (intent) => ({ ...intent, body: { ...(intent.body as object), visibility: 'public' } })],
    ['another operation', (intent) => ({ ...intent, operationId: 'updatePlaybook' })],
    ['another idempotency key', (intent) => ({ ...intent, idempotencyKey: newIdempotencyKey() })],
    ['another path', (intent) => ({ ...intent, path: { id: 'pb_2' } })],
    ['another If-Match', (intent) => ({ ...intent, ifMatch: '"stale"' })],
  ])('refuses %s, and the token is spent by the attempt', async (_name, change) => {
    const ledger = createConfirmationLedger(freshStore());
    const intent = createIntent();
    const token = await ledger.issue(intent);
    expect(await ledger.consume(token, change(intent))).toBe(false);
    expect(await ledger.consume(token, intent)).toBe(false);
  });

  it('refuses an expired token', async () => {
    const clock = fakeClock();
    const ledger = createConfirmationLedger(freshStore(), { now: clock.now, ttlMs: 60_000 });
    const intent = createIntent();
    const token = await ledger.issue(intent);
    clock.advance(60_001);
    expect(await ledger.consume(token, intent)).toBe(false);
  });

  it.each([[''], ['0'.repeat(31)], ['../../etc'], ['A'.repeat(32)]])(
    'refuses a malformed token %j',
    async (token) => {
      const ledger = createConfirmationLedger(freshStore());
      expect(await ledger.consume(token, createIntent())).toBe(false);
    },
  );

  it('survives a worker restart: a new ledger on the same store consumes the token', async () => {
    const store = freshStore();
    const intent = createIntent();
    const token = await createConfirmationLedger(store).issue(intent);
    expect(await createConfirmationLedger(store).consume(token, intent)).toBe(true);
  });

  it('two racing consumers cannot both use one token', async () => {
    const ledger = createConfirmationLedger(freshStore());
    const intent = createIntent();
    const token = await ledger.issue(intent);
    const outcomes = await Promise.all([
      ledger.consume(token, intent),
      ledger.consume(token, intent),
      ledger.consume(token, intent),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });
});

function writeSetup(route: Parameters<typeof clientFor>[0], ledger: ConfirmationLedger) {
  return clientFor(route, { confirmations: ledger });
}

describe('write()', () => {
  it('refuses a write without a confirmation, with a reused one and with one for another body', async () => {
    const ledger = createConfirmationLedger(freshStore());
    const { client, requests } = writeSetup(() => json(playbook('pb_1'), { status: 201 }), ledger);
    const intent = createIntent();

    const none = (await rejection(client.write({ ...intent, confirmation: '' }))) as ApiError;
    expect(none.kind).toBe('unconfirmed-write');

    const token = await ledger.issue(intent);
    const other = (await rejection(
      client.write({
        ...intent,
        body: { ...(intent.body as object), title: 'Changed after confirming' },
        confirmation: token,
      }),
    )) as ApiError;
    expect(other.kind).toBe('unconfirmed-write');
    expect(requests).toHaveLength(0);

    const fresh = await ledger.issue(intent);
    await client.write({ ...intent, confirmation: fresh });
    expect(requests).toHaveLength(1);
    const reused = (await rejection(client.write({ ...intent, confirmation: fresh }))) as ApiError;
    expect(reused.kind).toBe('unconfirmed-write');
    expect(requests).toHaveLength(1);
  });

  it('a client without a ledger refuses every write', async () => {
    const { client, requests } = clientFor(() => json(playbook('pb_1'), { status: 201 }));
    const error = (await rejection(
      client.write({ ...createIntent(), confirmation: '0'.repeat(32) }),
    )) as ApiError;
    expect(error.kind).toBe('unconfirmed-write');
    expect(requests).toEqual([]);
  });

  it('reuses the same Idempotency-Key and the identical body on every retry; a replay is success', async () => {
    const ledger = createConfirmationLedger(freshStore());
    let calls = 0;
    const { client, requests } = writeSetup(() => {
      calls++;
      if (calls === 1) return problem(502, { title: 'Bad gateway' });
      if (calls === 2) throw new TypeError('connection reset');
      return json(playbook('pb_1'), { status: 201, headers: { 'idempotent-replayed': 'true' } });
    }, ledger);
    const intent = createIntent();
    const result = await client.write({ ...intent, confirmation: await ledger.issue(intent) });
    expect(result.status).toBe(201);
    expect(result.idempotentReplayed).toBe(true);
    expect((result.data as { id: string }).id).toBe('pb_1');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.headers['idempotency-key']))).toEqual(
      new Set([intent.idempotencyKey]),
    );
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
    expect(JSON.parse(requests[0].body)).toEqual(intent.body);
    expect(
      requests.every(
        (request) => request.method === 'POST' && request.headers.authorization === `Bearer ${SENTINEL_KEY}`,
      ),
    ).toBe(true);
  });

  it('validates the body against the operation schema before sending', async () => {
    const ledger = createConfirmationLedger(freshStore());
    const { client, requests } = writeSetup(() => json(playbook('pb_1'), { status: 201 }), ledger);
    const intent = createIntent({ body: { title: '', thesis: 'x', visibility: 'everyone' } });
    const error = (await rejection(
      client.write({ ...intent, confirmation: await ledger.issue(intent) }),
    )) as ApiError;
    expect(error.kind).toBe('validation');
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(['/title', '/visibility']);
    expect(requests).toEqual([]);
  });

  it('refuses an Idempotency-Key that is not a UUID', async () => {
    const ledger = createConfirmationLedger(freshStore());
    const { client, requests } = writeSetup(() => json(playbook('pb_1'), { status: 201 }), ledger);
    const intent = createIntent({ idempotencyKey: 'not-a-uuid' });
    const error = (await rejection(
      client.write({ ...intent, confirmation: await ledger.issue(intent) }),
    )) as ApiError;
    expect(error.kind).toBe('validation');
    expect(requests).toEqual([]);
  });

  it('passes If-Match through for updatePlaybook; 412 is precondition-failed and not retried', async () => {
    const ledger = createConfirmationLedger(freshStore());
    const { client, requests } = writeSetup(() => problem(412, { title: 'Precondition failed' }), ledger);
    const intent = createIntent({
      operationId: 'updatePlaybook',
      path: { id: 'pb_1' },
      body: { title: 'New' },
      ifMatch: '"pb_1-1"',
    });
    const error = (await rejection(
      client.write({ ...intent, confirmation: await ledger.issue(intent) }),
    )) as ApiError;
    expect(error.kind).toBe('precondition-failed');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'PATCH', url: 'https://api.example.test/v1/playbooks/pb_1' });
    expect(requests[0].headers['if-match']).toBe('"pb_1-1"');
  });

  it('422 under an Idempotency-Key is idempotency-mismatch', async () => {
    const ledger = createConfirmationLedger(freshStore());
    const { client } = writeSetup(
      () => problem(422, { title: 'Key reused', code: 'idempotency_key_reused' }),
      ledger,
    );
    const intent = createIntent();
    const error = (await rejection(
      client.write({ ...intent, confirmation: await ledger.issue(intent) }),
    )) as ApiError;
    expect(error.kind).toBe('idempotency-mismatch');
  });

  it('writes go one at a time, in order', async () => {
    const ledger = createConfirmationLedger(freshStore());
    let active = 0;
    let maxActive = 0;
    const order: string[] = [];
    const { client } = writeSetup(async (request) => {
      active++;
      maxActive = Math.max(maxActive, active);
      const { title } = (await request.json()) as { title: string };
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(title);
      active--;
      return json(playbook(title), { status: 201 });
    }, ledger);
    const intents = ['one', 'two', 'three'].map((title) =>
      createIntent({ body: { title, thesis: 't', visibility: 'private' } }),
    );
    const tokens = await Promise.all(intents.map((intent) => ledger.issue(intent)));
    await Promise.all(
      intents.map((intent, index) => client.write({ ...intent, confirmation: tokens[index] })),
    );
    expect(maxActive).toBe(1);
    expect(order).toEqual(['one', 'two', 'three']);
  });

  it('a failed write does not block the next one', async () => {
    const ledger = createConfirmationLedger(freshStore());
    let calls = 0;
    const { client } = writeSetup(
      () => (++calls === 1 ? problem(409, { title: 'In flight' }) : json(playbook('pb_2'), { status: 201 })),
      ledger,
    );
    const first = createIntent();
    const second = createIntent();
    const [firstToken, secondToken] = [await ledger.issue(first), await ledger.issue(second)];
    const [a, b] = await Promise.allSettled([
      client.write({ ...first, confirmation: firstToken }),
      client.write({ ...second, confirmation: secondToken }),
    ]);
    expect(a.status).toBe('rejected');
    expect((a as PromiseRejectedResult).reason).toMatchObject({ kind: 'conflict' });
    expect(b.status).toBe('fulfilled');
  });

  it('refuses a read sent as a write', async () => {
    const ledger = createConfirmationLedger(freshStore());
    const { client, requests } = writeSetup(() => json({}), ledger);
    const intent = createIntent({ operationId: 'getAccount', body: undefined });
    const error = (await rejection(
      client.write({ ...intent, confirmation: await ledger.issue(intent) }),
    )) as ApiError;
    expect(error.kind).toBe('validation');
    expect(requests).toEqual([]);
  });
});
