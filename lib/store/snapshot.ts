import type { AppState, OutboxEntryView, PlaybookPage, ServiceOverview } from '@/lib/messaging/protocol';
import { database } from './db';

/** The one record of the `snapshot` store: the popup paints from it before the worker answers. */
const POPUP_SNAPSHOT = 'popup';

/** A draft as the popup lists it: the worker names the operation, so the popup needs no table of writes. */
export type PopupDraft = OutboxEntryView & { label: string };

/** What the popup shows at once: the first page of the user's playbooks, the status and the account. */
export interface PopupSnapshot {
  /** Service URL and key fingerprint it was read for; another binding is never shown. */
  binding: string;
  state: AppState;
  /** The first page of "mine, all visibilities"; absent without a key. */
  page?: PlaybookPage;
  overview?: ServiceOverview;
  outbox: PopupDraft[];
  savedAt: number;
}

export function snapshotBinding(serviceUrl: string, keyFingerprint: string | undefined): string {
  return `${serviceUrl}|${keyFingerprint ?? 'no-key'}`;
}

/** A record that may predate this shape is dropped, not trusted. */
function isPopupSnapshot(value: unknown): value is PopupSnapshot {
  const record = value as Partial<PopupSnapshot> | undefined;
  return (
    typeof record?.binding === 'string' &&
    typeof record.savedAt === 'number' &&
    typeof record.state === 'object' &&
    record.state !== null &&
    Array.isArray(record.outbox) &&
    (record.page === undefined || Array.isArray(record.page.items))
  );
}

/** The popup's own read, from the extension origin's database: no round trip to a sleeping worker. */
export async function readPopupSnapshot(): Promise<PopupSnapshot | undefined> {
  const value: unknown = await (await database()).get('snapshot', POPUP_SNAPSHOT);
  return isPopupSnapshot(value) ? value : undefined;
}

export async function writePopupSnapshot(snapshot: PopupSnapshot): Promise<void> {
  await (await database()).put('snapshot', snapshot, POPUP_SNAPSHOT);
}

/** With the key or the service gone, nothing read for them may show. */
export async function clearPopupSnapshot(): Promise<void> {
  await (await database()).clear('snapshot');
}
