/**
 * Node-side figures of the library code the worker runs: paging through the API client against a
 * raw fetch loop over the same pages, and discovery cold against warm (ETag revalidation).
 */
import 'fake-indexeddb/auto';
import { abortableSleep, createApiClient, sharedRateLimitGate } from '@/lib/api';
import { clearDiscoveryCache, runDiscovery } from '@/lib/discovery';
import type { Sandbox } from '../sandbox/server';
import { spread, type Spread } from './stats';

const PAGE_SIZE = 100;

export interface PagingFigures {
  playbooks: number;
  pages: number;
  client: Spread;
  rawFetch: Spread;
  /** Median client time over median raw time: the cost of validation, retries and bounds. */
  ratio: number;
}

async function pageWithClient(sandbox: Sandbox, openApi: unknown): Promise<{ items: number; pages: number }> {
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
  for await (const page of client.paginate('listPlaybooks', { pageSize: PAGE_SIZE, maxPages: 100 })) {
    items += page.items.length;
    pages++;
  }
  return { items, pages };
}

async function pageWithFetch(sandbox: Sandbox): Promise<{ items: number; pages: number }> {
  let items = 0;
  let pages = 0;
  let cursor: string | null = null;
  do {
    const url = new URL(`${sandbox.apiUrl}/playbooks`);
    url.searchParams.set('limit', String(PAGE_SIZE));
    if (cursor) url.searchParams.set('cursor', cursor);
    const response = await fetch(url, { headers: { authorization: `Bearer ${sandbox.demoKey}` } });
    const page = (await response.json()) as {
      data: unknown[];
      has_more: boolean;
      next_cursor: string | null;
    };
    items += page.data.length;
    pages++;
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor && pages < 100);
  return { items, pages };
}

export async function benchPaging(sandbox: Sandbox, runs = 5): Promise<PagingFigures> {
  const openApi: unknown = await (await fetch(`${sandbox.baseUrl}/openapi.json`)).json();
  const clientTimes: number[] = [];
  const rawTimes: number[] = [];
  let shape = { items: 0, pages: 0 };
  await pageWithFetch(sandbox); // warm the sandbox's statement cache for both
  for (let run = 0; run < runs; run++) {
    // Alternate which goes first, so neither always meets a warmer server.
    const order = run % 2 ? ['raw', 'client'] : ['client', 'raw'];
    for (const which of order) {
      const started = performance.now();
      const result =
        which === 'client' ? await pageWithClient(sandbox, openApi) : await pageWithFetch(sandbox);
      (which === 'client' ? clientTimes : rawTimes).push(performance.now() - started);
      if (which === 'raw') shape = result;
      else if (result.items !== shape.items && shape.items !== 0)
        throw new Error(`the client saw ${result.items} playbooks, the raw loop ${shape.items}`);
    }
  }
  const client = spread(clientTimes);
  const rawFetch = spread(rawTimes);
  return {
    playbooks: shape.items,
    pages: shape.pages,
    client,
    rawFetch,
    ratio: client.median / rawFetch.median,
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
