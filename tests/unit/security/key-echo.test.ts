import { afterEach, describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/api';
import { wireErrorOf } from '@/lib/background/errors';
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
