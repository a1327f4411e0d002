import { browser } from 'wxt/browser';
import {
  canonicalJson,
  describeResolution,
  isApiError,
  isWriteOperation,
  newIdempotencyKey,
  openableUrl,
  sameResolution,
  writeSpec,
  type ApiClient,
  type ConfirmedIntent,
  type WriteOperation,
  type WriteResolution,
} from '@/lib/api';
import { sanitizeDraft } from '@/lib/finance/schema';
import { normalizeTicker } from '@/lib/finance/symbols';
import { log } from '@/lib/log';
import { fieldErrors, HandledError, type HandlerRegistry, type PendingWrite } from '@/lib/messaging';
import {
  addToOutbox,
  claimForSending,
  getOutboxEntry,
  listOutbox,
  playbookIdOf,
  removeFromOutbox,
  updateOutboxEntry,
  type DraftOrigin,
  type OutboxEntry,
  type WriteDraft,
} from '@/lib/store/outbox';
import { openConfirmWindow } from '@/lib/pages/navigation';
import { ALARMS, NOTIFICATIONS } from '@/lib/store/inventory';
import { keyFingerprint } from '@/lib/store/apiKey';
import { getSettings } from '@/lib/store/settings';
import { takeDraftSlot } from './draftRate';
import { readCache, serviceClient } from '@/lib/api/service';
import { captureArticleDraft } from './pageCapture';

const SENT_KEPT_MS = 24 * 60 * 60 * 1000;
const WAIT_KINDS = new Set(['deferred', 'rate-limited']);
/** Failures after which the service may have committed the write: its key must not change. */
const MAY_HAVE_LANDED = new Set(['network', 'timeout', 'server', 'malformed-response', 'interrupted']);
/** The outbox error code of a draft that must be confirmed again before anything is sent. */
const NEEDS_CONFIRMATION = 'operation-changed';

function normalizeTickers(body: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(body.tickers)) return body;
  const tickers: unknown[] = body.tickers;
  return { ...body, tickers: tickers.map((raw) => normalizeTicker(raw) ?? raw) };
}

/** The body that will be sent: the stored draft, with the user's edits where the operation allows them. */
function confirmedBody(
  entry: OutboxEntry<WriteDraft>,
  edits: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const stored = entry.draft.body;
  if (!edits) return stored;
  const schema = writeSpec(entry.operationId).editableBody?.schema;
  if (!schema) return stored;
  const parsed = schema.safeParse(normalizeTickers({ ...stored, ...edits }));
  if (!parsed.success)
    throw new HandledError({
      code: 'invalid-draft',
      message: 'Some fields need attention.',
      fields: fieldErrors(parsed.error, 'body'),
    });
  return parsed.data;
}

async function queueDraft(
  origin: DraftOrigin,
  operationId: WriteOperation,
  draft: WriteDraft,
): Promise<string> {
  const entry = await addToOutbox<WriteDraft>({ origin, operationId, draft });
  log.info('outbox.queued', { draftId: entry.id, operationId, origin });
  await openConfirmWindow(entry.id);
  return entry.id;
}

/** The stored entry of a write, refusing one whose operation this version does not know. */
async function writeEntry(id: string): Promise<OutboxEntry<WriteDraft>> {
  const entry = await getOutboxEntry<WriteDraft>(id);
  if (!entry) throw new HandledError({ code: 'draft-not-found', message: 'This draft no longer exists.' });
  if (!isWriteOperation(entry.operationId))
    throw new HandledError({
      code: 'invalid-draft',
      message: 'This draft is not a write the extension knows.',
    });
  return entry;
}

/** A draft from page text (content script or menu): untrusted until the schema says otherwise. */
export async function queuePageDraft(origin: DraftOrigin, draft: unknown): Promise<string> {
  const checked = sanitizeDraft(draft);
  if (!checked.ok) {
    const fields = Object.fromEntries(checked.errors.map((error) => [error.path || 'draft', error.message]));
    throw new HandledError({
      code: 'invalid-draft',
      message: 'The page did not give a usable draft.',
      fields,
    });
  }
  return queueDraft(origin, 'createPlaybook', { body: checked.draft });
}

