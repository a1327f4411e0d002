import { useEffect, useState } from 'preact/hooks';
import type { Playbook } from '@/lib/api/schemas';
import { writeSpec, writeWords, type WriteOperation } from '@/lib/api/writeOperations';
import { safeHref } from './SafeMarkdown';
import { ErrorMessage } from '@/components/ErrorMessage';
import type { ErrorParts } from '@/lib/pages/errorText';
import { ProblemMessage } from '@/components/ProblemMessage';
import { BacktestsSection, type BacktestsSectionProps } from './BacktestsSection';
import { CatalystsSection, type CatalystsSectionProps } from './CatalystsSection';
import { SinceCapturedSection, type SinceCapturedSectionProps } from './SinceCapturedSection';
import { formatDateTime, formatRelative, joinSentences, t, formatList } from '@/lib/i18n';
import { playbookStatusText, visibilityText } from '@/lib/pages/playbookWords';
import {
  BacktestForm,
  EditForm,
  LiveSection,
  UpgradeForm,
  type BacktestRange,
  type EditFields,
  type OfflineProps,
} from './PlaybookForms';
import { meaningOf } from '@/lib/messaging/errors';

/** Every write but creating a playbook starts from a playbook's detail. */
export type ActionKind = Exclude<WriteOperation, 'createPlaybook'>;

/** What became of the last action sent to the confirm window. */
export interface ActionState {
  operationId: ActionKind;
  status: 'waiting' | 'sent' | 'failed' | 'cancelled';
  message?: string;
  /** The API error kind the confirm window recorded (precondition-failed, forbidden, …). */
  code?: string;
  /** The service's own code for it (brokerage_not_linked, etag_mismatch, …). */
  problemCode?: string;
}

export type { EditFields };

export interface PlaybookDetailProps {
  playbook?: Playbook;
  loading: boolean;
  /**
   * The copy shown is the one saved when the playbook was last seen: the service could not be
   * reached. Its write actions are disabled (a write needs the service), and the reason is shown.
   */
  cached?: { savedAt: number; reason?: string; code?: string };
  error?: ErrorParts;
  action?: ActionState;
  plans: string[];
  /** The playbook's backtests from the service (lib/pages/sidepanel/useBacktests.ts). */
  backtests?: BacktestsSectionProps;
  /** The playbook's upcoming catalysts (lib/pages/sidepanel/useCatalysts.ts). */
  catalysts?: CatalystsSectionProps;
  /** How the playbook has done since its idea was captured. */
  sinceCaptured?: SinceCapturedSectionProps;
  onBack: () => void;
  onReload: () => void;
  onEdit: (fields: EditFields) => void;
  onBacktest: (range: { start: string; end: string; benchmark?: string }) => void;
  onActivate: () => void;
  onPause: () => void;
  onLinkBrokerage: () => void;
  onUpgrade: (plan: string) => void;
}

const OFFLINE_REASON_ID = 'detail-offline-reason';

/** "Cached · saved 5 minutes ago", why the service's copy is not shown (under Details), and what it means for actions. */
function CachedMark({ cached }: { cached: NonNullable<PlaybookDetailProps['cached']> }) {
  return (
    <div class="cached-mark stack" role="status">
      <p>
        <span class="badge warn">{t('panel.cached', { ago: formatRelative(cached.savedAt) })}</span>
      </p>
      <p id={OFFLINE_REASON_ID} class="warn">
        {/* The one error table says whether the service was not reached or answered in trouble. */}
        {t(
          meaningOf(cached.code).problem === 'service-trouble'
            ? 'panel.troubleReason'
            : 'panel.offlineReason',
        )}
      </p>
      {cached.reason ? (
        <details class="problem-details">
          <summary>{t('popup.problem.details')}</summary>
          <p class="hint">{cached.reason}</p>
        </details>
      ) : null}
    </div>
  );
}

/** The value of an `<input type="date">` (the browser shows it in the user's locale). */
type ActionForm = 'edit' | 'backtest' | 'live' | 'upgrade';

