/**
 * startSandbox: the whole service contract on one loopback origin. The site and discovery
 * documents are at the root, the API under /api/v1, MCP at /mcp, test controls under /__admin/.
 */
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdmin, type RecordedRequest } from './admin';
import { createApi } from './api';
import { DEFAULT_COMPONENTS, type AppEnv, type SandboxContext } from './context';
import { DIALECT_SPECS, routingPath, type Dialect } from './dialect';
import { FaultState, type FaultConfig } from './faults';
import { createPublicMcp } from './mcp';
import { TokenBuckets } from './ratelimit';
import { createSite } from './site';
import { DEMO_USER_ID, newApiKey, OTHER_USER_ID, Store } from './store';

export type { FaultConfig } from './faults';
export type { RecordedRequest } from './admin';
export type { Dialect } from './dialect';

export interface SandboxOptions {
  port?: number;
  db?: string;
  demoKey?: string;
  seed?: number;
  faults?: Partial<FaultConfig>;
  backtestDelayMs?: number;
  quiet?: boolean;
  /** Token bucket per key: quota requests per window seconds (defaults 120 / 60). */
  rateQuota?: number;
  rateWindowSeconds?: number;
  /**
   * The clock for catalysts and performance (seeded dates, the default `from`, `as_of`), so tests
   * can pin "today"; the system clock when absent.
   */
  now?: () => number;
  /** Which dialect of the contract to serve (paths, parameter names, page sizes); default `a`. */
  dialect?: Dialect;
}

export interface Sandbox {
  baseUrl: string;
  apiUrl: string;
  port: number;
  demoKey: string;
  otherUserKey: string;
  adminToken: string;
  dialect: Dialect;
  close(): Promise<void>;
  setFaults(f: Partial<FaultConfig>): void;
  resetFaults(): void;
  requests(): RecordedRequest[];
  clearRequests(): void;
  /** The store, for test assertions. */
  db: Store;
}

export const DEFAULT_DB = '.sandbox/sandbox.db';
export const DEFAULT_PORT = 8787;
export const DEFAULT_SEED = 25;
const MAX_RECORDED = 20_000;
const MAX_RECORDED_BODY = 1024 * 1024;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const store = new Store(options.db ?? DEFAULT_DB);
  const now = options.now ?? Date.now;
  if (store.isEmpty()) store.seed(options.seed ?? DEFAULT_SEED, now());
  // A store from before catalysts existed gets them too, dated from today.
  else if (store.catalysts.isEmpty()) store.catalysts.seed(now());
  const demoKey = options.demoKey ?? newApiKey();
  store.addApiKey(DEMO_USER_ID, demoKey, options.demoKey ? 'demo key (given)' : 'demo key');
  const otherUserKey = newApiKey();
  store.addApiKey(OTHER_USER_ID, otherUserKey, 'second user key');

  const closing = new AbortController();
  const ctx: SandboxContext = {
    store,
    faults: new FaultState(options.faults),
    buckets: new TokenBuckets(options.rateQuota ?? 120, options.rateWindowSeconds ?? 60),
    baseUrl: '',
    apiUrl: '',
    dialect: DIALECT_SPECS[options.dialect ?? 'a'],
    adminToken: randomBytes(24).toString('base64url'),
    backtestDelayMs: options.backtestDelayMs ?? 1500,
    status: {
      status: 'operational',
      components: DEFAULT_COMPONENTS.map((name) => ({ name, status: 'operational' })),
      updated_at: new Date().toISOString(),
    },
    closing: closing.signal,
    timers: new Set(),
    now,
    reportError: (event, error) => {
      if (!options.quiet) console.error(event, error instanceof Error ? error.message : error);
    },
  };

  // Custom-method paths reach the router rewritten (dialect.ts, `routingPath`); the log keeps what was sent.
  const sentPaths = new WeakMap<Request, string>();
  const routed = (request: Request): Request => {
    const url = new URL(request.url);
    if (!ctx.dialect.customMethods || !url.pathname.startsWith(`${ctx.dialect.apiPrefix}/`)) return request;
    const path = routingPath(url.pathname);
    if (path === url.pathname) return request;
    url.pathname = path;
    const rewritten = new Request(url, request);
    sentPaths.set(rewritten, new URL(request.url).pathname);
    return rewritten;
  };

  let recorded: RecordedRequest[] = [];
  const recorder = { list: () => recorded.slice(), clear: () => void (recorded = []) };

  const app = new Hono<AppEnv>();
  // Record every request (preflights, discovery, MCP included) before anything can answer it.
  app.use('*', async (c, next) => {
    if (!c.req.path.startsWith('/__admin/')) {
      const url = new URL(c.req.url);
      const headers: Record<string, string> = {};
      c.req.raw.headers.forEach((value, name) => (headers[name] = value));
      const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.method !== 'OPTIONS';
      const entry: RecordedRequest = {
        at: Date.now(),
        method: c.req.method,
        path: sentPaths.get(c.req.raw) ?? url.pathname,
        query: url.search,
        headers,
        body: '',
      };
      recorded.push(entry);
      if (recorded.length > MAX_RECORDED) recorded.splice(0, recorded.length - MAX_RECORDED);
      if (hasBody) entry.body = (await c.req.raw.clone().text()).slice(0, MAX_RECORDED_BODY);
    }
    await next();
  });

  const mcp = createPublicMcp(ctx);
  const mcpCors = cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'Accept', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Last-Event-ID'],
    exposeHeaders: ['Mcp-Session-Id', 'Mcp-Protocol-Version'],
  });
  for (const path of ['/mcp', '/.well-known/mcp']) {
    app.use(path, mcpCors);
    app.all(path, (c) => mcp.fetch(c.req.raw));
  }
  app.route('/__admin', createAdmin(ctx, recorder));
  app.route(ctx.dialect.apiPrefix, createApi(ctx));
  app.route('/', createSite(ctx));

  const fetchRouted: typeof app.fetch = (request, ...rest) => app.fetch(routed(request), ...rest);
  const server = createAdaptorServer({ fetch: fetchRouted, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  ctx.baseUrl = `http://127.0.0.1:${port}`;
  ctx.apiUrl = `${ctx.baseUrl}${ctx.dialect.apiPrefix}`;

  let closed = false;
  return {
    baseUrl: ctx.baseUrl,
    apiUrl: ctx.apiUrl,
    port,
    demoKey,
    otherUserKey,
    adminToken: ctx.adminToken,
    dialect: options.dialect ?? 'a',
    db: store,
    setFaults: (f) => ctx.faults.set(f),
    resetFaults: () => ctx.faults.reset(),
    requests: () => recorder.list(),
    clearRequests: () => recorder.clear(),
    async close() {
      if (closed) return;
      closed = true;
      closing.abort();
      for (const timer of ctx.timers) clearTimeout(timer);
      ctx.timers.clear();
      await mcp.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.close();
    },
  };
}
