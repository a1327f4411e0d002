import { t } from '@/lib/i18n';
import { dropCarriedSecrets } from '@/lib/log';
import { connectMcp } from '@/lib/mcp/client';
import type { HandlerRegistry } from '@/lib/messaging';
import { loadApiKey } from '@/lib/store/apiKey';
import { configuredSettings, getSettings } from '@/lib/store/settings';
import { discover, lastDiscoveryReport, serviceClient } from '@/lib/api/service';
import { openPopup, readOverview, readPlaybook, readView, refreshOverview } from './readModel';

export function registerReadHandlers(registry: HandlerRegistry): void {
  // The read model (./readModel.ts) answers every view of the playbooks and owns their cache.
  registry.register('readView', ({ scope, visibility, cursor }) =>
    readView({ scope, ...(scope === 'mine' && visibility ? { visibility } : {}) }, cursor),
  );
  registry.register('listPlaybooks', ({ visibility, cursor }) =>
    readView({ scope: 'mine', ...(visibility ? { visibility } : {}) }, cursor),
  );
  registry.register(
    'getPlaybook',
    async ({ id }) => (await (await serviceClient()).call('getPlaybook', { playbookId: id })).data,
  );
  registry.register('readPlaybook', ({ id }) => readPlaybook(id));
  registry.register('refreshPlaybooks', async ({ ids }) => {
    const items = await (await serviceClient()).batchGet(ids);
    return items.map((item) =>
      item.status === 200
        ? { id: item.id, playbook: item.playbook }
        : { id: item.id, error: { status: item.status, message: batchItemMessage(item.error) } },
    );
  });
  registry.register('openPopup', () => openPopup());
  registry.register('getOverview', ({ refresh }) => refreshOverview(refresh ?? false));
  // Asked for explicitly: before the setup that is a refusal to say, not an empty success.
  registry.register('testConnection', async () => {
    await configuredSettings();
    return readOverview(true);
  });
  registry.register('runDiscovery', async () => screenedReport(await discover()));
  registry.register('getDiscoveryReport', async () => screenedReport(await lastDiscoveryReport()));
  registry.register('mcpListTools', async () => {
    const session = await connectMcp(await mcpEndpoint());
    try {
      const [tools, resources] = await Promise.all([session.listTools(), session.listResources()]);
      return dropCarriedSecrets({
        tools,
        resources,
        serverName: session.serverName,
        protocolVersion: session.protocolVersion,
      });
    } finally {
      await session.close();
    }
  });
  registry.register('mcpCallTool', async ({ name, args }) => {
    const session = await connectMcp(await mcpEndpoint());
    try {
      const result = await session.callReadOnlyTool(name, args);
      // The service knows the key: an MCP result that echoes it does not put it in front of a page.
      return { content: dropCarriedSecrets(result.content), isError: result.isError === true };
    } finally {
      await session.close();
    }
  });
}

/**
 * A discovery report quotes what the service's documents say (names, errors): a copy of it,
 * screened for the key like any answer (8 characters in a row, in any disguise), so the cached
 * report stays as read. The stored key is read first, which registers it: a worker just woken to
 * answer this page may not have read it yet.
 */
async function screenedReport<T>(report: T): Promise<T> {
  await loadApiKey();
  return dropCarriedSecrets(structuredClone(report));
}

function batchItemMessage(error: { detail?: unknown; title?: unknown; message?: unknown }): string {
  for (const text of [error.detail, error.message, error.title])
    if (typeof text === 'string' && text) return text;
  return t('errors.worker.notAvailable');
}

async function mcpEndpoint(): Promise<string> {
  const report = (await lastDiscoveryReport()) ?? (await discover());
  return report.documents.mcpEndpoint || new URL('/mcp', (await getSettings()).serviceUrl).toString();
}