/** The form each action is asked from; the others (a brokerage link) are said under the facts. */
const FORM_OF: Partial<Record<ActionKind, ActionForm>> = {
  updatePlaybook: 'edit',
  runBacktest: 'backtest',
  activatePlaybook: 'live',
  pausePlaybook: 'live',
  createCheckoutSession: 'upgrade',
};

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function ActionStatus({
  action,
  onReload,
  onLinkBrokerage,
}: Pick<PlaybookDetailProps, 'onReload' | 'onLinkBrokerage'> & { action: ActionState }) {
  const words = writeWords(action.operationId);
  const name = words.actionName;
  if (action.status === 'waiting')
    return <p role="status">{t('sidepanel.action.waiting', { action: name })}</p>;
  if (action.status === 'cancelled')
    return <p role="status">{t('sidepanel.action.cancelled', { action: name })}</p>;
  if (action.status === 'sent') {
    const follow = words.successText
      ? words.successText
      : writeSpec(action.operationId).opensUrlFrom
        ? action.message || t('sidepanel.action.opened')
        : '';
    return (
      <p role="status" class="ok">
        {joinSentences(t('sidepanel.action.sent', { action: name }), follow)}
      </p>
    );
  }
  const problem = meaningOf(action.code).problem;
  if (problem === 'conflict')
    return (
      <div role="alert" class="stack conflict">
        <p class="error">{t('sidepanel.action.conflict')}</p>
        <button type="button" onClick={onReload}>
          {t('sidepanel.action.reloadPlaybook')}
        </button>
      </div>
    );
  if (
    writeSpec(action.operationId).class === 'live-execution' &&
    (action.problemCode === 'brokerage_not_linked' || (problem === 'forbidden' && !action.problemCode))
  )
    return (
      <div role="alert" class="stack">
        <p class="error">{t('sidepanel.action.brokerageNeeded')}</p>
        <p class="hint">{action.message}</p>
        <button type="button" onClick={onLinkBrokerage}>
          {t('sidepanel.action.linkBrokerage')}
        </button>
      </div>
    );
  return (
    <ErrorMessage
      message={t('sidepanel.action.failed', {
        action: name,
        reason: action.message ?? t('sidepanel.action.refused'),
      })}
    />
  );
}

/** The playbook's title, its cached mark when offline, its thesis and its facts. */
function PlaybookSummary({
  playbook,
  cached,
}: {
  playbook: Playbook;
  cached: PlaybookDetailProps['cached'];
}) {
  return (
    <>
      <h2 dir="auto">{playbook.title}</h2>
      {cached ? <CachedMark cached={cached} /> : null}
      <p class="thesis" dir="auto">
        {playbook.thesis}
      </p>
      <PlaybookFacts playbook={playbook} />
    </>
  );
}

/** What the playbook is: tickers, visibility, status, source and dates. */
function PlaybookFacts({ playbook }: { playbook: Playbook }) {
  const source = playbook.source ? safeHref(playbook.source.url) : undefined;
  return (
    <dl class="facts">
      <dt>{t('sidepanel.detail.tickers')}</dt>
      <dd>{formatList(playbook.tickers) || t('sidepanel.detail.noTickers')}</dd>
      <dt>{t('sidepanel.detail.visibility')}</dt>
      <dd>{visibilityText(playbook.visibility)}</dd>
      <dt>{t('sidepanel.detail.status')}</dt>
      <dd>{playbookStatusText(playbook.status)}</dd>
      {playbook.source ? (
        <>
          <dt>{t('sidepanel.detail.source')}</dt>
          <dd>
            {source ? (
              <a href={source} target="_blank" rel="noopener noreferrer">
                {playbook.source.title || source}
              </a>
            ) : (
              playbook.source.title
            )}
          </dd>
        </>
      ) : null}
      <dt>{t('sidepanel.detail.created')}</dt>
      <dd>
        <time dateTime={playbook.created_at}>{formatDateTime(playbook.created_at)}</time>
      </dd>
      <dt>{t('sidepanel.detail.updated')}</dt>
      <dd>
        <time dateTime={playbook.updated_at}>{formatDateTime(playbook.updated_at)}</time>
      </dd>
    </dl>
  );
}

/** A section's failure is left unsaid when the detail is a saved copy and the service was out of reach. */
function quieted<T extends { error?: ErrorParts; unreachable?: boolean }>(section: T, quiet: boolean): T {
  return quiet && section.unreachable ? { ...section, error: undefined, shownError: undefined } : section;
}

