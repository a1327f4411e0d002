import { database } from './db';

/**
 * Service data the worker keeps across restarts (the last discovery report, recent events), in
 * the extension's own database (lib/store/inventory.ts), where content scripts cannot read it.
 */
export async function readState<T>(key: string): Promise<T | undefined> {
  return (await (await database()).get('state', key)) as T | undefined;
}

export async function writeState<T>(key: string, value: T): Promise<void> {
  await (await database()).put('state', value, key);
}

export async function clearState(): Promise<void> {
  await (await database()).clear('state');
}
