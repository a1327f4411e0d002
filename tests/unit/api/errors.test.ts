import { describe, expect, it } from 'vitest';
import { ApiError, errorFromStatus, scrubSecret, toFieldPointer } from '@/lib/api';
import { SENTINEL_KEY, SITE_URL } from './support';

describe('toFieldPointer', () => {
  it.each([
    ['title', '/title'],
    ['/title', '/title'],
    ['#/source/url', '/source/url'],
    ['source.url', '/source/url'],
    ['tickers[0]', '/tickers/0'],
    ['$.tickers[2]', '/tickers/2'],
    ['body.title', '/title'],
    ['', '/'],
    ['#', '/'],
    [undefined, '/'],
  ])('%j → %j', (input, expected) => {
    expect(toFieldPointer(input)).toBe(expected);
  });
});

describe('errorFromStatus', () => {
  it('400 maps the problem errors[] to fields and names the operation', () => {
    const error = errorFromStatus({
      operationId: 'createPlaybook',
      status: 400,
      siteUrl: SITE_URL,
      problem: {
        title: 'Invalid request',
        code: 'invalid_request',
        errors: [
          { path: 'title', message: 'Must not be empty.' },
          { path: '/tickers/1', message: 'Unknown ticker.' },
          { path: 'title', message: 'Second message for the same field is dropped.' },
        ],
      },
    });
    expect(error.kind).toBe('validation');
    expect(error.code).toBe('invalid_request');
    expect(error.fieldErrors).toEqual({ '/title': 'Must not be empty.', '/tickers/1': 'Unknown ticker.' });
    expect(error.message).toContain('createPlaybook');
  });

  it('400 from a hostile service: fields and their words are bounded, and any field name is a field', () => {
    const errors = [
      { path: '__proto__', message: 'proto' },
      { path: 'toString', message: 'to string' },
      ...Array.from({ length: 5000 }, (_, index) => ({
        path: `field${index}`,
        message: `${'word '.repeat(2000)}${index}`,
      })),
    ];
    const error = errorFromStatus({
      operationId: 'createPlaybook',
      status: 400,
      siteUrl: SITE_URL,
      problem: { title: 'Invalid request', errors },
    });
    const fields = error.fieldErrors ?? {};
    expect(Object.keys(fields)).toHaveLength(20);
    expect(Object.hasOwn(fields, '/__proto__')).toBe(true);
    expect(fields['/__proto__']).toBe('proto');
    expect(fields['/toString']).toBe('to string');
    for (const message of Object.values(fields)) expect(message.length).toBeLessThanOrEqual(301);
    // The message names five fields and says there are more.
    expect(error.message).toContain('/field2');
    expect(error.message).not.toContain('/field3:');
    expect(error.message).toContain('…');
    expect(error.message.length).toBeLessThan(2500);
  });

  it('401 says to sign in or create a key at the /apikey page, with the link', () => {
    const error = errorFromStatus({
      operationId: 'getAccount',
      status: 401,
      siteUrl: `${SITE_URL}/some/page`,
    });
    expect(error.kind).toBe('unauthorized');
    expect(error.link).toBe(`${SITE_URL}/apikey`);
    expect(error.message).toBe(
      `getAccount needs a valid API key. Sign in or create a key at ${SITE_URL}/apikey`,
    );
  });

  it.each([
    [
      'a missing permission',
      {
        detail: 'The key cannot start live execution.',
        code: 'missing_permission',
        missing_permission: 'playbooks:execute',
      },
      { missingPermission: 'playbooks:execute' },
      /activatePlaybook is not allowed: your key lacks the permission "playbooks:execute"\. The key cannot start live execution\.$/,
    ],
    [
      'an account state',
      {
        detail: 'Link a brokerage account first.',
        code: 'brokerage_not_linked',
        account_state: 'brokerage_not_linked',
      },
      { accountState: 'brokerage_not_linked' },
      /activatePlaybook is not allowed: your account is in the state "brokerage_not_linked"\. Link a brokerage account first\.$/,
    ],
    [
      'only a detail',
      { detail: 'Plan limit reached.' },
      {},
      /^activatePlaybook is not allowed\. Plan limit reached\.$/,
    ],
    ['nothing at all', undefined, {}, /^activatePlaybook is not allowed\.$/],
  ])('403 explains %s', (_name, problem, fields, message) => {
    const error = errorFromStatus({
      operationId: 'activatePlaybook',
      status: 403,
      siteUrl: SITE_URL,
      problem,
    });
    expect(error.kind).toBe('forbidden');
    expect(error).toMatchObject(fields);
    expect(error.message).toMatch(message);
  });

  it.each([
    [404, false, 'not-found'],
    [409, true, 'conflict'],
    [412, true, 'precondition-failed'],
    [422, true, 'idempotency-mismatch'],
    [422, false, 'validation'],
    [429, false, 'rate-limited'],
    [500, false, 'server'],
    [503, true, 'server'],
    [418, false, 'validation'],
  ] as const)('%i (idempotent %s) → %s', (status, idempotent, kind) => {
    expect(
      errorFromStatus({ operationId: 'createPlaybook', status, siteUrl: SITE_URL, idempotent }).kind,
    ).toBe(kind);
  });

  it('keeps a long or multi-line problem detail short and on one line', () => {
    const error = errorFromStatus({
      operationId: 'getPlaybook',
      status: 500,
      siteUrl: SITE_URL,
      problem: { detail: `line one\nline two ${'x'.repeat(1000)}` },
    });
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('ApiError messaging form', () => {
  it('round-trips through structured clone as a plain object', () => {
    const error = new ApiError({
      kind: 'deferred',
      operationId: 'listPlaybooks',
      message: 'later',
      retryAt: 123,
      attempts: 2,
      fieldErrors: { '/title': 'x' },
    });
    const data = structuredClone(error.toJSON());
    expect(data).toEqual({
      name: 'ApiError',
      kind: 'deferred',
      operationId: 'listPlaybooks',
      message: 'later',
      retryAt: 123,
      attempts: 2,
      fieldErrors: { '/title': 'x' },
    });
    const back = new ApiError(data);
    expect(back).toBeInstanceOf(ApiError);
    expect(back.toJSON()).toEqual(data);
    expect(JSON.parse(JSON.stringify(error))).toEqual(data);
  });

  it('scrubSecret removes a key the service echoed into any text', () => {
    const error = errorFromStatus({
      operationId: 'createPlaybook',
      status: 400,
      siteUrl: SITE_URL,
      problem: {
        detail: `bad key ${SENTINEL_KEY}`,
        errors: [{ path: 'title', message: `contains ${SENTINEL_KEY}` }],
      },
    });
    const clean = scrubSecret(error, SENTINEL_KEY);
    expect(JSON.stringify(clean)).not.toContain(SENTINEL_KEY);
    expect(clean.kind).toBe('validation');
  });
});
