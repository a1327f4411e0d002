import {
  ARTICLE_CAPTURE_FILE,
  ARTICLE_CAPTURE_GLOBAL,
  MAX_CAPTURE_SELECTION,
  PAGE_TICKERS_FILE,
  PAGE_TICKERS_GLOBAL,
  type ArticleCaptureFunction,
  type PageTickersFunction,
} from '@/lib/finance/captureGlobal';
import { createRereads } from '@/lib/finance/rereads';
import { answerPageTickers } from '@/lib/messaging/pageTickers';
import { clickRefusal, effectiveOpacity, REFUSAL_MESSAGE, type OfferClick } from './clickGuard';
import { dismiss, isDismissed } from './dismissals';
import { loadInjected } from './lazy';
import { extensionApi, OfferError, offerText, sendToWorker, type ExtensionApi } from './runtime';
import { eagerWords, type OfferWordTable } from './words';

/** What the offer looks like: its style sheet and its first words in every UI language (build time). */
export interface OfferLook {
  css: string;
  words: OfferWordTable;
}

/**
 * The content script on every finance page, kept to what the page must carry: no UI
 * library, no detection, no drafting. It draws the same offer whatever the user tracks, once the
 * browser is idle. Ticker detection is imported when the user asks about the page ("On this page"
 * in the popup or side panel), and reported again, rate-limited, when a single-page app moves on;
 * the worker puts the count on the tab's toolbar badge and in "On this page", where only the user
 * sees it. Readability and the draft are imported when the user clicks. Nothing here posts to, or
 * listens to, the page's `window` messages: the page can neither learn the extension's id nor
 * stop this script.
 */

/** Only the top frame of an http(s) page offers the button: never ads, embeds or other frames. */
export function shouldOffer(): boolean {
  return globalThis.top === globalThis.self && /^https?:$/.test(location.protocol);
}

/** The offer's element name: what the page sees in its DOM, the same for every user. */
export const OFFER_HOST = 'playbook-companion-offer';
/** How often a browser without the Navigation API is checked for a single-page app's new address. */
const ADDRESS_POLL_MS = 1000;

/** Runs `run` once the page is shown (a prerendered page is activated) and the browser is idle. */
export function whenShownAndIdle(run: () => void): void {
  const idle = () =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(() => run(), { timeout: 2000 })
      : setTimeout(run, 1);
  if ((document as Document & { prerendering?: boolean }).prerendering)
    document.addEventListener('prerenderingchange', idle, { once: true });
  else idle();
}

/**
 * Calls `changed` when the page moves to another address without loading (pushState, hash
 * routes, Back in a single-page app). Only the browser's own, trusted events count: an event a
 * page dispatches itself changes nothing.
 */
export function watchAddress(changed: () => void): void {
  const navigation = (globalThis as { navigation?: EventTarget }).navigation;
  if (navigation && typeof navigation.addEventListener === 'function') {
    navigation.addEventListener('currententrychange', (event) => {
      if (event.isTrusted) changed();
    });
    return;
  }
  let address = location.href;
  setInterval(() => {
    if (location.href === address) return;
    address = location.href;
    changed();
  }, ADDRESS_POLL_MS);
}

/** What the reader selected, bounded before anything else reads it. */
function selectionOfPage(): string {
  return (globalThis.getSelection()?.toString() ?? '').slice(0, MAX_CAPTURE_SELECTION);
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  text = '',
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.textContent = text;
  return node;
}

/** The tickers the page names now, the detector imported the first time. */
function tickersOfPage(api: ExtensionApi): Promise<string[]> {
  return loadInjected<PageTickersFunction>(api, PAGE_TICKERS_FILE, PAGE_TICKERS_GLOBAL).then((read) =>
    read(),
  );
}

