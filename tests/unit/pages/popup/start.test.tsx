// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { PopupOpened } from '@/lib/messaging/protocol';
import { FIRST_FRAME_ROWS } from '@/lib/pages/popup/PopupPage';
import { FIRST_FRAME_WAITS, popupOpening, startPopup } from '@/lib/pages/popup/start';
import { database } from '@/lib/store/db';
import {
  clearPopupSnapshot,
  readPopupSnapshotOnce,
  snapshotGeneration,
  writePopupSnapshot,
} from '@/lib/store/snapshot';
import { serveMessages } from '../support';
import { keyedState, opened, page, playbook } from './fixtures';
import { useLocale } from '../../../fixtures/i18n';

function answer(title: string): PopupOpened {
  return opened(keyedState, { page: page([playbook(title, title)]) });
}

const base = { getPageMatches: () => ({ tickers: [], matches: [] }) };

/**
 * Waits no machine reaches when the database or the worker does answer: what the first frame
 * holds must not depend on how busy the machine running the test is.
 */
const PATIENT = { snapshotMs: 30_000, answerMs: 30_000 };

/** Resolves once the container's first render happened (the popup renders once, when ready). */
async function started(container: HTMLElement, waits = PATIENT): Promise<string[]> {
  await startPopup(container, readPopupSnapshotOnce(), waits);
  return [...container.querySelectorAll('li button')].map((button) => button.textContent ?? '');
}

/** The worker answers `openPopup` only once the returned function is called. */
function answerWhenReleased(fresh: () => PopupOpened): () => void {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  serveMessages({
    ...base,
    openPopup: async () => {
      await held;
      return fresh();
    },
  });
  return release;
}

describe('startPopup: the first frame is the final layout', () => {
  afterEach(cleanup);
  beforeEach(async () => {
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 1 } as never);
    await database();
    await clearPopupSnapshot();
  });

  it('speaks the UI language from the first render: lang, dir and title (Arabic, right to left)', async () => {
    useLocale('ar');
    await writePopupSnapshot(answer('Saved'), snapshotGeneration());
    const worker = serveMessages({ ...base, openPopup: () => answer('Saved') });
    const container = document.body.appendChild(document.createElement('div'));
    expect(await started(container)).toEqual(['Saved']);
    // Its revalidation goes out a frame later: waited for here, so that on a slow machine it
    // cannot land in the next test's worker and look like that popup's message.
    await vi.waitFor(() => expect(worker.received.map((message) => message.type)).toContain('openPopup'));
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.title).toBe('الأدلة الاستثمارية');
    expect(screen.getByRole('list', { name: 'الأدلة الاستثمارية' }).textContent).toContain('Saved');
    document.documentElement.removeAttribute('dir');
    document.documentElement.lang = 'en';
  });

  it('with a snapshot: its rows are in the first render, and the worker is asked only afterwards', async () => {
    await writePopupSnapshot(answer('Saved'), snapshotGeneration());
    const worker = serveMessages({ ...base, openPopup: () => answer('Fresh') });
    const container = document.body.appendChild(document.createElement('div'));
    expect(await started(container)).toEqual(['Saved']);
    expect(worker.received.map((message) => message.type)).not.toContain('openPopup');
    await screen.findByRole('button', { name: 'Fresh' });
  });

  it('a full first page: the first render draws the rows a popup can show, the rest follow that frame', async () => {
    const twenty = Array.from({ length: 20 }, (_, index) => playbook(`p${index}`, `Playbook ${index}`));
    const titles = twenty.map((item) => item.title);
    await writePopupSnapshot(
      opened(keyedState, { page: page(twenty, { hasMore: true, nextCursor: 'c' }) }),
      snapshotGeneration(),
    );
    const release = answerWhenReleased(() =>
      opened(keyedState, { page: page(twenty, { hasMore: true, nextCursor: 'c' }) }),
    );
    const container = document.body.appendChild(document.createElement('div'));
    expect(FIRST_FRAME_ROWS).toBeLessThan(20);
    expect(await started(container)).toEqual(titles.slice(0, FIRST_FRAME_ROWS));
    // What the list says of itself is about all of it from the first frame on.
    expect(container.textContent).toContain('20 shown, more available');
    await screen.findByRole('button', { name: 'Playbook 19' });
    expect([...container.querySelectorAll('li button')].map((button) => button.textContent)).toEqual(titles);
    release();
  });

  it('without one (first open, right after Save): the first render waits for the answer, sent once', async () => {
    const worker = serveMessages({ ...base, openPopup: () => answer('Fresh') });
    const container = document.body.appendChild(document.createElement('div'));
    expect(await started(container)).toEqual(['Fresh']);
    expect(container.textContent).not.toContain('Refreshing');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(worker.received.filter((message) => message.type === 'openPopup')).toHaveLength(1);
  });

  it('a worker too slow to answer gets a first frame without rows, filled in when it answers', async () => {
    const release = answerWhenReleased(() => answer('Late'));
    const container = document.body.appendChild(document.createElement('div'));
    // The worker is held: the first frame is drawn after the real answer wait, without rows.
    expect(await started(container, FIRST_FRAME_WAITS)).toEqual([]);
    expect(container.querySelector('h1')?.textContent).toBe('Playbooks');
    release();
    await screen.findByRole('button', { name: 'Late' });
  });

  it('decides once what the first frame shows: the saved snapshot, else the answer, else nothing yet', async () => {
    const release = answerWhenReleased(() => answer('Fresh'));
    // Neither in time: nothing yet, and both still to come (whichever answers first fills it in).
    const slowRead = new Promise<undefined>(() => undefined);
    const neither = await popupOpening(slowRead, { snapshotMs: 0, answerMs: 0 });
    expect(neither).toMatchObject({ fresh: false, late: expect.any(Promise) });
    expect(neither.first).toBeUndefined();
    release();
    expect((await neither.answer).page?.items[0]?.title).toBe('Fresh');
    // The snapshot in time: it, marked saved; the answer follows.
    const saved = answer('Saved');
    const fromSnapshot = await popupOpening(Promise.resolve(saved), PATIENT);
    // Marked as the saved copy it is: the page shows what it is given.
    expect(fromSnapshot).toMatchObject({
      first: { ...saved, page: { source: 'cache', stale: { kind: 'refreshing' } } },
      fresh: false,
    });
    expect(fromSnapshot.late).toBeUndefined();
    // No snapshot: the worker's answer, marked fresh.
    const fromAnswer = await popupOpening(Promise.resolve(undefined), PATIENT);
    expect(fromAnswer.fresh).toBe(true);
    expect(fromAnswer.first?.page?.items.map((item) => item.title)).toEqual(['Fresh']);
  });
});
