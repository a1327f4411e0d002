/**
 * Sending a confirmed write: the claim, the one request, and what follows its answer (settled,
 * failed with a retry alarm, or refused), the success notification and the page it may open.
 */
import { browser } from 'wxt/browser';
import { isApiError, openableUrl, writeSpec, writeWords, type Sending, type WriteOperation } from '@/lib/api';
import { serviceClient } from '@/lib/api/service';
import { getSettings } from '@/lib/store/settings';
import { HandledError } from '@/lib/messaging';
import { whyNotTheSame } from './resolve';
import { bindingOfIntent, bodyDigest, operationDigest } from './token';
import { joinSentences, t } from '@/lib/i18n';
import { log } from '@/lib/log';
import { ALARMS, NOTIFICATIONS } from '@/lib/store/inventory';
import { clearPopupSnapshot } from '@/lib/store/snapshot';
import { apiCode, meaningOf, refusalCode, WRITE_ERRORS, type WriteErrorCode } from './errors';
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
 * The last check, just before the request leaves: the intent still holds for what the API client
 * is about to send (the route and contract the document gives now, the key it will send, the API
 * URL, the stored body), then the step claimed → sent. A throw sends nothing.
 */
function lastCheck(claimed: Entry, onSent: (sent: Entry) => void): (sending: Sending) => Promise<void> {
  return async (sending) => {
    const intent = claimed.draft.confirmed;
    if (!intent) throw refusal('not-shown', t('errors.write.confirmedUnbound'));
    const settings = await getSettings();
    const bound = await bindingOfIntent(intent);
    const changed = whyNotTheSame(bound, {
      ...sending.resolution,
      operationDigest: await operationDigest(sending.contract),
      bodyDigest: await bodyDigest(claimed.draft.body),
      // An operation that sends no key binds none.
      keyFingerprint: sending.requiresAuth ? sending.keyFingerprint : bound.keyFingerprint,
      apiOrigin: new URL(sending.apiUrl).origin,
      apiUrl: sending.apiUrl,
      serviceUrl: settings.serviceUrl,
    });
    if (changed) throw new RefusedBeforeSending(changed.code, changed.message);
    const sent = await move(claimed, 'send');
    if (!sent) throw notFree((await readWrite<WriteDraft>(claimed.id)) ?? undefined);
    onSent(sent);
  };
}

/** The last check found the intent changed: the write is refused, nothing was sent. */
class RefusedBeforeSending extends Error {
  constructor(
    readonly code: 'not-shown' | 'operation-changed' | 'account-changed',
    message: string,
  ) {
    super(message);
  }
}

/** Stores why a write that left (or was about to) failed; a long rate-limit wait becomes an alarm. */
async function recordFailure(current: Entry, error: unknown): Promise<void> {
  if (error instanceof RefusedBeforeSending) return refuse(current, error.code, error.message);
  if (isApiError(error) && error.kind === 'unconfirmed-write')
    return refuse(current, refusalCode(error.code), error.message);
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
    await browser.alarms.create(writeRetryAlarm(current.id), { when: Math.max(retryAt, Date.now() + 1_000) });
  }
  const draft = current.draft;
  await move(current, 'fail', {
    draft: meaning.mayHaveLanded && current.state === 'sent' ? { ...draft, mayHaveLanded: true } : draft,
    error: {
      message: waits ? t('errors.write.sentAgainLater', { message }) : message,
      retryAt: waits ? retryAt : undefined,
      code,
      problemCode: isApiError(error) ? error.code : undefined,
    },
  });
  log.warn('write.failed', { draftId: current.id, operationId: current.operationId, error });
}

/**
 * Claims the confirmed intent (a window's Confirm: confirmed → claimed; a resend: failed →
 * claimed) in one IndexedDB transaction and hands it to the API client, whose request leaves only
 * once the last check found the intent still holds; then stores what followed. A long rate-limit
 * wait is not slept in the worker: an alarm sends the same request again when the service allows.
 */
export async function sendConfirmed(
  entry: Entry,
  mayClaim: (current: Entry) => boolean = () => true,
): Promise<Entry> {
  const id = entry.id;
  const operationId: WriteOperation = entry.operationId;
  const claimed = await move(entry, 'claim', { error: undefined }, mayClaim);
  if (!claimed?.draft.confirmed) throw notFree((await readWrite<WriteDraft>(id)) ?? undefined);
  let current: Entry = claimed;
  let response;
  try {
    // The client as it stands now (a document refreshed since Confirm included), checked just before.
    const client = await serviceClient(await getSettings());
    const toSend = { intent: claimed.draft.confirmed, playbookId: playbookIdOf(claimed.draft) };
    response = await client.write(toSend, { beforeSend: lastCheck(claimed, (sent) => (current = sent)) });
  } catch (error) {
    if (!(error instanceof HandledError)) await recordFailure(current, error);
    throw error instanceof RefusedBeforeSending ? refusal(error.code, error.message) : error;
  }
  const draft = current.draft;
  const sent = current;

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
