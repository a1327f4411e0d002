import { render } from 'preact';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { createShadowRootUi, type ShadowRootContentScriptUi } from 'wxt/utils/content-script-ui/shadow-root';
import { MAX_CAPTURE_SELECTION } from '@/lib/finance/captureGlobal';
import { buildDraft, pageTickers, type PlaybookDraft } from '@/lib/finance/draft';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { answerPageTickers } from '@/lib/messaging/pageTickers';
import { clickRefusal, effectiveOpacity, REFUSAL_MESSAGE } from './clickGuard';
import { dismiss, isDismissed } from './dismissals';
import { PlaybookButton, type ButtonClick } from './PlaybookButton';

/**
 * The draft for what the page shows right now (URL, DOM, selection); all of it untrusted, checked
 * again by the background. Undefined on a page that cannot be cited (not http or https).
 */
export function draftOfPage(selection = selectionOfPage()): PlaybookDraft | undefined {
  try {
    return buildDraft({ url: location.href, title: document.title, document, selection });
  } catch {
    return undefined;
  }
}

/**
 * The tickers the page names, its selection left out (lib/finance/draft.ts `pageTickers`): what
 * the offer counts and what the worker is answered for "On this page".
 */
export function tickersOfPage(): string[] {
  try {
    return pageTickers(location.href, document);
  } catch {
    return [];
  }
}

/** What the reader selected, bounded before anything else reads it. */
function selectionOfPage(): string {
  return (globalThis.getSelection()?.toString() ?? '').slice(0, MAX_CAPTURE_SELECTION);
}

/** Only the top frame of an http(s) page offers the button: never ads, embeds or other frames. */
export function shouldOffer(): boolean {
  return globalThis.top === globalThis.self && /^https?:$/.test(location.protocol);
}

/** How long a single-page app's navigation is given to draw its new view before it is read. */
const SPA_SETTLE_MS = 250;

/**
 * Offers "Turn this into a playbook" on a finance page, in a closed shadow root that neither styles
 * nor shifts the page. Re-detects on single-page-app navigation and stops quietly once the
 * extension context is invalidated (after an update).
 */
export async function startOffer(ctx: ContentScriptContext, offerCss: string): Promise<void> {
  if (!shouldOffer()) return;
  // "On this page" in the popup and side panel works even where the offer is hidden: the worker
  // asks this script for the page's tickers when they ask.
  ctx.onInvalidated(answerPageTickers(tickersOfPage));
  try {
    if (await isDismissed(location.host)) return;
  } catch {
    return; // The extension context went away while we asked: nothing to offer.
  }
  let container: HTMLElement | undefined;
  let busy = false;
  let message: string | undefined;
  let tickers: string[] = [];
  let tracked = 0;
  let host: HTMLElement | undefined;
  let lastSeenVisible: boolean | undefined;
  // Set after mount; onRemove may run later and must stop it.
  const watch: { visibility?: IntersectionObserver } = {};

  // The page's tickers now, drawn at once, then how many of the user's playbooks track them.
  const readPage = () => {
    tickers = tickersOfPage();
    paint();
    void countMatches(tickers).then((matches) => {
      tracked = matches;
      paint();
    });
  };

  const paint = () => {
    if (!container || ctx.isInvalid) return;
    render(
      <PlaybookButton
        busy={busy}
        message={message}
        tickers={tickers}
        tracked={tracked}
        onActivate={(click) => void activate(click)}
        onDismiss={(click) => void hide(click)}
      />,
      container,
    );
  };

  /** Refuses synthetic clicks and clicks on a covered or faded offer; says why on the offer. */
  const refused = (click: ButtonClick): boolean => {
    if (!host) return true;
    const shown = host;
    const refusal = clickRefusal(click, {
      host: shown,
      topElementAt: (x, y) => document.elementFromPoint(x, y),
      effectiveOpacity: () => effectiveOpacity(shown),
      lastSeenVisible,
    });
    if (!refusal) return false;
    message = REFUSAL_MESSAGE[refusal];
    paint();
    return true;
  };

  const activate = async (click: ButtonClick) => {
    if (busy || ctx.isInvalid || refused(click)) return;
    const selection = selectionOfPage();
    const draft = draftOfPage(selection);
    if (!draft) {
      message = 'This page cannot be turned into a playbook.';
      paint();
      return;
    }
    busy = true;
    message = undefined;
    paint();
    try {
      // The worker reads the article now (Readability, injected on this click); `draft` is its fallback.
      await sendMessage('submitPageDraft', { draft, capture: { selection } });
      message = 'Draft saved. Review it in the window that opened.';
    } catch (error) {
      if (ctx.isInvalid || (error instanceof MessageError && error.code === 'context-invalidated')) {
        ui.remove();
        return;
      }
      message = error instanceof MessageError ? error.message : 'Could not create the draft. Try again.';
    } finally {
      busy = false;
      paint();
    }
  };

  const hide = async (click: ButtonClick) => {
    if (refused(click)) return;
    ui.remove();
    try {
      await dismiss(location.host);
    } catch {
      // Hidden for this page view at least; the context may have gone away.
    }
  };

  const ui: ShadowRootContentScriptUi<void> = await createShadowRootUi(ctx, {
    name: 'playbook-companion-offer',
    mode: 'closed',
    css: offerCss,
    position: 'inline',
    anchor: 'body',
    append: 'last',
    onMount(root, _shadow, shadowHost) {
      container = root;
      host = shadowHost;
      readPage();
    },
    onRemove() {
      if (container) render(null, container);
      container = undefined;
      host = undefined;
      watch.visibility?.disconnect();
    },
  });
  if (ctx.isInvalid) return;
  ui.mount();
  raiseToTopLayer(ui.shadowHost);
  // The host is an empty box: the drawn offer inside it is what the browser can see occluded.
  watch.visibility = watchVisibility(container?.querySelector('.offer') ?? ui.shadowHost, (visible) => {
    lastSeenVisible = visible;
  });
  ctx.onInvalidated(() => ui.remove());
  let settling: number | undefined;
  ctx.addEventListener(globalThis as unknown as Window, 'wxt:locationchange', () => {
    message = undefined;
    tracked = 0;
    paint();
    // WXT reports the navigation before the address changes, and an app draws the new view after
    // that: the page is read once it has been quiet a moment (and once for a burst of them).
    clearTimeout(settling);
    settling = ctx.setTimeout(readPage, SPA_SETTLE_MS);
  });
}

/**
 * How many of the user's playbooks track this page's tickers: a count only, never a title, since
 * this runs in the page.
 */
async function countMatches(tickers: string[]): Promise<number> {
  try {
    const { matches } = await sendMessage('countPageMatches', { tickers });
    return matches;
  } catch {
    return 0; // Not configured, or the extension context went away: nothing to say.
  }
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

/** IntersectionObserver v2 (Chromium): tells when the host is occluded, faded or distorted. */
function watchVisibility(
  target: Element,
  report: (visible: boolean) => void,
): IntersectionObserver | undefined {
  if (typeof IntersectionObserver !== 'function') return undefined;
  try {
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const visible = (entry as IntersectionObserverEntry & { isVisible?: boolean }).isVisible;
          if (typeof visible === 'boolean') report(visible);
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
