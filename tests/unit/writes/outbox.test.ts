import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WRITE_STATES, type WriteState } from '@/lib/contract/writes';
import { database } from '@/lib/store/db';
import { STEPS, type StepName } from '@/lib/writes/lifecycle';
import { addDraft, applyStep, listWrites, readWrite, type StoredWrite } from '@/lib/writes/outbox';

beforeEach(async () => {
  await (await database()).clear('outbox');
});
afterEach(() => {
  vi.useRealTimers();
});

/** A record stored as it is in `state`, as a step would have left it. */
async function storedIn(state: WriteState, draft: Record<string, unknown> = {}): Promise<StoredWrite> {
  const entry = await addDraft({ origin: 'extension-page', operationId: 'createPlaybook', draft });
  const record = { ...entry, state };
  await (await database()).put('outbox', record, entry.id);
  return record;
}

describe('the outbox', () => {
  it('keeps a draft from the first click as drafted, with a fresh id and timestamps', async () => {
    const entry = await addDraft({
      origin: 'content-script',
      operationId: 'createPlaybook',
      draft: { n: 1 },
    });
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(entry.state).toBe('drafted');
    expect(await readWrite(entry.id)).toEqual(entry);
  });

  it('survives a new module instance (what a restarted worker sees)', async () => {
    const entry = await addDraft({ origin: 'context-menu', operationId: 'createPlaybook', draft: { n: 2 } });
    vi.resetModules();
    const fresh = await import('@/lib/writes/outbox');
    expect(await fresh.readWrite(entry.id)).toEqual(entry);
  });

  it('lists newest first', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-11-01T10:00:00Z'));
    const first = await addDraft({ origin: 'extension-page', operationId: 'createPlaybook', draft: {} });
    vi.setSystemTime(Date.parse('2026-11-01T10:00:01Z'));
    const second = await addDraft({ origin: 'extension-page', operationId: 'runBacktest', draft: {} });
    expect((await listWrites()).map((e) => e.id)).toEqual([second.id, first.id]);
  });

  it.each([
    ['pending', {}, undefined, 'drafted'],
    ['pending', { shown: { token: 't' } }, undefined, 'shown'],
    ['sending', {}, undefined, 'claimed'],
    ['sent', {}, undefined, 'settled'],
    ['failed', {}, 'api.server', 'failed'],
    ['failed', {}, 'interrupted', 'failed'],
    ['failed', {}, 'operation-changed', 'refused'],
    ['failed', {}, 'account-changed', 'refused'],
  ] as const)(
    'reads a record of an earlier version stored as %s (%j, %s) as %s',
    async (status, draft, code, state) => {
      const id = crypto.randomUUID();
      const old = {
        id,
        origin: 'extension-page',
        operationId: 'createPlaybook',
        draft,
        status,
        createdAt: '2026-11-01T10:00:00.000Z',
        updatedAt: '2026-11-01T10:00:00.000Z',
        ...(code ? { error: { message: 'm', code } } : {}),
      };
      await (await database()).put('outbox', old, id);
      const read = await readWrite(id);
      expect(read?.state).toBe(state);
      expect(read).not.toHaveProperty('status');
      // A step stores the migrated record: the old status is gone from the database too.
      await applyStep(
        id,
        'placeWindow',
        () => true,
        () => ({ windowId: 7 }),
      );
      expect(await (await database()).get('outbox', id)).toMatchObject({ state, windowId: 7 });
      expect(await (await database()).get('outbox', id)).not.toHaveProperty('status');
    },
  );
});

describe('applyStep: every change is a named step of the table, and the rest is refused', () => {
  const cases = (Object.keys(STEPS) as StepName[]).flatMap((step) =>
    WRITE_STATES.map((from) => [step, from] as const),
  );

  it.each(cases)('%s from %s is applied exactly when the table allows it', async (step, from) => {
    const entry = await storedIn(from, { body: 1 });
    const allowed = (STEPS[step].from as readonly WriteState[]).includes(from);
    const result = await applyStep(entry.id, step, () => true);
    expect(result.done).toBe(allowed);
    const stored = await readWrite(entry.id);
    if (!allowed) expect(stored).toEqual(entry);
    else if (STEPS[step].to === 'removed') expect(stored).toBeUndefined();
    else expect(stored?.state).toBe(STEPS[step].to === 'stay' ? from : STEPS[step].to);
  });

  it.each(['confirmed', 'claimed', 'sent'] as const)(
    'discarding a draft while it is %s is refused and keeps it',
    async (state) => {
      const entry = await storedIn(state);
      expect(await applyStep(entry.id, 'discard', () => true)).toEqual({ done: false, current: entry });
      expect(await readWrite(entry.id)).toEqual(entry);
    },
  );

  it('gives a confirmed write to exactly one of many concurrent claims', async () => {
    const entry = await storedIn('confirmed', { n: 0 });
    const claims = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        applyStep(
          entry.id,
          'claim',
          () => true,
          () => ({ draft: { n } }),
        ),
      ),
    );
    const winners = claims.filter((claim) => claim.done);
    expect(winners).toHaveLength(1);
    expect(await readWrite(entry.id)).toMatchObject({ state: 'claimed', draft: winners[0].entry?.draft });
  });

  it('changes an entry only while `still` holds for what is stored now, merging into it', async () => {
    const entry = await storedIn('shown', { body: 1, token: 'a' });
    const stale = await applyStep<Record<string, unknown>>(
      entry.id,
      'show',
      (current) => current.draft.token === 'b',
      (current) => ({ draft: { ...current.draft, token: 'c' } }),
    );
    expect(stale.done).toBe(false);
    const moved = await applyStep<Record<string, unknown>>(
      entry.id,
      'show',
      (current) => current.draft.token === 'a',
      (current) => ({ draft: { ...current.draft, seen: true } }),
    );
    expect(moved).toMatchObject({ done: true, entry: { draft: { body: 1, token: 'a', seen: true } } });
  });

  it('answers not done for an unknown id and does not create it', async () => {
    expect(await applyStep('missing', 'placeWindow', () => true)).toEqual({
      done: false,
      current: undefined,
    });
    expect(await listWrites()).toHaveLength(0);
  });
});
