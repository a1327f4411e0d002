/**
 * The confirmation token: what one window showed, issued when it loads the draft and spent by
 * one Confirm. The worker sends only when the token is the draft's current one and everything it
 * names still holds at send time; anything else needs the window again.
 */
import { canonicalJson, type WriteResolution } from '@/lib/api/writeOperations';
import { sha256Hex } from '@/lib/digest';

/** What one confirm window showed: the resolved request, the body, and where and as whom it goes. */
export interface ShownWrite extends WriteResolution {
  /** Random, per window load: a Confirm carrying any other token sends nothing. */
  token: string;
  /** The tab of the draft's window the token was given to: only a Confirm from that tab sends. */
  tabId?: number;
  /** SHA-256 of the canonical JSON of the stored body the window loaded. */
  bodyDigest: string;
  /** The account the window named (from getAccount), when the service answered. */
  accountId?: string;
  /** Fingerprint of the key the window was shown under, never the key. */
  keyFingerprint?: string;
  /** Origin of the API URL the request goes to. */
  apiOrigin: string;
  /** SHA-256 of what the document said about sending this write (deprecation, sunset, auth, schema…). */
  operationDigest?: string;
}

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
