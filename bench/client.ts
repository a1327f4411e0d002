/**
 * Node-side figures of the library code the worker runs: paging through the API client against a
 * raw fetch loop over the same pages, and discovery cold against warm (ETag revalidation).
 */
// The worker validates with zod jitless (its CSP forbids new Function): measure what it runs.
import '@/lib/zodConfig';
import 'fake-indexeddb/auto';
import { loadavg } from 'node:os';
import { abortableSleep, createApiClient, sharedRateLimitGate } from '@/lib/api';
import { clearDiscoveryCache, runDiscovery } from '@/lib/discovery';
import type { Sandbox } from '../sandbox/server';
import { spread, type Spread } from './stats';

const PAGE_SIZE = 100;
const MAX_PAGES = 100;
/** Pairs timed before the measured ones: JIT, connection pool and the sandbox's statement cache. */
const WARM_UP_PAIRS = 3;

export interface PagingFigures {
  playbooks: number;
  pages: number;
  client: Spread;
  rawFetch: Spread;
  /** Median client time over median raw time: the cost of validation, retries and bounds. */
  ratio: number;
  /** Client over raw within each back-to-back pair: less exposed to the machine's load drifting between runs. */
  pairedRatio: Spread;
  /** The same walks in CPU time of this process (client, sandbox and fetch alike): blind to waiting for a busy core. */
  clientCpu: Spread;
  rawFetchCpu: Spread;
  cpuRatio: number;
  /** One-minute load average before and after: on a shared machine, a figure taken under load says so. */
  loadAverage: [number, number];
}

interface Walk {
  items: number;
  pages: number;
}

async function pageWithClient(sandbox: Sandbox, openApi: unknown): Promise<Walk> {
  const client = createApiClient({
    apiUrl: sandbox.apiUrl,
    siteUrl: sandbox.baseUrl,
    openApi,
    openApiUrl: `${sandbox.baseUrl}/openapi.json`,
    fetch,
    getApiKey: () => Promise.resolve(sandbox.demoKey),
    // Node has no extension storage for the shared hold; an in-memory gate does the same job here.
    rateLimitGate: sharedRateLimitGate({
      origin: new URL(sandbox.apiUrl).origin,
      now: Date.now,
      sleep: abortableSleep,
      maxInWorkerWaitMs: 20_000,
    }),
  });
  let items = 0;
  let pages = 0;
  for await (const page of client.paginate('listPlaybooks', { pageSize: PAGE_SIZE, maxPages: MAX_PAGES })) {
    items += page.items.length;
    pages++;
  }
  return { items, pages };
}

/**
 * The floor: the same requests as the client sends (URL, headers, fetch options), each body read
 * and JSON-parsed, the cursor followed; none of the client's checks.
 */
async function pageWithFetch(sandbox: Sandbox): Promise<Walk> {
  let items = 0;
  let pages = 0;
  let cursor: string | null = null;
  do {
    const url = new URL(`${sandbox.apiUrl}/playbooks`);
    url.searchParams.set('limit', String(PAGE_SIZE));
    if (cursor) url.searchParams.set('cursor', cursor);
    const response = await fetch(url, {
      method: 'GET',
      headers: {
        accept: 'application/json, application/problem+json',
        authorization: `Bearer ${sandbox.demoKey}`,
      },
      redirect: 'manual',
      credentials: 'omit',
      cache: 'no-store',
    });
    if (!response.ok) throw new Error(`the raw loop got ${response.status}`);
    const page = (await response.json()) as {
      data: unknown[];
      has_more: boolean;
      next_cursor: string | null;
    };
    items += page.data.length;
    pages++;
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor && pages < MAX_PAGES);
  return { items, pages };
}

