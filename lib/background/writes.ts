import { browser } from 'wxt/browser';
import { z } from 'zod';
import { canonicalJson, isApiError, newIdempotencyKey } from '@/lib/api';
import { buildDraftFromContext } from '@/lib/finance/draft';
import { playbookDraftSchema, sanitizeDraft } from '@/lib/finance/schema';
import { normalizeTicker } from '@/lib/finance/symbols';
import { log } from '@/lib/log';
import {
  HandledError,
  type HandlerRegistry,
  type PendingWrite,
  type WriteDraft,
  type WriteOperation,
} from '@/lib/messaging';
import {
  addToOutbox,
  claimForSending,
  getOutboxEntry,
  listOutbox,
  removeFromOutbox,
  updateOutboxEntry,
  type DraftOrigin,
  type OutboxEntry,
} from '@/lib/outbox';
import { keyFingerprint } from '@/lib/store/apiKey';
import { getSettings } from '@/lib/store/settings';
import { openConfirmWindow } from './confirmWindow';
import type { MenuContext } from './contextMenus';
import { confirmations, readCache, serviceClient } from './service';

/** Live execution and billing must be typed out, not just clicked. */
const TYPED_CONFIRMATION = new Set<WriteOperation>([
  'activatePlaybook',
  'pausePlaybook',
  'createCheckoutSession',
]);
const SENT_KEPT_MS = 24 * 60 * 60 * 1000;
/** Alarms that resend a write the service asked us to hold back (429 with a long wait). */
const RETRY_ALARM_PREFIX = 'write-retry:';
const WAIT_KINDS = new Set(['deferred', 'rate-limited']);
/** Failures after which the service may have committed the write: its key must not change. */
const MAY_HAVE_LANDED = new Set(['network', 'timeout', 'server', 'malformed-response', 'interrupted']);

const CONSEQUENCES: Record<WriteOperation, string> = {
  createPlaybook: 'A new playbook is created in your account as a draft. Nothing is traded.',
  updatePlaybook: 'The playbook is changed in your account. Nothing is traded.',
  runBacktest: 'A backtest is queued on historical data. Nothing is traded; the result arrives as an event.',
  activatePlaybook:
    'Live automation starts: the agent may place real orders in your linked brokerage account.',
  pausePlaybook: 'Live automation stops: the agent places no further orders for this playbook.',
  createCheckoutSession:
    'A checkout for the plan opens in a new tab; you are billed only after you complete it there.',
  createBrokerageLink: 'A page of your brokerage opens in a new tab to link your account.',
};

/** The edits a user may make to a new playbook in the confirm window; visibility is theirs to choose. */
const createBodySchema = playbookDraftSchema.extend({
  visibility: z.enum(['private', 'unlisted', 'public']),
  // The contract makes the source optional: a playbook typed in the side panel has none.
  source: playbookDraftSchema.shape.source.optional(),
});
const updateBodySchema = createBodySchema
  .pick({ title: true, thesis: true, tickers: true, visibility: true })
  .partial();

