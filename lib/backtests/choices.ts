/**
 * The backtests a comparison offers to pick for one playbook: the completed ones of the list pages
 * read so far, newest first, the newest completed one (the default) always first. Older pages are
 * read on request; what is held stays bounded: a choice carries no equity (it is read when picked)
 * and at most MAX_CHOICES are kept, the ones read earliest after the default giving way first.
 */
import type { Backtest } from '@/lib/contract/backtest';

/** At most this many choices per playbook: ten list pages of completed backtests. */
export const MAX_CHOICES = 200;
/** One request for older backtests reads at most this many list pages to find a completed one. */
export const OLDER_MAX_PAGES = 5;

/** The completed backtests of a first list page, with the newest completed one first if the page lacks it. */
export function firstChoices(items: readonly Backtest[], newest: Backtest | undefined): Backtest[] {
  return withChoices(newest ? [slim(newest)] : [], items).choices;
}

/**
 * `choices` with the completed backtests of `items` not yet among them added at the end, and how
 * many were added. Over MAX_CHOICES, the earliest after the first give way, never `compared`.
 */
export function withChoices(
  choices: readonly Backtest[],
  items: readonly Backtest[],
  compared?: string,
): { choices: Backtest[]; added: number } {
  const known = new Set(choices.map((choice) => choice.id));
  const added = items.filter((item) => {
    if (item.status !== 'completed' || known.has(item.id)) return false;
    known.add(item.id);
    return true;
  });
  const all = [...choices, ...added.map(slim)];
  let excess = all.length - MAX_CHOICES;
  const kept = all.filter((choice, i) => {
    if (excess <= 0 || i === 0 || choice.id === compared) return true;
    excess--;
    return false;
  });
  return { choices: kept, added: added.length };
}

/** A choice as the picker holds it: what its option says, no equity series. */
function slim(backtest: Backtest): Backtest {
  return { ...backtest, equity: undefined };
}
