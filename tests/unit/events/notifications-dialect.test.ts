import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing';
import type { ServiceEvent } from '@/lib/api/schemas';
import { updateCursor } from '@/lib/events/feed';
import { clearState } from '@/lib/store/state';
import { bookIdDialectDocument, clientFor, json, playbook, writesDocument } from '../api/support';

/** The document the mocked service client is built over, per test. */
const seam = vi.hoisted((): { document: unknown; paths: string[] } => ({ document: undefined, paths: [] }));

vi.mock('@/lib/api/service', () => ({
  serviceClient: () =>
    Promise.resolve(
      clientFor(
        (request) => {
          const path = new URL(request.url).pathname;
          seam.paths.push(path);
          const id = decodeURIComponent(path.split('/').pop() ?? '');
          return json(playbook(id, { title: `Title of ${id}` }));
        },
        { openApi: seam.document },
      ).client,
    ),
}));

const { ingestEvents } = await import('@/lib/events');

beforeEach(async () => {
  vi.restoreAllMocks();
  fakeBrowser.reset();
  await clearState();
  seam.paths = [];
  await updateCursor({ since: '2026-01-01T00:00:00.000Z' });
});

const completed: ServiceEvent = {
  id: 'e1',
  type: 'backtest.completed',
  playbook_id: 'pb_7',
  at: '2026-02-01T00:00:00.000Z',
  data: {},
};

describe('event notifications name the playbook in either dialect of the contract', () => {
  it.each([
    ['the reference paths (`/playbooks/{id}`)', writesDocument, '/v1/playbooks/pb_7'],
    ['the second dialect (`/books/{bookId}`)', bookIdDialectDocument, '/v1/books/pb_7'],
  ])('%s', async (_name, document, path) => {
    seam.document = document();
    const notify = vi.spyOn(browser.notifications, 'create');
    await ingestEvents([completed], 'poll');
    expect(seam.paths).toEqual([path]);
    expect(notify).toHaveBeenCalledTimes(1);
    const options = notify.mock.calls[0][1] as unknown as { message: string };
    expect(options.message).toContain('“Title of pb_7”');
  });
});
