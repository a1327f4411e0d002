import { createApiClient, type ApiClient } from './client';
import { createReadCache } from './readCache';
import { clearDiscoveryCache, getOpenApiDocument, runDiscovery, type DiscoveryReport } from '@/lib/discovery';
import { loadApiKey } from '@/lib/store/apiKey';
import { configuredSettings, getSettings, isServiceConfigured, type Settings } from '@/lib/store/settings';
import { ServiceNotConfiguredError } from '@/lib/contract/origins';
import { clearState, readState, writeState } from '@/lib/store/state';
import { clearPopupSnapshot } from '@/lib/store/snapshot';

/**
 * The one place that turns settings, the stored key and the discovered OpenAPI document into a
 * working client of the service. Clients are rebuilt
 * whenever the settings or the OpenAPI document change; nothing here must outlive the worker.
 */
export const readCache = createReadCache();

const REPORT_KEY = 'discovery-report';
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
  const client = createApiClient({
    apiUrl: active.apiUrl,
    siteUrl: active.serviceUrl,
    openApi: openApi.document,
    openApiUrl: openApi.url,
    fetch: fetchFromWorker,
    getApiKey: loadApiKey,
  });
  current = { settingsKey, documentText, checkedAt: Date.now(), client };
  return client;
}

export async function discover(): Promise<DiscoveryReport> {
  const settings = await configuredSettings();
  const report = await runDiscovery({ baseUrl: settings.serviceUrl, fetch: fetchFromWorker });
  // A discovery run may have brought a new OpenAPI document: the next call looks at it.
  if (current) current.checkedAt = 0;
  await writeState(REPORT_KEY, report);
  return report;
}

export async function lastDiscoveryReport(): Promise<DiscoveryReport | null> {
  const report = await readState<DiscoveryReport>(REPORT_KEY);
  const settings = await getSettings();
  return report && report.baseUrl === settings.serviceUrl ? report : null;
}

/** A new service URL: nothing cached from the old service may show or be sent again. */
export async function forgetService(): Promise<void> {
  current = undefined;
  await Promise.all([clearDiscoveryCache(), readCache.clear(), clearState(), clearPopupSnapshot()]);
}
