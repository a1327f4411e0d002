/**
 * The confirmation ledger: the confirm flow issues a one-time token bound to the exact write the
 * user saw, and the client consumes it before sending. It lives in the extension origin's
 * IndexedDB, so a worker restart between confirm and send loses nothing and content scripts
 * (which run in the page's origin) can never read it.
 */
import { createStore, type UseStore } from 'idb-keyval';
import type { ParameterValue, QueryValue } from './operations';

export interface WriteIntent {
  operationId: string;
  path?: Record<string, ParameterValue>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** UUID generated when the user confirms; reused unchanged by every retry of this write. */
  idempotencyKey: string;
  /** The playbook etag for updatePlaybook. */
  ifMatch?: string;
}

export interface ConfirmationLedger {
  issue(intent: WriteIntent): Promise<string>;
  consume(token: string, intent: WriteIntent): Promise<boolean>;
}

interface LedgerEntry {
  hash: string;
  expiresAt: number;
}

export const DEFAULT_CONFIRMATION_TTL_MS = 5 * 60 * 1000;

/** A separate database, not a second store in a shared one: idb-keyval creates one store per database. */
export function confirmationStore(): UseStore {
  return createStore('playbook-companion-confirmations', 'confirmations');
}

/** JSON with object keys sorted at every level, so equal values always hash the same. */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
      const sorted: Record<string, unknown> = {};
      for (const name of Object.keys(item).sort()) sorted[name] = (item as Record<string, unknown>)[name];
      return sorted;
    }) ?? 'undefined'
  );
}

function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** The hash a confirmation is bound to: everything that decides what the write does. */
export function intentHash(intent: WriteIntent): Promise<string> {
  return sha256Hex(
    canonicalJson({
      operationId: intent.operationId,
      path: intent.path ?? {},
      query: intent.query ?? {},
      body: intent.body ?? null,
      idempotencyKey: intent.idempotencyKey,
      ifMatch: intent.ifMatch ?? null,
    }),
  );
}

/** A fresh Idempotency-Key (UUID v4), made when the user confirms. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

const TOKEN_PATTERN = /^[0-9a-f]{32}$/;

function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

export interface ConfirmationLedgerOptions {
  now?: () => number;
  ttlMs?: number;
}

export function createConfirmationLedger(
  store: UseStore = confirmationStore(),
  options: ConfirmationLedgerOptions = {},
): ConfirmationLedger {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? DEFAULT_CONFIRMATION_TTL_MS;

  async function sweepExpired(): Promise<void> {
    const at = now();
    await store('readwrite', async (objectStore) => {
      const keys = await requestResult(objectStore.getAllKeys());
      const values = await requestResult(objectStore.getAll());
      values.forEach((entry: LedgerEntry | undefined, index) => {
        if (!entry || entry.expiresAt <= at) objectStore.delete(keys[index]);
      });
    });
  }

  return {
    async issue(intent) {
      await sweepExpired();
      const token = toHex(crypto.getRandomValues(new Uint8Array(16)));
      const entry: LedgerEntry = { hash: await intentHash(intent), expiresAt: now() + ttlMs };
      await store('readwrite', (objectStore) => requestResult(objectStore.put(entry, token)));
      return token;
    },
    async consume(token, intent) {
      if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return false;
      const expected = await intentHash(intent);
      // Read and delete in one transaction: two racing consumers cannot both get the token.
      const entry = await store('readwrite', async (objectStore) => {
        const found = (await requestResult(objectStore.get(token))) as LedgerEntry | undefined;
        if (found) objectStore.delete(token);
        return found;
      });
      if (!entry) return false;
      return entry.expiresAt > now() && entry.hash === expected;
    },
  };
}
