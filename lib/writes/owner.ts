/**
 * The one owner of a write's lifecycle (lifecycle.ts): queueing a draft, showing it in its one
 * window (which issues the confirmation token), confirming it, claiming and sending it, resending
 * the same confirmed bytes, and settling, failing or refusing it. Nothing else changes an outbox
 * entry (lint forbids the store's writers elsewhere), and every surface (confirm window, popup,
 * side panel, context menu, notifications, alarms) calls these functions through the worker.
 */
import { t } from '@/lib/i18n';
import { browser } from 'wxt/browser';
import {
  canonicalJson,
  describeResolution,
  isApiError,
  isWriteOperation,
  newIdempotencyKey,
  writeSpec,
  writeWords,
  type ApiClient,
  type ConfirmedIntent,
  type WriteOperation,
} from '@/lib/api';
import type { OutboxEntry } from '@/lib/contract/outbox';
import { playbookDraftSchema } from '@/lib/finance/schema';
import { log } from '@/lib/log';
import { fieldErrors, type PendingWrite } from '@/lib/messaging';
import {
  addDraft,
  applyStep,
  listWrites,
  playbookIdOf,
  readWrite,
  type DraftOrigin,
  type WriteDraft,
} from './outbox';
import { focusConfirmWindow, openConfirmWindow } from './confirmWindow';
import { getSettings, type Settings } from '@/lib/store/settings';
import { serviceClient } from '@/lib/api/service';
import { meaningOf, WRITE_ERRORS } from './errors';
import { allows } from './lifecycle';
import {
  accountOf,
  bareResolution,
  confirmedBody,
  currentShape,
  resolutionOf,
  typedConfirmationFor,
  whyNotTheSame,
} from './resolve';
import {
  draftOfRetryAlarm,
  notFree,
  playbookOfWriteNotification,
  sendConfirmed,
  writeRetryAlarm,
} from './send';
import { bindingOfIntent, newToken, type ShownWrite } from './token';
import { announce, move, pushWriteChangesTo, refusal, refuse, viewOf, type Entry } from './transitions';

const SENT_KEPT_MS = 24 * 60 * 60 * 1000;

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
    const entry = await readWrite<WriteDraft>(id);
    if (!entry) throw refusal('draft-not-found');
    if (entry.windowId !== undefined && (await focusConfirmWindow(entry.windowId, id))) return;
    const windowId = await openConfirmWindow(id);
    await placeWindow(id, windowId);
  })().finally(() => opening.delete(id));
  opening.set(id, run);
  return run;
}

async function queueDraft(
  origin: DraftOrigin,
  operationId: WriteOperation,
  draft: WriteDraft,
): Promise<string> {
  const entry = await addDraft<WriteDraft>({ origin, operationId, draft });
  log.info('outbox.queued', { draftId: entry.id, operationId, origin });
  announce(entry);
  await openDraftWindow(entry.id);
  return entry.id;
}

/** The stored entry of a write, refusing one whose operation this version does not know. */
async function writeEntry(id: string): Promise<Entry> {
  const entry = await readWrite<WriteDraft>(id);
  if (!entry) throw refusal('draft-not-found');
  if (!isWriteOperation(entry.operationId)) throw refusal('invalid-draft', t('errors.write.unknownWrite'));
  return entry;
}

/** A draft from page text (content script or menu): untrusted until the schema says otherwise. */
export async function queuePageDraft(origin: DraftOrigin, draft: unknown): Promise<string> {
  // Parsed here rather than by sanitizeDraft, whose messages are the schema's English ones: the
  // fields are worded from each issue's code in the UI language.
  const checked = playbookDraftSchema.safeParse(draft);
  if (!checked.success)
    throw refusal('invalid-draft', t('errors.write.unusableDraft'), fieldErrors(checked.error, 'draft'));
  return queueDraft(origin, 'createPlaybook', { body: checked.data });
}

/** An extension page's action (side panel, popup): queued and shown in its window, never sent here. */
export async function queueWrite(operationId: WriteOperation, draft: WriteDraft): Promise<string> {
  if (writeSpec(operationId).targetsPlaybook && !playbookIdOf(draft))
    throw refusal('invalid-draft', t('errors.write.noPlaybook'));
  return queueDraft('extension-page', operationId, draft);
}

/** The page asking, as the browser names it: its tab, and the window that tab is in. */
export interface Viewer {
  tabId: number;
  windowId: number;
}

/**
 * Whether `viewer` is the draft's own window (waiting for an opening in progress to record it).
 * When the draft's window is gone (closed, or a browser restart), the page showing the draft in a
 * tab becomes its one window; a page without a tab (popup, side panel) never does.
 */
