import { describe, expect, it } from 'vitest';
import { parseAgentCard } from '@/lib/discovery/agentCard';
import { McpCardFormatError, parseMcpCard } from '@/lib/discovery/mcpCard';
import { checkOpenApiDocument, OpenApiFormatError } from '@/lib/discovery/openapi';

const CARD_URL = 'https://svc.example/.well-known/mcp/server-card.json';

describe('parseMcpCard', () => {
  it('normalizes the January-2026 draft shape', () => {
    const card = parseMcpCard(
      {
        $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json',
        serverInfo: { name: 'investing-agent', version: '1.2.0', title: 'Investing Agent' },
        description: 'Public, read-only tools',
        transport: { type: 'streamable-http', endpoint: '/mcp' },
        capabilities: { tools: { listChanged: false } },
        tools: [
          { name: 'get_product_overview', description: 'Overview', annotations: { readOnlyHint: true } },
          { name: 'x' },
        ],
        futureKey: { anything: true },
      },
      CARD_URL,
    );
    expect(card).toEqual({
      name: 'investing-agent',
      version: '1.2.0',
      description: 'Public, read-only tools',
      endpoint: 'https://svc.example/mcp',
      tools: [
        { name: 'get_product_overview', description: 'Overview', readOnlyHint: true },
        { name: 'x', description: '', readOnlyHint: null },
      ],
      shape: 'draft-2026-01',
    });
  });

  it('normalizes the SEP-2127 shape, picking the streamable-http remote', () => {
    const card = parseMcpCard(
      {
        name: 'example.svc/investing-agent',
        version: '1.2.0',
        description: 'Public tools',
        remotes: [
          { type: 'sse', url: 'https://svc.example/sse' },
          { type: 'streamable-http', url: 'mcp' },
        ],
      },
      CARD_URL,
    );
    expect(card).toEqual({
      name: 'example.svc/investing-agent',
      version: '1.2.0',
      description: 'Public tools',
      endpoint: 'https://svc.example/.well-known/mcp/mcp',
      tools: undefined,
      shape: 'sep-2127',
    });
  });

  it('treats "dynamic" tools as not listed', () => {
    const card = parseMcpCard(
      { serverInfo: { name: 'n' }, transport: { endpoint: '/mcp' }, tools: 'dynamic' },
      CARD_URL,
    );
    expect(card.tools).toBeUndefined();
  });

  it.each([
    ['null', null],
    ['array', []],
    ['string', 'card'],
    ['neither shape', { title: 'x' }],
    ['draft without endpoint', { serverInfo: { name: 'n' }, transport: {} }],
    ['SEP without remotes', { name: 'n', remotes: [] }],
    ['javascript endpoint', { serverInfo: { name: 'n' }, transport: { endpoint: 'javascript:alert(1)' } }],
    ['data remote', { name: 'n', remotes: [{ type: 'streamable-http', url: 'data:text/plain,x' }] }],
    ['name not a string', { name: 42, remotes: [{ url: '/mcp' }] }],
    ['huge name', { name: 'n'.repeat(10_000), remotes: [{ url: '/mcp' }] }],
  ])('rejects %s', (_name, json) => {
    expect(() => parseMcpCard(json, CARD_URL)).toThrow(McpCardFormatError);
  });
});

describe('parseAgentCard', () => {
  const AGENT_URL = 'https://svc.example/agent.json';

  it('keeps the known fields, allows unknown keys and resolves links', () => {
    const card = parseAgentCard(
      {
        name: 'Investing Agent',
        description: 'Turns research into playbooks',
        version: '1.0.0',
        url: '/',
        capabilities: { mcp: true, streaming: false, webhooks: { version: 1 } },
        links: [
          { rel: 'openapi', href: '/openapi.json', type: 'application/json' },
          { rel: 'evil', href: 'javascript:alert(1)' },
          { rel: 'broken' },
          'not a link',
          { rel: 'llms', href: 'llms.txt' },
        ],
        skills: ['research', { name: 'backtest', description: 'Runs backtests' }, { id: 'by-id' }, {}],
        somethingNew: [1, 2, 3],
      },
      AGENT_URL,
    );
    expect(card).toEqual({
      name: 'Investing Agent',
      description: 'Turns research into playbooks',
      version: '1.0.0',
      url: 'https://svc.example/',
      capabilities: ['mcp', 'webhooks'],
      links: [
        { rel: 'openapi', href: 'https://svc.example/openapi.json', type: 'application/json' },
        { rel: 'llms', href: 'https://svc.example/llms.txt', type: '' },
      ],
      skills: [
        { name: 'research', description: '' },
        { name: 'backtest', description: 'Runs backtests' },
        { name: 'by-id', description: '' },
      ],
    });
  });

  it.each([
    ['missing name', { description: 'x' }],
    ['empty name', { name: '' }],
    ['links not an array', { name: 'a', links: 'x' }],
    ['not an object', 'agent'],
  ])('rejects %s', (_name, json) => {
    expect(() => parseAgentCard(json, AGENT_URL)).toThrow();
  });
});

describe('checkOpenApiDocument', () => {
  const DOC = 'https://svc.example/openapi.json';

  it.each([
    ['absolute server', 'https://api.example/v1', 'https://api.example/v1', 'https://api.example'],
    ['relative server', '/api/v1', 'https://svc.example/api/v1', 'https://svc.example'],
  ])('summarizes a 3.1 document with %s', (_name, serverUrl, apiUrl, apiOrigin) => {
    const summary = checkOpenApiDocument(
      {
        openapi: '3.1.0',
        info: { title: 'T', version: '1' },
        servers: [{ url: serverUrl }],
        paths: { '/a': {}, '/b': {} },
      },
      DOC,
    );
    expect(summary).toEqual({ openapi: '3.1.0', title: 'T', version: '1', apiUrl, apiOrigin, pathCount: 2 });
  });

  it.each([
    ['OpenAPI 3.0', { openapi: '3.0.3', servers: [{ url: '/' }], paths: {} }],
    ['Swagger 2', { swagger: '2.0', paths: {} }],
    ['no servers', { openapi: '3.1.0', paths: {} }],
    ['empty servers', { openapi: '3.1.0', servers: [], paths: {} }],
    ['no paths', { openapi: '3.1.0', servers: [{ url: '/' }] }],
    ['javascript server', { openapi: '3.1.0', servers: [{ url: 'javascript:alert(1)' }], paths: {} }],
    ['not an object', 'openapi'],
  ])('rejects %s', (_name, json) => {
    expect(() => checkOpenApiDocument(json, DOC)).toThrow(OpenApiFormatError);
  });
});
