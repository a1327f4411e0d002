/**
 * The one owner of a write's lifecycle (lifecycle.ts): queueing a draft, showing it in its one
 * window (which issues the confirmation token), confirming it, claiming and sending it, resending
 * the same confirmed bytes, and settling, failing or refusing it. Nothing else changes an outbox
 * entry (lint forbids the store's writers elsewhere), and every surface (confirm window, popup,
 * side panel, context menu, notifications, alarms) calls these functions through the worker.
 */
import { browser } from 'wxt/browser';
import {
  canonicalJson,
  describeResolution,
  isApiError,
  isWriteOperation,
  newIdempotencyKey,
  openableUrl,
  writeSpec,
  type ApiClient,
  type ConfirmedIntent,
  type WriteOperation,
  type WriteResolution,
} from '@/lib/api';
import { sanitizeDraft } from '@/lib/finance/schema';
import { normalizeTicker } from '@/lib/finance/symbols';
import { log } from '@/lib/log';
import { fieldErrors, HandledError, type PendingWrite } from '@/lib/messaging';
import {
  addToOutbox,
  claimForSending,
  getOutboxEntry,
  listOutbox,
  playbookIdOf,
  removeFromOutbox,
  transitionOutboxEntry,
  updateOutboxEntry,
  type DraftOrigin,
  type OutboxEntry,
  type WriteDraft,
} from '@/lib/store/outbox';
import { focusConfirmWindow, openConfirmWindow } from '@/lib/pages/navigation';
import { ALARMS, NOTIFICATIONS } from '@/lib/store/inventory';
import { keyFingerprint } from '@/lib/store/apiKey';
import { getSettings, type Settings } from '@/lib/store/settings';
import { readCache, serviceClient } from '@/lib/api/service';
import { meaningOf, WRITE_ERRORS, type LifecycleCode, type WriteErrorCode } from './errors';
import { assertTransition, stateOf, type WriteState } from './lifecycle';
import { bodyDigest, differenceFrom, newToken, operationDigest, type ShownWrite } from './token';

const SENT_KEPT_MS = 24 * 60 * 60 * 1000;

type Entry = OutboxEntry<WriteDraft>;

/** claimed → sent → settled: the service answered with success. */
async function settle(claimed: Entry, draft: WriteDraft): Promise<Entry | undefined> {
  assertTransition(stateOf(claimed), 'sent');
  assertTransition('sent', 'settled');
  const next = await transitionOutboxEntry<WriteDraft>(
    claimed.id,
    (current) => stateOf(current) === 'claimed',
    () => ({ status: 'sent', draft }),
  );
  announce(next);
  return next;
}

type WriteChange = Entry | { id: string; removed: true };

/** Where every change is pushed (the switchboard sends it to open side panels over their port). */
let changeSink: ((change: WriteChange) => void) | undefined;

export function pushWriteChangesTo(sink: ((change: WriteChange) => void) | undefined): void {
  changeSink = sink;
}

function announce(entry: WriteChange | undefined): void {
  if (!entry || !changeSink) return;
  try {
    changeSink('removed' in entry ? entry : viewOf(entry));
  } catch (error) {
    log.warn('write.push-failed', { error });
  }
}

type EntryChange = Partial<Pick<Entry, 'status' | 'draft' | 'error'>>;

/**
 * The one way an entry changes: a legal transition of the state machine, stored in one IndexedDB
 * transaction that re-reads the entry and changes it only while it is still in the state `entry`
 * was read in (and `still` holds). A change given as a function is built from the stored entry, so
 * it merges into what is stored now, never into a stale copy. Undefined when the entry moved on.
 */
async function move(
  entry: Entry,
  to: WriteState,
  change: EntryChange | ((current: Entry) => EntryChange),
  still: (current: Entry) => boolean = () => true,
): Promise<Entry | undefined> {
  const from = stateOf(entry);
  assertTransition(from, to);
  const next = await transitionOutboxEntry<WriteDraft>(
    entry.id,
    (current) => stateOf(current) === from && still(current),
    (current) => (typeof change === 'function' ? change(current) : change),
  );
  if (!next) {
    log.info('write.move-skipped', { draftId: entry.id, operationId: entry.operationId, from, to });
    return undefined;
  }
  log.info('write.moved', { draftId: entry.id, operationId: entry.operationId, to });
  announce(next);
  return next;
}