async function typedConfirmationFor(
  entry: OutboxEntry<WriteDraft>,
  client: ApiClient,
): Promise<string | undefined> {
  const rule = writeSpec(entry.operationId).typedConfirmation;
  if (rule === undefined) return undefined;
  if (rule === 'plan') {
    const plan = entry.draft.body?.plan;
    return typeof plan === 'string' ? plan : '';
  }
  const playbookId = playbookIdOf(entry.draft);
  if (!playbookId)
    throw new HandledError({ code: 'invalid-draft', message: 'This action names no playbook.' });
  return (await client.call('getPlaybook', { playbookId })).data.title;
}

/** How the document resolves this draft's write now: the operation itself, its method and full URL. */
function resolutionOf(client: ApiClient, entry: OutboxEntry<WriteDraft>) {
  return client.resolveWrite(entry.operationId, playbookIdOf(entry.draft));
}

function shownOf(resolution: WriteResolution): WriteResolution {
  return { operationId: resolution.operationId, method: resolution.method, url: resolution.url };
}

/**
 * Nothing is sent: the draft keeps its body and key, loses its confirmation, and waits for the
 * user to confirm again in the window, which shows the operation as it now resolves.
 */
async function requireConfirmationAgain(
  entry: OutboxEntry<WriteDraft>,
  message: string,
  shown?: WriteResolution,
): Promise<void> {
  await updateOutboxEntry<WriteDraft>(entry.id, {
    status: 'failed',
    draft: { ...entry.draft, confirmed: undefined, shown },
    error: { message, code: NEEDS_CONFIRMATION },
  });
  log.warn('write.needs-confirmation', { draftId: entry.id, operationId: entry.operationId });
}

async function pendingWrite(id: string): Promise<PendingWrite> {
  let entry = await writeEntry(id);
  const spec = writeSpec(entry.operationId);
  // The window shows the operation as the document resolves it now, not as it did a minute ago.
  const client = await serviceClient(undefined, { fresh: true });
  const result: PendingWrite = { entry, consequence: spec.consequence };
  try {
    const resolution = resolutionOf(client, entry);
    result.resolved = {
      method: resolution.method,
      url: resolution.url,
      path: describeResolution(resolution).slice(resolution.method.length + 1),
      deprecated: resolution.deprecated,
      warnings: resolution.warnings,
    };
    const shown = shownOf(resolution);
    if (
      (entry.status === 'pending' || entry.status === 'failed') &&
      !(entry.draft.shown && sameResolution(entry.draft.shown, shown))
    ) {
      entry = (await updateOutboxEntry<WriteDraft>(id, { draft: { ...entry.draft, shown } })) ?? entry;
      result.entry = entry;
    }
  } catch (error) {
    if (!isApiError(error)) throw error;
    result.refusal = error.message;
  }
  try {
    const account = (await client.call('getAccount')).data;
    result.account = { name: account.name, email: account.email, plan: account.plan };
  } catch (error) {
    log.warn('confirm.account-unavailable', { error });
  }
  if (result.refusal === undefined) result.typeToConfirm = await typedConfirmationFor(entry, client);
  return result;
}

const PLAYBOOK_NOTIFICATION = NOTIFICATIONS.writtenPlaybook.idPrefix;

/** The notification id carries the playbook id, so a click still works after the worker restarted. */
async function notifySuccess(
  entry: OutboxEntry<WriteDraft>,
  playbookId?: string,
  urlRefused?: string,
): Promise<void> {
  const name = typeof entry.draft.body?.title === 'string' ? entry.draft.body.title : undefined;
  const id = playbookId
    ? `${PLAYBOOK_NOTIFICATION}${playbookId}`
    : `${NOTIFICATIONS.write.idPrefix}${entry.id}`;
  await browser.notifications.create(id, {
    type: 'basic',
    iconUrl: browser.runtime.getURL('/icon/128.png'),
    title: writeSpec(entry.operationId).successTitle,
    message: `${name ? `${name}. ` : ''}${urlRefused ? `${urlRefused} ` : ''}${playbookId ? 'Click to open it. ' : ''}Decision support, not financial advice.`,
  });
}

/** The playbook a success notification opens, or undefined for any other id. */
export function playbookOfWriteNotification(notificationId: string): string | undefined {
  if (!notificationId.startsWith(PLAYBOOK_NOTIFICATION)) return undefined;
  return notificationId.slice(PLAYBOOK_NOTIFICATION.length) || undefined;
}

/**
 * The user's Confirm (or Retry): resolves the operation again from the document as it is now; if
 * that is not what the window showed, nothing is sent and the window shows the new resolution.
 * Otherwise checks the typed name and the edits, binds the intent into the entry and sends it.
 */
