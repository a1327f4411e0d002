// @vitest-environment happy-dom
import { cleanup, render, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearDiscoveryCache } from '@/lib/discovery/cache';
import type { DiscoveryReport } from '@/lib/discovery/report';
import { runDiscovery } from '@/lib/discovery/run';
import { sendMessage } from '@/lib/messaging/client';
import { SidePanelPage } from '@/lib/pages/sidepanel/SidePanelPage';
import { FakeService, steppingClock } from '../../discovery/fakeService';

vi.mock('@/lib/messaging/client', () => ({ sendMessage: vi.fn() }));
// The events stream is another test's subject: a closed one here.
vi.mock('@/lib/pages/sidepanel/eventsPort', () => ({
  useEventsPort: () => ({ unread: 0, stream: 'off', setUnread: () => undefined, reload: () => undefined }),
}));

beforeEach(async () => {
  vi.mocked(sendMessage).mockReset();
  await clearDiscoveryCache();
});
afterEach(cleanup);

async function report(): Promise<DiscoveryReport> {
  const service = new FakeService();
  return runDiscovery({ baseUrl: `${service.base}/`, fetch: service.fetch, now: steppingClock() });
}

/** The worker's answers: the stored report as given, a fresh run, nothing for the rest. */
function answer(stored: unknown, fresh: DiscoveryReport) {
  vi.mocked(sendMessage).mockImplementation(((type: string) => {
    // A saved service: the panel reads as usual.
    if (type === 'getState') return Promise.resolve({ settings: { serviceUrl: 'https://agent.example' } });
    if (type === 'getDiscoveryReport') return Promise.resolve(stored);
    if (type === 'runDiscovery') return Promise.resolve(fresh);
    return new Promise(() => undefined);
  }) as typeof sendMessage);
}

describe('the side panel and the stored discovery report', () => {
  it('runs discovery again, without crashing, when the stored report has the old shape', async () => {
    const fresh = await report();
    const { markdownSources: _sources, ...documents } = fresh.documents;
    answer({ ...fresh, documents: { ...documents, markdown: { '/auth.md': [] }, pricing: [] } }, fresh);
    render(<SidePanelPage />);
    await waitFor(() => expect(vi.mocked(sendMessage)).toHaveBeenCalledWith('runDiscovery', {}));
  });

  it('uses a stored report of the current shape as it is', async () => {
    const stored = await report();
    answer(stored, stored);
    render(<SidePanelPage />);
    await waitFor(() => expect(vi.mocked(sendMessage)).toHaveBeenCalledWith('getDiscoveryReport', {}));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(vi.mocked(sendMessage)).not.toHaveBeenCalledWith('runDiscovery', {});
  });
});
