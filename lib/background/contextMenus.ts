import { browser, type Browser } from 'wxt/browser';
import { buildDraftFromContext } from '@/lib/finance/contextDraft';
import { t } from '@/lib/i18n';
import { log } from '@/lib/log';
import { captureArticleDraft } from './pageCapture';
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
  /** The tab clicked in: the menu's click grants the extension that tab's page (activeTab). */
  tabId?: number;
}

export function menuContextFrom(info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab): MenuContext {
  return {
    menuItemId: String(info.menuItemId),
    selectionText: info.selectionText,
    linkUrl: info.linkUrl,
    pageUrl: info.pageUrl ?? tab?.url,
    pageTitle: tab?.title,
    tabId: tab?.id,
  };
}

/**
 * The draft of a right-click: for the page or a selection, the page's own article as the offer
 * reads it (its headline, lead and tickers), read now in the clicked tab; for a link, or when the
 * page cannot be read (no access, another page by now), the browser's click info alone. Either
 * is untrusted page text, checked by the same schema as the offer's.
 */
export async function queueMenuDraft(context: MenuContext): Promise<string> {
  const selection = context.menuItemId === 'playbook-from-selection' ? context.selectionText : undefined;
  const captured =
    context.menuItemId !== 'playbook-from-link' && context.tabId !== undefined
      ? await captureArticleDraft(context.tabId, selection ?? '')
      : undefined;
  if (captured !== undefined && sameDocument(sourceUrlOf(captured), context.pageUrl))
    return queuePageDraft('context-menu', captured);
  return queuePageDraft(
    'context-menu',
    buildDraftFromContext({
      selectionText: selection,
      linkUrl: context.menuItemId === 'playbook-from-link' ? context.linkUrl : undefined,
      pageUrl: context.pageUrl ?? '',
      pageTitle: context.pageTitle,
    }),
  );
}

function sourceUrlOf(draft: unknown): unknown {
  return (draft as { source?: { url?: unknown } } | null)?.source?.url;
}

/** The same page (origin and path): a tab that moved on since the click is not read for it. */
function sameDocument(url: unknown, pageUrl: string | undefined): boolean {
  if (typeof url !== 'string' || pageUrl === undefined) return false;
  try {
    const [a, b] = [new URL(url), new URL(pageUrl)];
    return a.origin === b.origin && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

export async function handleMenuClick(context: MenuContext): Promise<string | undefined> {
  if (!MENU_ITEMS.some((item) => item.id === context.menuItemId)) return undefined;
  const draftId = await queueMenuDraft(context);
  log.info('menu.draft-created', { item: context.menuItemId, draftId });
  return draftId;
}
