import { browser, type Browser } from 'wxt/browser';

/**
 * Who sent a runtime message, decided only from what the browser itself sets: `sender.id`
 * (which extension), whether `sender.tab` is present (a page in a tab), `sender.frameId`, and
 * for senders in a tab the browser-set origin of the sending frame. A web page can never hold the
 * extension's origin, so that one comparison tells our own pages in a tab (the confirm window,
 * the options page opened in a tab) from content scripts. A sender with no tab (popup, side
 * panel) must carry that origin too, so a sender that only copies our id is not enough. Nothing
 * the message says about itself, and no URL path, is ever trusted. This module is the only one
 * that reads `sender`: runtime messages and ports both come through here.
 */
export type SenderKind = 'extension-page' | 'content-script' | 'foreign';

export type ClassifiedSender =
  | { kind: 'extension-page'; tabId?: number }
  | { kind: 'content-script'; tabId: number; frameId: number; topFrame: boolean }
  | { kind: 'foreign' };

export interface SenderIdentity {
  extensionId: string;
  extensionOrigin: string;
}

type SenderLike = Pick<Browser.runtime.MessageSender, 'id' | 'tab' | 'frameId' | 'url'> & {
  origin?: string;
  documentLifecycle?: string;
};

/**
 * The top frame of the page a tab shows: frame 0, or (Chromium) the top frame of a prerendered
 * page that was activated, which keeps the other frame id it had while prerendering
 * (w3c/webextensions#396): an active document at the tab's own address.
 */
function isTopFrame(sender: SenderLike, frameId: number): boolean {
  if (frameId === 0) return true;
  return (
    sender.documentLifecycle === 'active' &&
    typeof sender.url === 'string' &&
    typeof sender.tab?.url === 'string' &&
    sender.url === sender.tab.url
  );
}

function frameOrigin(sender: SenderLike): string | undefined {
  // Chrome sets `origin`; both are written by the browser, not the page.
  if (typeof sender.origin === 'string') return sender.origin;
  // COMPAT(firefox): Firefox sets no `sender.origin`, only `sender.url`; drop this once it does.
  if (typeof sender.url !== 'string') return undefined;
  return originOf(sender.url);
}

/** `scheme://host[:port]`, spelled out because `URL.origin` is "null" for extension schemes in some runtimes. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : undefined;
  } catch {
    return undefined;
  }
}

export function classifySender(sender: SenderLike | undefined, self: SenderIdentity): ClassifiedSender {
  if (!sender || typeof sender.id !== 'string' || sender.id !== self.extensionId) return { kind: 'foreign' };
  const tab = sender.tab;
  const ownOrigin = frameOrigin(sender) === self.extensionOrigin;
  if (!tab) return ownOrigin ? { kind: 'extension-page' } : { kind: 'foreign' };
  const tabId = typeof tab.id === 'number' ? tab.id : -1;
  if (ownOrigin) return { kind: 'extension-page', tabId };
  if (tabId < 0) return { kind: 'foreign' };
  const frameId = typeof sender.frameId === 'number' ? sender.frameId : -1;
  return { kind: 'content-script', tabId, frameId, topFrame: isTopFrame(sender, frameId) };
}

/** This extension's id and origin, as the browser reports them. */
export function ownIdentity(): SenderIdentity {
  return { extensionId: browser.runtime.id, extensionOrigin: originOf(browser.runtime.getURL('/')) ?? '' };
}

/** A runtime port is classified like a message: by what the browser set on its sender. */
export function classifyPort(
  port: Pick<Browser.runtime.Port, 'sender'>,
  self: SenderIdentity = ownIdentity(),
): ClassifiedSender {
  return classifySender(port.sender, self);
}
