/**
 * The backtests offered to pick in a comparison (lib/backtests/choices.ts): completed ones only,
 * each once, without their equity, and at most MAX_CHOICES, never losing the default (the newest
 * completed one, first) nor the one compared.
 */
import { expect, it } from 'vitest';
import { firstChoices, MAX_CHOICES, withChoices } from '@/lib/backtests/choices';
import type { Backtest } from '@/lib/contract/backtest';

const run = (id: string, status: Backtest['status'] = 'completed'): Backtest => ({
  id,
  playbook_id: 'pb_1',
  status,
  start: '2024-01-02',
  end: '2024-12-31',
  benchmark: 'SPY',
  created_at: '2025-01-01T00:00:00Z',
  completed_at: null,
  metrics: null,
  equity: [{ date: '2024-01-02', value: 1, benchmark: 1 }],
});
const ids = (choices: readonly Backtest[]) => choices.map((c) => c.id);

it('puts the newest completed one first, once, and drops the ones not completed and the equity', () => {
  const choices = firstChoices([run('a', 'running'), run('b'), run('n'), run('c', 'failed')], run('n'));
  expect(ids(choices)).toEqual(['n', 'b']);
  expect(choices.every((c) => c.equity === undefined)).toBe(true);
});

it('adds only what is new, and says how many', () => {
  const result = withChoices([run('n'), run('b')], [run('b'), run('d'), run('d'), run('e', 'queued')]);
  expect(ids(result.choices)).toEqual(['n', 'b', 'd']);
  expect(result.added).toBe(1);
});

it('keeps at most MAX_CHOICES: the earliest after the default give way, never the one compared', () => {
  const first = Array.from({ length: MAX_CHOICES }, (_, i) => run(`a${i}`));
  const older = Array.from({ length: 10 }, (_, i) => run(`b${i}`));
  const { choices, added } = withChoices(first, older, 'a3');
  expect(added).toBe(10);
  expect(choices).toHaveLength(MAX_CHOICES);
  expect(ids(choices).slice(0, 3)).toEqual(['a0', 'a3', 'a12']);
  expect(ids(choices).at(-1)).toBe('b9');
});
