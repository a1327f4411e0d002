import { afterEach, describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/api';
import { wireErrorOf } from '@/lib/background/errors';
import { forgetSecrets, log, maskSecretsDeep, registerSecret } from '@/lib/log';
import { SENTINEL_KEY, captureLogs, clientFor, problem, rejection } from '../api/support';
import { shortFragmentsIn } from './fragments';

/**
 * Pages no longer learn the key's last four characters (commit 25c478c): a service that quotes
 * them ("the key ending in 8b6f…"), or any other piece of 4 characters or more, must not hand
 * them to a page or a log line either.
 */
let restore: (() => void) | undefined;

afterEach(() => {
  restore?.();
  restore = undefined;
  forgetSecrets();
});

describe('a service that quotes a short piece of the key', () => {
  const last4 = SENTINEL_KEY.slice(-4);
  const last5 = SENTINEL_KEY.slice(-5);
  it.each([
    [403, { title: 'Forbidden', detail: `The key ending in ${last4} may not read playbooks.` }],
    [400, { title: 'Bad', errors: [{ path: '/id', message: `key …${last5} is not allowed here` }] }],
    [409, { title: 'Conflict', detail: `Key ${SENTINEL_KEY.slice(0, 4)}…${last4} is locked.` }],
    [403, { title: 'Forbidden', missing_permission: `write:${last4}`, account_state: last5 }],
  ])('status %i: no 4-character piece reaches the wire error or the logs', async (status, body) => {
    const logs = captureLogs();
    restore = logs.restore;
    const { client } = clientFor(() => problem(status, body), { backoff: { maxAttempts: 1 } });
    const error = await rejection(client.call('getPlaybook', { path: { id: 'pb_1' } }));
    expect(isApiError(error)).toBe(true);
    const wire = JSON.stringify(wireErrorOf(error));
    // The service's words did arrive: the message is not simply empty.
    expect(wire).toContain('[redacted]');
    expect(shortFragmentsIn(wire)).toEqual([]);
    expect(shortFragmentsIn(JSON.stringify(error))).toEqual([]);
    log.warn('test.echo', { detail: JSON.stringify(body) });
    expect(shortFragmentsIn(JSON.stringify(logs.records))).toEqual([]);
  });
});

describe('the logger, given an object whose field names come from the service', () => {
  it('masks the key in a field name as in a value', () => {
    registerSecret(SENTINEL_KEY);
    const logs = captureLogs();
    restore = logs.restore;
    // A problem's errors[] keyed by the path the service chose (fieldErrors), logged with a failure.
    log.warn('test.field-errors', { fieldErrors: { [`/${SENTINEL_KEY}`]: 'is not allowed' } });
    const line = JSON.stringify(logs.records);
    expect(line).toContain('is not allowed');
    expect(shortFragmentsIn(line)).toEqual([]);
  });
});

describe('a deeply nested value masked for a page', () => {
  it('leaves no key below the depth limit: what is too deep to mask is dropped', () => {
    registerSecret(SENTINEL_KEY);
    let nested: unknown = { detail: `key ${SENTINEL_KEY}` };
    for (let depth = 0; depth < 12; depth++) nested = { inner: nested };
    const masked = JSON.stringify(maskSecretsDeep({ kind: 'validation', nested }));
    expect(masked).toContain('"kind":"validation"');
    expect(shortFragmentsIn(masked)).toEqual([]);
  });
});
