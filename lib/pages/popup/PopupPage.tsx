import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { PopupView, type ListScope, type VisibilityFilter } from './PopupView';
import { log } from '@/lib/log';
import type { PopupOpened } from '@/lib/messaging/protocol';
import { afterFirstPaint } from '@/lib/pages/firstPaint';
import { openServiceSetup } from '@/lib/pages/navigation';
import type { PopupSnapshot } from '@/lib/store/snapshot';
import { viewOf } from './views';
import { openPlaybookInSidePanel, openSidePanel, prepareSidePanel } from './openSidePanel';
import { PageMatchesSection } from './PageMatchesSection';
import { useStatus } from './useStatus';
import { useOutbox } from './useOutbox';
import { usePlaybookList } from './usePlaybookList';
import { usePopupReads } from './usePopupReads';

export { FIRST_FRAME_ROWS } from './usePlaybookList';

function openInSidePanel(id: string): void {
  openPlaybookInSidePanel(id).catch((error: unknown) => log.warn('sidepanel.open-failed', { error }));
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

/** The clock the rows' relative times read, and whether the browser says it is offline. */
function usePageClock() {
  const [now, setNow] = useState(() => Date.now());
  const [offline, setOffline] = useState(() => !navigator.onLine);
  useEffect(() => {
    // Not needed before a click: it waits until the first frame is on screen.
    afterFirstPaint()
      .then(prepareSidePanel)
      .catch((error: unknown) => log.warn('sidepanel.prepare-failed', { error }));
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
  return { now, offline, tick: () => setNow(Date.now()) };
}

export function PopupPage({ opening }: PopupPageProps = {}) {
  const first = opening?.first;
  const status = useStatus(first);
  const drafts = useOutbox(first?.outbox);
  const [returns, setReturns] = useState(first?.returns);
  const [scope, setScope] = useState<ListScope>('mine');
  const [visibility, setVisibility] = useState<VisibilityFilter>('all');
  const [reloads, setReloads] = useState(0);
  const clock = usePageClock();
  const playbooks = usePlaybookList(first?.page, clock.tick);
  const { state } = status;
  // No service saved yet (a fresh store install): nothing is read; the view points to the setup.
  const setupNeeded = state?.serviceSetup === 'needed';
  // Without a key only the public library can be read.
  const effectiveScope: ListScope = state && !state.key.set ? 'public' : scope;
  usePopupReads(
    opening,
    { ...status, showOutbox: drafts.showOutbox, setReturns, list: playbooks },
    { scope: effectiveScope, visibility, reloads, setupNeeded },
  );
  return (
    <PopupView
      {...status}
      {...drafts}
      rowLimit={playbooks.rowLimit}
      scope={effectiveScope}
      visibility={visibility}
      list={playbooks.list}
      returns={returns}
      offline={clock.offline}
      optionsUrl={browser.runtime.getURL('/options.html')}
      now={clock.now}
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
      onLoadMore={() => playbooks.loadMore(viewOf(effectiveScope, visibility))}
      onListHover={playbooks.onListHover}
      onRetry={() => {
        setReloads((count) => count + 1);
        status.loadOverview(true);
      }}
      onRefreshStatus={() => status.loadOverview(true)}
    />
  );
}
