import { ProblemMessage } from '@/components/ProblemMessage';
import type { ErrorParts } from '@/lib/pages/errorText';
import { formatDay } from '@/lib/backtests/format';
import type { Catalyst, CatalystKind, CatalystSession, CatalystStatus } from '@/lib/contract/catalyst';
import { formatDateTime, t, type TextKey } from '@/lib/i18n';
import type { SavedCopy } from '@/lib/contract/wire';
import { SavedCopyMark } from './SavedCopyMark';

export interface CatalystsSectionProps {
  items?: Catalyst[];
  /** False when the list was cut at its bound. */
  complete: boolean;
  loading: boolean;
  error?: ErrorParts;
  /** The service could not be reached and nothing was saved (the detail says it once for its sections). */
  unreachable?: boolean;
  /** Shown from the copy saved when the playbook was last opened. */
  savedCopy?: SavedCopy;
  /** What the last "Add to calendar" said (the file's name), or why it failed. */
  saved?: string;
  onAddToCalendar: () => void;
}

const STATUS_TEXT: Record<CatalystStatus, TextKey> = {
  confirmed: 'catalystList.status.confirmed',
  estimated: 'catalystList.status.estimated',
  cancelled: 'catalystList.status.cancelled',
};

const SESSION_TEXT: Partial<Record<CatalystSession, TextKey>> = {
  'pre-market': 'catalystList.session.preMarket',
  'after-close': 'catalystList.session.afterClose',
};

const KIND_TEXT: Record<CatalystKind, TextKey> = {
  earnings: 'catalystList.kind.earnings',
  dividend: 'catalystList.kind.dividend',
  filing: 'catalystList.kind.filing',
  economic: 'catalystList.kind.economic',
  regulatory: 'catalystList.kind.regulatory',
  product: 'catalystList.kind.product',
  other: 'catalystList.kind.misc',
};

/** Confirmed, estimated or cancelled in words (the badge's colour only repeats it). */
export function catalystStatusText(status: CatalystStatus): string {
  return t(STATUS_TEXT[status]);
}

/** "Before the open" / "After the close"; nothing when the session is unknown. */
export function catalystSessionText(session: CatalystSession | undefined): string | undefined {
  const key = session && SESSION_TEXT[session];
  return key ? t(key) : undefined;
}

/** When, in the user's zone and language: an all-day catalyst as a date, another as date and time. */
export function catalystWhen(catalyst: Pick<Catalyst, 'at' | 'all_day'>): string {
  return catalyst.all_day ? formatDay(catalyst.at) : formatDateTime(catalyst.at) || catalyst.at;
}

function CatalystItem({ catalyst }: { catalyst: Catalyst }) {
  const session = catalystSessionText(catalyst.session);
  return (
    <li class={`stack catalyst status-${catalyst.status}`}>
      <div class="row">
        <time dateTime={catalyst.at}>{catalystWhen(catalyst)}</time>
        <strong class="ticker">{catalyst.ticker}</strong>
        <span class={`badge status-${catalyst.status}`}>{catalystStatusText(catalyst.status)}</span>
        {session ? <span class="hint">{session}</span> : null}
      </div>
      <div class="row">
        <span class="hint">{t(KIND_TEXT[catalyst.kind])}</span>
        {/* The service's title, in whatever script: its own direction inside the page's. */}
        {catalyst.status === 'cancelled' ? (
          <s dir="auto">{catalyst.title}</s>
        ) : (
          <span dir="auto">{catalyst.title}</span>
        )}
      </div>
    </li>
  );
}

/** The playbook's upcoming catalysts, soonest first, and the button that saves them as a calendar file. */
export function CatalystsSection(props: CatalystsSectionProps) {
  const { items } = props;
  return (
    <section class="stack catalysts" aria-label={t('catalystList.region')}>
      <h3>{t('catalystList.heading')}</h3>
      <SavedCopyMark saved={props.savedCopy} />
      <ProblemMessage problem={props.error} />
      {!items && props.loading ? <p class="hint">{t('catalystList.loading')}</p> : null}
      {items && items.length === 0 ? <p class="hint">{t('catalystList.empty')}</p> : null}
      {items && items.length > 0 ? (
        <>
          <ul class="stack catalyst-list">
            {items.map((catalyst) => (
              <CatalystItem key={catalyst.id} catalyst={catalyst} />
            ))}
          </ul>
          {props.complete ? null : (
            <p class="hint">{t('catalystList.incomplete', { count: items.length })}</p>
          )}
          <button type="button" onClick={props.onAddToCalendar}>
            {t('catalystList.addToCalendar')}
          </button>
          {props.saved ? <p role="status">{props.saved}</p> : null}
        </>
      ) : null}
    </section>
  );
}
