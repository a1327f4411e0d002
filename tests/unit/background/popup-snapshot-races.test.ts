import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { HandlerRegistry } from '@/lib/messaging';
import type { PopupOpened } from '@/lib/messaging/protocol';
import { fingerprintOfKey, removeApiKey } from '@/lib/store/apiKey';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import { clearPopupSnapshot, readCachedView, readPopupSnapshot } from '@/lib/store/snapshot';
import { OPTIONS_PAGE, workerRegistry } from './registry';

/**
 * The service seam: every list page and account read is held until the test answers it, and
 * each answer is tagged with the API URL and key it was read with, so a row or an account in the
 * snapshot tells whose it is.
 */
interface HeldRead {
  what: 'list' | 'account';
  tag: string;
  answer: () => void;
}
const seam = vi.hoisted(() => ({
  held: [] as HeldRead[],
  /** While set, the key's SHA-256 (the binding's fingerprint) waits for it. */
  fingerprintGate: undefined as Promise<void> | undefined,
  /** How many fingerprints are waiting at the gate. */
  atGate: 0,
}));

vi.mock('@/lib/digest', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/lib/digest')>();
  return {
    ...real,
    sha256Hex: async (bytes: Uint8Array) => {
      const gate = seam.fingerprintGate;
      const digest = await real.sha256Hex(bytes);
      if (gate) {
        seam.atGate++;
        await gate;
      }
      return digest;
    },
  };
});

vi.mock('@/lib/api/service', async () => {
  const { loadApiKey } = await import('@/lib/store/apiKey');
  const { getSettings } = await import('@/lib/store/settings');
  const { clearPopupSnapshot: clearSnapshot } = await import('@/lib/store/snapshot');
  const playbook = (tag: string) => ({
    id: `pb_${tag.replace(/\W/g, '_')}`,
    title: `Row read with ${tag}`,
    thesis: 't',
    visibility: 'private',
    status: 'active',
    tickers: [],
    owner: { id: 'u1', name: 'Ada' },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    etag: '"v1"',
  });
  function held<T>(what: HeldRead['what'], tag: string, value: T): Promise<T> {
    return new Promise((resolve) => seam.held.push({ what, tag, answer: () => resolve(value) }));
  }
  return {
    serviceClient: async () => {
      const { apiUrl } = await getSettings();
      return {
        listPage: async () => {
          const tag = `${apiUrl} key=${(await loadApiKey()) ?? 'none'}`;
          return held('list', tag, { items: [playbook(tag)], nextCursor: null, hasMore: false });
        },
        call: async (operationId: string) => {
          const tag = `${apiUrl} key=${(await loadApiKey()) ?? 'none'}`;
          if (operationId !== 'getAccount') return { data: { status: 'ok' } };
          return held('account', tag, { data: { id: tag, email: `${tag}@example.test` } });
        },
        deprecations: () => [],
        rateLimitState: () => undefined,
      };
    },
    discover: () => Promise.reject(new Error('no discovery in this test')),
    lastDiscoveryReport: () => Promise.resolve(null),
    forgetService: async () => {
      await clearSnapshot();
    },
  };
});

const KEY_A = 'sk_live_first_user_AAAA';
const KEY_B = 'sk_live_other_user_BBBB';

let registry: HandlerRegistry;

beforeEach(async () => {
  vi.restoreAllMocks();
  seam.held.length = 0;
  seam.fingerprintGate = undefined;
  seam.atGate = 0;
  await saveSettings(DEFAULT_SETTINGS);
  await removeApiKey();
  await clearPopupSnapshot();
  const worker = workerRegistry();
  registry = worker.registry;
  return worker.restoreLog;
});

function dispatch(type: string, payload: unknown): Promise<unknown> {
  return registry.dispatch({ type, payload }, OPTIONS_PAGE);
}

/** Answers every read held now, and those the answers start, until none is left. */
async function answerAll(): Promise<void> {
  for (let round = 0; round < 20; round++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const read of seam.held.splice(0)) read.answer();
  }
}

/** Saves a key and answers reads until the snapshot for it is written (the warm read Save starts). */
async function saveKeyAndSettle(key: string): Promise<void> {
  await dispatch('saveApiKey', { key });
  await vi.waitFor(
    async () => {
      for (const read of seam.held.splice(0)) read.answer();
      expect((await readPopupSnapshot())?.binding).toContain(await fingerprintOfKey(key));
    },
    { timeout: 5000, interval: 10 },
  );
}

/** Answers the held reads that match, leaving the others held. */
function answerWhere(what: HeldRead['what'], tagPart: string): number {
  const matching = seam.held.filter((read) => read.what === what && read.tag.includes(tagPart));
  for (const read of matching) {
    seam.held.splice(seam.held.indexOf(read), 1);
    read.answer();
  }
  return matching.length;
}

