import { createApiClient, type ApiClient } from './client';
import type { WriteRoute } from './routes';
import {
  clearDiscoveryCache,
  getOpenApiDocument,
  restoredReport,
  runDiscovery,
  storableReport,
  type DiscoveryReport,
  type StoredDiscoveryReport,
} from '@/lib/discovery';
import { loadApiKey } from '@/lib/store/apiKey';
import { configuredSettings, getSettings, isServiceConfigured, type Settings } from '@/lib/store/settings';
import { ServiceNotConfiguredError } from '@/lib/contract/origins';
import { clearState, readState, writeState } from '@/lib/store/state';
import { clearPopupSnapshot } from '@/lib/store/snapshot';

/*
 * The one place that turns settings, the stored key and the discovered OpenAPI document into a
 * working client of the service. Clients are rebuilt
 * whenever the settings or the OpenAPI document change; nothing here must outlive the worker.
 */

const REPORT_KEY = 'discovery-report';
/** The write routes of the service's earlier documents, per API origin (`rememberWriteRoutes`). */
const WRITE_ROUTES_KEY = 'write-routes';
/** A longer template is not remembered: no honest route has one. */
const MAX_TEMPLATE = 2048;

interface RememberedWriteRoutes {
  apiOrigin: string;
  routes: WriteRoute[];
}
/** How long a built client is used before the OpenAPI document is looked at again. */
const DOCUMENT_RECHECK_MS = 60_000;
let current: { settingsKey: string; documentText: string; checkedAt: number; client: ApiClient } | undefined;

function fetchFromWorker(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return fetch(input, init);
}

export interface ServiceClientOptions {
  /**
   * Revalidate the OpenAPI document with the discovery host now, not within the minute: the
   * confirm window and every send of a write resolve from the document as it is at that moment.
   */
  fresh?: boolean;
}

export async function serviceClient(
  settings?: Settings,
  options: ServiceClientOptions = {},
): Promise<ApiClient> {
  const active = settings ?? (await getSettings());
  // A fresh store install has no service yet: nothing is built, nothing is sent.
  if (!isServiceConfigured(active)) throw new ServiceNotConfiguredError();
  const settingsKey = `${active.serviceUrl}|${active.apiUrl}`;
  // Every message would otherwise re-read, re-parse and re-check the document from IndexedDB.
  if (
    !options.fresh &&
    current?.settingsKey === settingsKey &&
    Date.now() - current.checkedAt < DOCUMENT_RECHECK_MS
  ) {
    return current.client;
  }
  const openApi = await getOpenApiDocument(active.serviceUrl, {
    fetch: fetchFromWorker,
    ...(options.fresh ? { maxAgeMs: 0 } : {}),
  });
  const documentText = `${openApi.url}\n${JSON.stringify(openApi.document)}`;
  if (current?.settingsKey === settingsKey && current.documentText === documentText) {
    current.checkedAt = Date.now();
    return current.client;
  }
  const apiOrigin = new URL(active.apiUrl).origin;
  const remembered = await rememberedWriteRoutes(apiOrigin);
  const client = createApiClient({
    apiUrl: active.apiUrl,
    siteUrl: active.serviceUrl,
    openApi: openApi.document,
    openApiUrl: openApi.url,
    fetch: fetchFromWorker,
    getApiKey: loadApiKey,
    rememberedWriteRoutes: remembered,
  });
  await rememberWriteRoutes(apiOrigin, remembered, client);
  current = { settingsKey, documentText, checkedAt: Date.now(), client };
  return client;
}

async function rememberedWriteRoutes(apiOrigin: string): Promise<WriteRoute[]> {
  const stored = await readState<RememberedWriteRoutes>(WRITE_ROUTES_KEY);
  return stored?.apiOrigin === apiOrigin ? stored.routes : [];
}

/**
 * Keeps, per write, the route the newest document that declared it gave: a later document that
 * leaves the write out cannot make a read land on that route (`postReadRefusal`). A refused
 * document declares nothing.
 */
async function rememberWriteRoutes(
  apiOrigin: string,
  remembered: WriteRoute[],
  client: ApiClient,
): Promise<void> {
  let declared: WriteRoute[];
  try {
    declared = client.declaredWriteRoutes().filter((route) => route.pathTemplate.length <= MAX_TEMPLATE);
  } catch {
    return;
  }
  const byWrite = new Map(remembered.map((route) => [route.operationId, route]));
  for (const route of declared) byWrite.set(route.operationId, route);
  const routes = [...byWrite.values()];
  if (JSON.stringify(routes) !== JSON.stringify(remembered))
    await writeState<RememberedWriteRoutes>(WRITE_ROUTES_KEY, { apiOrigin, routes });
}

export async function discover(): Promise<DiscoveryReport> {
  const settings = await configuredSettings();
  const report = await runDiscovery({ baseUrl: settings.serviceUrl, fetch: fetchFromWorker });
  // A discovery run may have brought a new OpenAPI document: the next call looks at it.
  if (current) current.checkedAt = 0;
  // Stored without the OpenAPI document the discovery cache already holds (lib/discovery/storedReport.ts).
  await writeState(REPORT_KEY, await storableReport(report));
  return report;
}

/**
 * The last run's report for the service saved now. `openapi: false` leaves its OpenAPI document
 * out rather than reading and parsing it back from the discovery cache: the popup's overview,
 * read on every open, needs only the steps and skills.
 */
export async function lastDiscoveryReport({ openapi = true } = {}): Promise<DiscoveryReport | null> {
  const report = await readState<StoredDiscoveryReport>(REPORT_KEY);
  const settings = await getSettings();
  if (!report || report.baseUrl !== settings.serviceUrl) return null;
  if (openapi) return restoredReport(report);
  const { openapiFrom: _reference, ...withoutOpenApi } = report;
  return withoutOpenApi;
}

/** A new service URL: nothing cached from the old service (the read model's cache included) may show or be sent again. */
export async function forgetService(): Promise<void> {
  current = undefined;
  await Promise.all([clearDiscoveryCache(), clearState(), clearPopupSnapshot()]);
}
