import { clear, createStore, del, get, set } from 'idb-keyval';

/**
 * Service data the worker keeps across restarts (the last discovery report, recent events):
 * IndexedDB of the extension origin, where content scripts cannot read it.
 */
const state = createStore('playbook-companion-state', 'state');

export function readState<T>(key: string): Promise<T | undefined> {
  return get<T>(key, state);
}

export function writeState<T>(key: string, value: T): Promise<void> {
  return set(key, value, state);
}

export function deleteState(key: string): Promise<void> {
  return del(key, state);
}

export function clearState(): Promise<void> {
  return clear(state);
}