/** Everything the snapshot holds that was read for a service or key: rows and account. */
async function snapshotTags(): Promise<string[]> {
  const saved = await readPopupSnapshot();
  return [
    ...(saved?.page?.items.map((item) => item.title) ?? []),
    JSON.stringify(saved?.overview?.account ?? null),
  ];
}

/** The user saves key B; its warm-up reads are answered until B's snapshot is saved. */
async function saveKeyBAndLetItsReadsLand(): Promise<void> {
  await dispatch('saveApiKey', { key: KEY_B });
  await vi.waitFor(() => expect(seam.held.some((read) => read.tag.includes(KEY_B))).toBe(true), {
    timeout: 5000,
  });
  await vi.waitFor(
    async () => {
      answerWhere('list', KEY_B);
      answerWhere('account', KEY_B);
      expect((await readPopupSnapshot())?.binding).toContain(await fingerprintOfKey(KEY_B));
    },
    { timeout: 5000, interval: 10 },
  );
}

describe('reads of the side panel or popup under way when the key changes', () => {
  it("a first page read for key A and answered after key B was saved never lands in B's snapshot", async () => {
    await saveKeyAndSettle(KEY_A);
    // The side panel (or a popup reload) asks for the default list with key A…
    const sidePanelRead = dispatch('listPlaybooks', {});
    await vi.waitFor(() => expect(seam.held.some((read) => read.tag.includes(KEY_A))).toBe(true), {
      timeout: 5000,
    });
    // …and the user saves key B in the options page meanwhile; the warm read for B completes.
    await saveKeyBAndLetItsReadsLand();
    // Now key A's page arrives.
    answerWhere('list', KEY_A);
    await sidePanelRead;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const tags = await snapshotTags();
    expect(tags.join('\n')).toContain(KEY_B);
    expect(tags.join('\n')).not.toContain(KEY_A);
  });

  it("an account read for key A and answered after key B was saved never lands in B's snapshot", async () => {
    await saveKeyAndSettle(KEY_A);
    const overviewRead = dispatch('getOverview', {});
    await vi.waitFor(() =>
      expect(seam.held.some((read) => read.what === 'account' && read.tag.includes(KEY_A))).toBe(true),
    );
    await saveKeyBAndLetItsReadsLand();
    answerWhere('account', KEY_A);
    await overviewRead;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await snapshotTags()).join('\n')).not.toContain(KEY_A);
  });

  it("the snapshot does not outlive the key's removal when a fresh page lands during the removal", async () => {
    await saveKeyAndSettle(KEY_A);
    // The side panel's read binds itself to the service and key (the fingerprint of key A)…
    let openGate: () => void = () => undefined;
    seam.fingerprintGate = new Promise((resolve) => (openGate = resolve));
    const sidePanelRead = dispatch('listPlaybooks', {});
    await vi.waitFor(() => expect(seam.atGate).toBe(1), { timeout: 5000 });
    // …while the user removes the key, and the warm read for "no key" completes.
    await dispatch('removeApiKey', {});
    await vi.waitFor(
      async () => {
        answerWhere('account', 'key=none');
        expect((await readPopupSnapshot())?.state.key.set).toBe(false);
      },
      { timeout: 5000, interval: 10 },
    );
    openGate();
    seam.fingerprintGate = undefined;
    // Its page lands after the removal.
    await vi.waitFor(() => expect(answerWhere('list', '')).toBeGreaterThan(0), { timeout: 5000 });
    await sidePanelRead;
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The next popup paints this record before any worker answers.
    const saved = await readPopupSnapshot();
    expect(saved?.state.key.set ?? false).toBe(false);
    expect(saved?.page).toBeUndefined();
    expect((await snapshotTags()).join('\n')).not.toContain(KEY_A);
    expect(await readCachedView({ scope: 'mine' }, saved?.binding ?? '')).toBeUndefined();
  });
});

describe('a popup joining a revalidation under way', () => {
  it('never joins one started before the API URL moved: its rows were read from the old API', async () => {
    await saveKeyAndSettle(KEY_A);
    // A popup's revalidation is under way against the API URL saved now…
    const firstPopup = dispatch('openPopup', {});
    await vi.waitFor(() => expect(seam.held.some((read) => read.what === 'list')).toBe(true));
    // …when the user corrects the API URL's path (same origin: the key stays bound to it).
    const movedApi = `${DEFAULT_SETTINGS.apiUrl.replace(/\/$/, '')}-moved`;
    expect(
      await dispatch('saveSettings', { serviceUrl: DEFAULT_SETTINGS.serviceUrl, apiUrl: movedApi }),
    ).toMatchObject({ ok: true });
    // The next popup opens right after that Save.
    const nextPopup = dispatch('openPopup', {}) as Promise<{ ok: boolean; value?: PopupOpened }>;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await answerAll();
    await firstPopup;
    const answer = await nextPopup;
    const rows = answer.value?.page?.items.map((item) => item.title) ?? [];
    expect(rows.join('\n')).toContain(movedApi);
    expect(rows.join('\n')).not.toContain(`${DEFAULT_SETTINGS.apiUrl} key`);
  });
});
