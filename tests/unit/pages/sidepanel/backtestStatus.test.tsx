// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { backtestSchema, type Backtest } from '@/lib/contract/backtest';
import { BacktestsSection } from '@/lib/pages/sidepanel/BacktestsSection';
import { checkedChoice } from '@/lib/pages/sidepanel/useBacktests';
import { completedBacktest } from '../../../fixtures/backtests';
import { useLocale } from '../../../fixtures/i18n';

/**
 * A run's status badge says the status in the UI language, capitalised as a value like a
 * playbook's status ("Completed", not the service's "completed"); a status this build does not
 * know is shown as the service sent it, isolated in its own direction, and never names a class.
 */

afterEach(cleanup);

const run = (id: string, status: string): Backtest => ({
  ...completedBacktest,
  id,
  status,
  metrics: status === 'completed' ? completedBacktest.metrics : null,
});

function badges(statuses: string[]): HTMLElement[] {
  render(
    <BacktestsSection
      items={statuses.map((status, i) => run(`bt_${i}`, status))}
      loading={false}
      hasMore={false}
      onLoadMore={() => {}}
      onShow={() => {}}
    />,
  );
  const runs = screen.getByRole('list', { name: /./ });
  return within(runs)
    .getAllByRole('listitem')
    .map((item) => item.querySelector<HTMLElement>('.badge')!);
}

describe('backtest status badges', () => {
  it.each([
    ['en', ['Queued', 'Running', 'Completed', 'Failed']],
    ['de', ['In der Warteschlange', 'Läuft', 'Abgeschlossen', 'Fehlgeschlagen']],
  ] as const)('%s: each status in the UI language, capitalised', (locale, words) => {
    useLocale(locale);
    const shown = badges(['queued', 'running', 'completed', 'failed']);
    expect(shown.map((badge) => badge.textContent)).toEqual(words);
    expect(shown.map((badge) => badge.className)).toEqual([
      'badge status-queued',
      'badge status-running',
      'badge status-completed',
      'badge status-failed',
    ]);
  });

  it('an unknown status is shown as sent, isolated with dir="auto", and names no class', () => {
    useLocale('ar');
    const [badge, hostile] = badges(['cancelled', 'x visually-hidden']);
    expect(badge.textContent).toBe('cancelled');
    expect(badge.querySelector('bdi')?.getAttribute('dir')).toBe('auto');
    expect(badge.className).toBe('badge status-unknown');
    expect(hostile.className).toBe('badge status-unknown');
  });

  it('the service’s unknown status keeps the list readable, and a run in it has no result yet', () => {
    useLocale('en');
    expect(backtestSchema.safeParse(run('bt_9', 'cancelled')).success).toBe(true);
    expect(backtestSchema.safeParse(run('bt_9', 'x'.repeat(41))).success).toBe(false);
    expect(checkedChoice(run('bt_9', 'cancelled'), 'pb_1').error?.message).toBe(
      'That backtest’s status is “cancelled”; its result comes when it completes.',
    );
    expect(checkedChoice(run('bt_9', 'running'), 'pb_1').error?.message).toBe(
      'That backtest’s status is “Running”; its result comes when it completes.',
    );
  });
});
