import { render } from 'preact';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { createShadowRootUi, type ShadowRootContentScriptUi } from 'wxt/utils/content-script-ui/shadow-root';
import { PlaybookButton } from '@/components/PlaybookButton';
import { buildDraft } from '@/lib/finance/draft';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { dismiss, isDismissed } from './dismissals';

/** Builds the draft from what the page shows right now (URL, DOM, selection); all of it untrusted. */
function currentDraft() {
  return buildDraft({
    url: location.href,
    title: document.title,
    document,
    selection: globalThis.getSelection()?.toString() ?? '',
  });
}

/**
 * Offers "Turn this into a playbook" on a finance page, in a shadow root that neither styles nor
 * shifts the page. Re-detects on single-page-app navigation and stops quietly once the extension
 * context is invalidated (after an update).
 */
export async function startOffer(ctx: ContentScriptContext): Promise<void> {
  if (await isDismissed(location.host)) return;
  let container: HTMLElement | undefined;
  let busy = false;
  let message: string | undefined;

  const paint = () => {
    if (!container || ctx.isInvalid) return;
    const { tickers } = currentDraft();
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
    busy = true;
    message = undefined;
    paint();
    try {
      await sendMessage('submitPageDraft', { draft: currentDraft() });
      message = 'Draft saved. Review it in the window that opened.';
    } catch (error) {
      if (error instanceof MessageError && error.code === 'context-invalidated') {
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
    await dismiss(location.host);
  };

  const ui: ShadowRootContentScriptUi<void> = await createShadowRootUi(ctx, {
    name: 'playbook-companion-offer',
    position: 'inline',
    anchor: 'body',
    append: 'last',
    onMount(root) {
      container = root;
      paint();
    },
    onRemove() {
      if (container) render(null, container);
      container = undefined;
    },
  });
  ui.mount();
  ctx.addEventListener(globalThis as unknown as Window, 'wxt:locationchange', () => {
    message = undefined;
    paint();
  });
}
