import { browser } from 'wxt/browser';

/**
 * One whole value in `storage.local` or `storage.session`, under its inventory key (`area:name`,
 * ./inventory.ts). The worker needs only this much of @wxt-dev/storage's `defineItem`, which it
 * would otherwise bundle whole (≈3 KB gzip). A stored value `isValue` rejects reads as `fallback`:
 * content scripts can write `storage.local`.
 */
export interface AreaItem<T> {
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  /** Calls `onChange` with every new value; returns what stops watching. */
  watch(onChange: (value: T) => void): () => void;
}

type StorageListener = Parameters<typeof browser.storage.onChanged.addListener>[0];

export function defineAreaItem<T>(
  item: { area: 'local' | 'session'; key: string },
  fallback: T,
  isValue: (value: unknown) => value is T,
): AreaItem<T> {
  const name = item.key.slice(item.key.indexOf(':') + 1);
  const area = () => browser.storage[item.area];
  const read = (value: unknown): T => (value !== undefined && isValue(value) ? value : fallback);
  return {
    async getValue() {
      return read((await area().get(name))[name]);
    },
    async setValue(value) {
      await area().set({ [name]: value });
    },
    watch(onChange) {
      const listener: StorageListener = (changes, areaName) => {
        if (areaName === item.area && name in changes) onChange(read(changes[name].newValue));
      };
      browser.storage.onChanged.addListener(listener);
      return () => browser.storage.onChanged.removeListener(listener);
    },
  };
}
