import { beforeEach, describe, expect, it } from 'vitest';
import {
  addToOutbox,
  claimForSending,
  getOutboxEntry,
  listOutbox,
  removeFromOutbox,
  transitionOutboxEntry,
  updateOutboxEntry,
} from '@/lib/store/outbox';

beforeEach(async () => {
  for (const entry of await listOutbox()) await removeFromOutbox(entry.id);
});

describe('outbox', () => {
  it('keeps a draft from the first click, pending, with a fresh id and timestamps', async () => {
    const entry = await addToOutbox({
      origin: 'content-script',
      operationId: 'createPlaybook',
      draft: { n: 1 },
    });
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(entry.status).toBe('pending');
    expect(await getOutboxEntry(entry.id)).toEqual(entry);
  });

  it('survives a new module instance (what a restarted worker sees)', async () => {
    const entry = await addToOutbox({
      origin: 'context-menu',
      operationId: 'createPlaybook',
      draft: { n: 2 },
    });
    const { vi } = await import('vitest');
    vi.resetModules();
    const fresh = await import('@/lib/store/outbox');
    expect(await fresh.getOutboxEntry(entry.id)).toEqual(entry);
  });

  it('updates status and error but never the id or creation time', async () => {
    const entry = await addToOutbox({ origin: 'extension-page', operationId: 'runBacktest', draft: {} });
    const next = await updateOutboxEntry(entry.id, {
      status: 'failed',
      error: { message: 'The service failed.', code: 'server' },
      id: 'other',
      createdAt: 'never',
    } as never);
    expect(next).toMatchObject({ id: entry.id, createdAt: entry.createdAt, status: 'failed' });
    expect((await getOutboxEntry(entry.id))?.error?.message).toBe('The service failed.');
    expect(await getOutboxEntry('other')).toBeUndefined();
  });

  it('answers undefined for an unknown id and does not create it', async () => {
    expect(await updateOutboxEntry('missing', { status: 'sent' })).toBeUndefined();
    expect(await listOutbox()).toHaveLength(0);
  });

  it('lists newest first and forgets removed drafts', async () => {
    const first = await addToOutbox({ origin: 'extension-page', operationId: 'createPlaybook', draft: {} });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await addToOutbox({ origin: 'extension-page', operationId: 'runBacktest', draft: {} });
    expect((await listOutbox()).map((e) => e.id)).toEqual([second.id, first.id]);
    await removeFromOutbox(first.id);
    expect((await listOutbox()).map((e) => e.id)).toEqual([second.id]);
  });
});

describe('claimForSending', () => {
  it('gives a draft to exactly one of many concurrent claims', async () => {
    const entry = await addToOutbox({
      origin: 'extension-page',
      operationId: 'createPlaybook',
      draft: { n: 0 },
    });
    const claims = await Promise.all([1, 2, 3, 4].map((n) => claimForSending(entry.id, { n })));
    const winners = claims.filter((claim) => claim !== undefined);
    expect(winners).toHaveLength(1);
    expect(await getOutboxEntry(entry.id)).toMatchObject({ status: 'sending', draft: winners[0].draft });
  });

  it('claims a failed draft again but never one being sent or sent', async () => {
    const entry = await addToOutbox({ origin: 'extension-page', operationId: 'createPlaybook', draft: {} });
    await updateOutboxEntry(entry.id, { status: 'failed', error: { message: 'offline' } });
    expect(await claimForSending(entry.id, { retry: true })).toMatchObject({
      status: 'sending',
      error: undefined,
    });
    expect(await claimForSending(entry.id, {})).toBeUndefined();
    await updateOutboxEntry(entry.id, { status: 'sent' });
    expect(await claimForSending(entry.id, {})).toBeUndefined();
    expect(await claimForSending('missing', {})).toBeUndefined();
  });
});

describe('transitionOutboxEntry', () => {
  it('changes an entry only while what is stored still holds, merging into the stored entry', async () => {
    const entry = await addToOutbox({
      origin: 'extension-page',
      operationId: 'createPlaybook',
      draft: { body: 1, token: 'a' },
    });
    // Someone else moved the entry on after `entry` was read.
    await updateOutboxEntry(entry.id, { status: 'sent', draft: { body: 1, result: 'done' } });
    const stale = await transitionOutboxEntry<Record<string, unknown>>(
      entry.id,
      (current) => current.status === 'pending',
      (current) => ({ draft: { ...current.draft, token: 'b' } }),
    );
    expect(stale).toBeUndefined();
    expect(await getOutboxEntry(entry.id)).toMatchObject({
      status: 'sent',
      draft: { body: 1, result: 'done' },
    });
    const moved = await transitionOutboxEntry<Record<string, unknown>>(
      entry.id,
      (current) => current.status === 'sent',
      (current) => ({ draft: { ...current.draft, seen: true } }),
    );
    expect(moved?.draft).toEqual({ body: 1, result: 'done', seen: true });
  });
});