async function isDraftWindow(id: string, viewer: Viewer | undefined): Promise<boolean> {
  if (!viewer) return false;
  if ((await readWrite<WriteDraft>(id))?.windowId === viewer.windowId) return true;
  // The window may load its page before openDraftWindow has stored the window's id.
  await opening.get(id)?.catch(() => undefined);
  const windowId = (await readWrite<WriteDraft>(id))?.windowId;
  if (windowId === viewer.windowId) return true;
  const open = windowId !== undefined && (await browser.windows.get(windowId).then(Boolean, () => false));
  if (open) return false;
  await placeWindow(id, viewer.windowId);
  return true;
}

/**
 * The confirm window loads its draft: shows it as the document resolves it now and issues its
 * token, only to the draft's own window (`viewer`, the sender's tab); any other page gets the
 * draft without a token.
 */
async function showWrite(id: string, viewer?: Viewer): Promise<PendingWrite> {
  const ownWindow = await isDraftWindow(id, viewer);
  let entry = await writeEntry(id);
  const settings = await getSettings();
  // The window shows the operation as the document resolves it now, not as it did a minute ago.
  const client = await serviceClient(settings, { fresh: true });
  const result: PendingWrite = {
    entry: viewOf(entry),
    consequence: writeWords(entry.operationId).consequence,
  };
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
  const state = entry.state;
  const step = state === 'failed' ? 'showFailed' : 'show';
  if (shape && allows(step, state) && ownWindow && viewer) {
    const shown: ShownWrite = { ...shape, token: newToken(), tabId: viewer.tabId };
    const shownBody = canonicalJson(entry.draft.body ?? null);
    // A refused draft shown again is a draft awaiting Confirm; a failed one keeps its failure (and
    // Retry). Only while it is still in the state (and body) this window resolved: a draft sent
    // meanwhile is never turned back into a pending one.
    const moved = await move(
      entry,
      step,
      (current) => ({ draft: { ...current.draft, shown } }),
      (current) => canonicalJson(current.draft.body ?? null) === shownBody,
    );
    if (moved) {
      entry = moved;
      result.token = shown.token;
    } else {
      entry = (await readWrite<WriteDraft>(id)) ?? entry;
    }
    result.entry = viewOf(entry);
  }
  if (result.refusal === undefined) result.typeToConfirm = await typedConfirmationFor(entry, client);
  return result;
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
): Promise<OutboxEntry<WriteDraft>> {
  const entry = await writeEntry(id);
  const state = entry.state;
  if (state === 'settled') throw refusal('draft-already-sent');
  if (!allows('confirm', state) && state !== 'drafted' && state !== 'refused')
    throw refusal('write-in-progress');
  const shown = entry.draft.shown;
  // The token is the window's: only the tab it was given to may spend it.
  const fromItsWindow = shown?.tabId !== undefined && shown.tabId === viewer?.tabId;
  if (!shown?.token || token === undefined || shown.token !== token || !fromItsWindow)
    throw refusal('not-shown');
  const settings = await getSettings();
  const client = await serviceClient(settings, { fresh: true });
  const account = await accountOf(client);
  const now = await currentShape(entry, client, settings, account?.id);
  const changed = whyNotTheSame(shown, now);
  if (changed) {
    await refuse(entry, changed.code, changed.message);
    throw refusal(changed.code, changed.message);
  }
  const expected = await typedConfirmationFor(entry, client);
  // An empty name (a title '' from the service, a checkout without a plan) confirms nothing.
  if (expected !== undefined && expected.trim() === '')
    throw refusal('typed-confirmation', t('errors.write.nothingToType'), {
      typed: t('errors.field.nothingToMatch'),
    });
  if (expected !== undefined && (typed ?? '').trim() !== expected.trim()) {
    throw refusal('typed-confirmation', t('errors.write.typeName', { name: expected }), {
      typed: t('errors.field.noMatch'),
    });
  }
  const body = confirmedBody(entry, edits);
  const sameBody = canonicalJson(body ?? null) === canonicalJson(entry.draft.body ?? null);
  // After a failure that may have reached the service, the key stays even for an edited body: if
  // the first attempt landed, the service answers 422 instead of writing a second playbook.
  const mayHaveLanded =
    entry.draft.mayHaveLanded === true ||
    (entry.state === 'failed' && meaningOf(entry.error?.code).mayHaveLanded);
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
  // The token is spent: this confirmation is the intent; resends send its bytes or nothing. Only
  // the Confirm whose token is still stored confirms.
  const draft: WriteDraft = {
    ...entry.draft,
    body,
    idempotencyKey,
    mayHaveLanded,
    confirmed,
    shown: undefined,
  };
  const confirmedEntry = await move(
    entry,
    'confirm',
    { draft, error: undefined },
    (current) => current.draft.shown?.token === token,
  );
  if (!confirmedEntry) throw notFree((await readWrite<WriteDraft>(id)) ?? undefined);
  return viewOf(await sendConfirmed(confirmedEntry));
}

/**
 * Whether a confirmed intent still holds as the document, key and settings stand now (the one
 * check, whyNotTheSame), or why not; a write the document no longer resolves is a changed operation.
 */
