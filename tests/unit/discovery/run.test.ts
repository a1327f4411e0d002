import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDiscoveryCache, idbDocumentCache } from '@/lib/discovery/cache';
import { DISCOVERY_DOCUMENTS } from '@/lib/discovery/documents';
import { markdownToSafeBlocks } from '@/lib/discovery/markdown';
import { isCurrentDiscoveryReport, pricingSource } from '@/lib/discovery/report';
import { getOpenApiDocument, runDiscovery, DiscoveryDocumentError } from '@/lib/discovery/run';
import { setLogSink, type LogRecord } from '@/lib/log';
import { BASE, FakeService, healthyDocuments, sha256, skillMarkdown, steppingClock } from './fakeService';

const CONTRACT_ORDER = [
  '/llms.txt',
  '/llms-full.txt',
  '/api-docs',
  '/openapi.json',
  '/pricing.md',
  '/.well-known/mcp/server-card.json',
  // `/mcp` is recorded from the card, not requested.
  '/.well-known/agent-skills/index.json',
  '/.well-known/agent-skills/research/SKILL.md',
  '/auth.md',
  '/developers/llms.txt',
  '/api-docs.md',
  '/developers.md',
  '/explore.md',
  '/AGENTS.md',
  '/mcp.md',
  '/webhooks.md',
  '/onboarding.md',
  '/sandbox.md',
  '/agent.json',
];

let logs: LogRecord[] = [];
let restoreLog: () => void = () => undefined;

beforeEach(async () => {
  await clearDiscoveryCache();
  logs = [];
  restoreLog = setLogSink((record) => logs.push(record));
});

afterEach(() => restoreLog());

function run(service: FakeService, extra: Partial<Parameters<typeof runDiscovery>[0]> = {}) {
  return runDiscovery({ baseUrl: `${service.base}/`, fetch: service.fetch, now: steppingClock(), ...extra });
}

