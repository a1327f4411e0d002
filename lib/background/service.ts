import { createApiClient, createConfirmationLedger, createReadCache, type ApiClient } from '@/lib/api';
import { clearDiscoveryCache, getOpenApiDocument, runDiscovery, type DiscoveryReport } from '@/lib/discovery';
import { loadApiKey } from '@/lib/store/apiKey';
import { getSettings, type Settings } from '@/lib/store/settings';
import { clearState, readState, writeState } from '@/lib/store/state';

/**
 * The one place that turns settings into a working client of the service. Clients are rebuilt
 * whenever the settings or the OpenAPI document change; nothing here must outlive the worker.
 */
export const confirmations = createConfirmationLedger();
export const readCache = createReadCache();

const REPORT_KEY = 'discovery-report';
let current: { key: string; client: ApiClient } | undefined;

function fetchFromWorker(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return fetch(input, init);
}

export async function serviceClient(settings?: Settings): Promise<ApiClient> {
  const active = settings ?? (await getSettings());
  const openApi = await getOpenApiDocument(active.serviceUrl, { fetch: fetchFromWorker });
  const key = `${active.serviceUrl}|${active.apiUrl}|${openApi.url}|${JSON.stringify(openApi.document).length}`;
  if (current?.key === key) return current.client;
  const client = createApiClient({
    apiUrl: active.apiUrl,
    siteUrl: active.serviceUrl,
    openApi: openApi.document,
    openApiUrl: openApi.url,
    fetch: fetchFromWorker,
    getApiKey: loadApiKey,
    confirmations,
  });
  current = { key, client };
  return client;
}

export async function discover(): Promise<DiscoveryReport> {
  const settings = await getSettings();
  const report = await runDiscovery({ baseUrl: settings.serviceUrl, fetch: fetchFromWorker });
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
  await Promise.all([clearDiscoveryCache(), readCache.clear(), clearState()]);
}