/** Offers "Turn this into a playbook" on a finance page and reports its tickers to the worker. */
export async function startOffer(
  look: OfferLook,
  api: ExtensionApi | undefined = extensionApi(),
): Promise<void> {
  if (!api || !shouldOffer()) return;
  // "On this page" and the badge work even where the offer is hidden.
  // Detection is imported only once the user asks about this page (the popup or the side panel's
  // "On this page"): a page the user only reads pays for the offer alone. From then on,
  // a single-page app's new views are reported too, rate-limited, so the tab's badge follows.
  let following = false;
  const rereads = createRereads(
    () => tickersOfPage(api),
    (_page: 'page', tickers: string[]) =>
      void sendToWorker(api, 'countPageMatches', { tickers }).catch(() => undefined),
  );
  answerPageTickers(api.runtime, () => {
    following = true;
    return tickersOfPage(api);
  });
  watchAddress(() => {
    if (following) rereads.request('page');
  });
  try {
    if (await isDismissed(api, location.host)) return;
  } catch {
    return; // The extension context went away while we asked: nothing to offer.
  }
  drawOffer(api, look);
}

/** The offer's nodes in their closed shadow root, and its words (the bundled table first). */
function offerNodes(api: ExtensionApi, look: OfferLook) {
  const host = document.createElement(OFFER_HOST);
  const shadow = host.attachShadow({ mode: 'closed' });
  const text = (key: Parameters<typeof offerText>[1]) => offerText(api, key);
  const words = eagerWords(look.words, api.i18n.getUILanguage(), (key) => text(`offer.${key}`));
  const offer = element('div', { class: 'offer', role: 'group', 'aria-label': words.group });
  const turn = element('button', { type: 'button', class: 'turn' }, words.turn);
  const hideLabel = words.hide;
  const hide = element(
    'button',
    { type: 'button', class: 'dismiss', 'aria-label': hideLabel, title: hideLabel },
    '×',
  );
  const status = element('p', { class: 'message', role: 'status' });
  offer.append(turn, hide, status);
  shadow.append(element('style', {}, look.css), offer);
  return { host, offer, turn, hide, status, text };
}

/**
 * Draws the offer in a closed shadow root, in the top layer where supported. Its text and size
 * are the same on every page and for every user of one UI language until the user acts. Its first
 * words come from the bundled table (no browser.i18n call on a page the user only reads); the
 * words it says after a click come from browser.i18n.
 */
export function drawOffer(api: ExtensionApi, look: OfferLook): HTMLElement {
  const { host, offer, turn, hide, status, text } = offerNodes(api, look);
  let busy = false;

  const say = (message: string) => {
    status.textContent = message;
  };
  // The hit test, the opacity walk and the visibility watch read layout: none of them runs before
  // the pointer or the focus reaches the offer (a page the user only reads pays nothing).
  const visibility = lazyVisibility(offer);
  host.addEventListener('pointerover', visibility.start);
  host.addEventListener('focusin', visibility.start);
  /**
   * Refuses synthetic clicks and clicks on a covered or faded offer, once the visibility watch has
   * reported at least once; says why on the offer.
   */
  const refused = async (click: OfferClick): Promise<boolean> => {
    const pointed = { isTrusted: click.isTrusted, clientX: click.clientX, clientY: click.clientY };
    const lastSeenVisible = await visibility.seen();
    const refusal = clickRefusal(pointed, {
      host,
      topElementAt: (x, y) => document.elementFromPoint(x, y),
      effectiveOpacity: () => effectiveOpacity(host),
      lastSeenVisible,
    });
    if (refusal) say(text(REFUSAL_MESSAGE[refusal]));
    return refusal !== undefined;
  };
  const remove = () => {
    visibility.stop();
    host.remove();
  };

  /** Builds the draft of this page, unless the click is refused. */
  const turnIntoDraft = async (click: OfferClick): Promise<void> => {
    const selection = selectionOfPage();
    if (await refused(click)) return;
    turn.disabled = true;
    say('');
    try {
      // Readability and the draft are imported on this click; the worker checks the draft again.
      const capture = await loadInjected<ArticleCaptureFunction>(
        api,
        ARTICLE_CAPTURE_FILE,
        ARTICLE_CAPTURE_GLOBAL,
      );
      const draft = capture(selection);
      if (!draft) throw new OfferError(text('offer.cannotTurn'));
      await sendToWorker(api, 'submitPageDraft', { draft });
      say(text('offer.saved'));
    } catch (error) {
      if (error instanceof Error && /context invalidated/i.test(error.message)) remove();
      // The browser's own errors (a failed import, a closed port) are English and say
      // nothing useful: only words made for the user are shown as they are.
      else say(error instanceof OfferError ? error.message : text('offer.failed'));
    }
  };
  turn.addEventListener('click', (click) => {
    if (busy) return;
    busy = true;
    void turnIntoDraft(click).finally(() => {
      busy = false;
      turn.disabled = false;
    });
  });
  hide.addEventListener('click', (click) => {
    void refused(click).then((refusal) => {
      if (refusal) return;
      remove();
      dismiss(api, location.host).catch(() => undefined); // Hidden for this page view at least.
    });
  });

  document.body.append(host);
  raiseToTopLayer(host);
  return host;
}