describe('runDiscovery', () => {
  it('requests the documents in the contract order and reports every step in that order', async () => {
    const service = new FakeService();
    const report = await run(service);
    expect(service.paths()).toEqual(CONTRACT_ORDER);
    expect(report.steps.map((s) => s.id)).toEqual([
      'llms',
      'llms-full',
      'api-docs',
      'openapi',
      'pricing',
      'mcp-card',
      'mcp',
      'skills-index',
      'skill:research',
      'auth',
      'developers-llms',
      'api-docs-md',
      'developers',
      'explore',
      'agents',
      'mcp-md',
      'webhooks',
      'onboarding',
      'sandbox',
      'agent-card',
    ]);
    expect(report.steps.every((s) => s.status === 'ok' && s.source === 'network')).toBe(true);
    expect(report.steps.filter((s) => s.id !== 'mcp').every((s) => s.bytes > 0 && s.httpStatus === 200)).toBe(
      true,
    );
    expect(report.steps.every((s) => s.ms >= 0)).toBe(true);
    expect(report.baseUrl).toBe(BASE);
    expect(Date.parse(report.finishedAt)).toBeGreaterThan(Date.parse(report.startedAt));
  });

  it('never sends credentials: no cookies, no Authorization header, no referrer', async () => {
    const service = new FakeService();
    await run(service);
    await run(service);
    service.offline = true;
    await run(service);
    expect(service.requests.length).toBeGreaterThan(CONTRACT_ORDER.length * 2);
    for (const request of service.requests) {
      expect(request.init?.credentials).toBe('omit');
      expect(request.headers.has('authorization')).toBe(false);
      expect(request.headers.has('cookie')).toBe(false);
      expect(request.init?.referrerPolicy).toBe('no-referrer');
    }
  });

  it('parses every document into render-ready, JSON-serializable data', async () => {
    const report = await run(new FakeService());
    const { documents } = report;
    expect(documents.llms?.name).toBe('Investing Agent');
    expect(documents.llms?.sections[0]?.links.map((l) => l.url)).toEqual([
      `${BASE}/openapi.json`,
      `${BASE}/auth.md`,
    ]);
    expect(documents.llmsFull?.summary).toBe('Everything.');
    expect(documents.developersLlms?.sections[0]?.links[0]?.url).toBe(`${BASE}/developers/guide.md`);
    // Markdown is stored as fetched; the side panel converts it (lib/pages/sidepanel/discoveryDocuments.ts).
    expect(pricingSource(documents)).toEqual({
      text: expect.stringContaining('| Pro') as unknown,
      baseUrl: `${BASE}/pricing.md`,
    });
    expect(documents.mcpCard?.endpoint).toBe(`${BASE}/mcp`);
    expect(documents.mcpEndpoint).toBe(`${BASE}/mcp`);
    expect(documents.openapiSummary?.apiUrl).toBe(`${BASE}/v1`);
    expect(documents.agentCard?.links).toEqual([{ rel: 'openapi', href: `${BASE}/openapi.json`, type: '' }]);
    expect(Object.keys(documents.markdownSources).sort()).toEqual(
      [
        '/AGENTS.md',
        '/api-docs.md',
        '/auth.md',
        '/developers.md',
        '/explore.md',
        '/mcp.md',
        '/onboarding.md',
        '/pricing.md',
        '/sandbox.md',
        '/webhooks.md',
      ].sort(),
    );
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    expect(isCurrentDiscoveryReport(report)).toBe(true);
  });

  it('logs one discovery.step event per step, with status and timing', async () => {
    const report = await run(new FakeService());
    const stepLogs = logs.filter((l) => l.event === 'discovery.step');
    expect(stepLogs.map((l) => l.fields.id)).toEqual(report.steps.map((s) => s.id));
    expect(stepLogs[0]?.fields).toMatchObject({ url: `${BASE}/llms.txt`, status: 'ok', source: 'network' });
  });

  it('revalidates with If-None-Match and serves a 304 from the cache', async () => {
    const service = new FakeService();
    const first = await run(service);
    const firstCount = service.requests.length;
    const second = await run(service);
    const revalidations = service.requests.slice(firstCount);
    expect(revalidations.map((r) => r.url.slice(BASE.length))).toEqual(CONTRACT_ORDER);
    for (const request of revalidations)
      expect(request.headers.get('if-none-match')).toMatch(/^"[0-9a-f]{16}"$/);
    const fetched = second.steps.filter((s) => s.id !== 'mcp');
    expect(
      fetched.every((s) => s.status === 'not-modified' && s.source === 'cache' && s.httpStatus === 304),
    ).toBe(true);
    expect(second.documents).toEqual(first.documents);
  });

  it('fetches a changed document in full when its ETag no longer matches', async () => {
    const service = new FakeService();
    await run(service);
    service.documents['/llms.txt'] = { body: '# Renamed\n', contentType: 'text/plain' };
    const report = await run(service);
    expect(report.steps[0]).toMatchObject({ id: 'llms', status: 'ok', source: 'network' });
    expect(report.documents.llms?.name).toBe('Renamed');
  });

  it('does not send If-None-Match for a document served without an ETag, and after the cache is cleared', async () => {
    const documents = healthyDocuments();
    documents['/auth.md'] = { ...documents['/auth.md'], etag: null };
    const service = new FakeService(documents);
    await run(service);
    const count = service.requests.length;
    await run(service);
    expect(
      service.requests
        .slice(count)
        .find((r) => r.url.endsWith('/auth.md'))
        ?.headers.has('if-none-match'),
    ).toBe(false);
    await clearDiscoveryCache();
    const afterClear = service.requests.length;
    await run(service);
    expect(service.requests.slice(afterClear).some((r) => r.headers.has('if-none-match'))).toBe(false);
  });

  it('serves the cached copy marked stale when offline', async () => {
    const service = new FakeService();
    const online = await run(service);
    service.offline = true;
    const offline = await run(service);
    const fetched = offline.steps.filter((s) => s.id !== 'mcp');
    expect(
      fetched.every((s) => s.status === 'stale' && s.source === 'cache' && /cache/i.test(s.error ?? '')),
    ).toBe(true);
    expect(offline.documents).toEqual(online.documents);
  });

  it('serves stale on a 5xx but not on a 404', async () => {
    const service = new FakeService();
    await run(service);
    service.documents['/llms.txt'] = { body: 'oops', status: 503 };
    delete service.documents['/auth.md'];
    const report = await run(service);
    expect(report.steps.find((s) => s.id === 'llms')).toMatchObject({
      status: 'stale',
      httpStatus: 503,
      source: 'cache',
    });
    expect(report.documents.llms?.name).toBe('Investing Agent');
    expect(report.steps.find((s) => s.id === 'auth')).toMatchObject({ status: 'failed', httpStatus: 404 });
    expect(report.documents.markdownSources['/auth.md']).toBeUndefined();
  });

  it('records a failure offline without a cache, and keeps going', async () => {
    const service = new FakeService();
    service.offline = true;
    const report = await run(service);
    // No index, so no skill steps.
    expect(report.steps).toHaveLength(19);
    expect(
      report.steps
        .filter((s) => s.id !== 'mcp')
        .every((s) => s.status === 'failed' && s.source === 'network'),
    ).toBe(true);
    expect(service.paths()).toEqual(CONTRACT_ORDER.filter((p) => !p.endsWith('SKILL.md')));
  });

  it('marks an oversize document invalid, does not use it, and continues', async () => {
    const documents = healthyDocuments();
    documents['/llms.txt'] = { body: `# Big\n${'x'.repeat(2_000)}`, contentType: 'text/plain' };
    const service = new FakeService(documents);
    const report = await run(service, { maxBytes: 1_000 });
    expect(report.steps[0]).toMatchObject({ id: 'llms', status: 'invalid' });
    expect(report.steps[0]?.error).toMatch(/larger than 1000 bytes/);
    expect(report.documents.llms).toBeNull();
    expect(report.steps.slice(1).every((s) => s.status === 'ok')).toBe(true);
  });

  it('bounds every body at 1 MB by default', async () => {
    const documents = healthyDocuments();
    documents['/AGENTS.md'] = { body: 'a'.repeat(1_000_001), contentType: 'text/markdown' };
    const report = await run(new FakeService(documents));
    expect(report.steps.find((s) => s.id === 'agents')?.status).toBe('invalid');
    expect(report.documents.markdownSources['/AGENTS.md']).toBeUndefined();
  });

  it.each([
    ['malformed JSON', '/openapi.json', { body: '{"openapi":', contentType: 'application/json' }, 'openapi'],
    [
      'wrong OpenAPI version',
      '/openapi.json',
      { body: '{"openapi":"2.0","servers":[{"url":"/"}],"paths":{}}' },
      'openapi',
    ],
    ['unknown card shape', '/.well-known/mcp/server-card.json', { body: '{"hello":"world"}' }, 'mcp-card'],
    ['agent card without name', '/agent.json', { body: '{}' }, 'agent-card'],
    ['invalid UTF-8', '/auth.md', { body: new Uint8Array([0x23, 0x20, 0xff, 0xfe]) }, 'auth'],
    [
      'HTML where JSON belongs',
      '/.well-known/agent-skills/index.json',
      { body: '<html>SPA fallback</html>', contentType: 'text/html' },
      'skills-index',
    ],
  ])('marks %s invalid and continues', async (_name, path, document, stepId) => {
    const documents = healthyDocuments();
    documents[path] = document;
    const report = await run(new FakeService(documents));
    const step = report.steps.find((s) => s.id === stepId);
    expect(step?.status).toBe('invalid');
    expect(step?.error).toBeTruthy();
    expect(report.steps.at(-1)?.id).toBe('agent-card');
  });

  it('stores a pricing document without a plan table as fetched: the side panel finds it has no plans', async () => {
    const documents = healthyDocuments();
    documents['/pricing.md'] = { body: '# Pricing\n\nAsk us.' };
    const report = await run(new FakeService(documents));
    expect(report.steps.find((s) => s.id === 'pricing')?.status).toBe('ok');
    expect(pricingSource(report.documents)?.text).toBe('# Pricing\n\nAsk us.');
  });

  it('treats a report stored in the old shape (converted blocks, pricing rows) as no report', async () => {
    const report = await run(new FakeService());
    const { markdownSources: _sources, ...documents } = report.documents;
    const old = { ...report, documents: { ...documents, markdown: {}, pricing: [] } };
    expect(isCurrentDiscoveryReport(old as unknown as typeof report)).toBe(false);
    expect(isCurrentDiscoveryReport(null)).toBe(false);
    expect(isCurrentDiscoveryReport(report)).toBe(true);
  });

  it('records the card endpoint for /mcp, resolving a relative one against the card URL', async () => {
    const documents = healthyDocuments();
    documents['/.well-known/mcp/server-card.json'] = {
      body: JSON.stringify({
        name: 'n',
        version: '2',
        remotes: [{ type: 'streamable-http', url: '../../mcp-v2' }],
      }),
    };
    const report = await run(new FakeService(documents));
    expect(report.documents.mcpEndpoint).toBe(`${BASE}/mcp-v2`);
    expect(report.steps.find((s) => s.id === 'mcp')).toMatchObject({
      url: `${BASE}/mcp-v2`,
      status: 'ok',
      bytes: 0,
    });
  });

  it('falls back to the contract /mcp and says so when the card is unusable', async () => {
    const documents = healthyDocuments();
    delete documents['/.well-known/mcp/server-card.json'];
    const report = await run(new FakeService(documents));
    expect(report.documents.mcpCard).toBeNull();
    expect(report.documents.mcpEndpoint).toBe(`${BASE}/mcp`);
    expect(report.steps.find((s) => s.id === 'mcp')).toMatchObject({ status: 'failed' });
  });

  it('keeps a path prefix of the base URL for every document', async () => {
    const service = new FakeService(healthyDocuments(), `${BASE}/svc`);
    await run(service);
    expect(service.requests.every((r) => r.url.startsWith(`${BASE}/svc/`))).toBe(true);
    expect(service.paths()).toEqual(CONTRACT_ORDER);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const service = new FakeService();
    const fetch = (input: string, init?: RequestInit) => {
      if (input.endsWith('/openapi.json')) controller.abort(new DOMException('stop', 'AbortError'));
      return service.fetch(input, init);
    };
    await expect(run(service, { fetch, signal: controller.signal })).rejects.toThrow();
    expect(service.paths().at(-1)).toBe('/openapi.json');
  });
});