async function intentChange(
  entry: Entry,
  intent: ConfirmedIntent,
  client: ApiClient,
  settings: Settings,
): Promise<ReturnType<typeof whyNotTheSame>> {
  try {
    return whyNotTheSame(
      await bindingOfIntent(intent),
      await currentShape(entry, client, settings, undefined),
    );
  } catch (error) {
    if (!isApiError(error)) throw error;
    // Why it no longer resolves (past its sunset, gone from the document), in the client's words.
    return { code: 'operation-changed', message: error.message };
  }
}

export type RetryOutcome = { outcome: 'sent'; entry: OutboxEntry<WriteDraft> } | { outcome: 'review' };

/**
 * Resends the confirmed intent of a failed write, byte for byte under its Idempotency-Key, when
 * its failure allows that (5xx, timeout, restart, rate-limit wait) and the intent still matches
 * the document, the key and the API it was confirmed for. Anything else sends nothing: the draft
 * is refused and its one window opens (or is focused) to show what would be sent.
 */
async function resendIntent(entry: Entry): Promise<RetryOutcome> {
  const intent = entry.draft.confirmed;
  const state = entry.state;
  if (state === 'settled') throw refusal('draft-already-sent');
  if (state === 'confirmed' || state === 'claimed' || state === 'sent') throw refusal('write-in-progress');
  if (state !== 'failed' || !meaningOf(entry.error?.code).retryable || !intent) {
    // A failure the service may not have seen again is not a resend: the window shows it anew.
    if (state === 'failed' && !intent) await refuse(entry, 'not-shown', t('errors.write.confirmedUnbound'));
    await openDraftWindow(entry.id);
    return { outcome: 'review' };
  }
  const settings = await getSettings();
  const client = await serviceClient(settings, { fresh: true });
  const changed = await intentChange(entry, intent, client, settings);
  if (changed) {
    await refuse(entry, changed.code, changed.message);
    await openDraftWindow(entry.id);
    return { outcome: 'review' };
  }
  log.info('write.resend', { draftId: entry.id, operationId: entry.operationId });
  // The claim re-checks what was checked here: still failed, still retryable, the same intent.
  const checked = canonicalJson(intent);
  const stillTheIntent = (current: Entry) =>
    current.state === 'failed' &&
    meaningOf(current.error?.code).retryable &&
    current.draft.confirmed !== undefined &&
    canonicalJson(current.draft.confirmed) === checked;
  return {
    outcome: 'sent',
    entry: viewOf(await sendConfirmed(entry, stillTheIntent)),
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
  const entry = await readWrite<WriteDraft>(id);
  if (!entry || entry.state !== 'failed' || entry.error?.retryAt === undefined) return;
  try {
    await resendIntent(entry);
  } catch (error) {
    log.warn('write.resend-failed', { draftId: id, error });
  }
}

/**
 * A worker stopped between a Confirm and the answer leaves a confirmed, claimed or sent entry
 * behind: it is interrupted (failed), and the retry reuses the key, so it cannot duplicate.
 * Settled writes older than a day are purged.
 */
export async function recoverInterruptedWrites(): Promise<void> {
  for (const entry of await listWrites()) {
    if (allows('interrupt', entry.state)) {
      await move(entry, 'interrupt', {
        error: { message: WRITE_ERRORS.interrupted.message, code: 'interrupted' },
      });
    } else if (allows('purge', entry.state) && Date.now() - Date.parse(entry.updatedAt) > SENT_KEPT_MS) {
      await move(entry, 'purge');
    }
  }
}

/** Where the draft is shown: a step of its own, allowed in every state, that changes only the window id. */
async function placeWindow(id: string, windowId: number | undefined): Promise<void> {
  await applyStep<WriteDraft>(
    id,
    'placeWindow',
    () => true,
    () => ({ windowId }),
  );
}

/** The user discards a draft (its window's Cancel, the popup's Discard): refused while it is being sent. */
export async function discardWrite(id: string): Promise<{ discarded: true }> {
  const result = await applyStep<WriteDraft>(id, 'discard', () => true);
  if (!result.done && result.current) throw refusal('write-in-progress', t('errors.write.busyDiscard'));
  log.info('draft.discarded', { draftId: id });
  announce({ id, removed: true });
  return { discarded: true };
}

/** One draft as stored (the side panel follows its write with it). */
export async function getWrite(id: string): Promise<OutboxEntry<WriteDraft>> {
  return viewOf(await writeEntry(id));
}

/** The drafts not yet settled, newest first. */
export async function openWrites(): Promise<OutboxEntry<WriteDraft>[]> {
  return (await listWrites()).filter((entry) => entry.state !== 'settled').map(viewOf);
}

export {
  showWrite,
  confirmWrite,
  draftOfRetryAlarm,
  playbookOfWriteNotification,
  pushWriteChangesTo,
  writeRetryAlarm,
};