async function confirmWrite(
  id: string,
  edits: Record<string, unknown> | undefined,
  typed: string | undefined,
): Promise<OutboxEntry<WriteDraft>> {
  const entry = await writeEntry(id);
  if (entry.status === 'sent')
    throw new HandledError({ code: 'draft-already-sent', message: 'This draft was already sent.' });
  if (entry.status === 'sending')
    throw new HandledError({ code: 'write-in-progress', message: 'This write is already being sent.' });
  const settings = await getSettings();
  const client = await serviceClient(settings, { fresh: true });
  const resolution = shownOf(resolutionOf(client, entry));
  const shown = entry.draft.shown;
  if (!shown || !sameResolution(shown, resolution)) {
    const message = shown
      ? `The service changed how this action is sent (was ${describeResolution(shown)}, now ${describeResolution(resolution)}). Nothing was sent. Review and confirm again.`
      : 'This action has not been shown in the confirm window as it is sent now. Nothing was sent. Review and confirm again.';
    await requireConfirmationAgain(entry, message, resolution);
    throw new HandledError({ code: NEEDS_CONFIRMATION, message });
  }
  const expected = await typedConfirmationFor(entry, client);
  if (expected !== undefined && (typed ?? '').trim() !== expected.trim()) {
    throw new HandledError({
      code: 'typed-confirmation',
      message: `Type “${expected}” exactly to confirm.`,
      fields: { typed: 'Does not match.' },
    });
  }
  const body = confirmedBody(entry, edits);
  const sameBody = canonicalJson(body ?? null) === canonicalJson(entry.draft.body ?? null);
  // After a failure that may have reached the service, the key stays even for an edited body: if
  // the first attempt landed, the service answers 422 instead of writing a second playbook.
  const mayHaveLanded =
    entry.draft.mayHaveLanded === true ||
    (entry.status === 'failed' && MAY_HAVE_LANDED.has(entry.error?.code ?? ''));
  const idempotencyKey =
    entry.draft.idempotencyKey && (sameBody || mayHaveLanded)
      ? entry.draft.idempotencyKey
      : newIdempotencyKey();
  const confirmed: ConfirmedIntent = {
    ...resolution,
    body: body === undefined ? null : canonicalJson(body),
    ifMatch: entry.draft.ifMatch,
    idempotencyKey,
    keyFingerprint: await keyFingerprint(),
    serviceUrl: settings.serviceUrl,
    apiUrl: settings.apiUrl,
  };
  const draft: WriteDraft = { ...entry.draft, body, idempotencyKey, mayHaveLanded, confirmed };
  return sendConfirmed(entry, draft, client);
}

/**
 * Claims the entry with its confirmed intent in one IndexedDB transaction and hands the claimed
 * entry to the client, which sends exactly that intent or nothing. A long rate-limit wait is not
 * slept in the worker: an alarm sends the same request again when the service allows it.
 */
