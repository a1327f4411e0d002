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
import { readPopupSnapshotOnce, type PopupDraft, type PopupSnapshot } from '@/lib/store/snapshot';
import { mergeInPlace } from './listMerge';
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

/** A saved copy says so ("Cached … · Refreshing…") until the worker's answer replaces it. */
function savedCopy(page: PlaybookPage): PlaybookPage {
  return { ...page, source: 'cache', stale: { kind: 'refreshing' } };
}

function listOf(page: PlaybookPage): ListView {
  return {
    items: page.items,
    hasMore: page.hasMore,
    source: page.source,
    fetchedAt: page.fetchedAt,
    stale: page.stale,
    loading: false,
    loadingMore: false,
  };
}

/**
 * The revalidation of a popup painted from its snapshot: sent once that frame is on screen, or as
 * the popup closes if it closes first (a frame never comes then), so a popup opened and closed
 * at once still has the worker refresh the snapshot the next one paints from.
 */
function revalidateAfterPaint(): Promise<PopupOpened> {
  return new Promise((resolve, reject) => {
    let sent = false;
    const send = () => {
      if (sent) return;
      sent = true;
      removeEventListener('pagehide', send);
      sendMessage('openPopup', {}).then(resolve, reject);
    };
    addEventListener('pagehide', send);
    afterFirstPaint().then(send, send);
  });
}

function wireOf(error: unknown): WireLike {
  if (error instanceof MessageError) return error.wire;
  return { code: 'internal', message: t('popup.extensionSilent') };
}

/**
 * The toolbar popup. It paints from the snapshot it reads itself from the extension's database
 * (no round trip to a worker that may be asleep) and sends one message, `openPopup`, whose
 * answer is the worker's fresh read; rows are replaced in place, never moved under the pointer.
 */
export interface PopupPageProps {
  /** The snapshot read, started before the first render (entrypoints/popup/main.tsx) so it overlaps it. */
  snapshotRead?: Promise<PopupSnapshot | undefined>;
  /** The snapshot, when it was read before the first render: that frame already shows its rows. */
  initialSnapshot?: PopupSnapshot;
  /** True when `initialSnapshot` is the worker's fresh answer rather than a saved copy. */
  initialIsFresh?: boolean;
  /** The `openPopup` request already sent (lib/pages/popup/start.ts): answered here, not sent again. */
  opening?: Promise<PopupOpened>;
}

export function PopupPage({ snapshotRead, initialSnapshot, initialIsFresh, opening }: PopupPageProps = {}) {
  const [now, setNow] = useState(() => Date.now());
  const [state, setState] = useState<AppState | undefined>(initialSnapshot?.state);
  const [stateError, setStateError] = useState<string>();
  const [overview, setOverview] = useState<ServiceOverview | undefined>(initialSnapshot?.overview);
  const [overviewError, setOverviewError] = useState<string>();
  const [overviewLoading, setOverviewLoading] = useState(!initialSnapshot?.overview);
  const [outbox, setOutbox] = useState<PopupDraft[] | undefined>(initialSnapshot?.outbox);
  const [outboxBusy, setOutboxBusy] = useState<string[]>([]);
  const [scope, setScope] = useState<ListScope>('mine');
  const [visibility, setVisibility] = useState<VisibilityFilter>('all');
  const [list, setList] = useState<ListView>(() =>
    initialSnapshot?.page
      ? listOf(initialIsFresh ? initialSnapshot.page : savedCopy(initialSnapshot.page))
      : EMPTY_LIST,
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

  const loadOutbox = useCallback(() => {
    sendMessage('listOutbox', {}).then(
      // After an action only known drafts remain; each keeps the label the worker gave it.
      (entries) =>
        setOutbox((shown) =>
          entries.map((entry) => ({
            ...entry,
            label: shown?.find((other) => other.id === entry.id)?.label ?? entry.operationId,
          })),
        ),
      (error: unknown) => log.warn('popup.outbox-failed', { error: errorText(error) }),
    );
  }, []);

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
    const query = visibility === 'all' ? {} : { visibility };
    const fail = (error: unknown) => {
      if (!live()) return;
      const problem = problemOf(wireOf(error));
      setList((current) => ({ ...current, loading: false, problem }));
    };
    if (!opened.current) {
      // The first open: the snapshot paints, the one message revalidates everything it holds.
      opened.current = true;
      if (!initialSnapshot) setList(EMPTY_LIST);
      let answered = false;
      let failure: unknown;
      const show = (snapshot: PopupSnapshot, saved: boolean) => {
        setState(snapshot.state);
        setStateError(undefined);
        if (snapshot.overview) {
          setOverview(snapshot.overview);
          setOverviewLoading(false);
        }
        setOutbox(snapshot.outbox);
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
        else apply(saved ? savedCopy(first) : first, false);
      };
      if (!initialSnapshot)
        (snapshotRead ?? readPopupSnapshotOnce()).then(
          (snapshot) => {
            if (!snapshot || answered) return;
            show(snapshot, true);
            // The worker failed before the snapshot was read: the rows show, and so does why they are old.
            if (failure !== undefined) fail(failure);
          },
          (error: unknown) => log.warn('popup.snapshot-read-failed', { error }),
        );
      // Rows already on screen: the revalidation (which may wake the worker) waits for that frame.
      const answer = opening ?? (initialSnapshot ? revalidateAfterPaint() : sendMessage('openPopup', {}));
      answer.then(
        (fresh) => {
          answered = true;
          show(fresh, false);
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
    if (effectiveScope === 'public') {
      sendMessage('listPublicPlaybooks', {}).then((page) => live() && apply(page, false), fail);
      return;
    }
    sendMessage('listPlaybooks', { ...query, preferCache: true }).then((first) => {
      if (!live()) return;
      apply(first, false);
      if (first.source !== 'cache') return;
      // The cache painted first; now the network, unless the user already paged further.
      sendMessage('listPlaybooks', query).then(
        (fresh) => live() && pages.current === 1 && apply(fresh, false),
        (error: unknown) => {
          if (!live()) return;
          const problem = problemOf(wireOf(error));
          setList((current) => ({ ...current, problem, stale: { kind: 'failed', reason: problem.message } }));
        },
      );
    }, fail);
  }, [effectiveScope, visibility, reloads, setupNeeded]);

  const loadMore = () => {
    const from = cursor.current;
    if (!from) {
      setList((current) => ({ ...current, moreError: t('popup.list.noPosition') }));
      return;
    }
    const mine = generation.current;
    setList((current) => ({ ...current, loadingMore: true, moreError: undefined }));
    const request =
      effectiveScope === 'public'
        ? sendMessage('listPublicPlaybooks', { cursor: from })
        : sendMessage('listPlaybooks', { cursor: from, ...(visibility === 'all' ? {} : { visibility }) });
    request.then(
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
        loadOutbox();
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
