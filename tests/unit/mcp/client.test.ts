import { serve, type ServerType } from '@hono/node-server';
import {
  createMcpHandler,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  connectMcp,
  credentialFreeFetch,
  McpEndpointError,
  McpToolRefusedError,
  type McpFetch,
  type McpReadOnlySession,
} from '@/lib/mcp/client';

const ENDPOINT = 'http://127.0.0.1:8787/mcp';

interface ServerCalls {
  overview: unknown[];
  write: number;
  falseHint: number;
}

/** A tiny MCP server: one read-only tool, one without readOnlyHint, one that says false, one resource. */
function buildServer(calls: ServerCalls): McpServer {
  const server = new McpServer({ name: 'test-investing-agent', version: '9.9.9' });
  server.registerTool(
    'get_product_overview',
    {
      description: 'What the service does',
      inputSchema: z.object({ topic: z.string().optional() }),
      annotations: { readOnlyHint: true },
    },
    (args) => {
      calls.overview.push(args);
      return { content: [{ type: 'text', text: `overview:${args.topic ?? 'all'}` }] };
    },
  );
  server.registerTool(
    'create_playbook',
    { description: 'Writes a playbook', inputSchema: z.object({ title: z.string() }) },
    () => {
      calls.write += 1;
      return { content: [{ type: 'text', text: 'created' }] };
    },
  );
  server.registerTool(
    'tweak_account',
    { description: 'Says it is not read-only', annotations: { readOnlyHint: false } },
    () => {
      calls.falseHint += 1;
      return { content: [{ type: 'text', text: 'tweaked' }] };
    },
  );
  server.registerResource(
    'llms',
    'https://svc.example/llms.txt',
    { title: 'llms.txt', description: 'Product context', mimeType: 'text/plain' },
    (uri) => ({
      contents: [{ uri: uri.href, text: '# Investing Agent' }],
    }),
  );
  return server;
}

interface Recorded {
  url: string;
  method: string;
  headers: Headers;
  credentials: RequestCredentials | undefined;
  body: string;
}

/** An in-memory fetch bridge to a web-standard MCP handler, recording every request. */
function bridge(handle: (request: Request) => Promise<Response>, recorded: Recorded[]): McpFetch {
  return async (url, init) => {
    const request = new Request(url, init);
    recorded.push({
      url: request.url,
      method: request.method,
      headers: new Headers(init?.headers),
      credentials: init?.credentials,
      body: typeof init?.body === 'string' ? init.body : '',
    });
    return handle(request);
  };
}

function modernAndLegacyHandler(calls: ServerCalls) {
  return createMcpHandler(() => buildServer(calls), { responseMode: 'json' });
}

// A 2025-era-only server: a fresh stateless transport per request, as many deployments run it.
function legacyOnlyHandler(calls: ServerCalls) {
  return async (request: Request): Promise<Response> => {
    const server = buildServer(calls);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    return transport.handleRequest(request);
  };
}

const sessions: McpReadOnlySession[] = [];
const listeners: ServerType[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close().catch(() => undefined)));
  await Promise.all(listeners.splice(0).map((l) => new Promise((resolve) => l.close(resolve))));
});

async function open(
  handle: (request: Request) => Promise<Response>,
  protocol: 'auto' | 'legacy',
  recorded: Recorded[] = [],
) {
  const session = await connectMcp(ENDPOINT, { fetch: bridge(handle, recorded), protocol });
  sessions.push(session);
  return session;
}

const SERVERS = [
  [
    'createMcpHandler, auto negotiation',
    (calls: ServerCalls) => modernAndLegacyHandler(calls).fetch,
    'auto',
    '2026-07-28',
  ],
  [
    'createMcpHandler, 2025 handshake',
    (calls: ServerCalls) => modernAndLegacyHandler(calls).fetch,
    'legacy',
    '2025-11-25',
  ],
  ['2025-only server, auto negotiation falls back', legacyOnlyHandler, 'auto', '2025-11-25'],
] as const;