describe('skills in a run', () => {
  function withSkills(skills: { name: string; body?: string; digest?: string; url?: string }[]) {
    const documents = healthyDocuments();
    const entries = skills.map((skill) => {
      if (skill.body !== undefined)
        documents[`/.well-known/agent-skills/${skill.name}/SKILL.md`] = {
          body: skill.body,
          contentType: 'text/markdown',
        };
      return {
        name: skill.name,
        type: 'skill-md',
        description: `${skill.name} from index`,
        url: skill.url ?? `${skill.name}/SKILL.md`,
        digest: skill.digest ?? sha256(skill.body ?? ''),
      };
    });
    documents['/.well-known/agent-skills/index.json'] = {
      body: JSON.stringify({ skills: entries }),
      contentType: 'application/json',
    };
    return new FakeService(documents);
  }

  it('verifies each skill, uses only verified content, and reports the rest', async () => {
    const good = skillMarkdown('good');
    const service = withSkills([
      { name: 'good', body: good },
      {
        name: 'tampered',
        body: skillMarkdown('tampered').replace('skill', 'SKILL'),
        digest: sha256(skillMarkdown('tampered')),
      },
      { name: 'gone', digest: sha256('whatever') },
      { name: 'unsigned', body: skillMarkdown('unsigned'), digest: 'md5:abc' },
    ]);
    const report = await run(service);
    const byName = Object.fromEntries(report.documents.skills.map((s) => [s.name, s]));

    expect(byName.good).toMatchObject({
      verification: 'verified',
      url: `${BASE}/.well-known/agent-skills/good/SKILL.md`,
      description: 'The good skill',
    });
    const goodBody = byName.good?.body;
    expect(goodBody?.baseUrl).toBe(`${BASE}/.well-known/agent-skills/good/SKILL.md`);
    const blocks = markdownToSafeBlocks(goodBody?.text ?? '', goodBody?.baseUrl ?? '');
    expect(blocks[0]).toEqual({
      type: 'heading',
      depth: 1,
      children: [{ type: 'text', text: 'good' }],
    });
    // The body's relative link resolves against the SKILL.md URL; the javascript: link is gone.
    expect(JSON.stringify(blocks)).toContain(`"href":"${BASE}/openapi.json"`);
    expect(JSON.stringify(blocks)).not.toContain('javascript');

    expect(byName.tampered).toMatchObject({ verification: 'digest-mismatch' });
    expect(byName.tampered?.body).toBeUndefined();
    expect(JSON.stringify(report)).not.toContain('The tampered SKILL');

    expect(byName.gone).toMatchObject({ verification: 'missing' });
    expect(byName.gone?.body).toBeUndefined();

    expect(byName.unsigned).toMatchObject({ verification: 'invalid-digest' });
    expect(byName.unsigned?.body).toBeUndefined();
    expect(service.paths()).not.toContain('/.well-known/agent-skills/unsigned/SKILL.md');

    const steps = Object.fromEntries(report.steps.map((s) => [s.id, s]));
    expect(steps['skill:good']?.status).toBe('ok');
    expect(steps['skill:tampered']).toMatchObject({ status: 'invalid' });
    expect(steps['skill:tampered']?.error).toMatch(/digest/);
    expect(steps['skill:gone']).toMatchObject({ status: 'failed', httpStatus: 404 });
    expect(steps['skill:unsigned']).toMatchObject({ status: 'invalid' });
  });

  it('re-verifies a cached skill: a 304 still hashes the cached bytes', async () => {
    const body = `${skillMarkdown('bom')}ünïcödé ✓\n`;
    const service = withSkills([{ name: 'bom', body: `\ufeff${body}` }]);
    await run(service);
    const report = await run(service);
    expect(report.steps.find((s) => s.id === 'skill:bom')?.status).toBe('not-modified');
    expect(report.documents.skills[0]?.verification).toBe('verified');
  });

  it('detects tampering served under an unchanged ETag from the network', async () => {
    const body = skillMarkdown('swap');
    const service = withSkills([{ name: 'swap', body }]);
    await run(service);
    service.documents['/.well-known/agent-skills/swap/SKILL.md'] = {
      body: body.replace('swap skill', 'evil skill'),
      etag: '"new"',
    };
    const report = await run(service);
    expect(report.documents.skills[0]).toMatchObject({ verification: 'digest-mismatch' });
    expect(report.documents.skills[0]?.body).toBeUndefined();
  });

  it('bounds how many skills one index can make the run fetch', async () => {
    const service = withSkills(
      Array.from({ length: 80 }, (_, i) => ({ name: `s${i}`, body: skillMarkdown(`s${i}`) })),
    );
    const report = await run(service);
    expect(report.documents.skills).toHaveLength(50);
  });
});

