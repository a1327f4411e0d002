/** The playbook detail's forms, each a write the confirm window sends: edit, backtest, live, upgrade. */
import type { Playbook } from '@/lib/api/schemas';
import { planName } from '@/lib/pages/playbookWords';
import { VISIBILITIES } from '@/lib/contract/visibility';
import { t } from '@/lib/i18n';
import { visibilityText } from '@/lib/pages/playbookWords';

export interface EditFields {
  title: string;
  thesis: string;
  tickers: string[];
  visibility: Playbook['visibility'];
}

export interface BacktestRange {
  start: string;
  end: string;
  benchmark: string;
}

/** Offline, a write's button is disabled and described by the reason (PlaybookDetail's cached mark). */
export type OfflineProps = { disabled: boolean; 'aria-describedby'?: string };

export function EditForm(props: {
  fields: EditFields;
  onChange: (fields: EditFields) => void;
  onSubmit: (fields: EditFields) => void;
  offline: OfflineProps;
}) {
  const { fields, onChange } = props;
  return (
    <form
      class="stack"
      aria-label={t('sidepanel.detail.editForm')}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit(fields);
      }}
    >
      <h3>{t('sidepanel.detail.editHeading')}</h3>
      <label>
        {t('sidepanel.detail.title')}
        <input
          value={fields.title}
          required
          maxLength={200}
          onInput={(event) => onChange({ ...fields, title: event.currentTarget.value })}
        />
      </label>
      <label>
        {t('sidepanel.detail.thesis')}
        <textarea
          rows={5}
          value={fields.thesis}
          onInput={(event) => onChange({ ...fields, thesis: event.currentTarget.value })}
        />
      </label>
      <label>
        {t('sidepanel.detail.tickers')}
        <input
          value={fields.tickers.join(', ')}
          onInput={(event) =>
            onChange({
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
        {t('sidepanel.detail.visibility')}
        <select
          value={fields.visibility}
          onChange={(event) =>
            onChange({ ...fields, visibility: event.currentTarget.value as EditFields['visibility'] })
          }
        >
          {VISIBILITIES.map((visibility) => (
            <option key={visibility} value={visibility}>
              {visibilityText(visibility)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="primary" {...props.offline}>
        {t('sidepanel.detail.save')}
      </button>
    </form>
  );
}

export function BacktestForm(props: {
  range: BacktestRange;
  onChange: (range: BacktestRange) => void;
  onSubmit: (range: { start: string; end: string; benchmark?: string }) => void;
  offline: OfflineProps;
}) {
  const { range, onChange } = props;
  return (
    <form
      class="stack"
      aria-label={t('sidepanel.detail.backtestForm')}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit({ start: range.start, end: range.end, benchmark: range.benchmark || undefined });
      }}
    >
      <h3>{t('sidepanel.detail.backtestHeading')}</h3>
      <div class="row">
        <label>
          {t('sidepanel.detail.start')}
          <input
            type="date"
            value={range.start}
            onInput={(e) => onChange({ ...range, start: e.currentTarget.value })}
          />
        </label>
        <label>
          {t('sidepanel.detail.end')}
          <input
            type="date"
            value={range.end}
            onInput={(e) => onChange({ ...range, end: e.currentTarget.value })}
          />
        </label>
        <label>
          {t('sidepanel.detail.benchmark')}
          <input
            value={range.benchmark}
            onInput={(e) => onChange({ ...range, benchmark: e.currentTarget.value })}
          />
        </label>
      </div>
      <button type="submit" {...props.offline}>
        {t('sidepanel.detail.runBacktest')}
      </button>
    </form>
  );
}

export function LiveSection(props: {
  active: boolean;
  onActivate: () => void;
  onPause: () => void;
  offline: OfflineProps;
}) {
  return (
    <section class="stack" aria-label={t('sidepanel.detail.live')}>
      <h3>{t('sidepanel.detail.live')}</h3>
      <p class="hint">{t('sidepanel.detail.liveHint')}</p>
      {props.active ? (
        <button type="button" onClick={props.onPause} {...props.offline}>
          {t('sidepanel.detail.pause')}
        </button>
      ) : (
        <button type="button" onClick={props.onActivate} {...props.offline}>
          {t('sidepanel.detail.activate')}
        </button>
      )}
    </section>
  );
}

export function UpgradeForm(props: {
  plans: string[];
  plan: string;
  onChange: (plan: string) => void;
  onSubmit: (plan: string) => void;
  offline: OfflineProps;
}) {
  return (
    <form
      class="row"
      aria-label={t('sidepanel.detail.upgradeForm')}
      onSubmit={(event) => {
        event.preventDefault();
        if (props.plan) props.onSubmit(props.plan);
      }}
    >
      <label>
        {t('sidepanel.detail.plan')}
        <select value={props.plan} onChange={(event) => props.onChange(event.currentTarget.value)}>
          {props.plans.map((name) => (
            <option key={name} value={name}>
              {planName(name)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" {...props.offline}>
        {t('sidepanel.detail.upgrade')}
      </button>
    </form>
  );
}
