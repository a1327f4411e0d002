import { t } from '@/lib/i18n';
import { browser } from 'wxt/browser';
import { OFFER_SCRIPT } from '@/lib/finance/captureGlobal';
import { parseSitePattern, urlMatchesPattern } from '@/lib/finance/sites';
import { siteProblemText } from '@/lib/i18n/problems';
import { log } from '@/lib/log';
import { HandledError, type HandlerRegistry } from '@/lib/messaging';
import { getSettings } from '@/lib/store/settings';
import { serviceOrigins } from '@/lib/contract/origins';
import { defineAreaItem } from '@/lib/store/areaItem';
import { STORAGE_ITEMS } from '@/lib/store/inventory';

/**
 * Finance sites beyond the built-in list: the options page asks the browser for the host
 * permission (a user gesture), then the background registers the content script there.
 */
const extraSitesItem = defineAreaItem(
  STORAGE_ITEMS.extraSites,
  [],
  (value): value is string[] => Array.isArray(value) && value.every((site) => typeof site === 'string'),
);
const SCRIPT_ID = 'finance-extra-sites';

async function granted(pattern: string): Promise<boolean> {
  return browser.permissions.contains({ origins: [pattern] });
}

/**
 * True when revoking `pattern` would also cut the extension off its own service or API origin.
 * Listed sites are parseSitePattern's `scheme://host/*` patterns, where lib/finance's matcher
 * answers as the browser does (tests/unit/background/sites.test.ts); one matcher in the worker.
 */
async function coversServiceOrigin(pattern: string): Promise<boolean> {
  return serviceOrigins(await getSettings()).some((origin) => urlMatchesPattern(`${origin}/`, pattern));
}

/** Registers the content script on every extra site the user still grants; drops the rest. */
export async function syncExtraSites(): Promise<string[]> {
  const sites: string[] = [];
  for (const pattern of await extraSitesItem.getValue()) if (await granted(pattern)) sites.push(pattern);
  const existing = await browser.scripting.getRegisteredContentScripts({ ids: [SCRIPT_ID] });
  if (existing.length > 0) await browser.scripting.unregisterContentScripts({ ids: [SCRIPT_ID] });
  if (sites.length > 0) {
    await browser.scripting.registerContentScripts([
      {
        id: SCRIPT_ID,
        matches: sites,
        js: [OFFER_SCRIPT.replace(/^\//, '')],
        runAt: 'document_idle',
        persistAcrossSessions: true,
      },
    ]);
  }
  log.info('sites.synced', { count: sites.length });
  return sites;
}

export function registerSiteHandlers(registry: HandlerRegistry): void {
  registry.register('listSites', async () => ({ extra: await extraSitesItem.getValue() }));
  registry.register('addSite', async ({ site }) => {
    const parsed = parseSitePattern(site);
    if (!parsed.ok) {
      const message = siteProblemText(parsed.problem, parsed.input);
      throw new HandledError({ code: 'site.invalid', message, fields: { site: message } });
    }
    if (!(await granted(parsed.pattern))) {
      throw new HandledError({
        code: 'site.permission-missing',
        message: t('errors.worker.accessNotGranted', { host: parsed.host }),
      });
    }
    const sites = await extraSitesItem.getValue();
    if (!sites.includes(parsed.pattern)) await extraSitesItem.setValue([...sites, parsed.pattern]);
    return { extra: await syncExtraSites() };
  });
  registry.register('removeSite', async ({ site }) => {
    const sites = await extraSitesItem.getValue();
    await extraSitesItem.setValue(sites.filter((pattern) => pattern !== site));
    // Only a listed site's own grant goes; the same grant may be what reaches the service.
    if (sites.includes(site) && !(await coversServiceOrigin(site)))
      await browser.permissions.remove({ origins: [site] }).catch(() => false);
    return { extra: await syncExtraSites() };
  });
}
