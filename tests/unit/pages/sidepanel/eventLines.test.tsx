// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecentEvent } from '@/lib/events/feed';
import { EventList } from '@/lib/pages/sidepanel/EventList';
import { useLocale } from '../../../fixtures/i18n';

/**
 * An event card says the one fact that matters in its own line, without opening Details: a
 * changed catalyst's ticker, new date and status (or that it was cancelled).
 */
afterEach(cleanup);
beforeEach(() => useLocale('en'));

const changed = (data: unknown): RecentEvent => ({
  id: 'ev_c',
  type: 'catalyst.changed',
  playbook_id: 'pb_1',
  at: '2026-01-07T10:00:00Z',
  data,
  via: 'stream',
  receivedAt: '2026-01-07T10:00:01Z',
});

function mainText(event: RecentEvent): string {
  render(
    <EventList
      events={[event]}
      stream="open"
      polling={false}
      onPollNow={() => undefined}
      onOpenPlaybook={() => undefined}
    />,
  );
  const row = screen.getByRole('listitem');
  const details = row.querySelector('details');
  return [...row.childNodes]
    .filter((node) => node !== details)
    .map((node) => node.textContent)
    .join(' ');
}

describe('event cards', () => {
  it('a changed catalyst says its ticker, its date and its status', () => {
    const text = mainText(
      changed({ catalyst_id: 'cat_1', ticker: 'AAPL', at: '2027-01-30', status: 'confirmed' }),
    );
    expect(text).toContain('AAPL catalyst: Jan 30, 2027 (Confirmed)');
  });

  it('a cancelled catalyst says so; data it cannot read adds no line', () => {
    expect(
      mainText(changed({ catalyst_id: 'cat_1', ticker: 'MSFT', at: '2027-02-03', status: 'cancelled' })),
    ).toContain('MSFT catalyst on Feb 3, 2027 cancelled');
    cleanup();
    expect(mainText(changed({ ticker: 'MSFT' }))).not.toContain('catalyst');
  });
});
