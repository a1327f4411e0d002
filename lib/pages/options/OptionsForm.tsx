import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { AppState, ServiceOverview } from '@/lib/messaging/protocol';
import { isServiceConfigured } from '@/lib/store/settings';
import { serviceUrlProblem } from '@/lib/contract/origins';
import { urlProblemText } from '@/lib/i18n/problems';
import { Disclaimer } from '@/components/Disclaimer';
import { Welcome, type WelcomeProps } from './Welcome';
import { t, formatList, formatDateTime } from '@/lib/i18n';
import { ConnectionResult } from './ConnectionResult';
import { SitesSection, type SitesSectionProps } from './SitesSection';
import { REMINDER_LEADS, type QuietHours, type ReminderLead } from '@/lib/contract/wire';
import { LEAD_LABELS, leadOf, quietHoursOf, timeOf } from './reminderFields';

export interface OptionsSubmit {
  serviceUrl: string;
  apiUrl: string;
  /** Empty when the user left the key field alone. */
  apiKey: string;
  pollMinutes: number;
  reminderLead: ReminderLead;
  quietHours: QuietHours | null;
}

export interface Notice {
  kind: 'ok' | 'error';
  text: string;
}

export interface OptionsFormProps {
  state: AppState;
  busy?: boolean;
  message?: Notice;
  fieldErrors?: Record<string, string>;
  testing?: boolean;
  testResult?: ServiceOverview;
  testError?: string;
  sites: Omit<SitesSectionProps, 'busy'>;
  onSave: (values: OptionsSubmit) => void;
  onRemoveKey: () => void;
  onGrantAccess: (origins: string[]) => void;
  onTestConnection: () => void;
  /** Shown until a key is stored: the welcome, and the sandbox's address in a development build. */
  welcome?: WelcomeProps;
}

/** The key's hint: never a character of it; when it was saved, where the record says. */
function keyHint(key: AppState['key']): string {
  if (!key.set) return t('options.keyHintNone');
  const when = key.savedAt === undefined ? '' : formatDateTime(key.savedAt);
  return when ? t('options.keyHintStoredOn', { when }) : t('options.keyHintStored');
}