function refusal(code: WriteErrorCode, message?: string, fields?: Record<string, string>): HandledError {
  return new HandledError({ code, message: message ?? WRITE_ERRORS[code].message, fields });
}

function normalizeTickers(body: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(body.tickers)) return body;
  const tickers: unknown[] = body.tickers;
  return { ...body, tickers: tickers.map((raw) => normalizeTicker(raw) ?? raw) };
}

/** The body that will be sent: the stored draft, with the user's edits where the operation allows them. */
function confirmedBody(
  entry: Entry,
  edits: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const stored = entry.draft.body;
  if (!edits) return stored;
  const schema = writeSpec(entry.operationId).editableBody?.schema;
  if (!schema) return stored;
  const parsed = schema.safeParse(normalizeTickers({ ...stored, ...edits }));
  if (!parsed.success)
    throw refusal('invalid-draft', 'Some fields need attention.', fieldErrors(parsed.error, 'body'));
  return parsed.data;
}

/** One window per draft: the open ones by draft id, and the opening in progress so two clicks share it. */
const opening = new Map<string, Promise<void>>();

/**
 * Opens the draft's one confirm window, or focuses it when it is already open. Nothing is sent
 * from here: the window shows what would be sent, and only its Confirm sends.
 */
export function openDraftWindow(id: string): Promise<void> {
  const running = opening.get(id);
  if (running) return running;
  const run = (async () => {
    const entry = await getOutboxEntry<WriteDraft>(id);
    if (!entry) throw refusal('draft-not-found');
    if (entry.windowId !== undefined && (await focusConfirmWindow(entry.windowId, id))) return;
    const windowId = await openConfirmWindow(id);
    // The window id is not part of the write's state: it only names where the draft is shown.
    await updateOutboxEntry<WriteDraft>(id, { windowId });
  })().finally(() => opening.delete(id));
  opening.set(id, run);
  return run;
}

async function queueDraft(
  origin: DraftOrigin,
  operationId: WriteOperation,
  draft: WriteDraft,
): Promise<string> {
  const entry = await addToOutbox<WriteDraft>({ origin, operationId, draft });
  log.info('outbox.queued', { draftId: entry.id, operationId, origin });
  announce(entry);
  await openDraftWindow(entry.id);
  return entry.id;
}

/** The stored entry of a write, refusing one whose operation this version does not know. */
async function writeEntry(id: string): Promise<Entry> {
  const entry = await getOutboxEntry<WriteDraft>(id);
  if (!entry) throw refusal('draft-not-found');
  if (!isWriteOperation(entry.operationId))
    throw refusal('invalid-draft', 'This draft is not a write the extension knows.');
  return entry;
}

/** A draft from page text (content script or menu): untrusted until the schema says otherwise. */
export async function queuePageDraft(origin: DraftOrigin, draft: unknown): Promise<string> {
  const checked = sanitizeDraft(draft);
  if (!checked.ok) {
    const fields = Object.fromEntries(checked.errors.map((error) => [error.path || 'draft', error.message]));
    throw refusal('invalid-draft', 'The page did not give a usable draft.', fields);
  }
  return queueDraft(origin, 'createPlaybook', { body: checked.draft });
}

/** An extension page's action (side panel, popup): queued and shown in its window, never sent here. */
export async function queueWrite(operationId: WriteOperation, draft: WriteDraft): Promise<string> {
  if (writeSpec(operationId).targetsPlaybook && !playbookIdOf(draft))
    throw refusal('invalid-draft', 'This action names no playbook.');
  return queueDraft('extension-page', operationId, draft);
}

async function typedConfirmationFor(entry: Entry, client: ApiClient): Promise<string | undefined> {
  const rule = writeSpec(entry.operationId).typedConfirmation;
  if (rule === undefined) return undefined;
  if (rule === 'plan') {
    const plan = entry.draft.body?.plan;
    return typeof plan === 'string' ? plan : '';
  }
  const playbookId = playbookIdOf(entry.draft);
  if (!playbookId) throw refusal('invalid-draft', 'This action names no playbook.');
  // The one read of a playbook, through the client's read rules (GET, replaced only by a GET).
  return (await client.call('getPlaybook', { playbookId })).data.title;
}

