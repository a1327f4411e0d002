import { browser } from 'wxt/browser';
import { defineAreaItem } from '@/lib/store/areaItem';
import { STORAGE_ITEMS } from '@/lib/store/inventory';
import { apiKeyState } from '@/lib/store/apiKey';
import { getSettings, isServiceConfigured } from '@/lib/store/settings';

/**
 * Where the extension's pages live and how they are opened. The one file of lib/pages that the
 * worker may import (lint enforces it), so each page's address is written once.
 */

/** `options.html?welcome`: the options page as installing opens it (the query names it for tests). */
export const WELCOME_QUERY = 'welcome';

/**
 * The first run: installing opens the options page with its welcome (what the extension does, the
 * service, the key, the sandbox in a development build) until both a service and a key are there.
 * Nothing is sent before they are saved. True when it opened the page.
 */
export async function openFirstRunSetup(reason: string): Promise<boolean> {
  if (reason !== 'install') return false;
  const [settings, key] = await Promise.all([getSettings(), apiKeyState()]);
  if (isServiceConfigured(settings) && key.set) return false;
  await browser.tabs.create({ url: browser.runtime.getURL(`/options.html?${WELCOME_QUERY}`) });
  return true;
}

/** The setup of the service (the options page), from the popup or the side panel before it is done. */
export function openServiceSetup(): Promise<void> {
  return browser.runtime.openOptionsPage();
}

/** The draft id a confirm page was opened for (`confirm.html?draft=<id>`), or '' without one. */
export function draftIdFromSearch(search: string): string {
  return new URLSearchParams(search).get('draft') ?? '';
}

/**
 * The side panel's view of one playbook, opened in a tab: from a notification or the confirm page;
 * with a backtest, the Backtests section shows that one's result.
 */
export function playbookPageUrl(playbookId: string, backtestId?: string): string {
  const backtest = backtestId ? `&backtest=${encodeURIComponent(backtestId)}` : '';
  return `${browser.runtime.getURL('/sidepanel.html')}?playbook=${encodeURIComponent(playbookId)}${backtest}`;
}

const MAX_URL_ID = 200;

/** The playbook id of `sidepanel.html?playbook=<id>`, if present and of a sane length. */
export function playbookFromUrl(search: string): string | undefined {
  const id = new URLSearchParams(search).get('playbook');
  return id && id.length <= MAX_URL_ID ? id : undefined;
}

/** The backtest id of `sidepanel.html?playbook=<id>&backtest=<id>`, only with a playbook and of a sane length. */
export function backtestFromUrl(search: string): string | undefined {
  if (!playbookFromUrl(search)) return undefined;
  const id = new URLSearchParams(search).get('backtest');
  return id && id.length <= MAX_URL_ID ? id : undefined;
}

/** Which playbook the side panel should show: written by the popup, read and watched by the panel. */
export interface SidePanelFocus {
  playbookId: string;
  /** A backtest of that playbook to show instead of its newest completed one (a notification's). */
  backtestId?: string;
  at: number;
}

export const sidePanelFocusItem = defineAreaItem<SidePanelFocus | null>(
  STORAGE_ITEMS.sidePanelFocus,
  null,
  (value): value is SidePanelFocus | null =>
    value === null ||
    (typeof value === 'object' &&
      typeof (value as SidePanelFocus).playbookId === 'string' &&
      typeof (value as SidePanelFocus).at === 'number'),
);
