import type { OutboxEntry } from '@/lib/contract/outbox';
import type { WriteDraft } from '@/lib/messaging/protocol';

export const DRAFT_ID = '3f0c8a52-6f0e-4d7b-9a43-2b1f0f6c1d11';

/** A pending create from the offer, as the outbox keeps it; `over` changes what a test needs. */
export function entry(over: Partial<OutboxEntry<WriteDraft>> = {}): OutboxEntry<WriteDraft> {
  return {
    id: DRAFT_ID,
    origin: 'content-script',
    operationId: 'createPlaybook',
    draft: { body: { title: 'AAPL services', thesis: 'Services grow.', tickers: ['AAPL'] } },
    status: 'pending',
    createdAt: '2026-03-01T11:00:00Z',
    updatedAt: '2026-03-01T11:00:00Z',
    ...over,
  };
}
