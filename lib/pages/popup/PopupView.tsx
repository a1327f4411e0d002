import type { ComponentChildren } from 'preact';
import type { Playbook } from '@/lib/api/schemas';
import type { Visibility } from '@/lib/api/visibility';
import type { AppState, ServiceOverview, Staleness } from '@/lib/messaging/protocol';
import type { PopupDraft } from '@/lib/store/snapshot';
import { Disclaimer } from '@/components/Disclaimer';
import { SetupNeeded } from '@/components/SetupNeeded';
import { OutboxList } from './OutboxList';
import { PlaybookList } from './PlaybookList';
import { StatusRegion } from './StatusRegion';
import { InsecureSettingsBanner, ProblemBanner } from './ProblemBanner';
import type { ProblemView } from './format';

export type VisibilityFilter = 'all' | Visibility;
export type ListScope = 'mine' | 'public';

export interface ListView {
  items: Playbook[];
  hasMore: boolean;
  source?: 'network' | 'cache';
  fetchedAt?: number;
  stale?: Staleness;
  loading: boolean;
  loadingMore: boolean;
  problem?: ProblemView;
  moreError?: string;
}

export interface PopupViewProps {
  /** Rows drawn so far, when not all of them (the first frame: lib/pages/popup/PopupPage.tsx). */
  rowLimit?: number;
  state?: AppState;
  stateError?: string;
  overview?: ServiceOverview;
  overviewError?: string;
  overviewLoading?: boolean;
  scope: ListScope;
  visibility: VisibilityFilter;
  list: ListView;
  outbox?: PopupDraft[];
  outboxBusy?: readonly string[];
  /** True when the browser says it has no network at all. */
  offline?: boolean;
  optionsUrl: string;
  now: number;
  onOpenSidePanel: () => void;
  /** Opens the first-run setup (the options page): offered while no service is saved. */
  onOpenSetup: () => void;
  onOpenPlaybook: (id: string) => void;
  /** "On this page" (PageMatchesSection), pinned to the bottom of the popup's view. */
  pageMatches?: ComponentChildren;
  onScope: (scope: ListScope) => void;
  onVisibility: (visibility: VisibilityFilter) => void;
  onLoadMore: () => void;
  /** The pointer entered or left the list: fresh rows must not move the one under it. */
  onListHover?: (hovered: boolean) => void;
  onRetry: () => void;
  onRefreshStatus: () => void;
  onReopenDraft: (id: string) => void;
  onDiscardDraft: (id: string) => void;
  onRetryDraft: (id: string) => void;
}

export function PopupView(props: PopupViewProps) {
  const { state, now } = props;
  return (
    <main class="popup">
      <header class="popup-head">
        <h1>Playbooks</h1>
        <nav class="row popup-links" aria-label="Popup links">
          <a
            href="#"
            onClick={(event) => {
              event.preventDefault();
              props.onOpenSidePanel();
            }}
          >
            Open side panel
          </a>
          <a href={props.optionsUrl} target="_blank" rel="noreferrer">
            Settings
          </a>
        </nav>
      </header>

      {props.stateError ? <p class="error">{props.stateError}</p> : null}
      {state?.serviceSetup ? (
        // No service saved yet: nothing below could be read, so nothing below is drawn.
        <SetupNeeded onOpenSetup={props.onOpenSetup} />
      ) : (
        <PopupBody {...props} />
      )}

      {props.outbox ? (
        <OutboxList
          entries={props.outbox}
          now={now}
          busyIds={props.outboxBusy}
          onReopen={props.onReopenDraft}
          onDiscard={props.onDiscardDraft}
          onRetry={props.onRetryDraft}
        />
      ) : null}

      {/* Last in the page and pinned to the bottom of the view: it arrives after the rows and moves none. */}
      <div class="popup-page-matches">{props.pageMatches}</div>

      <Disclaimer />
    </main>
  );
}

/** The status, the list controls and the list: everything that reads the service. */
function PopupBody(props: PopupViewProps) {
  const { state, list, scope, now } = props;
  const needsKey = state !== undefined && !state.key.set;
  const serviceUrl = state?.settings.serviceUrl;
  const mine = scope === 'mine' && !needsKey;
  return (
    <>
      {needsKey && serviceUrl ? (
        <div class="callout first-run">
          <h2>Connect your account</h2>
          <p>
            Add your API key in the{' '}
            <a href={props.optionsUrl} target="_blank" rel="noreferrer">
              options
            </a>{' '}
            to see your own playbooks. Create a key at{' '}
            <a href={`${serviceUrl}/apikey`} target="_blank" rel="noreferrer">
              {serviceUrl}/apikey
            </a>
            . Meanwhile, browse the public playbooks below.
          </p>
        </div>
      ) : null}
      {state?.insecureSettings ? (
        <InsecureSettingsBanner message={state.insecureSettings.message} optionsUrl={props.optionsUrl} />
      ) : null}
      {props.offline ? (
        <p class="callout offline" role="status">
          You are offline. Lists below are saved copies.
        </p>
      ) : null}

      {/* Status first: a degraded service or a rejected key explains whatever the list shows. */}
      <StatusRegion
        state={state}
        overview={props.overview}
        error={props.overviewError}
        loading={props.overviewLoading}
        now={now}
        onRefresh={props.onRefreshStatus}
      />

      <div class="popup-controls row">
        {needsKey ? null : (
          <div class="segmented" role="group" aria-label="Which playbooks">
            <button type="button" aria-pressed={scope === 'mine'} onClick={() => props.onScope('mine')}>
              Yours
            </button>
            <button type="button" aria-pressed={scope === 'public'} onClick={() => props.onScope('public')}>
              Public library
            </button>
          </div>
        )}
        {mine ? (
          <label class="inline-label">
            <span>Visibility</span>
            <select
              value={props.visibility}
              onChange={(event) => props.onVisibility(event.currentTarget.value as VisibilityFilter)}
            >
              <option value="all">All</option>
              <option value="private">Private</option>
              <option value="unlisted">Unlisted</option>
              <option value="public">Public</option>
            </select>
          </label>
        ) : null}
      </div>

      {list.problem ? (
        <ProblemBanner
          problem={list.problem}
          serviceUrl={serviceUrl}
          optionsUrl={props.optionsUrl}
          onRetry={props.onRetry}
        />
      ) : null}

      <PlaybookList
        items={list.items}
        rowLimit={props.rowLimit}
        hasMore={list.hasMore}
        source={list.source}
        fetchedAt={list.fetchedAt}
        stale={list.stale}
        loading={list.loading}
        loadingMore={list.loadingMore}
        moreError={list.moreError}
        onHover={props.onListHover}
        now={now}
        emptyText={
          mine
            ? props.visibility === 'all'
              ? 'No playbooks yet. Turn an article into one with the button on finance pages.'
              : `No ${props.visibility} playbooks.`
            : 'No public playbooks yet.'
        }
        onOpen={props.onOpenPlaybook}
        onLoadMore={props.onLoadMore}
        onRetry={list.problem ? undefined : props.onRetry}
      />
    </>
  );
}
