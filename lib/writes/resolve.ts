/**
 * A draft as it stands now: how the document resolves its write, what a window's token names,
 * what the user must type to confirm it, and the body it sends with the user's edits.
 */
import { t } from '@/lib/i18n';
import { describeResolution, writeSpec, type ApiClient, type WriteResolution } from '@/lib/api';
import { normalizeTicker } from '@/lib/finance/symbols';
import { log } from '@/lib/log';
import { fieldErrors } from '@/lib/messaging';
import { playbookIdOf } from './outbox';
import { keyFingerprint } from '@/lib/store/apiKey';
import type { Settings } from '@/lib/store/settings';
import { WRITE_ERRORS } from './errors';
import { bodyDigest, differenceFrom, operationDigest, type Binding, type ShownWrite } from './token';
import { refusal, type Entry } from './transitions';

function normalizeTickers(body: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(body.tickers)) return body;
  const tickers: unknown[] = body.tickers;
  return { ...body, tickers: tickers.map((raw) => normalizeTicker(raw) ?? raw) };
}

/** The body that will be sent: the stored draft, with the user's edits where the operation allows them. */
export function confirmedBody(
  entry: Entry,
  edits: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const stored = entry.draft.body;
  if (!edits) return stored;
  const schema = writeSpec(entry.operationId).editableBody?.schema;
  if (!schema) return stored;
  const parsed = schema.safeParse(normalizeTickers({ ...stored, ...edits }));
  if (!parsed.success)
    throw refusal('invalid-draft', t('errors.write.invalidDraft'), fieldErrors(parsed.error, 'body'));
  return parsed.data;
}

export async function typedConfirmationFor(entry: Entry, client: ApiClient): Promise<string | undefined> {
  const rule = writeSpec(entry.operationId).typedConfirmation;
  if (rule === undefined) return undefined;
  if (rule === 'plan') {
    const plan = entry.draft.body?.plan;
    return typeof plan === 'string' ? plan : '';
  }
  const playbookId = playbookIdOf(entry.draft);
  if (!playbookId) throw refusal('invalid-draft', t('errors.write.noPlaybook'));
  // The one read of a playbook, through the client's read rules (GET, replaced only by a GET).
  return (await client.call('getPlaybook', { playbookId })).data.title;
}

/** How the document resolves this draft's write now: the operation itself, its method and full URL. */
export function resolutionOf(client: ApiClient, entry: Entry) {
  return client.resolveWrite(entry.operationId, playbookIdOf(entry.draft));
}

export function bareResolution(resolution: WriteResolution): WriteResolution {
  return { operationId: resolution.operationId, method: resolution.method, url: resolution.url };
}

export async function accountOf(client: ApiClient) {
  try {
    return (await client.call('getAccount')).data;
  } catch (error) {
    log.warn('confirm.account-unavailable', { error });
    return undefined;
  }
}

/** Why a write resolved again is not the one shown or confirmed: its route, or else its document. */
export function operationChanged(was: WriteResolution, now: WriteResolution | undefined): string {
  const [before, after] = [describeResolution(was), now && describeResolution(now)];
  return after !== undefined && after !== before
    ? t('errors.write.operationChangedFrom', { was: before, now: after })
    : WRITE_ERRORS['operation-changed'].message;
}

/** Everything a token names, as it stands now. */
export async function currentShape(
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
    apiUrl: settings.apiUrl,
    serviceUrl: settings.serviceUrl,
  };
}

/**
 * The refusal when the intent no longer holds (differenceFrom), worded for the user: a changed
 * route names both, a changed body needs the window again. Undefined when it still holds.
 */
export function whyNotTheSame(
  bound: Binding,
  now: Binding,
): { code: 'not-shown' | 'operation-changed' | 'account-changed'; message: string } | undefined {
  const difference = differenceFrom(bound, now);
  if (difference === undefined) return undefined;
  const code = difference === 'body-changed' ? 'not-shown' : difference;
  const message =
    difference === 'operation-changed' ? operationChanged(bound, now) : WRITE_ERRORS[code].message;
  return { code, message };
}
