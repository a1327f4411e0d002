import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { startTestSandbox } from './helpers';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

describe('the demo quote page', () => {
  it('serves a finance-like page the content script understands', async () => {
    const response = await fetch(`${sandbox.baseUrl}/demo/quote/nee`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<h1>NextEra Energy, Inc. (NEE)</h1>');
    expect(html).toContain('"tickerSymbol":"NEE"');
  });

  it.each([
    ['script in the symbol', '%3Cscript%3E', 404],
    ['a symbol too long', 'ABCDEFGHIJKLMN', 404],
    ['an unknown but valid symbol', 'BRK.B', 200],
  ])('%s → %i, never markup from the URL', async (_name, symbol, status) => {
    const response = await fetch(`${sandbox.baseUrl}/demo/quote/${symbol}`);
    expect(response.status).toBe(status);
    expect(await response.text()).not.toContain('<script>');
  });
});
