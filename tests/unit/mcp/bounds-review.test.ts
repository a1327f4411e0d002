import { describe, expect, it } from 'vitest';
import {
  connectMcp,
  MAX_MCP_RESPONSE_BYTES,
  MAX_MCP_SESSION_BYTES,
  MCP_LIST_MAX_PAGES,
  McpSessionTooLargeError,
  type McpFetch,
} from '@/lib/mcp/client';

/**
 * A session, not only a response, is bounded. The SDK walks every page of tools/list (and of
 * resources/list) when called without a cursor, up to its default of 64 pages: a server that
 * always sends a nextCursor and a 900 KB page, each under the 1 MB response bound, made one
 * "list the tools" read 64 responses and hold 57 MB.
 */
describe('an MCP session against a server whose pages never end', () => {
  function endlessServer() {
    const seen = { lists: 0, bytes: 0 };
    const fetch: McpFetch = async (url, init) => {
      const request = new Request(url, init);
      if (request.method !== 'POST') return new Response(null, { status: 405 });
      const message = (await request.json()) as { id?: number; method: string };
      if (message.id === undefined) return new Response(null, { status: 202 });
      let result: unknown = {};
      if (message.method === 'initialize')
        result = {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {}, resources: {} },
          serverInfo: { name: 'endless', version: '1' },
        };
      if (message.method === 'tools/list' || message.method === 'resources/list') {
        seen.lists += 1;
        const padding = 'x'.repeat(900_000);
        const nextCursor = `c${seen.lists}`;
        result =
          message.method === 'tools/list'
            ? {
                tools: [{ name: `t${seen.lists}`, description: padding, inputSchema: { type: 'object' } }],
                nextCursor,
              }
            : { resources: [{ uri: `https://svc.example/${seen.lists}`, name: padding }], nextCursor };
      }
      const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
      seen.bytes += body.length;
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    };
    return { fetch, seen };
  }

  it.each(['listTools', 'listResources'] as const)(
    '%s reads at most MCP_LIST_MAX_PAGES pages and fails',
    async (method) => {
      const { fetch, seen } = endlessServer();
      const session = await connectMcp('http://127.0.0.1:8787/mcp', { fetch, protocol: 'legacy' });
      await expect(session[method]()).rejects.toThrow();
      await session.close();
      expect(seen.lists).toBeLessThanOrEqual(MCP_LIST_MAX_PAGES);
    },
  );

  it('reads no more than MAX_MCP_SESSION_BYTES in one session, whatever the requests', async () => {
    const { fetch, seen } = endlessServer();
    const session = await connectMcp('http://127.0.0.1:8787/mcp', { fetch, protocol: 'legacy' });
    const tools = await session.listTools().catch((error: unknown) => error);
    const resources = await session.listResources().catch((error: unknown) => error);
    await session.close();
    expect(tools).toBeInstanceOf(Error);
    expect(resources).toBeInstanceOf(McpSessionTooLargeError);
    // The server may have sent the response that crossed the budget; nothing after it was asked for and read whole.
    expect(seen.bytes).toBeLessThanOrEqual(MAX_MCP_SESSION_BYTES + MAX_MCP_RESPONSE_BYTES);
  });
});
