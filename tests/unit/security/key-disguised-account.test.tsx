// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, render } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { t } from '@/lib/i18n';
import { forgetSecrets, setLogSink, type LogRecord } from '@/lib/log';
import type { ServiceOverview } from '@/lib/messaging/protocol';
import { ConnectionResult } from '@/lib/pages/options/ConnectionResult';
import { storeApiKey } from '@/lib/store/apiKey';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import { OPTIONS_PAGE, workerRegistry } from '../background/registry';
import { SENTINEL_KEY } from '../api/support';
import { SECRET_PART } from './fragments';

/**
 * The reported bug, on the real path: the options page's "Test connection" (testConnection →
 * readOverview → the real API client → getAccount) against a hostile service whose 403 problem
 * `detail` is the caller's key with U+200B between its characters. The Account row showed the
 * whole key, readable, since the zero-width characters are invisible. This fails on the code
 * before the fix: the row showed the detail as sent.
 */
const seam = vi.hoisted((): { detail: string; report: unknown } => ({ detail: '', report: null }));

vi.mock('@/lib/api/service', async () => {
  const { clientFor, json, problem } = await import('../api/support');
  return {
    serviceClient: () =>
      Promise.resolve(
        clientFor(
          (request) =>
            new URL(request.url).pathname.endsWith('/account')
              ? problem(403, { title: 'Forbidden', detail: seam.detail })
              : json({ status: 'operational', components: [], updated_at: '2026-01-15T12:00:00Z' }),
          { backoff: { maxAttempts: 1 } },
        ).client,
      ),
    discover: () => Promise.reject(new Error('no discovery in this test')),
    lastDiscoveryReport: () => Promise.resolve(seam.report),
    forgetService: () => Promise.resolve(),
  };
});

/** The sentence a page gets instead of service text that held the key. */
const keyWithheld = () => t('errors.api.keyWithheld');

/** The test's own reading of a text without disguise: compatibility forms folded, lower case, letters and digits only. */
function skeleton(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Whether a text still spells 6 characters of the key's secret part in a row, either way, once read without its disguise. */
function readableKeyIn(text: string): boolean {
  const bones = skeleton(text);
  const part = skeleton(SECRET_PART);
  for (const spelled of [part, [...part].reverse().join('')])
    for (let start = 0; start + 6 <= spelled.length; start++)
      if (bones.includes(spelled.slice(start, start + 6))) return true;
  return false;
}

const DISGUISES: Array<[string, (key: string) => string]> = [
  ['U+200B between its characters', (key) => [...key].join('\u200b')],
  [
    'in fullwidth forms',
    (key) => [...key].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join(''),
  ],
  ['in upper case, behind bidi controls', (key) => `\u202e${key.toUpperCase()}\u202c`],
  ['reversed', (key) => [...key].reverse().join('')],
  ['in 5-character pieces', (key) => `your key: ${key.match(/.{1,5}/g)!.join(' · ')}.`],
];

let records: LogRecord[] = [];

/** The options page's "Test connection", through the worker's registry, with its log records kept. */
async function testConnection() {
  const worker = workerRegistry();
  worker.restoreLog();
  records = [];
  const restoreLog = setLogSink((record) => records.push(record));
  try {
    return await worker.registry.dispatch({ type: 'testConnection', payload: {} }, OPTIONS_PAGE);
  } finally {
    restoreLog();
  }
}

beforeEach(() => saveSettings(DEFAULT_SETTINGS));

afterEach(() => {
  seam.detail = '';
  seam.report = null;
  forgetSecrets();
  cleanup();
  vi.restoreAllMocks();
});

describe('a hostile getAccount whose 403 detail is the key in disguise', () => {
  it.each(DISGUISES)(
    '%s: the Account row, the message to the page and the logs do not hold it',
    async (_label, disguise) => {
      seam.detail = disguise(SENTINEL_KEY);
      // The disguise is the attack: the raw text holds no 6-character window of the key.
      expect(seam.detail.includes(SECRET_PART.slice(0, 6))).toBe(false);
      const { registry } = workerRegistry();
      const envelope = await registry.dispatch({ type: 'testConnection', payload: {} }, OPTIONS_PAGE);
      expect(envelope.ok).toBe(true);
      const overview = (envelope as { ok: true; value: ServiceOverview }).value;
      const message = overview.accountError?.message ?? '';
      // The service's words are replaced whole by the plain sentence, after the 403 reason.
      expect(message).toContain(keyWithheld());
      expect(readableKeyIn(JSON.stringify(envelope))).toBe(false);
      // What the options page shows in its Account row.
      const { container } = render(<ConnectionResult result={overview} />);
      expect(container.textContent).toContain(keyWithheld());
      expect(readableKeyIn(container.textContent ?? '')).toBe(false);
      // Whatever the worker logged on the way (the log itself is screened in key-disguise.test.ts).
      expect(readableKeyIn(JSON.stringify(records))).toBe(false);
    },
  );

  it('an ordinary 403 detail still reaches the Account row as sent', async () => {
    seam.detail = 'Your plan does not include account details.';
    const envelope = await testConnection();
    const overview = (envelope as { ok: true; value: ServiceOverview }).value;
    expect(overview.accountError?.message).toContain(seam.detail);
    expect(overview.accountError?.message).not.toContain(keyWithheld());
  });
});

describe('a discovery report that quotes the key in disguise', () => {
  it('reaches the page without it, and the report as read is left as it was', async () => {
    const quoted = [...SENTINEL_KEY].reverse().join('\u200b');
    const report = {
      steps: [{ url: 'https://x.example/llms.txt', status: 'failed', error: `bad ${quoted}` }],
    };
    seam.report = report;
    // The key the user saved, and a worker just woken: nothing registered in its log mask yet.
    await storeApiKey(SENTINEL_KEY);
    forgetSecrets();
    const worker = workerRegistry();
    worker.restoreLog();
    const envelope = await worker.registry.dispatch(
      { type: 'getDiscoveryReport', payload: {} },
      OPTIONS_PAGE,
    );
    expect(envelope.ok).toBe(true);
    expect(readableKeyIn(JSON.stringify(envelope))).toBe(false);
    expect(JSON.stringify(envelope)).toContain('https://x.example/llms.txt');
    expect(report.steps[0]?.error).toBe(`bad ${quoted}`);
  });
});