export function OptionsForm(props: OptionsFormProps) {
  const { state, busy, message } = props;
  const [serviceUrl, setServiceUrl] = useState(state.settings.serviceUrl);
  const [apiUrl, setApiUrl] = useState(state.settings.apiUrl);
  const [apiKey, setApiKey] = useState('');
  const [pollMinutes, setPollMinutes] = useState(String(state.settings.pollMinutes));
  const [reminderLead, setReminderLead] = useState(leadOf(state.settings.reminderLead));
  const [quietStart, setQuietStart] = useState(timeOf(state.settings.quietHours?.start));
  const [quietEnd, setQuietEnd] = useState(timeOf(state.settings.quietHours?.end));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const fieldErrors = { ...(props.fieldErrors ?? {}), ...localErrors };
  const missing = state.hostAccess.missingOrigins;
  const keyPage = `${state.settings.serviceUrl}/apikey`;
  // A fresh store install has no service: this page is its first-run setup until one is saved.
  const firstRun = !isServiceConfigured(state.settings);

  const submit = (event: Event) => {
    event.preventDefault();
    const errors: Record<string, string> = {};
    const serviceProblem = serviceUrlProblem(serviceUrl);
    if (serviceProblem) errors.serviceUrl = urlProblemText(serviceProblem);
    const apiProblem = serviceUrlProblem(apiUrl);
    if (apiProblem) errors.apiUrl = urlProblemText(apiProblem);
    const minutes = Number(pollMinutes);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 60)
      errors.pollMinutes = t('options.pollError');
    if (apiKey.trim() !== '' && apiKey.trim().length < 8) errors.key = t('options.keyTooShort');
    const quietHours = quietHoursOf(quietStart, quietEnd);
    if (quietHours === undefined) errors.quietStart = t('options.quietError');
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0 || quietHours === undefined) return;
    props.onSave({ serviceUrl, apiUrl, apiKey, pollMinutes: minutes, reminderLead, quietHours });
    setApiKey('');
  };

  /** A labelled field whose hint and error are described-by, not part of its name. */
  const field = (
    name: string,
    label: string,
    control: (aria: Record<string, unknown>) => JSX.Element,
    hint?: string,
  ) => {
    const described = [hint ? `${name}-hint` : '', fieldErrors[name] ? `${name}-error` : '']
      .filter(Boolean)
      .join(' ');
    return (
      <div class="field">
        <label for={`field-${name}`}>{label}</label>
        {control({
          id: `field-${name}`,
          'aria-invalid': fieldErrors[name] ? true : undefined,
          'aria-describedby': described || undefined,
        })}
        {hint ? (
          <span id={`${name}-hint`} class="hint">
            {hint}
          </span>
        ) : null}
        {fieldErrors[name] ? (
          <span id={`${name}-error`} class="error field-error">
            {fieldErrors[name]}
          </span>
        ) : null}
      </div>
    );
  };

  return (
    <main class="options">
      <header class="options-head">
        <h1>{firstRun ? t('options.setupHeading') : t('options.heading')}</h1>
        <p class="hint">{t('options.version', { version: state.version })}</p>
      </header>
      {firstRun ? (
        <p class="callout" role="status">
          {t('options.firstRun')}
        </p>
      ) : null}
      {props.welcome && !state.key.set ? <Welcome {...props.welcome} /> : null}

      <form class="card stack" onSubmit={submit} noValidate>
        <h2>{t('options.serviceHeading')}</h2>
        {state.insecureSettings ? (
          <p class="callout problem" role="alert">
            {state.insecureSettings.message}
          </p>
        ) : null}
        {field(
          'serviceUrl',
          t('options.serviceUrl'),
          (aria) => (
            <input
              type="url"
              required
              value={serviceUrl}
              onInput={(e) => setServiceUrl(e.currentTarget.value)}
              {...aria}
            />
          ),
          t('options.serviceUrlHint'),
        )}
        {field('apiUrl', t('options.apiUrl'), (aria) => (
          <input
            type="url"
            required
            value={apiUrl}
            onInput={(e) => setApiUrl(e.currentTarget.value)}
            {...aria}
          />
        ))}
        {field(
          'key',
          t('options.apiKey'),
          (aria) => (
            <input
              type="password"
              autocomplete="off"
              spellcheck={false}
              value={apiKey}
              placeholder={state.key.set ? t('options.keyPlaceholderStored') : t('options.keyPlaceholder')}
              onInput={(e) => setApiKey(e.currentTarget.value)}
              {...aria}
            />
          ),
          keyHint(state.key),
        )}
        <p class="row key-links">
          <a href={keyPage} target="_blank" rel="noreferrer">
            {t('options.createKey')}
          </a>
          <span class="hint">{t('options.createKeyAt', { url: keyPage })}</span>
        </p>
        <div class="narrow">
          {field('pollMinutes', t('options.pollMinutes'), (aria) => (
            <input
              type="number"
              min={1}
              max={60}
              step={1}
              value={pollMinutes}
              onInput={(e) => setPollMinutes(e.currentTarget.value)}
              {...aria}
            />
          ))}
          {field('reminderLead', t('options.reminderLead'), (aria) => (
            <select
              value={reminderLead}
              onChange={(e) => setReminderLead(leadOf(e.currentTarget.value))}
              {...aria}
            >
              {REMINDER_LEADS.map((lead) => (
                <option key={lead} value={lead}>
                  {t(LEAD_LABELS[lead])}
                </option>
              ))}
            </select>
          ))}
        </div>
        <fieldset class="narrow">
          <legend>{t('options.quietHours')}</legend>
          {field(
            'quietStart',
            t('options.quietStart'),
            (aria) => (
              <input
                type="time"
                value={quietStart}
                onInput={(e) => setQuietStart(e.currentTarget.value)}
                {...aria}
              />
            ),
            t('options.quietHint'),
          )}
          {field('quietEnd', t('options.quietEnd'), (aria) => (
            <input
              type="time"
              value={quietEnd}
              onInput={(e) => setQuietEnd(e.currentTarget.value)}
              {...aria}
            />
          ))}
        </fieldset>
        <div class="row">
          <button type="submit" class="primary" disabled={busy}>
            {t('options.save')}
          </button>
          {state.key.set ? (
            <button type="button" onClick={props.onRemoveKey} disabled={busy}>
              {t('options.removeKey')}
            </button>
          ) : null}
        </div>
        <p role="status" class={message?.kind === 'error' ? 'error' : 'ok'}>
          {message?.text ?? ''}
        </p>
      </form>

      {missing.length > 0 ? (
        <section class="card stack callout-warn" aria-labelledby="access-title">
          <h2 id="access-title">{t('options.accessHeading')}</h2>
          <p>{t('options.accessBody', { origins: formatList(missing) })}</p>
          <div>
            <button type="button" onClick={() => props.onGrantAccess(missing)}>
              {t('options.grantAccess')}
            </button>
          </div>
        </section>
      ) : null}

      {firstRun ? null : (
        <section class="card stack" aria-labelledby="test-title">
          <h2 id="test-title">{t('options.connectionHeading')}</h2>
          <p class="hint">{t('options.connectionHint')}</p>
          <div>
            <button type="button" onClick={props.onTestConnection} disabled={props.testing}>
              {t('options.testConnection')}
            </button>
          </div>
          <ConnectionResult testing={props.testing} result={props.testResult} error={props.testError} />
        </section>
      )}

      <SitesSection {...props.sites} busy={busy} />
      <Disclaimer />
    </main>
  );
}
