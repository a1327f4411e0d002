/**
 * Sending a confirmed write: the claim, the one request, and what follows its answer (settled,
 * failed with a retry alarm, or refused), the success notification and the page it may open.
 */
import { browser } from 'wxt/browser';
import {
  isApiError,
  openableUrl,
  writeSpec,
  writeWords,
  type ApiClient,
  type WriteOperation,
} from '@/lib/api';
import { joinSentences, t } from '@/lib/i18n';
import { log } from '@/lib/log';
import { ALARMS, NOTIFICATIONS } from '@/lib/store/inventory';
import { clearPopupSnapshot } from '@/lib/store/snapshot';
import { apiCode, meaningOf, refusalCode, WRITE_ERRORS, type WriteErrorCode } from './errors';
import type { HandledError } from '@/lib/messaging';
import { playbookIdOf, readWrite, type WriteDraft } from './outbox';
import { move, refusal, refuse, type Entry } from './transitions';

const PLAYBOOK_NOTIFICATION = NOTIFICATIONS.writtenPlaybook.idPrefix;

/** The playbook's title as typed, why a page was not opened (as the check said), and what a click does. */
function successMessage(name: string | undefined, urlRefused: string | undefined, opens: boolean): string {
  return joinSentences(
    name ? t('notifications.sentence', { text: name }) : '',
    urlRefused,
    opens ? t('notifications.clickToOpen') : '',
    t('notifications.disclaimer'),
  );
}

/** The notification id carries the playbook id, so a click still works after the worker restarted. */
async function notifySuccess(entry: Entry, playbookId?: string, urlRefused?: string): Promise<void> {
  const name = typeof entry.draft.body?.title === 'string' ? entry.draft.body.title : undefined;
  const id = playbookId
    ? `${PLAYBOOK_NOTIFICATION}${playbookId}`
    : `${NOTIFICATIONS.write.idPrefix}${entry.id}`;
  await browser.notifications.create(id, {
    type: 'basic',
    iconUrl: browser.runtime.getURL('/icon/128.png'),
    title: writeWords(entry.operationId).successTitle,
    message: successMessage(name, urlRefused, Boolean(playbookId)),
  });
}

/** The playbook a success notification opens, or undefined for any other id. */
export function playbookOfWriteNotification(notificationId: string): string | undefined {
  if (!notificationId.startsWith(PLAYBOOK_NOTIFICATION)) return undefined;
  return notificationId.slice(PLAYBOOK_NOTIFICATION.length) || undefined;
}

/** Why a claim or a confirmation found the entry not free: busy, or no longer what was checked. */
export function notFree(current: Entry | undefined): HandledError {
  const busy = !current || ['confirmed', 'claimed', 'sent', 'settled'].includes(current.state);
  return busy ? refusal('write-in-progress', t('errors.write.busy')) : refusal('not-shown');
}

/**
 * Claims the confirmed intent (a window's Confirm: confirmed → claimed; a resend: failed →
 * claimed) in one IndexedDB transaction, hands it to the API client, which sends exactly that
 * intent or nothing, and stores what followed. A long rate-limit wait is not slept in the worker:
 * an alarm sends the same request again when the service allows it.
 */
export async function sendConfirmed(
  entry: Entry,
  client: ApiClient,
  mayClaim: (current: Entry) => boolean = () => true,
): Promise<Entry> {
  const id = entry.id;
  const operationId: WriteOperation = entry.operationId;
  const claimed = await move(entry, 'claim', { error: undefined }, mayClaim);
  if (!claimed) throw notFree((await readWrite<WriteDraft>(id)) ?? undefined);
  const sent = await move(claimed, 'send');
  if (!sent) throw notFree((await readWrite<WriteDraft>(id)) ?? undefined);
  const draft = sent.draft;

  let response;
  try {
    response = await client.write(sent);
  } catch (error) {
    if (isApiError(error) && error.kind === 'unconfirmed-write') {
      await refuse(sent, refusalCode(error.code), error.message);
      throw error;
    }
    const retryAt = isApiError(error) ? error.retryAt : undefined;
    const code: WriteErrorCode = isApiError(error) ? apiCode(error.kind) : 'internal';
    const meaning = meaningOf(code);
    const waits = meaning.next === 'wait' && retryAt !== undefined;
    const message = !isApiError(error)
      ? WRITE_ERRORS.internal.message
      : code === 'api.idempotency-mismatch'
        ? WRITE_ERRORS['api.idempotency-mismatch'].message
        : error.message;
    if (waits) {
      await browser.alarms.create(writeRetryAlarm(id), { when: Math.max(retryAt, Date.now() + 1_000) });
    }
    await move(sent, 'fail', {
      draft: meaning.mayHaveLanded ? { ...draft, mayHaveLanded: true } : draft,
      error: {
        message: waits ? t('errors.write.sentAgainLater', { message }) : message,
        retryAt: waits ? retryAt : undefined,
        code,
        problemCode: isApiError(error) ? error.code : undefined,
      },
    });
    log.warn('write.failed', { draftId: id, operationId, error });
    throw error;
  }

  const data = (response.data ?? {}) as Record<string, unknown>;
  const spec = writeSpec(operationId);
  const playbookId = spec.answerNamesPlaybook && typeof data.id === 'string' ? data.id : playbookIdOf(draft);
  // Only this operation's own answer may open a page, and only over https (http on loopback).
  const urlField = spec.opensUrlFrom;
  const openable = urlField ? openableUrl(data[urlField]) : undefined;
  const url = openable?.ok ? openable.url : undefined;
  const urlRefused = openable && !openable.ok ? openable.reason : undefined;
  const settled = await move(sent, 'settle', {
    draft: { ...draft, result: { playbookId, url, urlRefused } },
  });
  log.info('write.sent', { draftId: id, operationId, replayed: response.idempotentReplayed });
  if (urlRefused) log.warn('write.url-refused', { draftId: id, operationId });
  // The read model's cache holds what this write changed (lists, drafts): it is read again.
  await clearPopupSnapshot();
  if (url) await browser.tabs.create({ url });
  await notifySuccess(entry, playbookId, urlRefused).catch((error: unknown) =>
    log.warn('notify.failed', { error }),
  );
  return settled ?? sent;
}

/** The alarm that resends a write the service asked us to hold back (429 with a long wait). */
export function writeRetryAlarm(draftId: string): string {
  return `${ALARMS.writeRetry.namePrefix}${draftId}`;
}

/** The draft a write-retry alarm resends, or undefined for any other alarm. */
export function draftOfRetryAlarm(alarmName: string): string | undefined {
  const prefix = ALARMS.writeRetry.namePrefix;
  return alarmName.startsWith(prefix) ? alarmName.slice(prefix.length) || undefined : undefined;
}
