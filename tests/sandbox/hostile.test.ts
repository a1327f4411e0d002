import { compileErrors, validate } from '@readme/openapi-parser';
import { createParser } from 'eventsource-parser';
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_EVENT_TEXT, MAX_HOSTILE_DOCUMENT } from '../../sandbox/hostile';
import type { Sandbox } from '../../sandbox/server';
import { admin, api, createPlaybook, expectProblem, newKey, startTestSandbox, type Json } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 5 });
});
afterAll(() => sb.close());
afterEach(() => sb.resetFaults());

async function document(): Promise<{ etag: string; doc: Json }> {
  const response = await fetch(`${sb.baseUrl}/openapi.json`);
  return { etag: response.headers.get('etag')!, doc: await response.json() };
}

/** operationId → method and path, as the document declares them. */
function routes(doc: Json): Map<string, { method: string; path: string; op: Json }> {
  const found = new Map<string, { method: string; path: string; op: Json }>();
  for (const [path, item] of Object.entries<Json>(doc.paths))
    for (const [method, op] of Object.entries<Json>(item)) found.set(op.operationId, { method, path, op });
  return found;
}

const normalised = (path: string) => path.replace(/\{[^{}]+\}/g, '{}');

async function text(path: string): Promise<string> {
  const response = await fetch(`${sb.baseUrl}${path}`);
  expect(response.status, path).toBe(200);
  return response.text();
}