function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.map(String).join('.') || 'body'] ??= issue.message;
  return fields;
}

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
  const schema =
    entry.operationId === 'createPlaybook'
      ? createBodySchema
      : entry.operationId === 'updatePlaybook'
        ? updateBodySchema
        : undefined;
  if (!schema) return stored;
  const parsed = schema.safeParse(normalizeTickers({ ...stored, ...edits }));
  if (!parsed.success)
    throw new HandledError({
      code: 'invalid-draft',
      message: 'Some fields need attention.',
      fields: fieldErrors(parsed.error),
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

export async function queueMenuDraft(context: MenuContext): Promise<string> {
  return queuePageDraft(
    'context-menu',
    buildDraftFromContext({
      selectionText: context.menuItemId === 'playbook-from-selection' ? context.selectionText : undefined,
      linkUrl: context.menuItemId === 'playbook-from-link' ? context.linkUrl : undefined,
      pageUrl: context.pageUrl ?? '',
      pageTitle: context.pageTitle,
    }),
  );
}

async function typedConfirmationFor(entry: OutboxEntry<WriteDraft>): Promise<string | undefined> {
  const operationId = entry.operationId as WriteOperation;
  if (!TYPED_CONFIRMATION.has(operationId)) return undefined;
  if (operationId === 'createCheckoutSession') {
    const plan = entry.draft.body?.plan;
    return typeof plan === 'string' ? plan : '';
  }
  const id = entry.draft.path?.id;
  if (!id) throw new HandledError({ code: 'invalid-draft', message: 'This action names no playbook.' });
  const playbook = (await (await serviceClient()).call('getPlaybook', { path: { id } })).data;
  return playbook.title;
}

async function pendingWrite(id: string): Promise<PendingWrite> {
  const entry = await getOutboxEntry<WriteDraft>(id);
  if (!entry) throw new HandledError({ code: 'draft-not-found', message: 'This draft no longer exists.' });
  const result: PendingWrite = {
    entry,
    consequence: CONSEQUENCES[entry.operationId as WriteOperation] ?? 'This changes your account.',
  };
  try {
    const account = (await (await serviceClient()).call('getAccount')).data;
    result.account = { name: account.name, email: account.email, plan: account.plan };
  } catch (error) {
    log.warn('confirm.account-unavailable', { error });
  }
  result.typeToConfirm = await typedConfirmationFor(entry);
  return result;
}

const NOTIFICATION_PREFIX = 'playbook:';
const SUCCESS_TITLES: Record<WriteOperation, string> = {
  createPlaybook: 'Playbook created',
  updatePlaybook: 'Playbook updated',
  runBacktest: 'Backtest queued',
  activatePlaybook: 'Live automation started',
  pausePlaybook: 'Live automation paused',
  createCheckoutSession: 'Checkout opened',
  createBrokerageLink: 'Brokerage link opened',
};

/** The side panel's view of one playbook: where a notification click or a confirm-window link leads. */
export function playbookPageUrl(playbookId: string): string {
  return `${browser.runtime.getURL('/sidepanel.html')}?playbook=${encodeURIComponent(playbookId)}`;
}

/** The notification id carries the playbook id, so a click still works after the worker restarted. */
async function notifySuccess(entry: OutboxEntry<WriteDraft>, playbookId?: string): Promise<void> {
  const operationId = entry.operationId as WriteOperation;
  const name = typeof entry.draft.body?.title === 'string' ? entry.draft.body.title : undefined;
  const id = playbookId ? `${NOTIFICATION_PREFIX}${playbookId}` : `write:${entry.id}`;
  await browser.notifications.create(id, {
    type: 'basic',
    iconUrl: browser.runtime.getURL('/icon/128.png'),
    title: SUCCESS_TITLES[operationId] ?? 'Done',
    message: `${name ? `${name}. ` : ''}${playbookId ? 'Click to open it. ' : ''}Decision support, not financial advice.`,
  });
}

/** Clicking a success notification opens the playbook in a tab; registered with the handlers, synchronously. */
export function registerNotificationClicks(): void {
  browser.notifications.onClicked.addListener((notificationId) => {
    if (!notificationId.startsWith(NOTIFICATION_PREFIX)) return;
    const playbookId = notificationId.slice(NOTIFICATION_PREFIX.length);
    if (!playbookId) return;
    browser.tabs
      .create({ url: playbookPageUrl(playbookId) })
      .then(() => browser.notifications.clear(notificationId))
      .catch((error: unknown) => log.warn('notify.open-failed', { error }));
  });
}

/** The user's Confirm (or Retry): checks the typed name and the edits, fixes the key, then sends. */
async function confirmWrite(
  id: string,
  edits: Record<string, unknown> | undefined,
  typed: string | undefined,
): Promise<OutboxEntry<WriteDraft>> {
  const entry = await getOutboxEntry<WriteDraft>(id);
  if (!entry) throw new HandledError({ code: 'draft-not-found', message: 'This draft no longer exists.' });
  if (entry.status === 'sent')
    throw new HandledError({ code: 'draft-already-sent', message: 'This draft was already sent.' });
  if (entry.status === 'sending')
    throw new HandledError({ code: 'write-in-progress', message: 'This write is already being sent.' });
  const expected = await typedConfirmationFor(entry);
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
  const mayHaveLanded = entry.status === 'failed' && MAY_HAVE_LANDED.has(entry.error?.code ?? '');
  const idempotencyKey =
    entry.draft.idempotencyKey && (sameBody || mayHaveLanded)
      ? entry.draft.idempotencyKey
      : newIdempotencyKey();
  const confirmedFor = {
    serviceUrl: (await getSettings()).serviceUrl,
    keyFingerprint: await keyFingerprint(),
  };
  const draft: WriteDraft = { ...entry.draft, body, idempotencyKey, confirmedFor };
  return sendConfirmed(entry, draft);
}

/**
 * Sends a write the user confirmed, exactly as stored: a fresh one-time confirmation bound to this
 * intent, the same Idempotency-Key on every attempt. A long rate-limit wait is not slept in the
 * worker: an alarm sends the same request again when the service allows it.
 */
async function sendConfirmed(
  entry: OutboxEntry<WriteDraft>,
  draft: WriteDraft,
): Promise<OutboxEntry<WriteDraft>> {
  const id = entry.id;
  const operationId = entry.operationId as WriteOperation;
  const body = draft.body;
  const idempotencyKey = draft.idempotencyKey ?? newIdempotencyKey();
  const claimed = await claimForSending<WriteDraft>(id, { ...draft, idempotencyKey });
  if (!claimed) {
    throw new HandledError({
      code: 'write-in-progress',
      message: 'This write is already being sent, or was sent.',
    });
  }

  const intent = { operationId, path: draft.path, body, idempotencyKey, ifMatch: draft.ifMatch };
  try {
    const client = await serviceClient();
    const confirmation = await confirmations.issue(intent);
    const response = await client.write({ ...intent, confirmation });
    const data = (response.data ?? {}) as Record<string, unknown>;
    const playbookId =
      typeof data.id === 'string' && operationId === 'createPlaybook' ? data.id : draft.path?.id;
    const url =
      typeof data.checkout_url === 'string'
        ? data.checkout_url
        : typeof data.link_url === 'string'
          ? data.link_url
          : undefined;
    const sent = await updateOutboxEntry<WriteDraft>(id, {
      status: 'sent',
      draft: { ...draft, result: { playbookId, url } },
    });
    log.info('write.sent', { draftId: id, operationId, replayed: response.idempotentReplayed });
    await readCache.clear();
    if (url && /^https?:/.test(url)) await browser.tabs.create({ url });
    await notifySuccess(entry, playbookId).catch((error: unknown) => log.warn('notify.failed', { error }));
    return sent ?? entry;
  } catch (error) {
    const retryAt = isApiError(error) && WAIT_KINDS.has(error.kind) ? error.retryAt : undefined;
    const message = !isApiError(error)
      ? 'The write could not be sent.'
      : error.kind === 'idempotency-mismatch'
        ? 'An earlier attempt of this write already reached the service with the content you first confirmed, so this edited version was not sent: nothing was written twice. Discard this draft and check your playbooks.'
        : error.message;
    if (retryAt !== undefined) {
      await browser.alarms.create(`${RETRY_ALARM_PREFIX}${id}`, {
        when: Math.max(retryAt, Date.now() + 1_000),
      });
    }
    await updateOutboxEntry<WriteDraft>(id, {
      status: 'failed',
      error: {
        message:
          retryAt === undefined
            ? message
            : `${message} It is sent again automatically when the service allows.`,
        retryAt,
        code: isApiError(error) ? error.kind : 'internal',
        problemCode: isApiError(error) ? error.code : undefined,
      },
    });
    log.warn('write.failed', { draftId: id, operationId, error });
    throw error;
  }
}

/** The alarm's resend: only a failed write still waiting, with the key and body the user confirmed. */
export async function resendDeferredWrite(id: string): Promise<void> {
  const entry = await getOutboxEntry<WriteDraft>(id);
  if (
    !entry ||
    entry.status !== 'failed' ||
    entry.error?.retryAt === undefined ||
    !entry.draft.idempotencyKey
  )
    return;
  const now = { serviceUrl: (await getSettings()).serviceUrl, keyFingerprint: await keyFingerprint() };
  const then = entry.draft.confirmedFor;
  if (!then || then.serviceUrl !== now.serviceUrl || then.keyFingerprint !== now.keyFingerprint) {
    await updateOutboxEntry<WriteDraft>(id, {
      error: {
        message:
          'Not sent: the service or the API key changed since you confirmed it. Open the draft to review where it goes.',
        code: 'account-changed',
      },
    });
    return;
  }
  log.info('write.resend', { draftId: id, operationId: entry.operationId });
  await sendConfirmed(entry, entry.draft).catch((error: unknown) =>
    log.warn('write.resend-failed', { draftId: id, error }),
  );
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
  browser.alarms.onAlarm.addListener((alarm) => {
    if (!alarm.name.startsWith(RETRY_ALARM_PREFIX)) return;
    void resendDeferredWrite(alarm.name.slice(RETRY_ALARM_PREFIX.length));
  });
  registry.register('submitPageDraft', async ({ draft }) => ({
    draftId: await queuePageDraft('content-script', draft),
  }));
  registry.register('requestWrite', async ({ operationId, path, body, ifMatch }) => {
    const settings = await getSettings();
    log.info('write.requested', { operationId, service: settings.serviceUrl });
    return { draftId: await queueDraft('extension-page', operationId, { path, body, ifMatch }) };
  });
  registry.register('getPendingWrite', ({ id }) => pendingWrite(id));
  registry.register('confirmWrite', ({ id, body, typed }) => confirmWrite(id, body, typed));
  registry.register('listOutbox', async () =>
    (await listOutbox()).filter((entry) => entry.status !== 'sent'),
  );
  registry.register('openPendingWrite', async ({ id }) => {
    const entry = await getOutboxEntry(id);
    if (!entry || entry.status === 'sent')
      throw new HandledError({ code: 'draft-not-found', message: 'This draft no longer exists.' });
    await openConfirmWindow(id);
    return { opened: true as const };
  });
  registerNotificationClicks();
}
