/** A tiny in-memory discovery host for tests: serves documents with ETags and records every request. */
import { createHash } from 'node:crypto';

export interface FakeDocument {
  body: string | Uint8Array;
  contentType?: string;
  etag?: string | null;
  status?: number;
}

export interface RecordedRequest {
  url: string;
  init: RequestInit | undefined;
  headers: Headers;
}

export const BASE = 'http://127.0.0.1:8787';

export const sha256 = (body: string | Uint8Array) =>
  `sha256:${createHash('sha256').update(body).digest('hex')}`;

export function skillMarkdown(name: string): string {
  return `---\nname: ${name}\ndescription: The ${name} skill\n---\n# ${name}\n\nSee [the API](../../../openapi.json) and [bad](javascript:alert(1)).\n`;
}

/** Every document a healthy service serves, with the contract's content types. */
export function healthyDocuments(): Record<string, FakeDocument> {
  const research = skillMarkdown('research');
  const md = (text: string): FakeDocument => ({ body: text, contentType: 'text/markdown; charset=utf-8' });
  const txt = (text: string): FakeDocument => ({ body: text, contentType: 'text/plain; charset=utf-8' });
  const json = (value: unknown): FakeDocument => ({
    body: JSON.stringify(value),
    contentType: 'application/json',
  });
  return {
    '/llms.txt': txt(
      '# Investing Agent\n\n> Playbooks from research.\n\n## Docs\n\n- [OpenAPI](/openapi.json): the API\n- [Auth](auth.md)\n',
    ),
    '/llms-full.txt': txt('# Investing Agent (full)\n\n> Everything.\n'),
    '/api-docs': { body: '<!doctype html><title>API</title>', contentType: 'text/html' },
    '/openapi.json': json({
      openapi: '3.1.0',
      info: { title: 'Investing Agent API', version: '1' },
      servers: [{ url: '/v1' }],
      paths: { '/status': {} },
    }),
    '/pricing.md': md(
      '# Pricing\n\n| Plan | Monthly price | Limits |\n|---|---|---|\n| Free | $0 | 100/day |\n| Pro | $29 | 10k/day |\n',
    ),
    '/.well-known/mcp/server-card.json': json({
      serverInfo: { name: 'investing-agent', version: '1.0.0' },
      transport: { type: 'streamable-http', endpoint: '/mcp' },
    }),
    '/.well-known/agent-skills/index.json': json({
      $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
      skills: [
        {
          name: 'research',
          type: 'skill-md',
          description: 'Research',
          url: 'research/SKILL.md',
          digest: sha256(research),
        },
      ],
    }),
    '/.well-known/agent-skills/research/SKILL.md': md(research),
    '/auth.md': md('# Auth\n\nCreate a key at [/apikey](/apikey).\n'),
    '/developers/llms.txt': txt('# Developers\n\n## Links\n\n- [Guide](guide.md)\n'),
    '/api-docs.md': md('# API docs'),
    '/developers.md': md('# Developers'),
    '/explore.md': md('# Explore'),
    '/AGENTS.md': md('# Agents'),
    '/mcp.md': md('# MCP'),
    '/webhooks.md': md('# Webhooks'),
    '/onboarding.md': md('# Onboarding'),
    '/sandbox.md': md('# Sandbox'),
    '/agent.json': json({
      name: 'Investing Agent',
      version: '1',
      links: [{ rel: 'openapi', href: '/openapi.json' }],
    }),
  };
}

export class FakeService {
  readonly requests: RecordedRequest[] = [];
  offline = false;

  constructor(
    readonly documents: Record<string, FakeDocument> = healthyDocuments(),
    readonly base: string = BASE,
  ) {}

  readonly fetch = (input: string, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    this.requests.push({ url: input, init, headers });
    if (this.offline) return Promise.reject(new TypeError('Failed to fetch'));
    const path = input.startsWith(this.base) ? input.slice(this.base.length) : null;
    const document = path === null ? undefined : this.documents[path];
    if (!document) return Promise.resolve(new Response('not found', { status: 404 }));
    const bytes = typeof document.body === 'string' ? new TextEncoder().encode(document.body) : document.body;
    const etag =
      document.etag === undefined
        ? `"${createHash('sha1').update(bytes).digest('hex').slice(0, 16)}"`
        : document.etag;
    if (etag && headers.get('if-none-match') === etag)
      return Promise.resolve(new Response(null, { status: 304, headers: { ETag: etag } }));
    const responseHeaders: Record<string, string> = { 'Content-Type': document.contentType ?? 'text/plain' };
    if (etag) responseHeaders.ETag = etag;
    return Promise.resolve(
      new Response(new Blob([bytes.slice()]), { status: document.status ?? 200, headers: responseHeaders }),
    );
  };

  paths(): string[] {
    return this.requests.map((r) => r.url.slice(this.base.length));
  }
}

/** A clock that advances 5 ms every time it is read. */
export function steppingClock(start = Date.UTC(2026, 0, 2, 3, 4, 5)): () => number {
  let t = start;
  return () => (t += 5);
}
