import { render } from 'preact';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { createShadowRootUi, type ShadowRootContentScriptUi } from 'wxt/utils/content-script-ui/shadow-root';
import { PlaybookButton } from '@/components/PlaybookButton';
// Inlined into the shadow root: no web-accessible CSS file, and sites registered at run time get it too.
import offerCss from '@/components/PlaybookButton.css?inline';
import { buildDraft, type PlaybookDraft } from '@/lib/finance/draft';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { dismiss, isDismissed } from './dismissals';

/**
 * The draft for what the page shows right now (URL, DOM, selection); all of it untrusted, checked
 * again by the background. Undefined on a page that cannot be cited (not http or https).
 */
export function draftOfPage(): PlaybookDraft | undefined {
  try {
    return buildDraft({
      url: location.href,
      title: document.title,
      document,
      selection: globalThis.getSelection()?.toString() ?? '',
    });
  } catch {
    return undefined;
  }
}

/** Only the top frame of an http(s) page offers the button: never ads, embeds or other frames. */
export function shouldOffer(): boolean {
  return globalThis.top === globalThis.self && /^https?:$/.test(location.protocol);
}

/**
 * Offers "Turn this into a playbook" on a finance page, in a closed shadow root that neither styles
 * nor shifts the page. Re-detects on single-page-app navigation and stops quietly once the
 * extension context is invalidated (after an update).
 */
export async function startOffer(ctx: ContentScriptContext): Promise<void> {
  if (!shouldOffer()) return;
  try {
    if (await isDismissed(location.host)) return;
  } catch {
    return; // The extension context went away while we asked: nothing to offer.
  }
  let container: HTMLElement | undefined;
  let busy = false;
  let message: string | undefined;
  let tickers: string[] = [];

  const detect = () => {
    tickers = draftOfPage()?.tickers ?? [];
  };

  const paint = () => {
    if (!container || ctx.isInvalid) return;
    render(
      <PlaybookButton
        busy={busy}
        message={message}
        tickers={tickers}
        onActivate={() => void activate()}
        onDismiss={() => void hide()}
      />,
      container,
    );
  };

  const activate = async () => {
    if (busy || ctx.isInvalid) return;
    const draft = draftOfPage();
    if (!draft) {
      message = 'This page cannot be turned into a playbook.';
      paint();
      return;
    }
    busy = true;
    message = undefined;
    paint();
    try {
      await sendMessage('submitPageDraft', { draft });
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

  const hide = async () => {
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
    onMount(root) {
      container = root;
      detect();
      paint();
    },
    onRemove() {
      if (container) render(null, container);
      container = undefined;
    },
  });
  if (ctx.isInvalid) return;
  ui.mount();
  ctx.onInvalidated(() => ui.remove());
  ctx.addEventListener(globalThis as unknown as Window, 'wxt:locationchange', () => {
    message = undefined;
    detect();
    paint();
  });
}
