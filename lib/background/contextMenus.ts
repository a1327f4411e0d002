import { browser, type Browser } from 'wxt/browser';
import { buildDraftFromContext } from '@/lib/finance/contextDraft';
import { t } from '@/lib/i18n';
import { log } from '@/lib/log';
import { queuePageDraft } from './writes';

/** Each item's title is a locale key: the menu speaks the browser's UI language. */
export const MENU_ITEMS = [
  { id: 'playbook-from-selection', title: 'menu.selection', contexts: ['selection'] },
  { id: 'playbook-from-link', title: 'menu.link', contexts: ['link'] },
  { id: 'playbook-from-page', title: 'menu.page', contexts: ['page'] },
] as const;
export const OPEN_SIDE_PANEL_ITEM = {
  id: 'open-side-panel',
  title: 'menu.openSidePanel',
  contexts: ['all'],
} as const;

export async function installContextMenus(): Promise<void> {
  await browser.contextMenus.removeAll();
  for (const item of [...MENU_ITEMS, OPEN_SIDE_PANEL_ITEM]) {
    browser.contextMenus.create({ id: item.id, title: t(item.title), contexts: [...item.contexts] });
  }
}

/** What the menu knows about the click: the browser's own info, never page DOM. */
export interface MenuContext {
  menuItemId: string;
  selectionText?: string;
  linkUrl?: string;
  pageUrl?: string;
  pageTitle?: string;
}

export function menuContextFrom(info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab): MenuContext {
  return {
    menuItemId: String(info.menuItemId),
    selectionText: info.selectionText,
    linkUrl: info.linkUrl,
    pageUrl: info.pageUrl ?? tab?.url,
    pageTitle: tab?.title,
  };
}

/** A draft from the browser's click info: untrusted page text, checked by the same schema as the offer's. */
export async function queueMenuDraft(context: MenuContext): Promise<string> {
  return queuePageDraft(
    'context-menu',
    buildDraftFromContext({
      selectionText: context.menuItemId === 'playbook-from-selection' ? context.selectionText : undefined,
      linkUrl: context.menuItemId === 'playbook-from-link' ? context.linkUrl : undefined,
      pageUrl: context.pageUrl ?? '',
      pageTitle: context.pageTitle,
    }),
  );
}

export async function handleMenuClick(context: MenuContext): Promise<string | undefined> {
  if (!MENU_ITEMS.some((item) => item.id === context.menuItemId)) return undefined;
  const draftId = await queueMenuDraft(context);
  log.info('menu.draft-created', { item: context.menuItemId, draftId });
  return draftId;
}
