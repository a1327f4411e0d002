import { browser } from 'wxt/browser';
import { t } from '@/lib/i18n';
import type { AppState } from '@/lib/messaging/protocol';
import { apiKeyState } from '@/lib/store/apiKey';
import { getSettings, isServiceConfigured, type Settings } from '@/lib/store/settings';
import { hostAccessPattern, insecureSettingsUrls, serviceOrigins } from '@/lib/contract/origins';

/** Origins of the configured service the browser does not yet let the extension reach. */
export async function missingHostAccess(settings: Settings): Promise<string[]> {
  const missing: string[] = [];
  for (const origin of serviceOrigins(settings)) {
    const granted = await browser.permissions.contains({ origins: [hostAccessPattern(origin)] });
    if (!granted) missing.push(origin);
  }
  return missing;
}

export async function readAppState(): Promise<AppState> {
  const settings = await getSettings();
  const insecure = insecureSettingsUrls(settings);
  return {
    version: browser.runtime.getManifest().version,
    settings,
    key: await apiKeyState(),
    hostAccess: { missingOrigins: await missingHostAccess(settings) },
    ...(insecure.length > 0
      ? { insecureSettings: { urls: insecure, message: t('errors.settings.insecure') } }
      : {}),
    ...(isServiceConfigured(settings) ? {} : { serviceSetup: 'needed' as const }),
  };
}
