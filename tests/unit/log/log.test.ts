import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetSecrets,
  keyWithheld,
  log,
  redact,
  registerSecret,
  REDACTED,
  setLogSink,
  type LogRecord,
} from '@/lib/log';

const SENTINEL = 'pbk_sentinel_0123456789abcdef';
let restore: () => void = () => undefined;

function capture(): LogRecord[] {
  const records: LogRecord[] = [];
  restore = setLogSink((record) => records.push(record));
  return records;
}

afterEach(() => {
  restore();
  forgetSecrets();
});

describe('the logger cannot print secrets', () => {
  it.each([
    ['a field named apiKey', { apiKey: SENTINEL }],
    ['a field named Authorization', { headers: { Authorization: `Bearer ${SENTINEL}` } }],
    ['a bearer value in any field', { note: `sent Bearer ${SENTINEL} upstream` }],
    ['a registered secret inside a URL', { url: `https://x.example/?k=${SENTINEL}` }],
    ['a registered secret in an error', { error: new Error(`bad key ${SENTINEL}`) }],
    ['a registered secret deep in arrays', { list: [[{ value: SENTINEL }]] }],
    ['a password field', { password: 'hunter2-hunter2' }],
  ])('masks %s', (_name, fields) => {
    registerSecret(SENTINEL);
    const records = capture();
    log.info('test.event', fields);
    const line = JSON.stringify(records);
    expect(line).not.toContain(SENTINEL);
    expect(line).not.toContain('hunter2');
    // A field named as secret is redacted; a text that holds the key is withheld whole.
    expect(line.includes(REDACTED) || line.includes(JSON.stringify(keyWithheld()).slice(1, -1))).toBe(true);
  });

  it('refuses free text as an event name', () => {
    const records = capture();
    log.warn(`failed with key ${SENTINEL}`);
    expect(records[0].event).toBe('log.invalid-event-name');
    expect(JSON.stringify(records)).not.toContain(SENTINEL);
  });

  it('keeps ordinary fields and bounds huge ones', () => {
    const out = redact({ status: 503, ok: false, op: 'listPlaybooks', text: 'x'.repeat(10_000) }) as Record<
      string,
      unknown
    >;
    expect(out.status).toBe(503);
    expect(out.op).toBe('listPlaybooks');
    expect((out.text as string).length).toBeLessThan(600);
  });

  it('stops at cycles and depth', () => {
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    expect(() => JSON.stringify(redact(cyclic))).not.toThrow();
  });
});