describe('hostile OpenAPI documents', () => {
  it('pause-replaced-by-activate: pausePlaybook deprecated in favour of activatePlaybook, still valid', async () => {
    const before = await document();
    await admin(sb, 'POST', '/faults', {
      openapiTamper: ['pause-replaced-by-activate'],
      legacySunsetPast: false,
    });
    const after = await document();
    expect(after.etag).not.toBe(before.etag);
    const pause = routes(after.doc).get('pausePlaybook')!;
    expect(pause.op.deprecated).toBe(true);
    expect(pause.op['x-replaced-by']).toBe('activatePlaybook');
    expect(Date.parse(pause.op['x-sunset'])).toBeGreaterThan(Date.now());
    expect(pause.path).toBe('/playbooks/{id}/pause');
    const result = await validate(structuredClone(after.doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    // The route itself stays honest: pause pauses, and its answer carries the deprecation headers.
    const playbook = await createPlaybook(sb);
    const paused = await api(sb, `/playbooks/${playbook.id}/pause`, { idempotencyKey: newKey(), body: {} });
    expect(paused.status).toBe(200);
    expect(paused.json.status).toBe('paused');
    expect(paused.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(paused.headers.get('link')).toContain('#activatePlaybook>; rel="successor-version"');
  });

  it('pause-activate-swapped: each path is the other one; the document still validates', async () => {
    sb.setFaults({ openapiTamper: ['pause-activate-swapped'] });
    const { doc } = await document();
    expect(routes(doc).get('pausePlaybook')).toMatchObject({
      method: 'post',
      path: '/playbooks/{id}/activate',
    });
    expect(routes(doc).get('activatePlaybook')).toMatchObject({
      method: 'post',
      path: '/playbooks/{id}/pause',
    });
    expect((await validate(structuredClone(doc))).valid).toBe(true);
  });

  it('duplicate-operation: two operations share method and path (only the parameter name differs)', async () => {
    sb.setFaults({ openapiTamper: ['duplicate-operation'] });
    const { doc } = await document();
    const pause = routes(doc).get('pausePlaybook')!;
    const activate = routes(doc).get('activatePlaybook')!;
    expect(activate.method).toBe(pause.method);
    expect(activate.path).not.toBe(pause.path);
    expect(normalised(activate.path)).toBe(normalised(pause.path));
    expect(activate.op.parameters.find((p: Json) => p.in === 'path').name).toBe('playbookRef');
  });

  it('writes-as-get: every write whose path has no read is declared as GET; the document validates', async () => {
    sb.setFaults({ openapiTamper: ['writes-as-get'] });
    const { doc } = await document();
    const found = routes(doc);
    for (const id of ['activatePlaybook', 'pausePlaybook', 'createCheckoutSession', 'createBrokerageLink'])
      expect(found.get(id)!.method, id).toBe('get');
    // createPlaybook, updatePlaybook and runBacktest share their paths with reads; they keep their methods.
    expect(found.get('createPlaybook')!.method).toBe('post');
    expect(found.get('runBacktest')!.method).toBe('post');
    expect(found.get('updatePlaybook')!.method).toBe('patch');
    expect((await validate(structuredClone(doc))).valid).toBe(true);
  });

  it('a flip while a client holds the old ETag: the new document has a new ETag; flipping back restores it', async () => {
    const original = await document();
    sb.setFaults({ openapiTamper: ['pause-activate-swapped'] });
    const revalidated = await fetch(`${sb.baseUrl}/openapi.json`, {
      headers: { 'If-None-Match': original.etag },
    });
    expect(revalidated.status).toBe(200);
    expect(revalidated.headers.get('etag')).not.toBe(original.etag);
    sb.resetFaults();
    expect((await document()).etag).toBe(original.etag);
  });

  it('serversUrl replaces servers[0].url (plain http to a remote host)', async () => {
    await admin(sb, 'POST', '/faults', { serversUrl: 'http://api.investing-agent.example/api/v1' });
    expect((await document()).doc.servers[0].url).toBe('http://api.investing-agent.example/api/v1');
  });

  it('admin refuses an unknown tamper or link mode', async () => {
    expect((await admin(sb, 'POST', '/faults', { openapiTamper: ['nope'] })).status).toBe(400);
    expect((await admin(sb, 'POST', '/faults', { accountLinkUrl: 'ftp' })).status).toBe(400);
    expect((await admin(sb, 'POST', '/faults', { llmsHeadingChars: 100_001 })).status).toBe(400);
  });
});

describe('discovery documents that attack parsers', () => {
  it.each([1_500, 3_000, 100_000])(
    'llmsHeadingChars %i: the first line is a heading that long',
    async (chars) => {
      const plain = await text('/llms.txt');
      sb.setFaults({ llmsHeadingChars: chars });
      const body = await text('/llms.txt');
      const [first, ...rest] = body.split('\n');
      expect(first).toHaveLength(chars);
      expect(first).toMatch(/^# Investing Agent {101,}x$/);
      expect(rest.join('\n')).toBe(plain);
      expect(body.length).toBeLessThanOrEqual(MAX_HOSTILE_DOCUMENT);
    },
  );

  it.each(['/pricing.md', '/auth.md', '/api-docs.md', '/AGENTS.md'])(
    'hostileMarkdown: %s gains nested blockquotes and [-floods, at most 1 MB',
    async (path) => {
      const plain = await text(path);
      sb.setFaults({ hostileMarkdown: true });
      const body = await text(path);
      expect(body.startsWith(plain)).toBe(true);
      expect(body).toContain(`${'>'.repeat(5_000)} nested quote`);
      expect(body).toContain('['.repeat(200_000));
      expect(body).toContain('[a]('.repeat(50_000));
      expect(body.length).toBeGreaterThan(800_000);
      expect(body.length).toBeLessThanOrEqual(MAX_HOSTILE_DOCUMENT + plain.length);
    },
  );

  it('endlessSkillFrontMatter: the front matter never closes, and the index digest matches the bytes', async () => {
    sb.setFaults({ endlessSkillFrontMatter: true });
    const index = JSON.parse(await text('/.well-known/agent-skills/index.json'));
    const skill = index.skills[0];
    const body = await text(skill.url);
    expect(body.startsWith('---\nname: ')).toBe(true);
    expect(body.split('\n').slice(1)).not.toContain('---');
    expect(body.length).toBeGreaterThan(500_000);
    expect(body.length).toBeLessThanOrEqual(MAX_HOSTILE_DOCUMENT);
    expect(skill.digest).toBe(`sha256:${createHash('sha256').update(body, 'utf8').digest('hex')}`);
  });

  it('hostileCards: agent card and MCP card are JSON with huge strings, each under 1 MB', async () => {
    sb.setFaults({ hostileCards: true });
    for (const path of ['/.well-known/agent.json', '/agent.json', '/.well-known/mcp/server-card.json']) {
      const body = await text(path);
      expect(body.length, path).toBeLessThanOrEqual(MAX_HOSTILE_DOCUMENT);
      const card = JSON.parse(body);
      expect(card.name.length, path).toBeGreaterThanOrEqual(64_000);
    }
    const mcp = JSON.parse(await text('/.well-known/mcp/server-card.json'));
    expect(mcp.tools.length).toBe(1_500);
    expect(mcp.remotes[0].url).toMatch(/^javascript:/);
    const agent = JSON.parse(await text('/.well-known/agent.json'));
    expect(agent.links.length).toBeGreaterThan(1_500);
    expect(agent.url).toMatch(/^javascript:/);
  });
});

describe('hostile API answers', () => {
  const HOSTILE = ['link', 'ratelimit', 'ratelimit-policy', 'deprecation', 'sunset', 'retry-after'];

  it('hostileHeaders: every answer (200, 401, 429) carries long headers, under 16 KB in all', async () => {
    sb.setFaults({ hostileHeaders: true, rateLimitBurst: 1 });
    const limited = await api(sb, '/account');
    expect(limited.status).toBe(429);
    for (const answer of [limited, await api(sb, '/account'), await api(sb, '/account', { key: 'wrong' })]) {
      let total = 0;
      answer.headers.forEach((value, name) => (total += name.length + value.length + 4));
      for (const name of HOSTILE)
        expect(answer.headers.get(name)?.length ?? 0, name).toBeGreaterThanOrEqual(1_400);
      expect(total).toBeLessThan(16 * 1024);
    }
    expect((await api(sb, '/account')).headers.get('retry-after')).toBe('9'.repeat(1_500));
    sb.resetFaults();
    expect((await api(sb, '/account')).headers.get('retry-after')).toBeNull();
  });

  it('echoKeyInProblem with padding: a 300-character cut lands inside the echoed key', async () => {
    const key = sb.demoKey;
    for (const padding of [300 - key.length + 1, 300 - 8, 299]) {
      sb.setFaults({ echoKeyInProblem: 1, echoKeyPadding: padding });
      const answer = await api(sb, '/account');
      expectProblem(answer, 403, 'forbidden');
      const cut = answer.json.detail.slice(0, 300);
      expect(cut).toContain(key.slice(0, 300 - padding));
      expect(cut).not.toContain(key);
      expect(answer.json.errors).toBeUndefined();
    }
    expect((await api(sb, '/account')).status).toBe(200);
  });

  it('echoKeyInProblem without padding: the key at every offset; unauthenticated calls are not counted', async () => {
    sb.setFaults({ echoKeyInProblem: 2 });
    expect((await api(sb, '/account', { key: null })).status).toBe(401);
    const write = await api(sb, '/playbooks', { idempotencyKey: newKey(), body: { title: 'x' } });
    expectProblem(write, 403);
    expect(write.json.detail.split(sb.demoKey)).toHaveLength(41);
    expectProblem(await api(sb, '/account'), 403);
    expect((await api(sb, '/account')).status).toBe(200);
  });

  it('accountLinkUrl: checkout_url and link_url over http to a remote host, or javascript:', async () => {
    sb.setFaults({ accountLinkUrl: 'http-remote' });
    const checkout = await api(sb, '/billing/checkout-sessions', {
      idempotencyKey: newKey(),
      body: { plan: 'team' },
    });
    expect(checkout.json.checkout_url).toMatch(/^http:\/\/203\.0\.113\.7\/sandbox\/checkout\//);
    sb.setFaults({ accountLinkUrl: 'javascript' });
    const link = await api(sb, '/brokerage/links', {
      idempotencyKey: newKey(),
      body: { provider: 'alpaca' },
    });
    expect(link.json.link_url).toMatch(/^javascript:/);
    expect(link.json.link_url).toContain(`${sb.baseUrl}/sandbox/brokerage-link/`);
  });

  it('foreignAccountUrls: createPlaybook answers with live checkout_url and link_url', async () => {
    sb.setFaults({ foreignAccountUrls: true });
    const created = await api(sb, '/playbooks', {
      idempotencyKey: newKey(),
      body: { title: 'T', thesis: 'T', visibility: 'private' },
    });
    expect(created.status).toBe(201);
    expect(created.json.checkout_url).toMatch(new RegExp(`^${sb.baseUrl}/sandbox/checkout/`));
    expect(created.json.link_url).toMatch(new RegExp(`^${sb.baseUrl}/sandbox/brokerage-link/`));
    const before = (await api(sb, '/account')).json.plan;
    expect((await fetch(created.json.checkout_url)).status).toBe(200);
    const after = (await api(sb, '/account')).json.plan;
    expect([before, after]).toEqual(['pro', 'team']);
  });
});

describe('hostile event streams', () => {
  async function open(): Promise<{ reader: ReadableStreamDefaultReader<Uint8Array>; abort: () => void }> {
    const controller = new AbortController();
    const response = await fetch(`${sb.apiUrl}/events/stream`, {
      headers: { Authorization: `Bearer ${sb.demoKey}`, Accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    return { reader: response.body!.getReader(), abort: () => controller.abort() };
  }

  it('sseNoNewlineBytes: bytes and never a newline, then the sandbox ends the stream by itself', async () => {
    sb.setFaults({ sseNoNewlineBytes: 2 * 1024 * 1024 });
    const { reader } = await open();
    let bytes = 0;
    let newlines = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.length;
      newlines += value.filter((b) => b === 10 || b === 13).length;
    }
    expect(bytes).toBe(2 * 1024 * 1024);
    expect(newlines).toBe(0);
  });

  it('sseGiantEvent: 1 MB id, type and data, 100,000 data lines, then live events still arrive', async () => {
    sb.setFaults({ sseGiantEvent: true });
    const { reader, abort } = await open();
    const events: { event?: string; id?: string; data: string }[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    const decoder = new TextDecoder();
    let created: Json;
    while (events.length < 3) {
      if (events.length === 2 && !created) created = await createPlaybook(sb);
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    abort();
    expect(events[0].id).toHaveLength(1024 * 1024);
    expect(events[0].event).toHaveLength(1024 * 1024);
    expect(events[0].data).toHaveLength(1024 * 1024);
    expect(events[1].data.split('\n')).toHaveLength(100_000);
    expect(JSON.parse(events[2].data).playbook_id).toBe(created.id);
  });

  it('hostileEventText: stream and polling carry hostile strings in the event data', async () => {
    sb.setFaults({ hostileEventText: true });
    const { reader, abort } = await open();
    const events: { data: string }[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    const created = await createPlaybook(sb);
    while (events.length < 1) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(new TextDecoder().decode(value));
    }
    abort();
    const streamed = JSON.parse(events[0].data);
    expect(streamed.playbook_id).toBe(created.id);
    expect(streamed.data.title).toBe(HOSTILE_EVENT_TEXT);
    const polled = await api(sb, '/events?limit=100');
    expect(polled.json.data.at(-1).data.message).toBe(HOSTILE_EVENT_TEXT);
    expect(HOSTILE_EVENT_TEXT).toContain('\u202E');
  });
});
