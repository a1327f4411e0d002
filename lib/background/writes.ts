/**
 * The write messages, routed to lib/writes (the one owner of a write's lifecycle). Only what
 * needs the sender stays here: the per-tab draft rate and the capture of the page's article.
 */
import { t } from '@/lib/i18n';
import { browser } from 'wxt/browser';
import { broadcast } from '@/lib/events';
import { log } from '@/lib/log';
import { HandledError, type ClassifiedSender, type HandlerRegistry } from '@/lib/messaging';
import {
  confirmWrite,
  discardWrite,
  getWrite,
  openWrites,
  pushWriteChangesTo,
  queuePageDraft,
  queueWrite,
  retryWrite,
  reviewWrite,
  showWrite,
  type Viewer,
} from '@/lib/writes/owner';
import { getSettings } from '@/lib/store/settings';
import { takeDraftSlot } from './draftRate';
import { captureArticleDraft } from './pageCapture';

export {
  draftOfRetryAlarm,
  playbookOfWriteNotification,
  queuePageDraft,
  recoverInterruptedWrites,
  resendDeferredWrite,
  writeRetryAlarm,
} from '@/lib/writes/owner';

/** The extension page's tab and its window, as the browser reports them; none for a tab-less page. */
async function viewerOf(sender: ClassifiedSender): Promise<Viewer | undefined> {
  if (sender.kind !== 'extension-page' || sender.tabId === undefined || sender.tabId < 0) return undefined;
  const tabId = sender.tabId;
  const tab = await browser.tabs.get(tabId).catch(() => undefined);
  return typeof tab?.windowId === 'number' ? { tabId, windowId: tab.windowId } : undefined;
}

export function registerWriteHandlers(registry: HandlerRegistry): void {
  // Open pages learn of every draft change by push over their port, never by polling.
  pushWriteChangesTo((change) => broadcast({ type: 'outbox', change }));
  registry.register('submitPageDraft', async ({ draft, capture }, sender) => {
    // A page may not flood the user with confirm windows: a few drafts per tab per minute.
    if (sender.kind === 'content-script' && !(await takeDraftSlot(sender.tabId))) {
      log.warn('outbox.draft-rate-limited', { tabId: sender.tabId });
      throw new HandledError({
        code: 'too-many-drafts',
        message: t('errors.worker.tooManyDrafts'),
      });
    }
    const captured =
      capture && sender.kind === 'content-script'
        ? await captureArticleDraft(sender.tabId, capture.selection)
        : undefined;
    return { draftId: await queuePageDraft('content-script', captured ?? draft) };
  });
  registry.register('requestWrite', async ({ operationId, playbookId, body, ifMatch }) => {
    const settings = await getSettings();
    log.info('write.requested', { operationId, service: settings.serviceUrl });
    return { draftId: await queueWrite(operationId, { playbookId, body, ifMatch }) };
  });
  // A token is issued to, and spent by, only the draft's own window (its tab), never any extension page.
  registry.register('getPendingWrite', async ({ id }, sender) => showWrite(id, await viewerOf(sender)));
  registry.register('confirmWrite', async ({ id, token, body, typed }, sender) =>
    confirmWrite(id, token, body, typed, await viewerOf(sender)),
  );
  registry.register('retryWrite', ({ id }) => retryWrite(id));
  registry.register('reviewWrite', ({ id }) => reviewWrite(id));
  registry.register('discardDraft', ({ id }) => discardWrite(id));
  registry.register('getDraft', ({ id }) => getWrite(id));
  registry.register('listOutbox', () => openWrites());
}
