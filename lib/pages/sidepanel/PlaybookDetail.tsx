import { useEffect, useState } from 'preact/hooks';
import type { Playbook } from '@/lib/api/schemas';
import { writeSpec, type WriteOperation } from '@/lib/api/writeOperations';
import { safeHref } from './SafeMarkdown';
import { ErrorMessage } from '@/components/ErrorMessage';
import { BacktestsSection, type BacktestsSectionProps } from './BacktestsSection';

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

export interface EditFields {
  title: string;
  thesis: string;
  tickers: string[];
  visibility: Playbook['visibility'];
}

export interface PlaybookDetailProps {
  playbook?: Playbook;
  loading: boolean;
  error?: string;
  action?: ActionState;
  plans: string[];
  /** The playbook's backtests from the service (lib/pages/sidepanel/useBacktests.ts). */
  backtests?: BacktestsSectionProps;
  onBack: () => void;
  onReload: () => void;
  onEdit: (fields: EditFields) => void;
  onBacktest: (range: { start: string; end: string; benchmark?: string }) => void;
  onActivate: () => void;
  onPause: () => void;
  onLinkBrokerage: () => void;
  onUpgrade: (plan: string) => void;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function ActionStatus({
  action,
  onReload,
  onLinkBrokerage,
}: Pick<PlaybookDetailProps, 'onReload' | 'onLinkBrokerage'> & { action: ActionState }) {
  const name = writeSpec(action.operationId).actionName;
  if (action.status === 'waiting')
    return <p role="status">{name} waits for your confirmation in the confirm window.</p>;
  if (action.status === 'cancelled') return <p role="status">{name} was cancelled; nothing was sent.</p>;
  if (action.status === 'sent') {
    const spec = writeSpec(action.operationId);
    const follow = spec.successText
      ? ` ${spec.successText}`
      : spec.opensUrlFrom
        ? action.message
          ? ` ${action.message}`
          : ' The page opened in a new tab.'
        : '';
    return (
      <p role="status" class="ok">
        {name} was sent.{follow}
      </p>
    );
  }
  if (action.code === 'precondition-failed')
    return (
      <div role="alert" class="stack conflict">
        <p class="error">
          Edit conflict: this playbook was changed elsewhere after you opened it, so your edit was not saved.
          Reload it, then apply your edit again.
        </p>
        <button type="button" onClick={onReload}>
          Reload playbook
        </button>
      </div>
    );
  if (
    writeSpec(action.operationId).class === 'live-execution' &&
    (action.problemCode === 'brokerage_not_linked' || (action.code === 'forbidden' && !action.problemCode))
  )
    return (
      <div role="alert" class="stack">
        <p class="error">
          Live automation needs a linked brokerage account, and yours is not linked yet. Link one, then
          activate again.
        </p>
        <p class="hint">{action.message}</p>
        <button type="button" onClick={onLinkBrokerage}>
          Link a brokerage
        </button>
      </div>
    );
  return <ErrorMessage message={`${name} failed: ${action.message ?? 'the service refused it.'}`} />;
}

export function PlaybookDetail(props: PlaybookDetailProps) {
  const { playbook, action } = props;
  const [fields, setFields] = useState<EditFields | undefined>();
  const [range, setRange] = useState(() => {
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
    if (!plan && props.plans.length > 0) setPlan(props.plans[props.plans.length - 1]);
  }, [props.plans.join('|')]);

  const source = playbook?.source ? safeHref(playbook.source.url) : undefined;
  return (
    <article class="stack detail" aria-label={playbook ? `Playbook ${playbook.title}` : 'Playbook'}>
      <div class="row">
        <button type="button" onClick={props.onBack}>
          Back to the list
        </button>
        <button type="button" onClick={props.onReload} disabled={props.loading}>
          Reload
        </button>
      </div>
      <ErrorMessage message={props.error} />
      {!playbook && props.loading ? <p class="hint">Loading the playbook…</p> : null}
      {playbook ? (
        <>
          <h2>{playbook.title}</h2>
          <p class="thesis">{playbook.thesis}</p>
          <dl class="facts">
            <dt>Tickers</dt>
            <dd>{playbook.tickers.join(', ') || 'none'}</dd>
            <dt>Visibility</dt>
            <dd>{playbook.visibility}</dd>
            <dt>Status</dt>
            <dd>{playbook.status}</dd>
            {playbook.source ? (
              <>
                <dt>Source</dt>
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
            <dt>Created</dt>
            <dd>
              <time dateTime={playbook.created_at}>{new Date(playbook.created_at).toLocaleString()}</time>
            </dd>
            <dt>Updated</dt>
            <dd>
              <time dateTime={playbook.updated_at}>{new Date(playbook.updated_at).toLocaleString()}</time>
            </dd>
          </dl>
          {action ? (
            <ActionStatus action={action} onReload={props.onReload} onLinkBrokerage={props.onLinkBrokerage} />
          ) : null}
          {props.backtests ? <BacktestsSection {...props.backtests} /> : null}
          {fields ? (
            <form
              class="stack"
              aria-label="Edit playbook"
              onSubmit={(event) => {
                event.preventDefault();
                props.onEdit(fields);
              }}
            >
              <h3>Edit</h3>
              <label>
                Title
                <input
                  value={fields.title}
                  required
                  maxLength={200}
                  onInput={(event) => setFields({ ...fields, title: event.currentTarget.value })}
                />
              </label>
              <label>
                Thesis
                <textarea
                  rows={5}
                  value={fields.thesis}
                  onInput={(event) => setFields({ ...fields, thesis: event.currentTarget.value })}
                />
              </label>
              <label>
                Tickers
                <input
                  value={fields.tickers.join(', ')}
                  onInput={(event) =>
                    setFields({
                      ...fields,
                      tickers: event.currentTarget.value
                        .split(/[\s,]+/)
                        .map((t) => t.trim().toUpperCase())
                        .filter(Boolean),
                    })
                  }
                />
              </label>
              <label>
                Visibility
                <select
                  value={fields.visibility}
                  onChange={(event) =>
                    setFields({
                      ...fields,
                      visibility: event.currentTarget.value as EditFields['visibility'],
                    })
                  }
                >
                  <option value="private">private</option>
                  <option value="unlisted">unlisted</option>
                  <option value="public">public</option>
                </select>
              </label>
              <button type="submit" class="primary">
                Save changes
              </button>
            </form>
          ) : null}
          <form
            class="stack"
            aria-label="Backtest"
            onSubmit={(event) => {
              event.preventDefault();
              props.onBacktest({
                start: range.start,
                end: range.end,
                benchmark: range.benchmark || undefined,
              });
            }}
          >
            <h3>Backtest</h3>
            <div class="row">
              <label>
                Start
                <input
                  type="date"
                  value={range.start}
                  onInput={(e) => setRange({ ...range, start: e.currentTarget.value })}
                />
              </label>
              <label>
                End
                <input
                  type="date"
                  value={range.end}
                  onInput={(e) => setRange({ ...range, end: e.currentTarget.value })}
                />
              </label>
              <label>
                Benchmark
                <input
                  value={range.benchmark}
                  onInput={(e) => setRange({ ...range, benchmark: e.currentTarget.value })}
                />
              </label>
            </div>
            <button type="submit">Run backtest</button>
          </form>
          <section class="stack" aria-label="Live automation">
            <h3>Live automation</h3>
            <p class="hint">Live automation lets the agent place orders in your linked brokerage account.</p>
            {playbook.status === 'active' ? (
              <button type="button" onClick={props.onPause}>
                Pause live automation
              </button>
            ) : (
              <button type="button" onClick={props.onActivate}>
                Activate live automation
              </button>
            )}
          </section>
          {props.plans.length > 0 ? (
            <form
              class="row"
              aria-label="Upgrade plan"
              onSubmit={(event) => {
                event.preventDefault();
                if (plan) props.onUpgrade(plan);
              }}
            >
              <label>
                Plan
                <select value={plan} onChange={(event) => setPlan(event.currentTarget.value)}>
                  {props.plans.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit">Upgrade plan</button>
            </form>
          ) : null}
        </>
      ) : null}
    </article>
  );
}
