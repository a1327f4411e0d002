/**
 * The write messages, routed to lib/writes (the one owner of a write's lifecycle). Only what
 * needs the sender stays here: the per-tab draft rate and the capture of the page's article.
 */
import { broadcast } from '@/lib/events';
import { log } from '@/lib/log';
import { HandledError, type HandlerRegistry } from '@/lib/messaging';
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

export function registerWriteHandlers(registry: HandlerRegistry): void {
  // Open pages learn of every draft change by push over their port, never by polling.
  pushWriteChangesTo((change) => broadcast({ type: 'outbox', change }));
  registry.register('submitPageDraft', async ({ draft, capture }, sender) => {
    // A page may not flood the user with confirm windows: a few drafts per tab per minute.
    if (sender.kind === 'content-script' && !(await takeDraftSlot(sender.tabId))) {
      log.warn('outbox.draft-rate-limited', { tabId: sender.tabId });
      throw new HandledError({
        code: 'too-many-drafts',
        message: 'This page asked for too many playbooks in a short time. Wait a minute, then try again.',
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
  registry.register('getPendingWrite', ({ id }) => showWrite(id));
  registry.register('confirmWrite', ({ id, token, body, typed }) => confirmWrite(id, token, body, typed));
  registry.register('retryWrite', ({ id }) => retryWrite(id));
  registry.register('reviewWrite', ({ id }) => reviewWrite(id));
  registry.register('discardDraft', ({ id }) => discardWrite(id));
  registry.register('getDraft', ({ id }) => getWrite(id));
  registry.register('listOutbox', () => openWrites());
}