describe('getOpenApiDocument', () => {
  it('serves a fresh cached copy without a request, then revalidates once it is old', async () => {
    const service = new FakeService();
    const now = steppingClock();
    await run(service, { now });
    const count = service.requests.length;
    const cached = await getOpenApiDocument(BASE, { fetch: service.fetch, now, maxAgeMs: 60_000 });
    expect(service.requests.length).toBe(count);
    expect(cached).toMatchObject({ source: 'cache', stale: false, url: `${BASE}/openapi.json` });
    expect(cached.summary.apiUrl).toBe(`${BASE}/v1`);

    const revalidated = await getOpenApiDocument(BASE, { fetch: service.fetch, now, maxAgeMs: 0 });
    expect(service.requests.length).toBe(count + 1);
    expect(service.requests.at(-1)?.headers.get('if-none-match')).toBeTruthy();
    expect(service.requests.at(-1)?.headers.has('authorization')).toBe(false);
    expect(revalidated.document).toEqual(cached.document);
  });

  it('fetches on its own before any run, and serves stale offline', async () => {
    const service = new FakeService();
    const fresh = await getOpenApiDocument(BASE, { fetch: service.fetch });
    expect(fresh).toMatchObject({ source: 'network', stale: false });
    expect(await idbDocumentCache.get(`${BASE}/openapi.json`)).toMatchObject({ url: `${BASE}/openapi.json` });
    service.offline = true;
    expect(await getOpenApiDocument(BASE, { fetch: service.fetch, maxAgeMs: 0 })).toMatchObject({
      source: 'cache',
      stale: true,
    });
  });

  it('throws a typed error when it cannot get a usable document', async () => {
    const documents = healthyDocuments();
    documents['/openapi.json'] = { body: '{"swagger":"2.0"}' };
    await expect(
      getOpenApiDocument(BASE, { fetch: new FakeService(documents).fetch }),
    ).rejects.toBeInstanceOf(DiscoveryDocumentError);
    const other = 'http://127.0.0.1:9999';
    const offline = new FakeService(healthyDocuments(), other);
    offline.offline = true;
    await expect(getOpenApiDocument(other, { fetch: offline.fetch })).rejects.toMatchObject({
      status: 'failed',
      url: `${other}/openapi.json`,
    });
  });
});

it('lists every document the contract names exactly once', () => {
  const paths = DISCOVERY_DOCUMENTS.map((d) => d.path);
  expect(new Set(paths).size).toBe(paths.length);
  expect(paths).toHaveLength(19);
});
