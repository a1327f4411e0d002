import { clear, get, set } from 'idb-keyval';
import { keyValueStore } from './db';

const store = keyValueStore('state');

/**
 * Service data the worker keeps across restarts (the last discovery report, recent events), in
 * the extension's own database (lib/store/inventory.ts), where content scripts cannot read it.
 */
export function readState<T>(key: string): Promise<T | undefined> {
  return get<T>(key, store);
}

export function writeState<T>(key: string, value: T): Promise<void> {
  return set(key, value, store);
}

export function clearState(): Promise<void> {
  return clear(store);
}
