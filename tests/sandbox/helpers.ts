/** Shared helpers for sandbox tests: a started server and small HTTP wrappers (real requests). */
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';

// Response bodies are inspected field by field in assertions; a schema per test would obscure them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, db: ':memory:', quiet: true, backtestDelayMs: 50, ...options });
}

export interface ApiCall {
  method?: string;
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

/** Calls the API at `path` (relative to apiUrl) with the demo key unless told otherwise. */
export async function api(
  sb: Sandbox,
  path: string,
  call: ApiCall = {},
): Promise<{ status: number; headers: Headers; text: string; json: Json }> {
  const headers: Record<string, string> = { Accept: 'application/json', ...(call.headers ?? {}) };
  const key = call.key === undefined ? sb.demoKey : call.key;
  if (key) headers.Authorization = `Bearer ${key}`;
  let body: string | undefined = call.rawBody;
  if (call.body !== undefined) body = JSON.stringify(call.body);
  if (body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
  if (call.idempotencyKey) headers['Idempotency-Key'] = call.idempotencyKey;
  const response = await fetch(`${sb.apiUrl}${path}`, {
    method: call.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const text = await response.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const newKey = () => randomUUID();

export async function createPlaybook(sb: Sandbox, overrides: Record<string, unknown> = {}, key?: string) {
  const result = await api(sb, '/playbooks', {
    key,
    idempotencyKey: newKey(),
    body: {
      title: 'Rate-cut beneficiaries',
      thesis: 'Homebuilders re-rate when mortgage rates fall below 6%.',
      visibility: 'private',
      tickers: ['DHI', 'LEN'],
      ...overrides,
    },
  });
  if (result.status !== 201) throw new Error(`create failed: ${result.status} ${result.text}`);
  return result.json;
}

/** Walks a REST list following next_cursor; returns every id in order. */
export async function walkRest(sb: Sandbox, path: string, limit: number, key?: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  const seen = new Set<string>();
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const page = await api(
      sb,
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key },
    );
    if (page.status !== 200) throw new Error(`page failed: ${page.status} ${page.text}`);
    ids.push(...page.json.data.map((p: { id: string }) => p.id));
    if (!page.json.has_more) return ids;
    cursor = page.json.next_cursor;
    if (!cursor || seen.has(cursor)) throw new Error('cursor repeated');
    seen.add(cursor);
  }
}

export async function admin(
  sb: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  token = sb.adminToken,
) {
  const response = await fetch(`${sb.baseUrl}/__admin${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

export function expectProblem(
  result: { status: number; headers: Headers; json: Json },
  status: number,
  code?: string,
) {
  if (result.status !== status)
    throw new Error(`expected ${status}, got ${result.status}: ${JSON.stringify(result.json)}`);
  if (!result.headers.get('content-type')?.startsWith('application/problem+json'))
    throw new Error(`not problem+json: ${result.headers.get('content-type')}`);
  for (const field of ['type', 'title', 'status', 'detail', 'instance', 'code'])
    if (!(field in result.json)) throw new Error(`problem lacks ${field}`);
  if (result.json.status !== status) throw new Error('problem status differs from HTTP status');
  if (code && result.json.code !== code) throw new Error(`expected code ${code}, got ${result.json.code}`);
  if (status === 400 && !Array.isArray(result.json.errors)) throw new Error('400 problem lacks errors[]');
}
