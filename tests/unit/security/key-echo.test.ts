import { afterEach, describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/api';
import { wireErrorOf } from '@/lib/background/errors';
import { keyWithheld } from '@/lib/log';
import { captureLogs, clientFor, json, problem, rejection, SENTINEL_KEY } from '../api/support';

/**
 * A hostile or careless service echoes the caller's key back in every place an answer can carry
 * text. None of it may reach what a page sees (the wire error) or a log line.
 */
const echo = (text: string) => `${text} ${SENTINEL_KEY} Bearer ${SENTINEL_KEY}`;
let restore: (() => void) | undefined;

afterEach(() => {
  restore?.();
  restore = undefined;
});

const statuses = [400, 401, 403, 404, 409, 412, 422, 429, 500, 503];

describe('the key echoed in an error answer', () => {
  it.each(statuses)('status %i: the wire error and the logs hold no key', async (status) => {
    const logs = captureLogs();
    restore = logs.restore;
    const { client } = clientFor(
      () =>
        problem(
          status,
          {
            type: `https://errors.example/${SENTINEL_KEY}`,
            title: echo('title'),
            detail: echo('detail'),
            instance: `/playbooks/${SENTINEL_KEY}`,
            code: echo('code'),
            errors: [{ path: `/${SENTINEL_KEY}`, message: echo('message') }],
          },
          {
            'retry-after': '0',
            link: `<https://help.example/${SENTINEL_KEY}>; rel="help"`,
            'www-authenticate': `Bearer realm="${SENTINEL_KEY}"`,
          },
        ),
      { backoff: { maxAttempts: 1 } },
    );
    const error = await rejection(client.call('getPlaybook', { path: { id: 'pb_1' } }));
    expect(isApiError(error)).toBe(true);
    const wire = JSON.stringify(wireErrorOf(error));
    expect(wire).not.toContain(SENTINEL_KEY);
    expect(wire.length).toBeGreaterThan(20);
    expect(JSON.stringify(logs.records)).not.toContain(SENTINEL_KEY);
  });
});

describe('the key echoed in a body the client cannot accept', () => {
  it.each([
    [
      'not JSON',
      () => new Response(echo('<html>'), { status: 200, headers: { 'content-type': 'application/json' } }),
    ],
    [
      'wrong type',
      () => new Response(echo('<html>'), { status: 200, headers: { 'content-type': 'text/html' } }),
    ],
    ['wrong shape', () => json({ id: SENTINEL_KEY, title: 42 })],
  ])('%s: the wire error and the logs hold no key', async (_label, answer) => {
    const logs = captureLogs();
    restore = logs.restore;
    const { client } = clientFor(answer, { backoff: { maxAttempts: 1 } });
    const error = await rejection(client.call('getPlaybook', { path: { id: 'pb_1' } }));
    expect(JSON.stringify(wireErrorOf(error))).not.toContain(SENTINEL_KEY);
    expect(JSON.stringify(logs.records)).not.toContain(SENTINEL_KEY);
  });
});

/** Every 8-character window of the key found in a text: a fragment a reader could put back together. */
function keyFragmentsIn(text: string): string[] {
  const found: string[] = [];
  for (let start = 0; start + 8 <= SENTINEL_KEY.length; start++) {
    const window = SENTINEL_KEY.slice(start, start + 8);
    if (text.includes(window)) found.push(window);
  }
  return found;
}

describe('the key padded so that the 300-character cut lands inside it', () => {
  // Statuses whose message quotes the service's detail; a 5xx message does not.
  const cases = [400, 404, 409].flatMap((status) =>
    Array.from({ length: SENTINEL_KEY.length + 1 }, (_, offset) => [status, offset] as const),
  );
  it.each(cases)(
    'status %i, cut after %i characters of the key: no fragment anywhere',
    async (status, offset) => {
      const logs = captureLogs();
      restore = logs.restore;
      const detail = `${'p'.repeat(300 - offset)}${SENTINEL_KEY}`;
      const { client } = clientFor(() => problem(status, { title: 'Refused', detail }), {
        backoff: { maxAttempts: 1 },
      });
      const error = await rejection(client.call('getPlaybook', { path: { id: 'pb_1' } }));
      expect(isApiError(error)).toBe(true);
      // The detail holds the key: it is withheld whole, before any cut could land inside it.
      expect((error as Error).message).toContain(keyWithheld());
      expect((error as Error).message).not.toContain('p'.repeat(200));
      expect(keyFragmentsIn(String((error as Error).message))).toEqual([]);
      expect(keyFragmentsIn(JSON.stringify(wireErrorOf(error)))).toEqual([]);
      expect(keyFragmentsIn(JSON.stringify(logs.records))).toEqual([]);
    },
  );

  it('the key split across fields leaves no fragment of either half', async () => {
    const logs = captureLogs();
    restore = logs.restore;
    const half = Math.floor(SENTINEL_KEY.length / 2);
    const { client } = clientFor(
      () =>
        problem(403, {
          title: 'Forbidden',
          detail: `${'d'.repeat(290)}${SENTINEL_KEY.slice(0, half)}`,
          code: SENTINEL_KEY.slice(half),
          missing_permission: `${SENTINEL_KEY.slice(3, 14)}`,
          account_state: `x${SENTINEL_KEY.slice(-9)}`,
        }),
      { backoff: { maxAttempts: 1 } },
    );
    const error = await rejection(client.call('getPlaybook', { path: { id: 'pb_1' } }));
    expect(keyFragmentsIn(JSON.stringify(error))).toEqual([]);
    expect(keyFragmentsIn(JSON.stringify(wireErrorOf(error)))).toEqual([]);
    expect(keyFragmentsIn(JSON.stringify(logs.records))).toEqual([]);
  });
});
