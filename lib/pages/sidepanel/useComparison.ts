import { useRef, useState } from 'preact/hooks';
import { firstChoices, OLDER_MAX_PAGES, withChoices } from '@/lib/backtests/choices';
import type { Backtest } from '@/lib/contract/backtest';
import type { BacktestPage, LatestBacktest } from '@/lib/contract/wire';
import { sendMessage } from '@/lib/messaging/client';
import { answeredErrorParts, errorParts, type ErrorParts } from '@/lib/pages/errorText';
import type { ComparedPlaybook } from './ComparisonView';
import { checkedChoice } from './useBacktests';

export interface ComparisonState {
  playbooks?: ComparedPlaybook[];
  loading: boolean;
  error?: ErrorParts;
}

const NO_PAGE: BacktestPage = { items: [], nextCursor: null, hasMore: false };

/** The "cursor" of a playbook's first list page, when reading it failed: asking for older ones reads it again. */
const FIRST_PAGE = '';

/** A first list page that could not be read: the comparison still runs, the picker says why and retries. */
interface FailedPage {
  failed: ErrorParts;
}

/** Where the page after `page` starts, if there is one: never back at the cursor just read. */
function nextOf(page: BacktestPage, read?: string): string | undefined {
  return page.hasMore && page.nextCursor && page.nextCursor !== read ? page.nextCursor : undefined;
}

/**
 * Older list pages from `cursor` on, until one holds a completed backtest not among `known`, the
 * list ends or OLDER_MAX_PAGES were read: their backtests, and where the next page starts.
 */
async function readOlder(playbookId: string, cursor: string, known: readonly Backtest[]) {
  const items: Backtest[] = [];
  let next: string | undefined = cursor;
  for (let pages = 0; next !== undefined && pages < OLDER_MAX_PAGES; pages++) {
    const page: BacktestPage = await sendMessage(
      'listBacktests',
      next === FIRST_PAGE ? { playbookId } : { playbookId, cursor: next },
    );
    items.push(...page.items);
    next = nextOf(page, next);
    if (withChoices(known, page.items).added > 0) break;
  }
  return { items, next };
}

/** Each chosen playbook's first list page, or why it could not be read. */
const firstPages = (chosen: readonly { id: string }[]) =>
  Promise.all(
    chosen.map((p) =>
      sendMessage('listBacktests', { playbookId: p.id }).catch((error: unknown): FailedPage => ({
        failed: errorParts(error),
      })),
    ),
  );

/** Each chosen playbook with its newest completed backtest and the first page's completed ones to pick. */
function comparedPlaybooks(
  chosen: readonly { id: string; title: string }[],
  answers: readonly LatestBacktest[],
  pages: readonly (BacktestPage | FailedPage)[],
): ComparedPlaybook[] {
  return chosen.map((p, i) => {
    const read = pages[i] ?? NO_PAGE;
    const page = 'failed' in read ? NO_PAGE : read;
    const next = nextOf(page);
    return {
      id: p.id,
      title: p.title,
      backtest: answers[i]?.backtest,
      error: answeredErrorParts(answers[i] ?? {}),
      choices: firstChoices(page.items, answers[i]?.backtest),
      older:
        'failed' in read ? { cursor: FIRST_PAGE, error: read.failed } : next ? { cursor: next } : undefined,
    };
  });
}

/**
 * The comparison: for each chosen playbook its newest completed backtest (with equity) and the
 * completed ones of its first list page to pick from, older pages on request (`older`); `pick`
 * reads another one and compares it instead once it proves to be that playbook's and completed.
 * An answer for a comparison or a pick no longer current is dropped.
 */
export function useComparison() {
  const [state, setState] = useState<ComparisonState>();
  const round = useRef(0);
  const picks = useRef(new Map<string, number>());
  const reading = useRef(new Set<string>());
  /** Changes one playbook of the comparison, if it is still the one of `asked`. */
  const change = (
    asked: number,
    playbookId: string,
    to: (p: ComparedPlaybook) => Partial<ComparedPlaybook>,
  ) =>
    round.current === asked &&
    setState(
      (s) =>
        s && { ...s, playbooks: s.playbooks?.map((p) => (p.id === playbookId ? { ...p, ...to(p) } : p)) },
    );

  const compare = (chosen: readonly { id: string; title: string }[]) => {
    const current = ++round.current;
    picks.current.clear();
    reading.current.clear();
    setState({ loading: true });
    Promise.all([
      sendMessage('latestBacktests', { playbookIds: chosen.map((p) => p.id) }),
      firstPages(chosen),
    ]).then(
      ([answers, read]) =>
        round.current === current &&
        setState({ loading: false, playbooks: comparedPlaybooks(chosen, answers, read) }),
      (error: unknown) => round.current === current && setState({ loading: false, error: errorParts(error) }),
    );
  };

  const pick = (playbookId: string, backtestId: string) => {
    const current = round.current;
    const asked = (picks.current.get(playbookId) ?? 0) + 1;
    picks.current.set(playbookId, asked);
    const settle = (to: Partial<ComparedPlaybook>) =>
      picks.current.get(playbookId) === asked && change(current, playbookId, () => to);
    sendMessage('getBacktest', { id: backtestId }).then(
      (backtest) => {
        const checked = checkedChoice(backtest, playbookId);
        settle({ backtest: checked.backtest, error: checked.error });
      },
      (error: unknown) => settle({ backtest: undefined, error: errorParts(error) }),
    );
  };

  /** Reads the playbook's older backtests, one request at a time, and offers their completed ones too. */
  const older = (playbookId: string) => {
    const current = round.current;
    const playbook = state?.playbooks?.find((p) => p.id === playbookId);
    const from = playbook?.older?.cursor;
    if (!playbook || from === undefined || reading.current.has(playbookId)) return;
    reading.current.add(playbookId);
    change(current, playbookId, () => ({ older: { cursor: from, loading: true } }));
    readOlder(playbookId, from, playbook.choices ?? [])
      .then(
        ({ items, next }) =>
          change(current, playbookId, (p) => ({
            choices: withChoices(p.choices ?? [], items, p.backtest?.id).choices,
            older: next ? { cursor: next } : undefined,
          })),
        (error: unknown) =>
          change(current, playbookId, () => ({ older: { cursor: from, error: errorParts(error) } })),
      )
      .finally(() => round.current === current && reading.current.delete(playbookId));
  };

  const close = () => {
    round.current++;
    setState(undefined);
  };

  return { comparison: state, compare, pick, older, close };
}
