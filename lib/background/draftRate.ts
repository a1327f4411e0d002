import { browser } from 'wxt/browser';
import { STORAGE_ITEMS } from '@/lib/store/inventory';

/**
 * How many drafts a tab's content script may start per minute. Each draft opens a confirm
 * window, so a page that could ask without bound could bury the user in them (or time a click
 * into one). Counted in `storage.session`, so a worker restart does not reset the count; where
 * that area is missing, in memory.
 */
export const DRAFTS_PER_TAB_PER_MINUTE = 3;
const WINDOW_MS = 60_000;
const KEY_PREFIX = STORAGE_ITEMS.draftTimes.keyPrefix;

const memory = new Map<string, number[]>();
let queue: Promise<unknown> = Promise.resolve();

function sessionArea() {
  return (browser.storage as { session?: typeof browser.storage.local }).session;
}

async function readTimes(key: string): Promise<number[]> {
  const session = sessionArea();
  if (!session) return memory.get(key) ?? [];
  const stored: unknown = (await session.get(key))[key];
  return Array.isArray(stored) ? stored.filter((at): at is number => typeof at === 'number') : [];
}

async function writeTimes(key: string, times: number[]): Promise<void> {
  const session = sessionArea();
  if (!session) memory.set(key, times);
  else await session.set({ [key]: times });
}

/** Takes one of the tab's draft slots for this minute; false when the tab has used them all. */
export function takeDraftSlot(tabId: number, now: number = Date.now()): Promise<boolean> {
  const key = `${KEY_PREFIX}${tabId}`;
  // Read-count-write in turn: two drafts sent at once cannot both take the last slot.
  const run = queue.then(async () => {
    const recent = (await readTimes(key)).filter((at) => at > now - WINDOW_MS && at <= now);
    if (recent.length >= DRAFTS_PER_TAB_PER_MINUTE) return false;
    await writeTimes(key, [...recent, now]);
    return true;
  });
  queue = run.catch(() => undefined);
  return run;
}
