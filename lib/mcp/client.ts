/**
 * A read-only client of the service's public MCP endpoint (Streamable HTTP), built on the
 * official SDK. CSP-safe for an MV3 extension: JSON Schema checks use @cfworker (no Ajv code
 * generation, no eval) on a bounded copy of each service schema (./boundedValidator.ts). It
 * never sends credentials, talks only to the endpoint's origin, and refuses to call any tool
 * that does not declare `readOnlyHint: true`.
 */
import { t } from '@/lib/i18n';
import {
  Client,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/client';
import { log } from '@/lib/log';
import { serviceUrlProblem } from '@/lib/contract/origins';
import { BoundedJsonSchemaValidator } from './boundedValidator';

export type McpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export interface ConnectMcpOptions {
  fetch?: McpFetch;
  /** Aborts the connection handshake. */
  signal?: AbortSignal;
  /** Per-request timeout; the SDK's default is a minute, too long for a service worker event. */
  timeoutMs?: number;
  /**
   * `auto` (default) probes for a newer protocol revision and falls back to the 2025 handshake,
   * so a server offering a newer version is accepted; `legacy` skips the probe.
   */
  protocol?: 'auto' | 'legacy';
}

export interface McpToolSummary {
  name: string;
  title: string;
  description: string;
  /** True only when the server declares `annotations.readOnlyHint: true`. */
  readOnly: boolean;
  inputSchema: Record<string, unknown>;
}

export interface McpResourceSummary {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

export interface McpReadOnlySession {
  readonly endpoint: string;
  readonly serverName: string;
  readonly serverVersion: string;
  readonly protocolVersion: string;
  listTools(): Promise<McpToolSummary[]>;
  listResources(): Promise<McpResourceSummary[]>;
  /** Calls `name` only if the server marks it read-only; otherwise throws McpToolRefusedError. */
  callReadOnlyTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export type McpRefusalReason = 'not-read-only' | 'unknown-tool';

export class McpToolRefusedError extends Error {
  override name = 'McpToolRefusedError';
  constructor(
    readonly toolName: string,
    readonly reason: McpRefusalReason,
  ) {
    super(
      reason === 'unknown-tool'
        ? t('errors.mcp.unknownTool', { tool: toolName.slice(0, 100) })
        : t('errors.mcp.notReadOnly', { tool: toolName.slice(0, 100) }),
    );
  }
}

export class McpEndpointError extends Error {
  override name = 'McpEndpointError';
}

export const MCP_CLIENT_INFO = { name: 'playbook-companion', version: '0.1.0' } as const;
const DEFAULT_TIMEOUT_MS = 15_000;

const defaultFetch: McpFetch = (url, init) => fetch(url, init);

function parseEndpoint(endpoint: string): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new McpEndpointError(t('errors.mcp.endpointNotUrl'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new McpEndpointError(t('errors.mcp.endpointScheme'));
  if (url.username || url.password) throw new McpEndpointError(t('errors.mcp.endpointCredentials'));
  if (serviceUrlProblem(url.href) !== undefined) throw new McpEndpointError(t('errors.mcp.endpointInsecure'));
  return url;
}

/** One MCP response (a JSON body, or an SSE stream over its whole life) may not be longer. */
export const MAX_MCP_RESPONSE_BYTES = 1_000_000;
/** All the responses of one session together: the SDK pages lists and reopens streams on its own. */
export const MAX_MCP_SESSION_BYTES = 4_000_000;
/**
 * Pages of one list the SDK follows (its default is 64): a server whose nextCursor never ends
 * would otherwise have one "list the tools" read 64 responses of up to 1 MB each.
 */
export const MCP_LIST_MAX_PAGES = 4;

export class McpResponseTooLargeError extends Error {
  override name = 'McpResponseTooLargeError';
  constructor(readonly maxBytes: number) {
    super(t('errors.mcp.tooLarge', { max: String(maxBytes) }));
  }
}

export class McpSessionTooLargeError extends Error {
  override name = 'McpSessionTooLargeError';
  constructor(readonly maxBytes: number) {
    super(t('errors.mcp.sessionTooLarge', { max: String(maxBytes) }));
  }
}

/** What the responses of one session have read so far, against MAX_MCP_SESSION_BYTES. */
export interface McpSessionBudget {
  read: number;
  readonly maxBytes: number;
}

/**
 * The body counted as it streams, and failed past `maxBytes` (or past what is left of the
 * session's budget), so a tool result or a tool list cannot be larger than that. An event
 * stream's CR and CRLF line ends become LF on the way: the SDK's SSE parser searches the rest of a
 * chunk for CR once per line otherwise (quadratic).
 */
export function boundedMcpResponse(
  response: Response,
  maxBytes = MAX_MCP_RESPONSE_BYTES,
  session?: McpSessionBudget,
): Response {
  // Null-body statuses cannot be rebuilt with a body (and have none to bound).
  if (!response.body || [101, 204, 205, 304].includes(response.status)) return response;
  const eventStream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  let total = 0;
  let endedWithCr = false;
  const bounded = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > maxBytes) {
          controller.error(new McpResponseTooLargeError(maxBytes));
          return;
        }
        if (session) {
          session.read += chunk.byteLength;
          if (session.read > session.maxBytes) {
            controller.error(new McpSessionTooLargeError(session.maxBytes));
            return;
          }
        }
        if (!eventStream) {
          controller.enqueue(chunk);
          return;
        }
        const out = new Uint8Array(chunk.byteLength);
        let length = 0;
        for (const byte of chunk) {
          if (byte === 10 && endedWithCr) {
            endedWithCr = false;
            continue;
          }
          endedWithCr = byte === 13;
          out[length++] = byte === 13 ? 10 : byte;
        }
        controller.enqueue(out.subarray(0, length));
      },
    }),
  );
  return new Response(bounded, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * Wraps fetch so no request can carry credentials or leave the endpoint's origin, whatever the
 * SDK (or a future version of it) puts into RequestInit; every response counts against one
 * session budget, and once it is spent no further request is sent.
 */
export function credentialFreeFetch(
  base: McpFetch,
  allowedOrigin: string,
  session: McpSessionBudget = { read: 0, maxBytes: MAX_MCP_SESSION_BYTES },
): McpFetch {
  return (url, init) => {
    if (session.read > session.maxBytes) return Promise.reject(new McpSessionTooLargeError(session.maxBytes));
    const target = new URL(typeof url === 'string' ? url : url.href);
    if (target.origin !== allowedOrigin) {
      return Promise.reject(
        new McpEndpointError(
          t('errors.mcp.foreignOrigin', { origin: target.origin, allowed: allowedOrigin }),
        ),
      );
    }
    const headers = new Headers(init?.headers);
    headers.delete('authorization');
    headers.delete('cookie');
    headers.delete('proxy-authorization');
    return base(target.href, { ...init, headers, credentials: 'omit', referrerPolicy: 'no-referrer' }).then(
      (response) => boundedMcpResponse(response, MAX_MCP_RESPONSE_BYTES, session),
    );
  };
}

function summarizeTool(tool: Tool): McpToolSummary {
  return {
    name: tool.name,
    title: tool.title ?? tool.annotations?.title ?? '',
    description: tool.description ?? '',
    readOnly: tool.annotations?.readOnlyHint === true,
    inputSchema: tool.inputSchema,
  };
}

/** Connects to the public MCP endpoint and returns a session that can only read. */
export async function connectMcp(
  endpoint: string,
  options: ConnectMcpOptions = {},
): Promise<McpReadOnlySession> {
  const url = parseEndpoint(endpoint);
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: credentialFreeFetch(options.fetch ?? defaultFetch, url.origin),
    redirectPolicy: 'same-origin',
    requestInit: { credentials: 'omit' },
  });
  const client = new Client(MCP_CLIENT_INFO, {
    capabilities: {},
    jsonSchemaValidator: new BoundedJsonSchemaValidator(),
    versionNegotiation: { mode: options.protocol ?? 'auto' },
    listMaxPages: MCP_LIST_MAX_PAGES,
  });

  try {
    await client.connect(transport, { timeout, signal: options.signal });
  } catch (error) {
    await client.close().catch(() => undefined);
    log.warn('mcp.connect-failed', { endpoint: url.href, error });
    throw error;
  }

  const server = client.getServerVersion();
  const protocolVersion = client.getNegotiatedProtocolVersion() ?? '';
  log.info('mcp.connected', { endpoint: url.href, server: server?.name, protocolVersion });

  // Fetched once per session and reused, so the read-only check does not cost a round trip per call.
  let toolsByName: Map<string, Tool> | undefined;
  const loadTools = async (): Promise<Map<string, Tool>> => {
    const { tools } = await client.listTools(undefined, { timeout });
    toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
    return toolsByName;
  };

  return {
    endpoint: url.href,
    serverName: server?.name ?? '',
    serverVersion: server?.version ?? '',
    protocolVersion,
    async listTools() {
      return [...(await loadTools()).values()].map(summarizeTool);
    },
    async listResources() {
      const { resources } = await client.listResources(undefined, { timeout });
      return resources.map((resource) => ({
        uri: resource.uri,
        name: resource.name,
        title: resource.title ?? '',
        description: resource.description ?? '',
        mimeType: resource.mimeType ?? '',
      }));
    },
    async callReadOnlyTool(name, args = {}) {
      let tool = toolsByName?.get(name);
      // A tool missing from an older listing may have appeared since; look once more before refusing.
      if (!tool) tool = (await loadTools()).get(name);
      if (!tool) throw new McpToolRefusedError(name, 'unknown-tool');
      if (tool.annotations?.readOnlyHint !== true) {
        log.warn('mcp.tool-refused', { tool: name, reason: 'not-read-only' });
        throw new McpToolRefusedError(name, 'not-read-only');
      }
      log.info('mcp.tool-call', { tool: name });
      return client.callTool({ name, arguments: args }, { timeout, toolDefinition: tool });
    },
    async close() {
      await client.close();
    },
  };
}
