import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';
import { MessageError } from '@/lib/messaging/client';
import type { PlaybookPage } from '@/lib/messaging/protocol';
import { userErrorText } from '@/lib/pages/errorText';
import { afterFirstPaint } from '@/lib/pages/firstPaint';
import { problemOf, type WireLike } from './format';
import { mergeInPlace } from './listMerge';
import type { ListView } from './PopupView';
import { askView, type viewOf } from './views';

/**
 * Rows in the first frame when it is drawn from a snapshot. A popup is at most 600 px tall; ten
 * rows of about 60 px below the header reach about 900 px, so they fill it down to 67 % zoom. The
 * others follow once that frame is painted (a frame or two later), below the fold, where they move
 * nothing on screen. Drawing all twenty made the frame about 3 ms longer (bench: the popup's first
 * row against a blank page). In a hidden document (a preloaded popup) frames wait until it shows,
 * and so do these rows.
 */
export const FIRST_FRAME_ROWS = 10;

export const EMPTY_LIST: ListView = { items: [], hasMore: false, loading: true, loadingMore: false };

function listOf(page: PlaybookPage): ListView {
  // Cached rows shown because the service's document was refused: the rows stay, and so does why.
  const failure =
    page.stale?.kind === 'failed' && page.stale.code
      ? problemOf({ code: page.stale.code, message: page.stale.reason })
      : undefined;
  return {
    problem: failure?.kind === 'document-refused' ? failure : undefined,
    items: page.items,
    hasMore: page.hasMore,
    source: page.source,
    fetchedAt: page.fetchedAt,
    stale: page.stale,
    loading: false,
    loadingMore: false,
  };
}

function wireOf(error: unknown): WireLike {
  if (error instanceof MessageError) return error.wire;
  return { code: 'internal', message: t('popup.extensionSilent') };
}

function failed(error: unknown) {
  const problem = problemOf(wireOf(error));
  return (current: ListView): ListView => ({
    ...current,
    loading: false,
    problem,
    ...(current.source === 'cache' ? { stale: { kind: 'failed', reason: problem.message } } : {}),
  });
}

/** A later page that could not be read: the rows shown stay, and the user's words say why. */
function moreFailed(error: unknown) {
  const message = userErrorText(error, 'popup.more-failed');
  return (current: ListView): ListView => ({ ...current, loadingMore: false, moreError: message });
}

/** The list's pages: replaced in place, paged on, and held still while the pointer is over it. */
export function usePlaybookList(first: PlaybookPage | undefined, onApplied: () => void) {
  const [list, setList] = useState<ListView>(() => (first ? listOf(first) : EMPTY_LIST));
  const [rowLimit, setRowLimit] = useState(
    (first?.items.length ?? 0) > FIRST_FRAME_ROWS ? FIRST_FRAME_ROWS : undefined,
  );
  /** Counts the views asked for: an answer for an older one is dropped. */
  const generation = useRef(0);
  const cursor = useRef<string | null>(first?.nextCursor ?? null);
  const pages = useRef(first ? 1 : 0);
  const hovered = useRef(false);
  /** A fresh first page that arrived while the pointer was over the list: its order waits for it to leave. */
  const heldOrder = useRef<PlaybookPage | undefined>(undefined);
  useEffect(() => {
    // The rows below the fold follow once the first frame is on screen.
    if (rowLimit !== undefined) void afterFirstPaint().then(() => setRowLimit(undefined));
  }, []);

  const apply = (page: PlaybookPage, append: boolean) => {
    cursor.current = page.nextCursor;
    pages.current = append ? pages.current + 1 : 1;
    onApplied();
    const hold = !append && hovered.current;
    heldOrder.current = hold ? page : undefined;
    setList((current) => {
      const known = new Set(append ? current.items.map((item) => item.id) : []);
      const items = append
        ? [...current.items, ...page.items.filter((item) => !known.has(item.id))]
        : hold
          ? mergeInPlace(current.items, page.items)
          : page.items;
      return { ...listOf(page), items };
    });
  };

  return {
    list,
    setList,
    rowLimit,
    generation,
    apply,
    /** The popup's first page afresh: paged further already, its rows are refreshed in place and the later ones stay. */
    refreshFirst: (page: PlaybookPage) => {
      if (pages.current <= 1) return apply(page, false);
      const { source, fetchedAt, stale } = page;
      setList((current) => ({
        ...current,
        items: mergeInPlace(current.items, page.items),
        source,
        fetchedAt,
        stale,
      }));
    },
    /** A failed read: cached rows on screen stay, marked as the failed refresh they are. */
    fail: (error: unknown) => setList(failed(error)),
    /** Another view: nothing of the last one's paging is kept (its rows stay on a retry). */
    restart: (keepRows: boolean) => {
      [cursor.current, pages.current] = [null, 0];
      setList((current) => ({ ...EMPTY_LIST, items: keepRows ? current.items : [] }));
    },
    loadMore: (view: ReturnType<typeof viewOf>) => {
      const from = cursor.current;
      if (!from) return setList((current) => ({ ...current, moreError: t('popup.list.noPosition') }));
      const mine = generation.current;
      setList((current) => ({ ...current, loadingMore: true, moreError: undefined }));
      askView(view, { cursor: from }).then(
        (page) => generation.current === mine && apply(page, true),
        (error: unknown) => generation.current === mine && setList(moreFailed(error)),
      );
    },
    onListHover: (over: boolean) => {
      hovered.current = over;
      const held = heldOrder.current;
      if (over || !held) return;
      heldOrder.current = undefined;
      setList((current) => ({ ...current, items: held.items }));
    },
  };
}

export type PlaybookListModel = ReturnType<typeof usePlaybookList>;
