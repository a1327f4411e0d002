// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { readSavedListOnce } from '@/lib/store/snapshot';
import { PlaybooksTab } from '@/lib/pages/sidepanel/PlaybooksTab';
import { playbook } from '../popup/fixtures';

/**
 * The side panel's list while the service is down (a 503 can take the whole retry budget): the
 * saved list at once, marked, or the failure in the user's words with a way to try again; never
 * an endless "Loading playbooks…".
 */
vi.mock('@/lib/messaging/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/messaging/client')>()),
  sendMessage: vi.fn(),
}));
vi.mock('@/lib/store/snapshot', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/store/snapshot')>()),
  readSavedListOnce: vi.fn(),
}));

const grid = playbook('pb_d07MfnkYsei7', 'Grid modernization');

function listAnswers(listPlaybooks: () => Promise<unknown>) {
  vi.mocked(sendMessage).mockImplementation(((type: string) =>
    type === 'listPlaybooks' ? listPlaybooks() : new Promise(() => undefined)) as typeof sendMessage);
}

beforeEach(() => {
  vi.mocked(sendMessage).mockReset();
  vi.mocked(readSavedListOnce).mockResolvedValue(undefined);
});
afterEach(cleanup);

describe('the side panel list while the service is down', () => {
  it('paints the saved list, marked as such, while the worker is still answering', async () => {
    vi.mocked(readSavedListOnce).mockResolvedValue({
      items: [grid],
      nextCursor: null,
      hasMore: false,
      source: 'cache',
      fetchedAt: Date.now() - 120_000,
    });
    listAnswers(() => new Promise(() => undefined));
    render(<PlaybooksTab events={[]} plans={[]} providers={[]} />);
    await screen.findByRole('button', { name: 'Grid modernization' });
    expect(screen.queryByText('Loading playbooks…')).toBeNull();
    expect(screen.getByText(/2 minutes ago/)).toBeTruthy();
  });

  it('without a saved list, says the failure in the user’s words with a retry that reads again', async () => {
    const down = new MessageError({
      code: 'api.server',
      message: 'listPlaybooks failed after 4 attempts: 503.',
      details: { operationId: 'listPlaybooks' },
    });
    listAnswers(() => Promise.reject(down));
    render(<PlaybooksTab events={[]} plans={[]} providers={[]} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(screen.queryByText(/failed after/)).toBeNull();
    expect(vi.mocked(sendMessage).mock.calls.filter(([type]) => type === 'listPlaybooks')).toHaveLength(2);
  });
});