/**
 * Since captured, catalysts and backtests: each from the service, else from the copy saved when the
 * playbook was last opened. Offline, those with no saved copy say so in one calm line, not each in red.
 */
function DetailSections({ sinceCaptured, catalysts, backtests, cached }: PlaybookDetailProps) {
  const quiet = cached !== undefined;
  const unsaved = quiet && [sinceCaptured, catalysts, backtests].some((section) => section?.unreachable);
  return (
    <>
      {unsaved ? <p class="hint">{t('panel.notSaved')}</p> : null}
      {sinceCaptured ? <SinceCapturedSection {...quieted(sinceCaptured, quiet)} /> : null}
      {catalysts ? <CatalystsSection {...quieted(catalysts, quiet)} /> : null}
      {backtests ? <BacktestsSection {...quieted(backtests, quiet)} /> : null}
    </>
  );
}

/** The detail's form state: the edit fields follow the playbook shown; the range and plan are kept across playbooks. */
function useDetailForms(playbook: Playbook | undefined, plans: readonly string[]) {
  const [fields, setFields] = useState<EditFields | undefined>();
  const [range, setRange] = useState<BacktestRange>(() => {
    const end = new Date();
    const start = new Date(end.getTime() - 365 * 24 * 3600 * 1000);
    return { start: isoDate(start), end: isoDate(end), benchmark: 'SPY' };
  });
  const [plan, setPlan] = useState('');
  useEffect(() => {
    if (playbook)
      setFields({
        title: playbook.title,
        thesis: playbook.thesis,
        tickers: playbook.tickers,
        visibility: playbook.visibility,
      });
  }, [playbook?.id, playbook?.etag]);
  useEffect(() => {
    if (!plan && plans.length > 0) setPlan(plans[plans.length - 1]);
  }, [plans.join('|')]);
  return { fields, setFields, range, setRange, plan, setPlan };
}

export function PlaybookDetail(props: PlaybookDetailProps) {
  const { playbook, action } = props;
  const { fields, setFields, range, setRange, plan, setPlan } = useDetailForms(playbook, props.plans);

  // A write's outcome is said beside the form whose button asked for it, where the user looks.
  const outcome = (form: ActionForm | undefined) =>
    action && FORM_OF[action.operationId] === form ? (
      <ActionStatus action={action} onReload={props.onReload} onLinkBrokerage={props.onLinkBrokerage} />
    ) : null;
  // Offline, every write is disabled and points to the reason shown under the cached mark.
  const offline: OfflineProps = props.cached
    ? { disabled: true, 'aria-describedby': OFFLINE_REASON_ID }
    : { disabled: false };
  return (
    <article
      class="stack detail"
      aria-label={
        playbook ? t('sidepanel.detail.label', { title: playbook.title }) : t('sidepanel.detail.labelLoading')
      }
    >
      <div class="row">
        <button type="button" onClick={props.onBack}>
          {t('sidepanel.detail.back')}
        </button>
        <button type="button" onClick={props.onReload} disabled={props.loading}>
          {t('sidepanel.detail.reload')}
        </button>
      </div>
      <ProblemMessage problem={props.error} />
      {!playbook && props.loading ? <p class="hint">{t('sidepanel.detail.loading')}</p> : null}
      {playbook ? (
        <>
          <PlaybookSummary playbook={playbook} cached={props.cached} />
          {outcome(undefined)}
          <DetailSections {...props} />
          {fields ? (
            <EditForm fields={fields} onChange={setFields} onSubmit={props.onEdit} offline={offline} />
          ) : null}
          {outcome('edit')}
          <BacktestForm range={range} onChange={setRange} onSubmit={props.onBacktest} offline={offline} />
          {outcome('backtest')}
          <LiveSection
            active={playbook.status === 'active'}
            onActivate={props.onActivate}
            onPause={props.onPause}
            offline={offline}
          />
          {outcome('live')}
          {props.plans.length > 0 ? (
            <UpgradeForm
              plans={props.plans}
              plan={plan}
              onChange={setPlan}
              onSubmit={props.onUpgrade}
              offline={offline}
            />
          ) : null}
          {outcome('upgrade')}
        </>
      ) : null}
    </article>
  );
}