/**
 * Puts the host in the browser's top layer (a manual popover) where supported, so no page element
 * can be stacked above it and no ancestor's transform or clip applies; shown again if the page
 * hides it.
 */
function raiseToTopLayer(host: HTMLElement): void {
  if (typeof host.showPopover !== 'function') return;
  try {
    host.setAttribute('popover', 'manual');
    host.showPopover();
    host.addEventListener('toggle', (event) => {
      if (event.newState === 'closed' && host.isConnected) host.showPopover();
    });
  } catch {
    // No top layer here: the !important host styles still hold.
  }
}

/** How long a click waits for the visibility watch's first report before it is judged without one. */
const FIRST_REPORT_MS = 1000;

interface LazyVisibility {
  /** Starts the watch (once): on the pointer or the focus reaching the offer, or on a click. */
  start: () => void;
  /** The last report (undefined where the browser cannot tell), after the first one has come. */
  seen: () => Promise<boolean | undefined>;
  stop: () => void;
}

/**
 * IntersectionObserver v2 on the drawn offer (the host is an empty box), started only when the
 * user comes near it: observing with `trackVisibility` makes the browser compute occlusion on
 * every frame, which a page the user only reads should not pay for.
 */
function lazyVisibility(target: Element): LazyVisibility {
  let observer: IntersectionObserver | undefined;
  let started = false;
  let reported = false;
  let last: boolean | undefined;
  const waiting: (() => void)[] = [];
  const report = (visible: boolean | undefined) => {
    last = visible;
    reported = true;
    for (const wake of waiting.splice(0)) wake();
  };
  const start = () => {
    if (started) return;
    started = true;
    observer = watchVisibility(target, report);
    if (!observer) report(undefined);
  };
  return {
    start,
    seen() {
      start();
      if (reported) return Promise.resolve(last);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(last), FIRST_REPORT_MS);
        waiting.push(() => {
          clearTimeout(timer);
          resolve(last);
        });
      });
    },
    stop: () => observer?.disconnect(),
  };
}

/** IntersectionObserver v2 (Chromium): tells when the offer is occluded, faded or distorted (undefined elsewhere). */
function watchVisibility(
  target: Element,
  report: (visible: boolean | undefined) => void,
): IntersectionObserver | undefined {
  if (typeof IntersectionObserver !== 'function') return undefined;
  try {
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const visible = (entry as IntersectionObserverEntry & { isVisible?: boolean }).isVisible;
          report(typeof visible === 'boolean' ? visible : undefined);
        }
      },
      { trackVisibility: true, delay: 100 } as IntersectionObserverInit,
    );
    observer.observe(target);
    return observer;
  } catch {
    return undefined;
  }
}
