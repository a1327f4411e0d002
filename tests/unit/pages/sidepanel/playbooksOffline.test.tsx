// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { PlaybooksTab } from '@/lib/pages/sidepanel/PlaybooksTab';
import { playbook } from '../popup/fixtures';

/**
 * The Playbooks tab offline, as the worker answers it: the list and a playbook seen before from
 * the read model's cache, every line in the user's words; the operation and its retries never in
 * the main text.
 */
vi.mock('@/lib/messaging/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/messaging/client')>()),
  sendMessage: vi.fn(),
}));

const TECHNICAL =
  'listPlaybooks failed after 2 attempts: the service could not be reached (no attempts left).';
const grid = playbook('pb_d07MfnkYsei7', 'Grid modernization');
const stale = { kind: 'failed', reason: TECHNICAL, code: 'api.network' } as const;

const unreachable = (operationId: string) =>
  new MessageError({
    code: 'api.network',
    message: `${operationId} failed after 1 attempt: the service could not be reached (no attempts left).`,
    details: { operationId },
  });

function answer(readPlaybook: () => Promise<unknown>, sections: Record<string, () => Promise<unknown>> = {}) {
  vi.mocked(sendMessage).mockImplementation(((type: string) => {
    if (sections[type]) return sections[type]();
    if (type === 'listPlaybooks')
      return Promise.resolve({
        items: [grid],
        nextCursor: null,
        hasMore: false,
        source: 'cache',
        fetchedAt: Date.now() - 60_000,
        stale,
      });
    if (type === 'readPlaybook') return readPlaybook();
    return new Promise(() => undefined);
  }) as typeof sendMessage);
}

const tab = () => render(<PlaybooksTab events={[]} plans={[]} providers={[]} />).container;

beforeEach(() => {
  vi.mocked(sendMessage).mockReset();
});
afterEach(cleanup);

describe('the Playbooks tab offline', () => {
  it('says why the list is cached in the user’s words, and opens the cached playbook marked, its writes disabled', async () => {
    answer(() =>
      Promise.resolve({ playbook: grid, source: 'cache', fetchedAt: Date.now() - 120_000, stale }),
    );
    const container = tab();
    await screen.findByText(/The service could not be reached/);
    expect(container.textContent).not.toContain('failed after');
    fireEvent.click(await screen.findByRole('button', { name: 'Grid modernization' }));
    await screen.findByText('Cached · saved 2 minutes ago');
    expect((await screen.findByRole<HTMLButtonElement>('button', { name: 'Save changes' })).disabled).toBe(
      true,
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a playbook never seen: the failure in the user’s words, the operation and retries under Details', async () => {
    answer(() =>
      Promise.reject(
        new MessageError({
          code: 'api.network',
          message: 'getPlaybook failed after 1 attempt: the service could not be reached (no attempts left).',
          details: { operationId: 'getPlaybook' },
        }),
      ),
    );
    tab();
    fireEvent.click(await screen.findByRole('button', { name: 'Grid modernization' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'The service could not be reached. Check your connection, then try again.',
    );
    await waitFor(() =>
      expect(screen.getByText(/getPlaybook failed after 1 attempt/).closest('details')).not.toBeNull(),
    );
  });

  const cachedDetail = () =>
    Promise.resolve({ playbook: grid, source: 'cache', fetchedAt: Date.now() - 120_000, stale });

  it('offline, sections never saved say so in one calm line, not each in red', async () => {
    const failing = (operationId: string) => () => Promise.reject(unreachable(operationId));
    answer(cachedDetail, {
      getPlaybookPerformance: failing('getPlaybookPerformance'),
      listPlaybookCatalysts: failing('listCatalysts'),
      listBacktests: failing('listBacktests'),
      latestBacktests: () =>
        Promise.resolve([{ playbookId: grid.id, error: 'listBacktests failed', code: 'api.network' }]),
    });
    tab();
    fireEvent.click(await screen.findByRole('button', { name: 'Grid modernization' }));
    await screen.findByText(/Performance, catalysts and backtests were not saved for this playbook/);
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('offline, sections saved before come back, each marked as the saved copy', async () => {
    const saved = { savedAt: Date.now() - 300_000, code: 'api.network' };
    const catalyst = {
      id: 'cat_1',
      ticker: 'AAPL',
      kind: 'earnings',
      title: 'Q1 earnings',
      at: '2030-01-30',
      all_day: true,
      status: 'confirmed',
    };
    answer(cachedDetail, {
      listPlaybookCatalysts: () =>
        Promise.resolve({ items: [catalyst], complete: true, apiOrigin: '', saved }),
      listBacktests: () => Promise.resolve({ items: [], nextCursor: 'c2', hasMore: true, saved }),
    });
    tab();
    fireEvent.click(await screen.findByRole('button', { name: 'Grid modernization' }));
    await screen.findByText('Q1 earnings');
    expect(screen.getAllByText('Cached · saved 5 minutes ago')).toHaveLength(2);
    // A saved copy's later pages need the service.
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.queryByText(/were not saved/)).toBeNull();
  });

  it('the list says when its copy was saved, as the detail does, never that it was updated', async () => {
    answer(cachedDetail);
    const container = tab();
    await screen.findByText('Cached · saved 1 minute ago');
    expect(container.textContent).not.toMatch(/updated/i);
    fireEvent.click(await screen.findByRole('button', { name: 'Grid modernization' }));
    await screen.findByText('Cached · saved 2 minutes ago');
  });
});
