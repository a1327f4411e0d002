import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { startTestSandbox, type Json } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function connect(path = '/mcp'): Promise<Client> {
  const client = new Client({ name: 'sandbox-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sb.baseUrl}${path}`)));
  return client;
}

const text = (result: Json): string => result.content.map((c: Json) => c.text).join('');

describe('MCP (official client)', () => {
  it('tools/list shows exactly the public read-only tools', async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'get_category',
        'get_product_overview',
        'list_categories',
        'list_resources',
        'search_public_playbooks',
      ]);
      for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tools.some((t) => /create|update|activate|delete/.test(t.name))).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('tools/call returns real content', async () => {
    const client = await connect();
    try {
      expect(text(await client.callTool({ name: 'get_product_overview', arguments: {} }))).toContain(
        'Decision support, not financial advice',
      );
      const resources = await client.callTool({ name: 'list_resources', arguments: {} });
      expect(JSON.stringify(resources.structuredContent)).toContain(`${sb.baseUrl}/llms.txt`);
      const categories = await client.callTool({ name: 'list_categories', arguments: {} });
      expect(JSON.stringify(categories.structuredContent)).toContain(
        'automated-investment-strategy-backtesting',
      );
      const category = await client.callTool({
        name: 'get_category',
        arguments: { slug: 'automated-investment-strategy-backtesting' },
      });
      expect((category.structuredContent as Json).name).toBe('Automated investment strategy backtesting');
      const missing = await client.callTool({ name: 'get_category', arguments: { slug: 'nope' } });
      expect(missing.isError).toBe(true);
      const search = await client.callTool({
        name: 'search_public_playbooks',
        arguments: { query: 'Railroads', limit: 5 },
      });
      const found = (search.structuredContent as Json).playbooks;
      expect(found.map((p: Json) => p.title)).toEqual(['Railroads on volume recovery']);
      const hidden = await client.callTool({
        name: 'search_public_playbooks',
        arguments: { query: 'tax-loss' },
      });
      expect((hidden.structuredContent as Json).playbooks).toEqual([]);
      const wildcard = await client.callTool({ name: 'search_public_playbooks', arguments: { query: '_' } });
      expect((wildcard.structuredContent as Json).playbooks).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('resources mirror the discovery documents', async () => {
    const client = await connect('/.well-known/mcp');
    try {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain(`${sb.baseUrl}/pricing.md`);
      const read = await client.readResource({ uri: `${sb.baseUrl}/pricing.md` });
      const served = await (await fetch(`${sb.baseUrl}/pricing.md`)).text();
      expect((read.contents[0] as Json).text).toBe(served);
    } finally {
      await client.close();
    }
  });

  it('needs no credentials and the requests are recorded', async () => {
    sb.clearRequests();
    const client = await connect();
    await client.listTools();
    await client.close();
    const mcpRequests = sb.requests().filter((r) => r.path === '/mcp');
    expect(mcpRequests.length).toBeGreaterThan(0);
    for (const r of mcpRequests) expect(r.headers.authorization).toBeUndefined();
  });

  it('answers CORS preflights from an extension origin', async () => {
    const response = await fetch(`${sb.baseUrl}/mcp`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'chrome-extension://abc',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,mcp-protocol-version',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')!.toLowerCase()).toContain(
      'mcp-protocol-version',
    );
  });
});
