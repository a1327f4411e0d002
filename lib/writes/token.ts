/**
 * The confirmation token: what one window showed, issued when it loads the draft and spent by
 * one Confirm. The worker sends only when the token is the draft's current one and everything it
 * names still holds at send time; anything else needs the window again.
 */
import { canonicalJson } from '@/lib/api/writeOperations';
import type { ConfirmedIntent, ShownWrite } from '@/lib/contract/writes';
import { sha256Hex } from '@/lib/digest';

export type { ShownWrite } from '@/lib/contract/writes';

/** The digest a window's token and a confirmed intent bind of the document's contract for a write. */
export async function operationDigest(contract: string): Promise<string> {
  return sha256Hex(new TextEncoder().encode(contract));
}

export async function bodyDigest(body: unknown): Promise<string> {
  return sha256Hex(new TextEncoder().encode(canonicalJson(body ?? null)));
}

/** What a window's token or a confirmed intent binds: where the write goes, as whom, and its body. */
export type Binding = Omit<ShownWrite, 'token' | 'tabId'>;

/** What a confirmed intent binds, in the terms a window's token binds. */
export async function bindingOfIntent(intent: ConfirmedIntent): Promise<Binding> {
  return {
    operationId: intent.operationId,
    method: intent.method,
    url: intent.url,
    operationDigest: intent.operationDigest,
    // intent.body is the canonical JSON of the confirmed body: the same bytes bodyDigest hashes.
    bodyDigest: await sha256Hex(new TextEncoder().encode(intent.body ?? 'null')),
    accountId: intent.accountId,
    keyFingerprint: intent.keyFingerprint,
    apiOrigin: new URL(intent.apiUrl).origin,
    apiUrl: intent.apiUrl,
    serviceUrl: intent.serviceUrl,
  };
}

export function newToken(): string {
  return crypto.randomUUID();
}

/**
 * Whether the intent still holds: what in `now` differs from what a window showed or the user
 * confirmed (route, account, body), or undefined when it is the same write. The one check, at
 * Confirm, at a resend and just before the request leaves (lib/writes/send.ts).
 */
export function differenceFrom(
  shown: Binding,
  now: Binding,
): 'operation-changed' | 'account-changed' | 'body-changed' | undefined {
  if (
    shown.operationId !== now.operationId ||
    shown.method !== now.method ||
    shown.url !== now.url ||
    shown.operationDigest !== now.operationDigest
  )
    return 'operation-changed';
  if (
    shown.apiOrigin !== now.apiOrigin ||
    shown.keyFingerprint !== now.keyFingerprint ||
    differsWhereBothName(shown.accountId, now.accountId) ||
    differsWhereBothName(shown.apiUrl, now.apiUrl) ||
    differsWhereBothName(shown.serviceUrl, now.serviceUrl)
  )
    return 'account-changed';
  if (shown.bodyDigest !== now.bodyDigest) return 'body-changed';
  return undefined;
}

/** An account read may fail, and tokens of earlier versions name no URLs: compared only when both sides name one. */
function differsWhereBothName(then: string | undefined, now: string | undefined): boolean {
  return then !== undefined && now !== undefined && then !== now;
}