describe.each(SERVERS)('connectMcp against %s', (_name, makeHandler, protocol, expectedVersion) => {
  it('lists tools with their read-only flag, and resources', async () => {
    const calls: ServerCalls = { overview: [], write: 0, falseHint: 0 };
    const session = await open(makeHandler(calls), protocol);
    expect(session.serverName).toBe('test-investing-agent');
    expect(session.protocolVersion).toBe(expectedVersion);
    const tools = await session.listTools();
    expect(tools.map((t) => [t.name, t.readOnly])).toEqual([
      ['get_product_overview', true],
      ['create_playbook', false],
      ['tweak_account', false],
    ]);
    expect(tools[0]?.inputSchema).toMatchObject({ type: 'object' });
    expect(await session.listResources()).toEqual([
      {
        uri: 'https://svc.example/llms.txt',
        name: 'llms',
        title: 'llms.txt',
        description: 'Product context',
        mimeType: 'text/plain',
      },
    ]);
  });

  it('calls a read-only tool and returns its result', async () => {
    const calls: ServerCalls = { overview: [], write: 0, falseHint: 0 };
    const session = await open(makeHandler(calls), protocol);
    const result = await session.callReadOnlyTool('get_product_overview', { topic: 'pricing' });
    expect(result.content).toEqual([{ type: 'text', text: 'overview:pricing' }]);
    expect(calls.overview).toEqual([{ topic: 'pricing' }]);
  });

  it.each([
    ['no readOnlyHint', 'create_playbook', 'not-read-only'],
    ['readOnlyHint false', 'tweak_account', 'not-read-only'],
    ['a tool the server does not have', 'delete_everything', 'unknown-tool'],
  ])('refuses %s without sending the call', async (_case, toolName, reason) => {
    const calls: ServerCalls = { overview: [], write: 0, falseHint: 0 };
    const recorded: Recorded[] = [];
    const session = await open(makeHandler(calls), protocol, recorded);
    const error = await session.callReadOnlyTool(toolName, { title: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpToolRefusedError);
    expect(error).toMatchObject({ toolName, reason });
    expect(calls.write + calls.falseHint).toBe(0);
    expect(recorded.some((r) => r.body.includes('"tools/call"'))).toBe(false);
  });

  it('never sends credentials on any request', async () => {
    const calls: ServerCalls = { overview: [], write: 0, falseHint: 0 };
    const recorded: Recorded[] = [];
    const session = await open(makeHandler(calls), protocol, recorded);
    await session.listTools();
    await session.listResources();
    await session.callReadOnlyTool('get_product_overview');
    await session.close();
    expect(recorded.length).toBeGreaterThanOrEqual(3);
    for (const request of recorded) {
      expect(request.url).toBe(ENDPOINT);
      expect(request.credentials).toBe('omit');
      expect(request.headers.has('authorization')).toBe(false);
      expect(request.headers.has('cookie')).toBe(false);
    }
  });
});

describe('connectMcp over a real loopback listener', () => {
  it('talks Streamable HTTP to 127.0.0.1 with the platform fetch', async () => {
    const calls: ServerCalls = { overview: [], write: 0, falseHint: 0 };
    const handler = modernAndLegacyHandler(calls);
    const seenAuthorization: (string | null)[] = [];
    const listener = await new Promise<ServerType & { port: number }>((resolve) => {
      const server = serve(
        {
          fetch: (request: Request) => (
            seenAuthorization.push(request.headers.get('authorization')),
            handler.fetch(request)
          ),
          hostname: '127.0.0.1',
          port: 0,
        },
        (info) => resolve(Object.assign(server, { port: info.port })),
      );
    });
    listeners.push(listener);
    const session = await connectMcp(`http://127.0.0.1:${listener.port}/mcp`);
    sessions.push(session);
    const result = await session.callReadOnlyTool('get_product_overview', { topic: 'loopback' });
    expect(result.content).toEqual([{ type: 'text', text: 'overview:loopback' }]);
    expect(seenAuthorization.length).toBeGreaterThan(0);
    expect(seenAuthorization.every((value) => value === null)).toBe(true);
  });
});

describe('endpoint and request rules', () => {
  it.each([
    ['javascript:alert(1)'],
    ['ftp://127.0.0.1/mcp'],
    ['data:application/json,{}'],
    ['not a url'],
    ['http://user:pw@127.0.0.1/mcp'],
  ])('refuses the endpoint %j before any request', async (endpoint) => {
    const recorded: Recorded[] = [];
    await expect(
      connectMcp(endpoint, { fetch: bridge(() => Promise.resolve(new Response()), recorded) }),
    ).rejects.toBeInstanceOf(McpEndpointError);
    expect(recorded).toHaveLength(0);
  });

  it('strips credentials the caller or SDK might add, and pins the origin', async () => {
    const seen: { url: string; init: RequestInit | undefined }[] = [];
    const guarded = credentialFreeFetch((url, init) => {
      seen.push({ url: String(url), init });
      return Promise.resolve(new Response('{}'));
    }, 'http://127.0.0.1:8787');

    await guarded(ENDPOINT, {
      credentials: 'include',
      headers: { Authorization: 'Bearer sk-sentinel-123456', Cookie: 'a=b', Accept: 'application/json' },
    });
    const headers = new Headers(seen[0]?.init?.headers);
    expect(seen[0]?.init?.credentials).toBe('omit');
    expect(headers.has('authorization')).toBe(false);
    expect(headers.has('cookie')).toBe(false);
    expect(headers.get('accept')).toBe('application/json');

    await expect(guarded('https://evil.example/mcp', {})).rejects.toBeInstanceOf(McpEndpointError);
    await expect(guarded(new URL('http://127.0.0.1:9999/mcp'), {})).rejects.toBeInstanceOf(McpEndpointError);
    expect(seen).toHaveLength(1);
  });

  it('reports a server that is not there', async () => {
    const failing: McpFetch = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(connectMcp(ENDPOINT, { fetch: failing, timeoutMs: 2_000 })).rejects.toThrow();
  });
});
