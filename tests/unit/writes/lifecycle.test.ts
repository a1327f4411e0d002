import { describe, expect, it } from 'vitest';
import { API_ERROR_KINDS } from '@/lib/api/errors';
import { isWriteErrorCode, meaningOf, needsReview, refusalCode, WRITE_ERRORS } from '@/lib/writes/errors';
import {
  allows,
  assertStep,
  canDiscard,
  canMove,
  IllegalTransitionError,
  statusOf,
  WRITE_STATES,
  type WriteState,
} from '@/lib/writes/lifecycle';
import { bodyDigest, differenceFrom, type ShownWrite } from '@/lib/writes/token';
import { LIFECYCLE_CODES } from '@/lib/contract/writes';

describe('the write state machine', () => {
  it('reaches a send only through confirmed or a failure that may be resent', () => {
    const into = (to: WriteState) => WRITE_STATES.filter((from) => canMove(from, to));
    expect(into('claimed')).toEqual(['confirmed', 'failed']);
    expect(into('confirmed')).toEqual(['shown', 'failed']);
    expect(into('sent')).toEqual(['claimed']);
    expect(into('settled')).toEqual(['sent']);
  });

  it('after a refusal, nothing but showing the draft again (or discarding it)', () => {
    expect(WRITE_STATES.filter((to) => canMove('refused', to))).toEqual(['shown']);
    expect(canMove('drafted', 'confirmed')).toBe(false);
  });

  it('a discard is refused while the write is confirmed, claimed or sent', () => {
    expect(WRITE_STATES.filter((from) => !canDiscard(from))).toEqual(['confirmed', 'claimed', 'sent']);
    expect(() => assertStep('discard', 'sent')).toThrow(IllegalTransitionError);
  });

  it('a settled write is final: it only leaves (discard, purge), and only a settled one is purged', () => {
    for (const to of WRITE_STATES) expect(canMove('settled', to)).toBe(false);
    expect(WRITE_STATES.filter((from) => allows('purge', from))).toEqual(['settled']);
  });

  it.each([
    ['drafted', 'pending'],
    ['shown', 'pending'],
    ['confirmed', 'sending'],
    ['claimed', 'sending'],
    ['sent', 'sending'],
    ['settled', 'sent'],
    ['failed', 'failed'],
    ['refused', 'failed'],
  ] as const)('pages read %s as %s', (state, status) => expect(statusOf(state)).toBe(status));
});

describe('the table of write errors', () => {
  it('accepts exactly the codes its table gives a meaning, API error kinds included', () => {
    const writeCodes = [...API_ERROR_KINDS.map((kind) => `api.${kind}` as const), ...LIFECYCLE_CODES];
    expect(writeCodes.filter((code) => !Object.hasOwn(WRITE_ERRORS, code))).toEqual([]);
    for (const code of writeCodes) {
      expect(isWriteErrorCode(code), code).toBe(true);
      expect(meaningOf(code), code).toBe(WRITE_ERRORS[code]);
    }
    // One spelling: a bare kind is not a code; nor is a messaging code a write's.
    for (const stranger of [
      'toString',
      '__proto__',
      'constructor',
      '',
      'Server',
      'timeout',
      'unknown-message',
    ])
      expect(isWriteErrorCode(stranger), stranger).toBe(false);
  });

  it('keeps the key after every failure that may have landed, and resends only those and waits', () => {
    const landed = Object.entries(WRITE_ERRORS)
      .filter(([, meaning]) => meaning.mayHaveLanded)
      .map(([code]) => code);
    expect(landed.sort()).toEqual([
      'api.malformed-response',
      'api.network',
      'api.server',
      'api.timeout',
      'interrupted',
    ]);
    const retryable = Object.entries(WRITE_ERRORS)
      .filter(([, meaning]) => meaning.retryable)
      .map(([code]) => code);
    expect(retryable.sort()).toEqual([...landed, 'api.deferred', 'api.rate-limited'].sort());
  });

  it.each([
    ['operation-changed', true],
    ['account-changed', true],
    ['not-shown', true],
    ['api.unconfirmed-write', true],
    ['api.server', false],
    ['typed-confirmation', false],
    [undefined, true],
    ['<script>', true],
  ])('%s asks for the window again: %s', (code, review) => {
    expect(needsReview(code)).toBe(review);
  });

  it('reads codes in their one spelling (api.<kind>), and a bare kind an earlier version stored', () => {
    expect(meaningOf('api.timeout')).toBe(WRITE_ERRORS['api.timeout']);
    expect(meaningOf('timeout')).toBe(WRITE_ERRORS['api.timeout']);
    expect(meaningOf('no-such-code')).toBe(WRITE_ERRORS.internal);
  });
});

describe('the confirmation token', () => {
  const base = async (): Promise<ShownWrite> => ({
    token: 't',
    operationId: 'pausePlaybook',
    method: 'POST',
    url: 'https://api.example/v1/playbooks/pb_1/pause',
    bodyDigest: await bodyDigest(undefined),
    accountId: 'u1',
    keyFingerprint: 'f1',
    apiOrigin: 'https://api.example',
  });

  it.each([
    ['the same write', {}, undefined],
    ['another path', { url: 'https://api.example/v1/playbooks/pb_1/activate' }, 'operation-changed'],
    ['another method', { method: 'PUT' }, 'operation-changed'],
    ['another key', { keyFingerprint: 'f2' }, 'account-changed'],
    ['another account', { accountId: 'u2' }, 'account-changed'],
    ['another API origin', { apiOrigin: 'https://evil.example' }, 'account-changed'],
    ['an unknown account now', { accountId: undefined }, undefined],
  ] as const)('%s: %s', async (_name, change, difference) => {
    const shown = await base();
    const { token: _token, ...now } = shown;
    expect(differenceFrom(shown, { ...now, ...change })).toBe(difference);
  });

  it('binds the body by its canonical digest', async () => {
    const shown = await base();
    const { token: _token, ...now } = shown;
    expect(differenceFrom(shown, { ...now, bodyDigest: await bodyDigest({ a: 1 }) })).toBe('body-changed');
    expect(await bodyDigest({ a: 1, b: 2 })).toBe(await bodyDigest({ b: 2, a: 1 }));
  });
});

describe('the code an unsent write is refused with', () => {
  it.each([
    ['operation-changed', 'operation-changed'],
    ['account-changed', 'account-changed'],
    [undefined, 'api.unconfirmed-write'],
    ['api.server', 'api.unconfirmed-write'],
    ['anything else', 'api.unconfirmed-write'],
  ] as const)('%s gives %s', (code, refused) => expect(refusalCode(code)).toBe(refused));
});