/** How the document resolves this draft's write now: the operation itself, its method and full URL. */
function resolutionOf(client: ApiClient, entry: Entry) {
  return client.resolveWrite(entry.operationId, playbookIdOf(entry.draft));
}

function bareResolution(resolution: WriteResolution): WriteResolution {
  return { operationId: resolution.operationId, method: resolution.method, url: resolution.url };
}

async function accountOf(client: ApiClient) {
  try {
    return (await client.call('getAccount')).data;
  } catch (error) {
    log.warn('confirm.account-unavailable', { error });
    return undefined;
  }
}

/** Why a write resolved again is not the one shown or confirmed: its route, or else its document. */
function operationChanged(was: WriteResolution, now: WriteResolution | undefined): string {
  const [before, after] = [describeResolution(was), now && describeResolution(now)];
  return after !== undefined && after !== before
    ? `The service changed how this action is sent (was ${before}, now ${after}). Nothing was sent. Review and confirm again.`
    : WRITE_ERRORS['operation-changed'].message;
}

/** Everything a token names, as it stands now. */
async function currentShape(
  entry: Entry,
  client: ApiClient,
  settings: Settings,
  accountId: string | undefined,
): Promise<Omit<ShownWrite, 'token'>> {
  const resolution = resolutionOf(client, entry);
  return {
    ...bareResolution(resolution),
    operationDigest: await operationDigest(resolution.contract),
    bodyDigest: await bodyDigest(entry.draft.body),
    accountId,
    keyFingerprint: await keyFingerprint(),
    apiOrigin: new URL(settings.apiUrl).origin,
  };
}

/**
 * Nothing is sent: the draft keeps its body and key, loses its token and confirmation, and waits
 * for its window to show it again as it now resolves.
 */
async function refuse(
  entry: Entry,
  code: LifecycleCode | 'unconfirmed-write',
  message: string,
): Promise<void> {
  await move(entry, 'refused', (current) => ({
    status: 'failed',
    draft: { ...current.draft, confirmed: undefined, shown: undefined },
    error: { message, code },
  }));
  log.warn('write.refused', { draftId: entry.id, operationId: entry.operationId, code });
}

/** The page asking, as the browser names it: its tab, and the window that tab is in. */
export interface Viewer {
  tabId: number;
  windowId: number;
}

/** Whether `viewer` is the draft's own window (waiting for an opening in progress to record it). */
async function isDraftWindow(id: string, viewer: Viewer | undefined): Promise<boolean> {
  if (!viewer) return false;
  if ((await getOutboxEntry<WriteDraft>(id))?.windowId === viewer.windowId) return true;
  // The window may load its page before openDraftWindow has stored the window's id.
  await opening.get(id)?.catch(() => undefined);
  return (await getOutboxEntry<WriteDraft>(id))?.windowId === viewer.windowId;
}

/**
 * The confirm window loads its draft: shows it as the document resolves it now and issues its
 * token, only to the draft's own window (`viewer`, the sender's tab); any other page gets the
 * draft without a token.
 */
