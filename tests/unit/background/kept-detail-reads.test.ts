import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import type { HandlerRegistry } from '@/lib/messaging';
import { storeApiKey } from '@/lib/store/apiKey';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import { clearPopupSnapshot, MAX_KEPT_ANSWER_BYTES, MAX_KEPT_ANSWERS } from '@/lib/store/snapshot';
import { OPTIONS_PAGE, workerRegistry } from './registry';

/**
 * A playbook's detail offline: the read model keeps the last good answer of its catalysts,
 * performance and backtests, and answers it, marked saved, when the service cannot be reached.
 */
const { seam, serve } = vi.hoisted(() => {
  const seam = { answer: (_what: string, _id: string): unknown => undefined };
  const serve = (what: string) => (id: string) => Promise.resolve().then(() => seam.answer(what, id));
  return { seam, serve };
});

vi.mock('@/lib/catalysts/reads', async (original) => ({
  ...(await original<object>()),
  listPlaybookCatalysts: serve('catalysts'),
  playbookPerformance: serve('performance'),
}));
vi.mock('@/lib/backtests/reads', async (original) => ({
  ...(await original<object>()),
  listBacktests: serve('backtests'),
  latestBacktest: serve('latest'),
}));

let registry: HandlerRegistry;

function ask<T>(type: string, payload: unknown): Promise<T> {
  return registry.dispatch({ type, payload }, OPTIONS_PAGE).then((envelope) => {
    if (!envelope.ok) throw new Error(JSON.stringify(envelope.error));
    return envelope.value as T;
  });
}

const fresh = (what: string, id: string): unknown =>
  what === 'latest'
    ? { playbookId: id, backtest: { id: `bt_${id}` } }
    : { items: [{ id: `${what}_${id}` }], nextCursor: null, hasMore: false, complete: true, apiOrigin: '' };

const networkDown = () =>
  new ApiError({ kind: 'network', operationId: 'x', message: 'x failed after 1 attempt.' });

const offline = (what: string, id: string): unknown => {
  // The newest result answers its failure as data; the others throw it.
  if (what === 'latest') return { playbookId: id, error: 'x failed after 1 attempt.', code: 'api.network' };
  throw networkDown();
};

const READS: Array<[string, string, Record<string, unknown>]> = [
  ['catalysts', 'listPlaybookCatalysts', { playbookId: 'pb_1' }],
  ['performance', 'getPlaybookPerformance', { playbookId: 'pb_1' }],
  ['backtests', 'listBacktests', { playbookId: 'pb_1' }],
];

beforeEach(async () => {
  seam.answer = fresh;
  await saveSettings(DEFAULT_SETTINGS);
  await storeApiKey('sk_live_Qz7Xw3Vt9Km2');
  await clearPopupSnapshot();
  const worker = workerRegistry();
  registry = worker.registry;
  return worker.restoreLog;
});

describe('the detail reads the read model keeps', () => {
  it.each(READS)(
    '%s: offline, the answer read before comes back marked saved',
    async (what, type, payload) => {
      const before = Date.now();
      expect(await ask(type, payload)).not.toHaveProperty('saved');
      seam.answer = offline;
      const kept = await ask<{ items: unknown[]; saved?: { savedAt: number; code?: string } }>(type, payload);
      expect(kept.items).toEqual([{ id: `${what}_pb_1` }]);
      expect(kept.saved?.code).toBe('api.network');
      expect(kept.saved?.savedAt).toBeGreaterThanOrEqual(before);
    },
  );

  it('the newest result (the chart) comes back too; a playbook never opened is still the failure', async () => {
    await ask('latestBacktests', { playbookIds: ['pb_1'] });
    seam.answer = offline;
    const [kept, never] = await ask<Array<Record<string, unknown>>>('latestBacktests', {
      playbookIds: ['pb_1', 'pb_2'],
    });
    expect(kept).toMatchObject({ backtest: { id: 'bt_pb_1' }, saved: { code: 'api.network' } });
    expect(never).toMatchObject({ error: expect.any(String), code: 'api.network' });
    await expect(ask('listPlaybookCatalysts', { playbookId: 'pb_2' })).rejects.toThrow();
  });

  it('a refused key never opens the saved copy, and a clear (new key or service) forgets it', async () => {
    await ask('listPlaybookCatalysts', { playbookId: 'pb_1' });
    seam.answer = () => {
      throw new ApiError({ kind: 'unauthorized', operationId: 'x', message: 'No.', status: 401 });
    };
    await expect(ask('listPlaybookCatalysts', { playbookId: 'pb_1' })).rejects.toThrow();
    await clearPopupSnapshot();
    seam.answer = offline;
    await expect(ask('listPlaybookCatalysts', { playbookId: 'pb_1' })).rejects.toThrow();
  });

  it('keeps a bounded number of answers, each of a bounded size', async () => {
    for (let n = 0; n <= MAX_KEPT_ANSWERS; n++) await ask('listPlaybookCatalysts', { playbookId: `pb_${n}` });
    seam.answer = (what, id) =>
      id === 'pb_big' ? { items: ['x'.repeat(MAX_KEPT_ANSWER_BYTES)] } : fresh(what, id);
    await ask('listPlaybookCatalysts', { playbookId: 'pb_big' });
    seam.answer = offline;
    await expect(ask('listPlaybookCatalysts', { playbookId: 'pb_0' })).rejects.toThrow();
    await expect(ask('listPlaybookCatalysts', { playbookId: 'pb_big' })).rejects.toThrow();
    expect(await ask('listPlaybookCatalysts', { playbookId: `pb_${MAX_KEPT_ANSWERS}` })).toHaveProperty(
      'saved',
    );
  });
});
