import { clear, get, promisifyRequest } from 'idb-keyval';
import { keyValueStore } from './db';
import { sameValue } from './sameValue';

const store = keyValueStore('state');

/**
 * Service data the worker keeps across restarts (the last discovery report, recent events), in
 * the extension's own database (lib/store/inventory.ts), where content scripts cannot read it.
 */
export function readState<T>(key: string): Promise<T | undefined> {
  return get<T>(key, store);
}

/** Stores `value` unless the same value is stored already (read and write in one transaction). */
export function writeState<T>(key: string, value: T): Promise<void> {
  return store('readwrite', async (objectStore) => {
    const stored: unknown = await promisifyRequest(objectStore.get(key));
    if (!sameValue(stored, value)) objectStore.put(value, key);
    // Settled when committed, as idb-keyval's `set` is.
    await promisifyRequest(objectStore.transaction);
  });
}

export function clearState(): Promise<void> {
  return clear(store);
}
