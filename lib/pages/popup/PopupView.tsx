import type { ComponentChildren } from 'preact';
import type { Playbook } from '@/lib/api/schemas';
import type { Visibility } from '@/lib/contract/visibility';
import type { AppState, ServiceOverview, Staleness } from '@/lib/messaging/protocol';
import type { PopupDraft } from '@/lib/store/snapshot';
import { Disclaimer } from '@/components/Disclaimer';
import { SetupNeeded } from '@/components/SetupNeeded';
import { OutboxList } from './OutboxList';
import { PlaybookList } from './PlaybookList';
import { StatusRegion } from './StatusRegion';
import { InsecureSettingsBanner, ProblemBanner } from './ProblemBanner';
import type { ProblemView } from './format';
import { withParts } from './withParts';
import { t } from '@/lib/i18n';

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
  /** The rows' return since capture by playbook id (the popup's record). */
  returns?: Record<string, number>;
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
        <h1>{t('popup.title')}</h1>
        <nav class="row popup-links" aria-label={t('popup.links')}>
          <a
            href="#"
            onClick={(event) => {
              event.preventDefault();
              props.onOpenSidePanel();
            }}
          >
            {t('popup.openSidePanel')}
          </a>
          <a href={props.optionsUrl} target="_blank" rel="noreferrer">
            {t('popup.settings')}
          </a>
        </nav>
      </header>

      {props.stateError ? <p class="error">{props.stateError}</p> : null}
      {/* Drafts left waiting come first: a write the user started and has not answered. */}
      {props.outbox ? (
        <OutboxList
          entries={props.outbox}
          now={now}
          busyIds={props.outboxBusy}
          playbooks={props.list.items}
          onReopen={props.onReopenDraft}
          onDiscard={props.onDiscardDraft}
          onRetry={props.onRetryDraft}
        />
      ) : null}
      {state?.serviceSetup ? (
        // No service saved yet: nothing below could be read, so nothing below is drawn.
        <SetupNeeded onOpenSetup={props.onOpenSetup} />
      ) : (
        <PopupBody {...props} />
      )}

      {/* Last in the page and pinned to the bottom of the view: it arrives after the rows and moves none. */}
      <div class="popup-page-matches">{props.pageMatches}</div>

      <Disclaimer />
    </main>
  );
}

/** Without a key: where to save one, and where the service hands one out. */
function ConnectCallout({ serviceUrl, optionsUrl }: { serviceUrl: string; optionsUrl: string }) {
  const keyPage = `${serviceUrl}/apikey`;
  return (
    <div class="callout first-run">
      <h2>{t('popup.connect.heading')}</h2>
      <p>
        {withParts('popup.connect.body', {
          options: (
            <a href={optionsUrl} target="_blank" rel="noreferrer">
              {t('popup.connect.options')}
            </a>
          ),
          keyPage: (
            <a href={keyPage} target="_blank" rel="noreferrer">
              {keyPage}
            </a>
          ),
        })}
      </p>
    </div>
  );
}

/** Whose playbooks (with a key) and, for the user's own, which visibility. */
function ListControls(props: PopupViewProps & { needsKey: boolean; mine: boolean }) {
  const { scope, needsKey } = props;
  return (
    <div class="popup-controls row">
      {needsKey ? null : (
        <div class="segmented" role="group" aria-label={t('popup.scope.label')}>
          <button type="button" aria-pressed={scope === 'mine'} onClick={() => props.onScope('mine')}>
            {t('popup.scope.mine')}
          </button>
          <button type="button" aria-pressed={scope === 'public'} onClick={() => props.onScope('public')}>
            {t('popup.scope.public')}
          </button>
        </div>
      )}
      {props.mine ? (
        // The label is heard, not drawn: beside the tabs, its word pushed the filter onto a line of
        // its own in German, Japanese and Arabic (a row fewer in 600 px). The tooltip says it too.
        <label class="inline-label">
          <span class="visually-hidden">{t('popup.filter.label')}</span>
          <select
            title={t('popup.filter.label')}
            value={props.visibility}
            onChange={(event) => props.onVisibility(event.currentTarget.value as VisibilityFilter)}
          >
            <option value="all">{t('popup.filter.all')}</option>
            <option value="private">{t('popup.filter.private')}</option>
            <option value="unlisted">{t('popup.filter.unlisted')}</option>
            <option value="public">{t('popup.filter.public')}</option>
          </select>
        </label>
      ) : null}
    </div>
  );
}

/** What an empty list says; nothing beside a failed read, where the list is unknown, not empty. */
function emptyText(props: PopupViewProps, mine: boolean): string | undefined {
  if (props.list.problem) return undefined;
  if (!mine) return t('popup.empty.library');
  return t(props.visibility === 'all' ? 'popup.empty.mine' : `popup.empty.${props.visibility}`);
}

/** The status, the list controls and the list: everything that reads the service. */
function PopupBody(props: PopupViewProps) {
  const { state, list, now } = props;
  const needsKey = state !== undefined && !state.key.set;
  const serviceUrl = state?.settings.serviceUrl;
  const mine = props.scope === 'mine' && !needsKey;
  // A saved copy shown because its refresh failed: the status line's one button retries both.
  const listFailed = list.source === 'cache' && list.stale?.kind === 'failed' && !list.problem;
  return (
    <>
      {needsKey && serviceUrl ? (
        <ConnectCallout serviceUrl={serviceUrl} optionsUrl={props.optionsUrl} />
      ) : null}
      {state?.insecureSettings ? (
        <InsecureSettingsBanner message={state.insecureSettings.message} optionsUrl={props.optionsUrl} />
      ) : null}
      {props.offline ? (
        <p class="callout offline" role="status">
          {t('popup.offline')}
        </p>
      ) : null}

      {/* Status first: a degraded service or a rejected key explains whatever the list shows. */}
      <StatusRegion
        state={state}
        overview={props.overview}
        error={props.overviewError}
        loading={props.overviewLoading}
        now={now}
        onRefresh={listFailed ? props.onRetry : props.onRefreshStatus}
        refreshLabel={listFailed ? t('popup.list.retry') : undefined}
        keyRefusalShown={list.problem?.kind === 'unauthorized'}
      />
      <ListControls {...props} needsKey={needsKey} mine={mine} />
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
        returns={props.returns}
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
        emptyText={emptyText(props, mine)}
        onOpen={props.onOpenPlaybook}
        onLoadMore={props.onLoadMore}
      />
    </>
  );
}
