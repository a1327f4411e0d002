import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { PopupView, type ListScope, type ListView, type VisibilityFilter } from './PopupView';
import { problemOf, type WireLike } from './format';
import { t } from '@/lib/i18n';
import { log } from '@/lib/log';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import type { AppState, PlaybookPage, PopupOpened, ServiceOverview } from '@/lib/messaging/protocol';
import { errorText } from '@/lib/pages/errorText';
import { afterFirstPaint } from '@/lib/pages/firstPaint';
import { openServiceSetup } from '@/lib/pages/navigation';
import { applyOutboxChange, holdPort } from '@/lib/pages/workerPush';
import { OUTBOX_PORT } from '@/lib/events/port';
import type { PopupDraft, PopupSnapshot } from '@/lib/store/snapshot';
import { mergeInPlace } from './listMerge';
import { askView, viewOf } from './views';
import { openPlaybookInSidePanel, openSidePanel, prepareSidePanel } from './openSidePanel';
import { PageMatchesSection } from './PageMatchesSection';

function openInSidePanel(id: string): void {
  openPlaybookInSidePanel(id).catch((error: unknown) => log.warn('sidepanel.open-failed', { error }));
}

/**
 * Rows in the first frame when it is drawn from a snapshot. A popup is at most 600 px tall; ten
 * rows of about 60 px below the header reach about 900 px, so they fill it down to 67 % zoom. The
 * others follow once that frame is painted (a frame or two later), below the fold, where they move
 * nothing on screen. Drawing all twenty made the frame about 3 ms longer (bench: the popup's first
 * row against a blank page). In a hidden document (a preloaded popup) frames wait until it shows,
 * and so do these rows.
 */
export const FIRST_FRAME_ROWS = 10;

const EMPTY_LIST: ListView = { items: [], hasMore: false, loading: true, loadingMore: false };

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

/**
 * What the popup opens with, decided once before its first frame (lib/pages/popup/start.tsx).
 * `first` is what that frame shows, if anything, its page marked as the saved copy it is (or
 * not, when it is the worker's answer); `answer` is the worker's fresh read (already `first` when
 * `fresh`; still to come otherwise); `late` is the snapshot read still under way when the frame
 * was drawn without it (its rows show if it beats the answer). The page shows them as given.
 */
export interface PopupOpening {
  first?: PopupSnapshot;
  /** True when `first` is the worker's fresh answer rather than a saved copy. */
  fresh: boolean;
  answer: Promise<PopupOpened>;
  late?: Promise<PopupSnapshot | undefined>;
}

/**
 * The toolbar popup. It is given what its first frame shows (never reading the database for it)
 * and the worker's fresh answer to the one message `openPopup`; rows are replaced in place, never
 * moved under the pointer. Every other view (scope, filter, "Load more") is asked of the read
 * model the same way: its cached copy, then the one message `readView` (./views.ts).
 */
export interface PopupPageProps {
  /** Absent: nothing to show yet, and the page asks the worker itself. */
  opening?: PopupOpening;
}

