import { readPopupSnapshotOnce } from '@/lib/store/snapshot';

/**
 * The popup's snapshot read, started as this module is evaluated. main.tsx imports it first, so
 * the database answers while the rest of the popup's code (Preact, the polyfill, the components)
 * is evaluated, rather than after. Whatever it imports is evaluated before the read starts: keep
 * that to the store (lib/store/snapshot.ts and its own imports).
 */
export const snapshotRead = readPopupSnapshotOnce();