async function showWrite(id: string, viewer?: Viewer): Promise<PendingWrite> {
  const ownWindow = await isDraftWindow(id, viewer);
  let entry = await writeEntry(id);
  const spec = writeSpec(entry.operationId);
  const settings = await getSettings();
  // The window shows the operation as the document resolves it now, not as it did a minute ago.
  const client = await serviceClient(settings, { fresh: true });
  const result: PendingWrite = { entry: viewOf(entry), consequence: spec.consequence };
  const account = await accountOf(client);
  if (account) result.account = { name: account.name, email: account.email, plan: account.plan };
  let shape: Omit<ShownWrite, 'token'> | undefined;
  try {
    const resolution = resolutionOf(client, entry);
    result.resolved = {
      method: resolution.method,
      url: resolution.url,
      path: describeResolution(resolution).slice(resolution.method.length + 1),
      deprecated: resolution.deprecated,
      warnings: resolution.warnings,
    };
    shape = await currentShape(entry, client, settings, account?.id);
  } catch (error) {
    if (!isApiError(error)) throw error;
    result.refusal = error.message;
  }
  const state = stateOf(entry);
  const showable = state === 'drafted' || state === 'shown' || state === 'failed' || state === 'refused';
  if (shape && showable && ownWindow && viewer) {
    const shown: ShownWrite = { ...shape, token: newToken(), tabId: viewer.tabId };
    const shownBody = canonicalJson(entry.draft.body ?? null);
    // A refused draft shown again is a draft awaiting Confirm; a failed one keeps its failure (and
    // Retry). Only while it is still in the state (and body) this window resolved: a draft sent
    // meanwhile is never turned back into a pending one.
    const moved = await move(
      entry,
      'shown',
      (current) => ({
        status: state === 'failed' ? 'failed' : 'pending',
        draft: { ...current.draft, shown },
      }),
      (current) => canonicalJson(current.draft.body ?? null) === shownBody,
    );
    if (moved) {
      entry = moved;
      result.token = shown.token;
    } else {
      entry = (await getOutboxEntry<WriteDraft>(id)) ?? entry;
    }
    result.entry = viewOf(entry);
  }
  if (result.refusal === undefined) result.typeToConfirm = await typedConfirmationFor(entry, client);
  return result;
}

const PLAYBOOK_NOTIFICATION = NOTIFICATIONS.writtenPlaybook.idPrefix;