export function PopupPage({ opening }: PopupPageProps = {}) {
  const initialSnapshot = opening?.first;
  const [now, setNow] = useState(() => Date.now());
  const [state, setState] = useState<AppState | undefined>(initialSnapshot?.state);
  const [stateError, setStateError] = useState<string>();
  const [overview, setOverview] = useState<ServiceOverview | undefined>(initialSnapshot?.overview);
  const [overviewError, setOverviewError] = useState<string>();
  const [overviewLoading, setOverviewLoading] = useState(!initialSnapshot?.overview);
  const [outbox, setOutbox] = useState<PopupDraft[] | undefined>(initialSnapshot?.outbox);
  const [returns, setReturns] = useState(initialSnapshot?.returns);
  const [outboxBusy, setOutboxBusy] = useState<string[]>([]);
  const [scope, setScope] = useState<ListScope>('mine');
  const [visibility, setVisibility] = useState<VisibilityFilter>('all');
  const [list, setList] = useState<ListView>(() =>
    initialSnapshot?.page ? listOf(initialSnapshot.page) : EMPTY_LIST,
  );
  const [rowLimit, setRowLimit] = useState(
    (initialSnapshot?.page?.items.length ?? 0) > FIRST_FRAME_ROWS ? FIRST_FRAME_ROWS : undefined,
  );
  const [offline, setOffline] = useState(() => !navigator.onLine);
  const [reloads, setReloads] = useState(0);
  const generation = useRef(0);
  const cursor = useRef<string | null>(initialSnapshot?.page?.nextCursor ?? null);
  const pages = useRef(initialSnapshot?.page ? 1 : 0);
  const opened = useRef(false);
  const hovered = useRef(false);
  /** A fresh first page that arrived while the pointer was over the list: its order waits for it to leave. */
  const heldOrder = useRef<PlaybookPage | undefined>(undefined);
  /** The service and key the shown records were read for: the read model's cache is read for them only. */
  const binding = useRef(initialSnapshot?.binding);

  // No service saved yet (a fresh store install): nothing is read; the view points to the setup.
  const setupNeeded = state?.serviceSetup === 'needed';
  // Without a key only the public library can be read.
  const effectiveScope: ListScope = state && !state.key.set ? 'public' : scope;

  const loadOverview = useCallback((refresh: boolean) => {
    setOverviewLoading(true);
    sendMessage('getOverview', { refresh }).then(
      (value) => {
        setOverview(value);
        setOverviewError(undefined);
        setOverviewLoading(false);
      },
      (error: unknown) => {
        setOverviewError(errorText(error));
        setOverviewLoading(false);
      },
    );
  }, []);

  // Drafts change by push (the worker posts each transition on the outbox port); nothing is re-read after an action.
  useEffect(
    () =>
      holdPort(OUTBOX_PORT, (message) => {
        if (message.type !== 'outbox') return;
        setOutbox((shown) =>
          // A draft keeps the label the worker gave it; a new one is named by its operation.
          applyOutboxChange(shown ?? [], message.change, (entry, known) => ({
            ...entry,
            label: known?.label ?? entry.operationId,
          })),
        );
      }),
    [],
  );

  useEffect(() => {
    // Not needed before a click: it waits until the first frame is on screen, as do the rows below the fold.
    const painted = afterFirstPaint();
    if (rowLimit !== undefined) void painted.then(() => setRowLimit(undefined));
    painted.then(prepareSidePanel).catch((error: unknown) => log.warn('sidepanel.prepare-failed', { error }));
    const tick = setInterval(() => setNow(Date.now()), 30_000);
    const online = () => setOffline(!navigator.onLine);
    addEventListener('online', online);
    addEventListener('offline', online);
    return () => {
      clearInterval(tick);
      removeEventListener('online', online);
      removeEventListener('offline', online);
    };
  }, []);

  const apply = (page: PlaybookPage, append: boolean) => {
    cursor.current = page.nextCursor;
    pages.current = append ? pages.current + 1 : 1;
    setNow(Date.now());
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

  useEffect(() => {
    const mine = generation.current + 1;
    generation.current = mine;
    const live = () => generation.current === mine;
    const view = viewOf(effectiveScope, visibility);
    const fail = (error: unknown) => {
      if (!live()) return;
      const problem = problemOf(wireOf(error));
      // Cached rows on screen stay, marked as the failed refresh they are.
      setList((current) => ({
        ...current,
        loading: false,
        problem,
        ...(current.source === 'cache' ? { stale: { kind: 'failed', reason: problem.message } } : {}),
      }));
    };
    if (!opened.current) {
      // The first open: the snapshot paints, the one message revalidates everything it holds.
      opened.current = true;
      let answered = false;
      let failure: unknown;
      const show = (snapshot: PopupSnapshot) => {
        binding.current = snapshot.binding;
        setState(snapshot.state);
        setStateError(undefined);
        if (snapshot.overview) {
          setOverview(snapshot.overview);
          setOverviewLoading(false);
        }
        setOutbox(snapshot.outbox);
        if (snapshot.returns) setReturns(snapshot.returns);
        const first = snapshot.page;
        if (!first || !live()) return;
        // Paged further already: the first page's rows are refreshed in place, the later ones stay.
        if (pages.current > 1)
          setList((current) => ({
            ...current,
            items: mergeInPlace(current.items, first.items),
            source: first.source,
            fetchedAt: first.fetchedAt,
            stale: first.stale,
          }));
        else apply(first, false);
      };
      opening?.late?.then(
        (snapshot) => {
          if (!snapshot || answered) return;
          show(snapshot);
          // The worker failed before the snapshot was read: the rows show, and so does why they are old.
          if (failure !== undefined) fail(failure);
        },
        (error: unknown) => log.warn('popup.snapshot-read-failed', { error }),
      );
      // Nothing given: the page asks itself.
      const answer = opening?.answer ?? sendMessage('openPopup', {});
      answer.then(
        (fresh) => {
          answered = true;
          show(fresh);
          if (fresh.pageError) fail(new MessageError(fresh.pageError));
          else if (!fresh.page && fresh.state.key.set && live())
            setList((current) => ({ ...current, loading: false }));
        },
        (error: unknown) => {
          failure = error;
          setStateError(errorText(error));
          setOverviewError(errorText(error));
          setOverviewLoading(false);
          fail(error);
        },
      );
      // Without a key (known from the snapshot) the public library is read as well.
      if (effectiveScope !== 'public' || setupNeeded) return;
    }
    if (setupNeeded) return;
    cursor.current = null;
    pages.current = 0;
    setList((current) => ({ ...EMPTY_LIST, items: reloads > 0 ? current.items : [] }));
    // The same path as the first open: the cached copy at once, the one message for the fresh page.
    askView(view, { binding: binding.current, cached: (page) => live() && apply(page, false) }).then(
      (fresh) => live() && apply(fresh, false),
      fail,
    );
  }, [effectiveScope, visibility, reloads, setupNeeded]);

  const loadMore = () => {
    const from = cursor.current;
    if (!from) {
      setList((current) => ({ ...current, moreError: t('popup.list.noPosition') }));
      return;
    }
    const mine = generation.current;
    setList((current) => ({ ...current, loadingMore: true, moreError: undefined }));
    askView(viewOf(effectiveScope, visibility), { cursor: from }).then(
      (page) => generation.current === mine && apply(page, true),
      (error: unknown) =>
        generation.current === mine &&
        setList((current) => ({ ...current, loadingMore: false, moreError: errorText(error) })),
    );
  };

  const draftAction = (id: string, action: () => Promise<unknown>) => {
    setOutboxBusy((busy) => [...busy, id]);
    action()
      .catch((error: unknown) => log.warn('popup.draft-action-failed', { error: errorText(error) }))
      .finally(() => {
        setOutboxBusy((busy) => busy.filter((other) => other !== id));
      });
  };

  return (
    <PopupView
      rowLimit={rowLimit}
      state={state}
      stateError={stateError}
      overview={overview}
      overviewError={overviewError}
      overviewLoading={overviewLoading}
      scope={effectiveScope}
      visibility={visibility}
      list={list}
      returns={returns}
      outbox={outbox}
      outboxBusy={outboxBusy}
      offline={offline}
      optionsUrl={browser.runtime.getURL('/options.html')}
      now={now}
      onOpenSetup={() => {
        openServiceSetup().catch((error: unknown) => log.warn('setup.open-failed', { error }));
      }}
      onOpenSidePanel={() => {
        openSidePanel().catch((error: unknown) => log.warn('sidepanel.open-failed', { error }));
      }}
      pageMatches={<PageMatchesSection onOpen={openInSidePanel} />}
      onOpenPlaybook={openInSidePanel}
      onScope={setScope}
      onVisibility={setVisibility}
      onLoadMore={loadMore}
      onListHover={(over) => {
        hovered.current = over;
        const held = heldOrder.current;
        if (over || !held) return;
        heldOrder.current = undefined;
        setList((current) => ({ ...current, items: held.items }));
      }}
      onRetry={() => {
        setReloads((count) => count + 1);
        loadOverview(true);
      }}
      onRefreshStatus={() => loadOverview(true)}
      onReopenDraft={(id) => draftAction(id, () => sendMessage('reviewWrite', { id }))}
      onDiscardDraft={(id) => draftAction(id, () => sendMessage('discardDraft', { id }))}
      onRetryDraft={(id) => draftAction(id, () => sendMessage('retryWrite', { id }))}
    />
  );
}