async function sendConfirmed(
  entry: OutboxEntry<WriteDraft>,
  draft: WriteDraft,
  client: ApiClient,
): Promise<OutboxEntry<WriteDraft>> {
  const id = entry.id;
  const operationId: WriteOperation = entry.operationId;
  const claimed = await claimForSending<WriteDraft>(id, draft);
  if (!claimed) {
    throw new HandledError({
      code: 'write-in-progress',
      message: 'This write is already being sent, or was sent.',
    });
  }

  let response;
  try {
    response = await client.write(claimed);
  } catch (error) {
    if (isApiError(error) && error.kind === 'unconfirmed-write') {
      await requireConfirmationAgain(claimed, error.message);
      log.warn('write.not-sent', { draftId: id, operationId, code: error.code });
      throw error;
    }
    const retryAt = isApiError(error) && WAIT_KINDS.has(error.kind) ? error.retryAt : undefined;
    const message = !isApiError(error)
      ? 'The write could not be sent.'
      : error.kind === 'idempotency-mismatch'
        ? 'An earlier attempt of this write already reached the service with the content you first confirmed, so this edited version was not sent: nothing was written twice. Discard this draft and check your playbooks.'
        : error.message;
    if (retryAt !== undefined) {
      await browser.alarms.create(writeRetryAlarm(id), {
        when: Math.max(retryAt, Date.now() + 1_000),
      });
    }
    const code = isApiError(error) ? error.kind : 'internal';
    await updateOutboxEntry<WriteDraft>(id, {
      status: 'failed',
      draft: MAY_HAVE_LANDED.has(code) ? { ...draft, mayHaveLanded: true } : draft,
      error: {
        message:
          retryAt === undefined
            ? message
            : `${message} It is sent again automatically when the service allows.`,
        retryAt,
        code,
        problemCode: isApiError(error) ? error.code : undefined,
      },
    });
    log.warn('write.failed', { draftId: id, operationId, error });
    throw error;
  }

  const data = (response.data ?? {}) as Record<string, unknown>;
  const playbookId =
    typeof data.id === 'string' && operationId === 'createPlaybook' ? data.id : playbookIdOf(draft);
  // Only this operation's own answer may open a page, and only over https (http on loopback).
  const urlField = writeSpec(operationId).opensUrlFrom;
  const openable = urlField ? openableUrl(data[urlField]) : undefined;
  const url = openable?.ok ? openable.url : undefined;
  const urlRefused = openable && !openable.ok ? openable.reason : undefined;
  const sent = await updateOutboxEntry<WriteDraft>(id, {
    status: 'sent',
    draft: { ...draft, result: { playbookId, url, urlRefused } },
  });
  log.info('write.sent', { draftId: id, operationId, replayed: response.idempotentReplayed });
  if (urlRefused) log.warn('write.url-refused', { draftId: id, operationId });
  await readCache.clear();
  if (url) await browser.tabs.create({ url });
  await notifySuccess(entry, playbookId, urlRefused).catch((error: unknown) =>
    log.warn('notify.failed', { error }),
  );
  return sent ?? entry;
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

/** The alarm's resend: only a failed write still waiting, with the intent the user confirmed. */
export async function resendDeferredWrite(id: string): Promise<void> {
  const entry = await getOutboxEntry<WriteDraft>(id);
  if (!entry || entry.status !== 'failed' || entry.error?.retryAt === undefined) return;
  const intent = entry.draft.confirmed;
  if (!intent || !isWriteOperation(entry.operationId)) {
    // Confirmed by an earlier version, which did not bind the resolved operation: never sent blind.
    await requireConfirmationAgain(
      entry,
      'This write was confirmed before the extension bound what it sends. Nothing was sent. Review and confirm again.',
    );
    return;
  }
  const settings = await getSettings();
  if (
    intent.serviceUrl !== settings.serviceUrl ||
    intent.apiUrl !== settings.apiUrl ||
    intent.keyFingerprint !== (await keyFingerprint())
  ) {
    await updateOutboxEntry<WriteDraft>(id, {
      draft: { ...entry.draft, confirmed: undefined },
      error: {
        message:
          'Not sent: the service or the API key changed since you confirmed it. Open the draft to review where it goes.',
        code: 'account-changed',
      },
    });
    return;
  }
  log.info('write.resend', { draftId: id, operationId: entry.operationId });
  try {
    await sendConfirmed(entry, entry.draft, await serviceClient(settings, { fresh: true }));
  } catch (error) {
    log.warn('write.resend-failed', { draftId: id, error });
  }
}

/** A worker stopped mid-send leaves "sending" behind; the retry reuses the key, so it cannot duplicate. */
export async function recoverInterruptedWrites(): Promise<void> {
  for (const entry of await listOutbox()) {
    if (entry.status === 'sending') {
      await updateOutboxEntry(entry.id, {
        status: 'failed',
        error: {
          message:
            'Sending was interrupted. Retry sends the same request again; it cannot create a duplicate.',
          code: 'interrupted',
        },
      });
    } else if (entry.status === 'sent' && Date.now() - Date.parse(entry.updatedAt) > SENT_KEPT_MS) {
      await removeFromOutbox(entry.id);
    }
  }
}

export function registerWriteHandlers(registry: HandlerRegistry): void {
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
    if (writeSpec(operationId).targetsPlaybook && !playbookId)
      throw new HandledError({ code: 'invalid-draft', message: 'This action names no playbook.' });
    return { draftId: await queueDraft('extension-page', operationId, { playbookId, body, ifMatch }) };
  });
  registry.register('getPendingWrite', ({ id }) => pendingWrite(id));
  registry.register('confirmWrite', ({ id, body, typed }) => confirmWrite(id, body, typed));
  registry.register('listOutbox', async () =>
    (await listOutbox()).filter((entry) => entry.status !== 'sent'),
  );
}