/** The notification id carries the playbook id, so a click still works after the worker restarted. */
async function notifySuccess(entry: Entry, playbookId?: string, urlRefused?: string): Promise<void> {
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
 * The user's Confirm in the draft's window. Sends only when `token` is the one that window was
 * given, and the write, key, account and API origin are still what it showed; otherwise nothing is
 * sent and the window must show the draft again. The token is spent by the claim.
 */
async function confirmWrite(
  id: string,
  token: string | undefined,
  edits: Record<string, unknown> | undefined,
  typed: string | undefined,
  viewer?: Viewer,
): Promise<Entry> {
  const entry = await writeEntry(id);
  const state = stateOf(entry);
  if (state === 'settled') throw refusal('draft-already-sent');
  if (state === 'claimed') throw refusal('write-in-progress');
  const shown = entry.draft.shown;
  // The token is the window's: only the tab it was given to may spend it.
  const fromItsWindow = shown?.tabId !== undefined && shown.tabId === viewer?.tabId;
  if (!shown?.token || token === undefined || shown.token !== token || !fromItsWindow)
    throw refusal('not-shown');
  const settings = await getSettings();
  const client = await serviceClient(settings, { fresh: true });
  const account = await accountOf(client);
  const now = await currentShape(entry, client, settings, account?.id);
  const difference = differenceFrom(shown, now);
  if (difference !== undefined) {
    const code = difference === 'body-changed' ? 'not-shown' : difference;
    const message =
      difference === 'operation-changed' ? operationChanged(shown, now) : WRITE_ERRORS[code].message;
    await refuse(entry, code, message);
    throw refusal(code, message);
  }
  const expected = await typedConfirmationFor(entry, client);
  if (expected !== undefined && (typed ?? '').trim() !== expected.trim()) {
    throw refusal('typed-confirmation', `Type “${expected}” exactly to confirm.`, {
      typed: 'Does not match.',
    });
  }
  const body = confirmedBody(entry, edits);
  const sameBody = canonicalJson(body ?? null) === canonicalJson(entry.draft.body ?? null);
  // After a failure that may have reached the service, the key stays even for an edited body: if
  // the first attempt landed, the service answers 422 instead of writing a second playbook.
  const mayHaveLanded =
    entry.draft.mayHaveLanded === true ||
    (entry.status === 'failed' && meaningOf(entry.error?.code).mayHaveLanded);
  const idempotencyKey =
    entry.draft.idempotencyKey && (sameBody || mayHaveLanded)
      ? entry.draft.idempotencyKey
      : newIdempotencyKey();
  const confirmed: ConfirmedIntent = {
    ...bareResolution(now),
    body: body === undefined ? null : canonicalJson(body),
    ifMatch: entry.draft.ifMatch,
    idempotencyKey,
    keyFingerprint: now.keyFingerprint,
    accountId: now.accountId,
    serviceUrl: settings.serviceUrl,
    apiUrl: settings.apiUrl,
    operationDigest: now.operationDigest,
  };
  if (state === 'shown') assertTransition('shown', 'confirmed');
  // The token is spent: this confirmation is the intent; resends send its bytes or nothing.
  const draft: WriteDraft = {
    ...entry.draft,
    body,
    idempotencyKey,
    mayHaveLanded,
    confirmed,
    shown: undefined,
  };
  // The claim spends the token: only the Confirm whose token is still stored sends.
  return sendConfirmed(entry, draft, client, (current) => current.draft.shown?.token === token);
}

/**
 * Claims the entry with its confirmed intent in one IndexedDB transaction and hands the claimed
 * entry to the client, which sends exactly that intent or nothing. A long rate-limit wait is not
 * slept in the worker: an alarm sends the same request again when the service allows it.
 */
async function sendConfirmed(
  entry: Entry,
  draft: WriteDraft,
  client: ApiClient,
  mayClaim: (current: Entry) => boolean,
): Promise<Entry> {
  const id = entry.id;
  const operationId: WriteOperation = entry.operationId;
  assertTransition(stateOf(entry) === 'failed' ? 'failed' : 'confirmed', 'claimed');
  const claimed = await claimForSending<WriteDraft>(id, draft, mayClaim);
  if (!claimed) {
    const now = await getOutboxEntry<WriteDraft>(id);
    const busy = !now || stateOf(now) === 'claimed' || stateOf(now) === 'settled';
    if (busy) throw refusal('write-in-progress', 'This write is already being sent, or was sent.');
    throw refusal('not-shown');
  }
  announce(claimed);

  let response;
  try {
    response = await client.write(claimed);
  } catch (error) {
    if (isApiError(error) && error.kind === 'unconfirmed-write') {
      const code =
        error.code === 'operation-changed' || error.code === 'account-changed'
          ? error.code
          : 'unconfirmed-write';
      await refuse(claimed, code, error.message);
      throw error;
    }
    const retryAt = isApiError(error) ? error.retryAt : undefined;
    const code: WriteErrorCode = isApiError(error) ? error.kind : 'internal';
    const meaning = meaningOf(code);
    const waits = meaning.next === 'wait' && retryAt !== undefined;
    const message = !isApiError(error)
      ? WRITE_ERRORS.internal.message
      : code === 'idempotency-mismatch'
        ? WRITE_ERRORS['idempotency-mismatch'].message
        : error.message;
    if (waits) {
      await browser.alarms.create(writeRetryAlarm(id), { when: Math.max(retryAt, Date.now() + 1_000) });
    }
    await move(claimed, 'failed', {
      status: 'failed',
      draft: meaning.mayHaveLanded ? { ...draft, mayHaveLanded: true } : draft,
      error: {
        message: waits ? `${message} It is sent again automatically when the service allows.` : message,
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
  const sent = await settle(claimed, { ...draft, result: { playbookId, url, urlRefused } });
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

export type RetryOutcome = { outcome: 'sent'; entry: Entry } | { outcome: 'review' };

/**
 * Resends the confirmed intent of a failed write, byte for byte under its Idempotency-Key, when
 * its failure allows that (5xx, timeout, restart, rate-limit wait) and the intent still matches
 * the document, the key and the API it was confirmed for. Anything else sends nothing: the draft
 * is refused and its one window opens (or is focused) to show what would be sent.
 */
async function resendIntent(entry: Entry): Promise<RetryOutcome> {
  const intent = entry.draft.confirmed;
  const state = stateOf(entry);
  if (state === 'settled') throw refusal('draft-already-sent');
  if (state === 'claimed') throw refusal('write-in-progress');
  if (state !== 'failed' || !meaningOf(entry.error?.code).retryable || !intent) {
    // A failure the service may not have seen again is not a resend: the window shows it anew.
    if (state === 'failed' && !intent)
      await refuse(
        entry,
        'not-shown',
        'This write was confirmed before the extension bound what it sends. Nothing was sent. Review and confirm again.',
      );
    await openDraftWindow(entry.id);
    return { outcome: 'review' };
  }
  const settings = await getSettings();
  if (
    intent.serviceUrl !== settings.serviceUrl ||
    intent.apiUrl !== settings.apiUrl ||
    intent.keyFingerprint !== (await keyFingerprint())
  ) {
    await refuse(
      entry,
      'account-changed',
      'Not sent: the service or the API key changed since you confirmed it. Review where it goes and confirm again.',
    );
    await openDraftWindow(entry.id);
    return { outcome: 'review' };
  }
  const client = await serviceClient(settings, { fresh: true });
  let now: WriteResolution | undefined;
  let nowDigest: string | undefined;
  try {
    const resolution = resolutionOf(client, entry);
    now = bareResolution(resolution);
    nowDigest = await operationDigest(resolution.contract);
  } catch (error) {
    if (!isApiError(error)) throw error;
  }
  const sameRoute =
    now !== undefined &&
    now.method === intent.method &&
    now.url === intent.url &&
    now.operationId === intent.operationId;
  // The document's contract for the write too: a resend after it became deprecated, got a sunset
  // or another body schema is a write no window showed.
  if (!now || !sameRoute || nowDigest !== intent.operationDigest) {
    await refuse(entry, 'operation-changed', operationChanged(intent, now));
    await openDraftWindow(entry.id);
    return { outcome: 'review' };
  }
  log.info('write.resend', { draftId: entry.id, operationId: entry.operationId });
  // The claim re-checks what was checked here: still failed, still retryable, the same intent.
  const checked = canonicalJson(intent);
  const stillTheIntent = (current: Entry) =>
    current.status === 'failed' &&
    meaningOf(current.error?.code).retryable &&
    current.draft.confirmed !== undefined &&
    canonicalJson(current.draft.confirmed) === checked;
  return {
    outcome: 'sent',
    entry: await sendConfirmed(entry, { ...entry.draft, shown: undefined }, client, stillTheIntent),
  };
}

/** Retry from the popup, the side panel or the window: the same request again, or the window. */
export async function retryWrite(id: string): Promise<RetryOutcome> {
  return resendIntent(await writeEntry(id));
}

/** Review from any surface: the draft's one window, opened or focused. */
export async function reviewWrite(id: string): Promise<{ opened: true }> {
  await writeEntry(id);
  await openDraftWindow(id);
  return { opened: true };
}

/** The alarm's resend: only a failed write still waiting, with the intent the user confirmed. */
export async function resendDeferredWrite(id: string): Promise<void> {
  const entry = await getOutboxEntry<WriteDraft>(id);
  if (!entry || stateOf(entry) !== 'failed' || entry.error?.retryAt === undefined) return;
  try {
    await resendIntent(entry);
  } catch (error) {
    log.warn('write.resend-failed', { draftId: id, error });
  }
}

/** A worker stopped mid-send leaves "sending" behind; the retry reuses the key, so it cannot duplicate. */
export async function recoverInterruptedWrites(): Promise<void> {
  for (const entry of await listOutbox()) {
    const state = stateOf(entry as Entry);
    if (state === 'claimed') {
      await move(entry as Entry, 'failed', {
        status: 'failed',
        error: { message: WRITE_ERRORS.interrupted.message, code: 'interrupted' },
      });
    } else if (state === 'settled' && Date.now() - Date.parse(entry.updatedAt) > SENT_KEPT_MS) {
      await removeFromOutbox(entry.id);
    }
  }
}

/** The user discards a draft (its window's Cancel, the popup's Discard). */
export async function discardWrite(id: string): Promise<{ discarded: true }> {
  await removeFromOutbox(id);
  log.info('draft.discarded', { draftId: id });
  announce({ id, removed: true });
  return { discarded: true };
}

/** An entry as pages see it: without the window's token, which only its window is given. */
function viewOf(entry: Entry): Entry {
  if (!entry.draft.shown) return entry;
  const { token: _token, ...shown } = entry.draft.shown;
  return { ...entry, draft: { ...entry.draft, shown: { ...shown, token: '' } } };
}

/** One draft as stored (the side panel follows its write with it). */
export async function getWrite(id: string): Promise<Entry> {
  return viewOf(await writeEntry(id));
}

/** The drafts not yet settled, newest first. */
export async function openWrites(): Promise<Entry[]> {
  return (await listOutbox())
    .filter((entry) => entry.status !== 'sent')
    .map((entry) => viewOf(entry as Entry));
}

export { showWrite, confirmWrite };
