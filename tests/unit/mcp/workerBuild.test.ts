import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { slimMcpSdk } from '../../../build/mcpSdk';
import { zodWithoutJsonSchema } from '../../../build/zodWithoutJsonSchema';
import type * as McpClient from '@/lib/mcp/client';

/**
 * lib/mcp/client.ts bundled with the extension's library swaps and pure marks (build/mcpSdk.ts,
 * build/zodWithoutJsonSchema.ts), then run: the unit tests import the SDK whole, so this is
 * where the swapped build itself must connect, list, call, check outputs and refuse.
 */
const ROOT = join(__dirname, '../../..');
const ENDPOINT = 'http://127.0.0.1:8787/mcp';
let outDir: string;
let built: typeof McpClient;
let bundle: string;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'mcp-worker-build-'));
  await build({
    configFile: false,
    logLevel: 'silent',
    root: ROOT,
    plugins: [zodWithoutJsonSchema(), slimMcpSdk()],
    resolve: { alias: [{ find: /^@\//, replacement: `${ROOT}/` }] },
    ssr: { noExternal: true },
    build: {
      ssr: join(ROOT, 'lib/mcp/client.ts'),
      outDir,
      minify: false,
      rollupOptions: { output: { entryFileNames: 'client.mjs' } },
    },
  });
  bundle = readFileSync(join(outDir, 'client.mjs'), 'utf8');
  built = (await import(pathToFileURL(join(outDir, 'client.mjs')).href)) as typeof McpClient;
}, 60_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function server(): McpServer {
  const mcp = new McpServer({ name: 'built-client-check', version: '1.0.0' });
  mcp.registerTool(
    'get_quote',
    {
      description: 'A quote',
      inputSchema: z.object({ symbol: z.string() }),
      // Looser than what the tool list below claims, so the server lets the bad answer through.
      outputSchema: z.object({ symbol: z.string(), price: z.unknown() }),
      annotations: { readOnlyHint: true },
    },
    ({ symbol }) => ({
      content: [{ type: 'text', text: symbol }],
      structuredContent: symbol === 'BAD' ? { symbol, price: 'high' } : { symbol, price: 1 },
    }),
  );
  mcp.registerTool('place_order', { description: 'Writes' }, () => ({ content: [] }));
  return mcp;
}

/** The tool list as a lying server sends it: `price` must be a number. */
function claimNumericPrice(message: { result?: { tools?: { outputSchema?: unknown }[] } }): void {
  for (const tool of message.result?.tools ?? [])
    if (tool.outputSchema)
      tool.outputSchema = {
        type: 'object',
        properties: { symbol: { type: 'string' }, price: { type: 'number' } },
        required: ['symbol', 'price'],
      };
}

const fetchFromHandler: McpClient.McpFetch = async (url, init) => {
  const response = await createMcpHandler(() => server(), { responseMode: 'json' }).fetch(
    new Request(url, init),
  );
  if (typeof init?.body !== 'string' || !init.body.includes('"tools/list"') || !response.ok) return response;
  // The list comes as JSON or, in the 2025 handshake, as one SSE event: rewrite its data either way.
  const lie = (json: string) => {
    const message = JSON.parse(json) as Parameters<typeof claimNumericPrice>[0];
    claimNumericPrice(message);
    return JSON.stringify(message);
  };
  const text = await response.text();
  const body = text.startsWith('{')
    ? lie(text)
    : text.replace(/^data: (.*)$/m, (_, json: string) => `data: ${lie(json)}`);
  return new Response(body, { status: response.status, headers: response.headers });
};

describe('the MCP client as the extension builds it', () => {
  it("holds the stand-ins, not the OAuth client, the SDK's @cfworker copy or zod JSON Schema conversion", () => {
    expect(bundle).not.toContain('CfWorkerJsonSchemaValidator');
    expect(bundle).toContain('McpOAuthUnavailableError');
    expect(bundle).not.toMatch(/function (authInternal|startAuthorization|exchangeAuthorization)\b/);
    expect(bundle).toContain("zod's JSON Schema conversion is left out");
    expect(bundle).not.toMatch(/function stringProcessor\b/);
  });

  it("leaves out the SDK's spec-type registry and the module-level schemas nothing reads", () => {
    expect(bundle).not.toMatch(/schemas_exports|SPEC_SCHEMA_KEYS|registeredSpecTypes/);
    // Read by the Client (the server identity guard, the JSON-RPC envelope): kept.
    expect(bundle).toMatch(/^(?:var|const|let) ImplementationSchema = /m);
    expect(bundle).toMatch(/^(?:var|const|let) JSONRPCMessageSchema = /m);
    // Server-side, OAuth and subscription schemas: dropped.
    for (const unused of [
      'OAuthTokensSchema',
      'OAuthMetadataSchema',
      'SubscriptionsListenRequestSchema',
      'CreateMessageRequestSchema',
    ])
      expect(bundle).not.toMatch(new RegExp(`^(?:var|const|let) ${unused} = `, 'm'));
  });

  it.each(['auto', 'legacy'] as const)(
    'connects (%s), lists, calls a read-only tool and checks its output with the bounded validator',
    async (protocol) => {
      const session = await built.connectMcp(ENDPOINT, { fetch: fetchFromHandler, protocol });
      try {
        // `auto` takes it from server/discover through the Client's Implementation guard.
        expect([session.serverName, session.serverVersion]).toEqual(['built-client-check', '1.0.0']);
        expect((await session.listTools()).map((tool) => tool.name)).toEqual(['get_quote', 'place_order']);
        const result = await session.callReadOnlyTool('get_quote', { symbol: 'ACME' });
        expect(result.structuredContent).toEqual({ symbol: 'ACME', price: 1 });
        await expect(session.callReadOnlyTool('get_quote', { symbol: 'BAD' })).rejects.toThrow(/price/);
        await expect(session.callReadOnlyTool('place_order')).rejects.toThrow(/not marked read-only/);
      } finally {
        await session.close();
      }
    },
  );

  it('keeps the endpoint checks and the response bound', async () => {
    await expect(
      built.connectMcp('http://agent.example.com/mcp', { fetch: fetchFromHandler }),
    ).rejects.toThrow(/https/);
    const huge = new Response('x'.repeat(built.MAX_MCP_RESPONSE_BYTES + 1));
    await expect(built.boundedMcpResponse(huge).text()).rejects.toThrow(/longer than/);
  });
});
