import { createStore, del, entries, get, set } from 'idb-keyval';

/**
 * Drafts the user started, kept in IndexedDB of the extension origin from the moment of the click,
 * so a service-worker restart, a closed tab or a browser restart loses nothing.
 */
export type DraftOrigin = 'content-script' | 'context-menu' | 'extension-page';
export type OutboxStatus = 'pending' | 'sending' | 'failed' | 'sent';

export interface OutboxEntry<T = unknown> {
  id: string;
  origin: DraftOrigin;
  /** The operation the draft will become once confirmed. */
  operationId: string;
  draft: T;
  status: OutboxStatus;
  createdAt: string;
  updatedAt: string;
  /** `code` is the error kind; `problemCode` the service's own stable code (e.g. brokerage_not_linked). */
  error?: { message: string; code?: string; problemCode?: string; retryAt?: number };
}

const outbox = createStore('playbook-companion-outbox', 'drafts');

export async function addToOutbox<T>(
  input: Pick<OutboxEntry<T>, 'origin' | 'operationId' | 'draft'>,
): Promise<OutboxEntry<T>> {
  const now = new Date().toISOString();
  const entry: OutboxEntry<T> = {
    id: crypto.randomUUID(),
    status: 'pending',
    createdAt: now,
    updatedAt: now,
    ...input,
  };
  await set(entry.id, entry, outbox);
  return entry;
}

export async function getOutboxEntry<T = unknown>(id: string): Promise<OutboxEntry<T> | undefined> {
  return get<OutboxEntry<T>>(id, outbox);
}

export async function updateOutboxEntry<T>(
  id: string,
  change: Partial<Omit<OutboxEntry<T>, 'id' | 'createdAt'>>,
): Promise<OutboxEntry<T> | undefined> {
  const current = await getOutboxEntry<T>(id);
  if (!current) return undefined;
  // The id and creation time are the entry's identity: a change can never move or re-date it.
  const next: OutboxEntry<T> = {
    ...current,
    ...change,
    id: current.id,
    createdAt: current.createdAt,
    updatedAt: new Date().toISOString(),
  };
  await set(id, next, outbox);
  return next;
}

/**
 * Moves a pending or failed entry to "sending" in one IndexedDB transaction, so two confirm
 * windows (or a confirm and a retry alarm) can never both send it. Undefined when it was not free.
 */
export async function claimForSending<T>(id: string, draft: T): Promise<OutboxEntry<T> | undefined> {
  return outbox('readwrite', (store) => {
    return new Promise<OutboxEntry<T> | undefined>((resolve, reject) => {
      const read = store.get(id);
      read.onerror = () => reject(read.error ?? new Error('outbox read failed'));
      read.onsuccess = () => {
        const current = read.result as OutboxEntry<T> | undefined;
        if (!current || (current.status !== 'pending' && current.status !== 'failed')) {
          resolve(undefined);
          return;
        }
        const claimed: OutboxEntry<T> = {
          ...current,
          status: 'sending',
          draft,
          error: undefined,
          updatedAt: new Date().toISOString(),
        };
        const write = store.put(claimed, id);
        write.onerror = () => reject(write.error ?? new Error('outbox write failed'));
        write.onsuccess = () => resolve(claimed);
      };
    });
  });
}

export async function removeFromOutbox(id: string): Promise<void> {
  await del(id, outbox);
}

export async function listOutbox(): Promise<OutboxEntry[]> {
  const all = await entries<string, OutboxEntry>(outbox);
  return all.map(([, entry]) => entry).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
