import { useEffect, useState } from 'preact/hooks';
import type { Playbook } from '@/lib/api/schemas';
import { sendMessage } from '@/lib/messaging/client';
import type { PlaybookPage } from '@/lib/messaging/protocol';
import { meaningOf } from '@/lib/messaging/errors';
import { userErrorText } from '@/lib/pages/errorText';
import { formatRelative, t } from '@/lib/i18n';
import { log } from '@/lib/log';
import { readSavedListOnce } from '@/lib/store/snapshot';

/**
 * The list's first page as the read model saved it (the popup's view, "mine, all"), read from the
 * database by the panel itself: painted, marked, while the worker's answer is still coming (a
 * service in trouble can take its whole retry budget to answer).
 */
async function savedFirstPage(): Promise<PlaybookPage | undefined> {
  const page = await readSavedListOnce();
  return page && { ...page, source: 'cache', stale: { kind: 'refreshing' } };
}

/** A list shown from the saved copy: "Cached · saved 2 minutes ago" (the detail's words) and why. */
export interface ListFreshness {
  saved: string;
  reason?: string;
}

function freshnessText(page: PlaybookPage): ListFreshness | undefined {
  if (page.source !== 'cache') return undefined;
  // When the copy was saved (or last confirmed by the service): nothing was updated since.
  const saved = t('panel.cached', { ago: formatRelative(page.fetchedAt) });
  // The table's words for the failure's code; the worker's own reason names the operation and its retries.
  const why =
    page.stale?.kind === 'failed'
      ? page.stale.code
        ? meaningOf(page.stale.code).message
        : page.stale.reason
      : page.stale
        ? t('sidepanel.list.refreshing')
        : undefined;
  return why ? { saved, reason: why } : { saved };
}

/** Paints the saved first page with `paint` unless the worker answered first. */
function paintSaved(answered: () => boolean, paint: (page: PlaybookPage) => void): void {
  savedFirstPage().then(
    (page) => page && !answered() && paint(page),
    (problem: unknown) => log.warn('sidepanel.list-cache-failed', { error: problem }),
  );
}

/** A batch re-read's rows read afresh, and why each other one could not be. */
function checkOutcome(
  results: Array<{ id: string; playbook?: Playbook; error?: { status: number | string; message: string } }>,
) {
  const errors: Record<string, string> = {};
  const fresh = new Map<string, Playbook>();
  for (const item of results) {
    if (item.playbook) fresh.set(item.id, item.playbook);
    else
      errors[item.id] = t('sidepanel.list.notChecked', {
        status: item.error ? String(item.error.status) : t('sidepanel.list.error'),
        message: item.error?.message ?? '',
      });
  }
  return { errors, fresh };
}

/** The last "Check for updates": running, and its outcome per playbook. */
export interface UpdateCheck {
  running: boolean;
  /** id → why that playbook could not be read again (absent: read again). */
  errors: Record<string, string>;
  /** How many were read again, once a check has run. */
  done?: number;
}

/** The side panel's list of playbooks: its pages (Load more) and the batch re-read of some of them. */
export function usePlaybookList() {
  const [list, setList] = useState<{
    items?: Playbook[];
    cursor: string | null;
    hasMore: boolean;
    freshness?: ListFreshness;
  }>({ cursor: null, hasMore: false });
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const [check, setCheck] = useState<UpdateCheck>({ running: false, errors: {} });

  const load = (cursor?: string) => {
    setLoading(true);
    let answered = false;
    if (!cursor)
      paintSaved(
        () => answered,
        (page) =>
          setList((current) =>
            current.items
              ? current
              : { items: page.items, cursor: null, hasMore: false, freshness: freshnessText(page) },
          ),
      );
    sendMessage('listPlaybooks', cursor ? { cursor } : {}).then(
      (page) => {
        answered = true;
        setList((current) => ({
          items: cursor ? [...(current.items ?? []), ...page.items] : page.items,
          cursor: page.nextCursor,
          hasMore: page.hasMore && page.nextCursor !== null,
          freshness: freshnessText(page),
        }));
        setError(undefined);
        setLoading(false);
      },
      (problem: unknown) => {
        answered = true;
        setError(userErrorText(problem, 'sidepanel.list-failed'));
        setLoading(false);
      },
    );
  };

  /** Rows read afresh (from the detail or a check) replace their old copies. */
  const replace = (fresh: ReadonlyMap<string, Playbook>) =>
    setList((current) => ({ ...current, items: current.items?.map((p) => fresh.get(p.id) ?? p) }));

  /** Reads the chosen playbooks again from the service, in one batch; each row says if it failed. */
  const checkForUpdates = (ids: readonly string[]) => {
    setCheck((current) => ({ ...current, running: true }));
    sendMessage('refreshPlaybooks', { ids: [...ids] }).then(
      (results) => {
        const { errors, fresh } = checkOutcome(results);
        replace(fresh);
        setCheck({ running: false, errors, done: fresh.size });
      },
      (problem: unknown) => {
        setError(userErrorText(problem, 'sidepanel.list-failed'));
        setCheck((current) => ({ ...current, running: false }));
      },
    );
  };

  useEffect(() => load(), []);
  return {
    ...list,
    error,
    loading,
    check,
    loadMore: () => list.cursor && load(list.cursor),
    retry: () => load(),
    replace,
    checkForUpdates,
  };
}

/** "Choose playbooks…": whether rows are being chosen, and which, in the order chosen. */
export function usePlaybookChoice() {
  const [choosing, setChoosing] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  return {
    choosing,
    chosen,
    /** Leaving the mode lets go of the choice: no hidden rows stay chosen. */
    setChoosing: (on: boolean) => {
      setChoosing(on);
      if (!on) setChosen([]);
    },
    toggle: (id: string) =>
      setChosen((current) => (current.includes(id) ? current.filter((c) => c !== id) : [...current, id])),
  };
}
