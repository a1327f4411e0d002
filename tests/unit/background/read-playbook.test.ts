import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import type { HandlerRegistry } from '@/lib/messaging';
import type { PlaybookRead } from '@/lib/messaging/protocol';
import { storeApiKey } from '@/lib/store/apiKey';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import { clearPopupSnapshot, MAX_SAVED_PLAYBOOKS } from '@/lib/store/snapshot';
import { playbook } from '../pages/popup/fixtures';
import { OPTIONS_PAGE, workerRegistry } from './registry';

/**
 * The side panel's detail offline: the read model saves each playbook it reads and, when the
 * service cannot be reached, answers the saved copy marked cached, instead of the failure.
 */
const seam = vi.hoisted(() => ({
  /** getPlaybook's answer for an id, or a throw. */
  playbook: (_id: string): unknown => undefined,
  list: (): unknown => ({ items: [], nextCursor: null, hasMore: false }),
}));

vi.mock('@/lib/api/service', async () => {
  const { clearPopupSnapshot: clearSnapshot } = await import('@/lib/store/snapshot');
  return {
    serviceClient: () =>
      Promise.resolve({
        listPage: () => Promise.resolve().then(() => seam.list()),
        call: (_operationId: string, { playbookId }: { playbookId: string }) =>
          Promise.resolve().then(() => ({ data: seam.playbook(playbookId) })),
        deprecations: () => [],
        rateLimitState: () => undefined,
      }),
    discover: () => Promise.reject(new Error('no discovery in this test')),
    lastDiscoveryReport: () => Promise.resolve(null),
    forgetService: () => clearSnapshot(),
  };
});

let registry: HandlerRegistry;

function ask<T>(type: string, payload: unknown): Promise<T> {
  return registry.dispatch({ type, payload }, OPTIONS_PAGE).then((envelope) => {
    if (!envelope.ok) throw new Error(JSON.stringify(envelope.error));
    return envelope.value as T;
  });
}

const offline = () => {
  throw new ApiError({
    kind: 'network',
    operationId: 'getPlaybook',
    message: 'getPlaybook failed after 1 attempt.',
  });
};

beforeEach(async () => {
  seam.playbook = (id) => playbook(id, `Title of ${id}`);
  seam.list = () => ({ items: [], nextCursor: null, hasMore: false });
  await saveSettings(DEFAULT_SETTINGS);
  await storeApiKey('sk_live_Qz7Xw3Vt9Km2');
  await clearPopupSnapshot();
  const worker = workerRegistry();
  registry = worker.registry;
  return worker.restoreLog;
});

describe('readPlaybook', () => {
  it('answers from the service, then, offline, the copy it saved, marked cached with the typed reason', async () => {
    const fresh = await ask<PlaybookRead>('readPlaybook', { id: 'pb_1' });
    expect(fresh).toMatchObject({ source: 'network', playbook: { title: 'Title of pb_1' } });
    seam.playbook = offline;
    const cached = await ask<PlaybookRead>('readPlaybook', { id: 'pb_1' });
    expect(cached).toMatchObject({ source: 'cache', playbook: { id: 'pb_1', title: 'Title of pb_1' } });
    expect(cached.fetchedAt).toBe(fresh.fetchedAt);
    expect(cached.stale).toMatchObject({ kind: 'failed', code: 'api.network' });
  });

  it('offline, a playbook only seen on the cached list opens from that row', async () => {
    seam.list = () => ({ items: [playbook('pb_row', 'Listed')], nextCursor: null, hasMore: false });
    await ask('listPlaybooks', {});
    seam.playbook = offline;
    const cached = await ask<PlaybookRead>('readPlaybook', { id: 'pb_row' });
    expect(cached).toMatchObject({ source: 'cache', playbook: { title: 'Listed' } });
  });

  it('offline, a playbook never seen is still the failure; a refused key never opens the cache', async () => {
    seam.playbook = offline;
    // This registry maps no API error (lib/background/index.ts does): a failure is a failure.
    await expect(ask('readPlaybook', { id: 'pb_never' })).rejects.toThrow();
    seam.playbook = (id) => playbook(id, 'Seen');
    await ask('readPlaybook', { id: 'pb_2' });
    seam.playbook = () => {
      throw new ApiError({ kind: 'unauthorized', operationId: 'getPlaybook', message: 'No.', status: 401 });
    };
    await expect(ask('readPlaybook', { id: 'pb_2' })).rejects.toThrow();
  });

  it('keeps a bounded number of playbooks: the oldest opened goes first', async () => {
    for (let n = 0; n <= MAX_SAVED_PLAYBOOKS; n++) await ask('readPlaybook', { id: `pb_${n}` });
    seam.playbook = offline;
    await expect(ask('readPlaybook', { id: 'pb_0' })).rejects.toThrow();
    expect(await ask<PlaybookRead>('readPlaybook', { id: 'pb_1' })).toMatchObject({ source: 'cache' });
  });
});
