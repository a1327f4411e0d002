/**
 * The confirmation token: what one window showed, issued when it loads the draft and spent by
 * one Confirm. The worker sends only when the token is the draft's current one and everything it
 * names still holds at send time; anything else needs the window again.
 */
import { canonicalJson } from '@/lib/api/writeOperations';
import type { ShownWrite } from '@/lib/contract/writes';
import { sha256Hex } from '@/lib/digest';

export type { ShownWrite } from '@/lib/contract/writes';

/** The digest a window's token and a confirmed intent bind of the document's contract for a write. */
export async function operationDigest(contract: string): Promise<string> {
  return sha256Hex(new TextEncoder().encode(contract));
}

export async function bodyDigest(body: unknown): Promise<string> {
  return sha256Hex(new TextEncoder().encode(canonicalJson(body ?? null)));
}

export function newToken(): string {
  return crypto.randomUUID();
}

/** What in `now` differs from what the window showed, or undefined when it is the same write. */
export function differenceFrom(
  shown: ShownWrite,
  now: Omit<ShownWrite, 'token'>,
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
    (shown.accountId !== undefined && now.accountId !== undefined && shown.accountId !== now.accountId)
  )
    return 'account-changed';
  if (shown.bodyDigest !== now.bodyDigest) return 'body-changed';
  return undefined;
}