/** Client and raw loop in back-to-back pairs (ABAB, the order alternating), after warm-up pairs. */
export async function benchPaging(
  sandbox: Sandbox,
  runs = Number(process.env.BENCH_PAGING_RUNS ?? 31),
): Promise<PagingFigures> {
  const openApi: unknown = await (await fetch(`${sandbox.baseUrl}/openapi.json`)).json();
  const loadBefore = loadavg()[0] ?? 0;
  const clientTimes: number[] = [];
  const rawTimes: number[] = [];
  const clientCpu: number[] = [];
  const rawCpu: number[] = [];
  const pairedRatios: number[] = [];
  let shape: Walk | undefined;
  const timed = async (walk: () => Promise<Walk>): Promise<{ wall: number; cpu: number }> => {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const result = await walk();
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    shape ??= result;
    if (result.items !== shape.items || result.pages !== shape.pages)
      throw new Error(`one walk saw ${result.items} playbooks, another ${shape.items}`);
    return { wall, cpu: (cpu.user + cpu.system) / 1000 };
  };
  for (let pair = -WARM_UP_PAIRS; pair < runs; pair++) {
    // Alternate which goes first, so neither always meets a warmer server or a pending GC.
    const clientFirst = pair % 2 === 0;
    const times = { client: { wall: 0, cpu: 0 }, raw: { wall: 0, cpu: 0 } };
    for (const which of clientFirst ? (['client', 'raw'] as const) : (['raw', 'client'] as const)) {
      times[which] = await timed(() =>
        which === 'client' ? pageWithClient(sandbox, openApi) : pageWithFetch(sandbox),
      );
    }
    if (pair < 0) continue;
    clientTimes.push(times.client.wall);
    rawTimes.push(times.raw.wall);
    clientCpu.push(times.client.cpu);
    rawCpu.push(times.raw.cpu);
    pairedRatios.push(times.client.wall / times.raw.wall);
  }
  const client = spread(clientTimes);
  const rawFetch = spread(rawTimes);
  const cpu = { client: spread(clientCpu), raw: spread(rawCpu) };
  return {
    playbooks: shape?.items ?? 0,
    pages: shape?.pages ?? 0,
    client,
    rawFetch,
    ratio: client.median / rawFetch.median,
    pairedRatio: spread(pairedRatios),
    clientCpu: cpu.client,
    rawFetchCpu: cpu.raw,
    cpuRatio: cpu.client.median / cpu.raw.median,
    loadAverage: [loadBefore, loadavg()[0] ?? 0],
  };
}

export interface DiscoveryPass {
  requests: number;
  ok200: number;
  notModified304: number;
  bytes: number;
  ms: number;
}

export interface DiscoveryFigures {
  cold: DiscoveryPass;
  warm: DiscoveryPass;
  coldMs: Spread;
  warmMs: Spread;
  bytesSaved: number;
  /** Answers that came back 304 with no body. */
  bodiesSaved: number;
}

async function discoveryPass(baseUrl: string): Promise<DiscoveryPass> {
  const pass: DiscoveryPass = { requests: 0, ok200: 0, notModified304: 0, bytes: 0, ms: 0 };
  const counting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    pass.requests++;
    if (response.status === 304) pass.notModified304++;
    if (response.status === 200) pass.ok200++;
    pass.bytes += (await response.clone().arrayBuffer()).byteLength;
    return response;
  };
  const started = performance.now();
  await runDiscovery({ baseUrl, fetch: counting });
  pass.ms = performance.now() - started;
  return pass;
}

export async function benchDiscovery(sandbox: Sandbox, runs = 5): Promise<DiscoveryFigures> {
  const colds: DiscoveryPass[] = [];
  const warms: DiscoveryPass[] = [];
  for (let run = 0; run < runs; run++) {
    await clearDiscoveryCache();
    colds.push(await discoveryPass(sandbox.baseUrl));
    warms.push(await discoveryPass(sandbox.baseUrl));
  }
  const cold = colds[colds.length - 1];
  const warm = warms[warms.length - 1];
  return {
    cold,
    warm,
    coldMs: spread(colds.map((pass) => pass.ms)),
    warmMs: spread(warms.map((pass) => pass.ms)),
    bytesSaved: cold.bytes - warm.bytes,
    bodiesSaved: warm.notModified304,
  };
}
