import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { admin, api, startTestSandbox } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const DOCUMENTS: [string, string][] = [
  ['/llms.txt', 'text/plain; charset=utf-8'],
  ['/llms-full.txt', 'text/plain; charset=utf-8'],
  ['/developers/llms.txt', 'text/plain; charset=utf-8'],
  ['/openapi.json', 'application/json'],
  ['/api-docs', 'text/html'],
  ...[
    '/api-docs.md',
    '/developers.md',
    '/explore.md',
    '/auth.md',
    '/pricing.md',
    '/AGENTS.md',
    '/mcp.md',
    '/webhooks.md',
    '/onboarding.md',
    '/sandbox.md',
  ].map((p): [string, string] => [p, 'text/markdown; charset=utf-8']),
  ['/agent.json', 'application/json'],
  ['/.well-known/agent.json', 'application/json'],
  ['/.well-known/agent-skills/index.json', 'application/json'],
  ['/.well-known/mcp/server-card.json', 'application/json'],
  ['/status', 'text/html'],
  ['/use-cases/automated-investment-strategy-backtesting', 'text/html'],
];

describe('discovery documents', () => {
  it.each(DOCUMENTS)('%s: content type, ETag, Cache-Control, CORS *, real content', async (path, type) => {
    const response = await fetch(`${sb.baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain(type);
    expect(response.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(response.headers.get('cache-control')).toBeTruthy();
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = await response.text();
    expect(body.length).toBeGreaterThan(200);
    expect(body.toLowerCase()).not.toContain('lorem');
    expect(body).toMatch(/playbook|Investing Agent|invest/i);
  });

  it.each(DOCUMENTS)('%s: If-None-Match gives 304, HEAD gives headers only', async (path) => {
    const first = await fetch(`${sb.baseUrl}${path}`);
    const etag = first.headers.get('etag')!;
    const again = await fetch(`${sb.baseUrl}${path}`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    const stale = await fetch(`${sb.baseUrl}${path}`, { headers: { 'If-None-Match': '"stale"' } });
    expect(stale.status).toBe(200);
    const head = await fetch(`${sb.baseUrl}${path}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(await head.text()).toBe('');
  });

  it('answers CORS preflights for discovery from any origin', async () => {
    const response = await fetch(`${sb.baseUrl}/llms.txt`, {
      method: 'OPTIONS',
      headers: { Origin: 'chrome-extension://abc', 'Access-Control-Request-Method': 'GET' },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('llms.txt follows llmstxt.org: # name, > summary, ## sections of links', async () => {
    const text = await (await fetch(`${sb.baseUrl}/llms.txt`)).text();
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^# \S/);
    expect(text).toMatch(/^> .+/m);
    expect(text).toMatch(/^## Docs$/m);
    const links = [...text.matchAll(/^- \[([^\]]+)\]\(([^)]+)\): .+$/gm)];
    expect(links.length).toBeGreaterThan(5);
    for (const [, , url] of links) expect((await fetch(url, { method: 'HEAD' })).status).toBe(200);
  });

  it('pricing.md holds exactly one Markdown table of plans with prices', async () => {
    const text = await (await fetch(`${sb.baseUrl}/pricing.md`)).text();
    const separators = text.split('\n').filter((line) => /^\|(\s*-+\s*\|)+$/.test(line));
    expect(separators).toHaveLength(1);
    expect(text).toMatch(/\| Plan \| Monthly price \|/);
    expect(text.match(/^\| (Starter|Pro|Team) \| \$\d+ \|/gm)).toHaveLength(3);
  });

  it('skills index digests are sha256 of the served SKILL.md bytes', async () => {
    const indexUrl = `${sb.baseUrl}/.well-known/agent-skills/index.json`;
    const index = await (await fetch(indexUrl)).json();
    expect(index.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(index.skills.length).toBeGreaterThanOrEqual(2);
    for (const skill of index.skills) {
      expect(skill.type).toBe('skill-md');
      const bytes = Buffer.from(await (await fetch(new URL(skill.url, indexUrl))).arrayBuffer());
      expect(skill.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
      const text = bytes.toString('utf8');
      expect(text).toMatch(new RegExp(`^---\\nname: ${skill.name}\\ndescription: .+\\n---\\n`));
    }
  });

  it('tamperedSkillDigest advertises one wrong digest, and only while set', async () => {
    const indexUrl = `${sb.baseUrl}/.well-known/agent-skills/index.json`;
    const check = async () => {
      const index = await (await fetch(indexUrl)).json();
      let wrong = 0;
      for (const skill of index.skills) {
        const bytes = Buffer.from(await (await fetch(new URL(skill.url, indexUrl))).arrayBuffer());
        if (skill.digest !== `sha256:${createHash('sha256').update(bytes).digest('hex')}`) wrong += 1;
      }
      return wrong;
    };
    sb.setFaults({ tamperedSkillDigest: true });
    expect(await check()).toBe(1);
    sb.resetFaults();
    expect(await check()).toBe(0);
  });

  it('MCP server card has both the draft and the SEP-2127 shapes', async () => {
    const cardUrl = `${sb.baseUrl}/.well-known/mcp/server-card.json`;
    const card = await (await fetch(cardUrl)).json();
    expect(card.serverInfo.name).toBeTruthy();
    expect(new URL(card.transport.endpoint, cardUrl).href).toBe(`${sb.baseUrl}/mcp`);
    expect(card.capabilities.tools).toBeDefined();
    expect(card.tools.map((t: { name: string }) => t.name)).toEqual([
      'get_product_overview',
      'list_resources',
      'list_categories',
      'get_category',
      'search_public_playbooks',
    ]);
    expect(card.name).toBeTruthy();
    expect(card.version).toBeTruthy();
    expect(card.remotes[0].url).toBe(`${sb.baseUrl}/mcp`);
  });

  it('agent card links every resource and every link resolves', async () => {
    const cardUrl = `${sb.baseUrl}/.well-known/agent.json`;
    const card = await (await fetch(cardUrl)).json();
    for (const field of ['name', 'description', 'version', 'url', 'capabilities', 'links', 'skills'])
      expect(card).toHaveProperty(field);
    const hrefs = card.links.map((l: { href: string }) => l.href);
    for (const [path] of DOCUMENTS.filter(([p]) => !p.includes('agent.json'))) expect(hrefs).toContain(path);
    expect(hrefs).toContain('/apikey');
    for (const link of card.links) {
      expect(link.rel && link.type).toBeTruthy();
      if (link.href === '/mcp') continue;
      expect((await fetch(new URL(link.href, cardUrl))).status, link.href).toBe(200);
    }
  });

  it('/status is HTML by default and the getStatus body with Accept: application/json; admin can degrade it', async () => {
    const html = await fetch(`${sb.baseUrl}/status`);
    expect(await html.text()).toContain('<h1>Service status</h1>');
    const json = await (
      await fetch(`${sb.baseUrl}/status`, { headers: { Accept: 'application/json' } })
    ).json();
    expect(json.status).toBe('operational');
    expect(json.components.length).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(json.updated_at))).toBe(false);
    expect(
      (
        await admin(sb, 'POST', '/status', {
          status: 'outage',
          components: [{ name: 'API', status: 'outage' }],
        })
      ).status,
    ).toBe(200);
    const after = await (
      await fetch(`${sb.baseUrl}/status`, { headers: { Accept: 'application/json' } })
    ).json();
    expect(after).toMatchObject({ status: 'outage', components: [{ name: 'API', status: 'outage' }] });
    const viaApi = await api(sb, '/status', { key: null });
    expect(viaApi.json.status).toBe('outage');
    await admin(sb, 'POST', '/status', { status: 'operational' });
  });

  it('discovery requests never need credentials', async () => {
    sb.clearRequests();
    await fetch(`${sb.baseUrl}/openapi.json`);
    const recorded = sb.requests();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ method: 'GET', path: '/openapi.json' });
    expect(recorded[0].headers.authorization).toBeUndefined();
  });
});

describe('/apikey', () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

  it('signs in, creates a key shown once, stores only its hash, and the key works', async () => {
    const page = await (await fetch(`${sb.baseUrl}/apikey`)).text();
    expect(page).toContain('<label for="email">Email</label>');
    const bad = await fetch(`${sb.baseUrl}/apikey/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({ email: 'demo@investing-agent.test', password: 'wrong' }),
      redirect: 'manual',
    });
    expect(bad.status).toBe(401);
    const signIn = await fetch(`${sb.baseUrl}/apikey/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({ email: 'demo@investing-agent.test', password: 'sandbox-demo-password' }),
      redirect: 'manual',
    });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    expect(signIn.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    const created = await fetch(`${sb.baseUrl}/apikey/keys`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({ label: 'test' }),
    });
    expect(created.status).toBe(201);
    const html = await created.text();
    const key = /<code id="new-api-key"[^>]*>([^<]+)<\/code>/.exec(html)![1];
    expect(key).toMatch(/^iak_/);
    const account = await api(sb, '/account', { key });
    expect(account.status).toBe(200);
    expect(account.json.name).toBe('Demo Investor');
    const rows = sb.db.db.prepare('SELECT key_hash FROM api_keys').all() as { key_hash: string }[];
    expect(rows.some((r) => r.key_hash === createHash('sha256').update(key).digest('hex'))).toBe(true);
    expect(JSON.stringify(sb.db.db.prepare('SELECT * FROM api_keys').all())).not.toContain(key);
    const revisit = await (await fetch(`${sb.baseUrl}/apikey`, { headers: { Cookie: cookie } })).text();
    expect(revisit).not.toContain(key);
  });

  it('refuses to create a key without a session or from another origin', async () => {
    const noSession = await fetch(`${sb.baseUrl}/apikey/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({ label: 'x' }),
    });
    expect(noSession.status).toBe(401);
    const crossOrigin = await fetch(`${sb.baseUrl}/apikey/keys`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({ label: 'x' }),
    });
    expect(crossOrigin.status).toBe(403);
  });
});
