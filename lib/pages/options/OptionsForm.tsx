import type { AppState, ServiceOverview } from '@/lib/messaging/protocol';
import type { ErrorParts } from '@/lib/pages/errorText';
import { isServiceConfigured } from '@/lib/store/settings';
import { Disclaimer } from '@/components/Disclaimer';
import { Welcome, type WelcomeProps } from './Welcome';
import { Fragment } from 'preact';
import { t } from '@/lib/i18n';
import { Verbatim } from '@/components/ServiceText';
import { ConnectionResult } from './ConnectionResult';
import { SitesSection, type SitesSectionProps } from './SitesSection';
import { ProblemDetails } from '@/components/ProblemMessage';
import { ServiceFields } from './ServiceFields';
import { ScheduleFields } from './ScheduleFields';
import { useOptionsFields } from './useOptionsFields';

import type { OptionsSubmit } from './useOptionsFields';

export type { OptionsSubmit };

export interface Notice {
  kind: 'ok' | 'error';
  /** What happened, in the user's words. */
  text: string;
  /** A failure's technical record (operation, status, retries), under "Details". */
  details?: string;
}

export interface OptionsFormProps {
  state: AppState;
  busy?: boolean;
  message?: Notice;
  fieldErrors?: Record<string, string>;
  testing?: boolean;
  testResult?: ServiceOverview;
  testError?: ErrorParts;
  sites: Omit<SitesSectionProps, 'busy'>;
  onSave: (values: OptionsSubmit) => void;
  onRemoveKey: () => void;
  onGrantAccess: (origins: string[]) => void;
  onTestConnection: () => void;
  /** Shown until a key is stored: the welcome, and the sandbox's address in a development build. */
  welcome?: WelcomeProps;
}

export function OptionsForm(props: OptionsFormProps) {
  const { state, busy, message } = props;
  const fields = useOptionsFields(state, props.onSave);
  const errors = { ...(props.fieldErrors ?? {}), ...fields.localErrors };
  // A fresh store install has no service: this page is its first-run setup until one is saved.
  const firstRun = !isServiceConfigured(state.settings);

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

      <form class="card stack" onSubmit={fields.submit} noValidate>
        <h2>{t('options.serviceHeading')}</h2>
        {state.insecureSettings ? (
          <p class="callout problem" role="alert">
            {state.insecureSettings.message}
          </p>
        ) : null}
        <ServiceFields state={state} fields={fields} errors={errors} />
        <ScheduleFields fields={fields} errors={errors} />
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
        <ProblemDetails lines={[message?.details]} />
      </form>

      <AccessSection missing={state.hostAccess.missingOrigins} onGrant={props.onGrantAccess} />
      {firstRun ? null : <ConnectionSection {...props} />}
      <SitesSection {...props.sites} busy={busy} />
      <Disclaimer />
    </main>
  );
}

/** The origins the browser has not granted yet, and the button that asks. */
function AccessSection({ missing, onGrant }: { missing: string[]; onGrant: (origins: string[]) => void }) {
  if (missing.length === 0) return null;
  // Each origin left to right on its own, so "http://host/*" keeps its "/*" at its end in Arabic.
  const [before, after = ''] = t('options.accessBody').split('{origins}');
  const origins = missing.map((origin, index) => (
    <Fragment key={origin}>
      {index > 0 ? t('common.separator.list') : null}
      <Verbatim>{origin}</Verbatim>
    </Fragment>
  ));
  return (
    <section class="card stack callout-warn" aria-labelledby="access-title">
      <h2 id="access-title">{t('options.accessHeading')}</h2>
      <p>
        {before}
        {origins}
        {after}
      </p>
      <div>
        <button type="button" onClick={() => onGrant(missing)}>
          {t('options.grantAccess')}
        </button>
      </div>
    </section>
  );
}

/** "Test connection" and what it found. */
function ConnectionSection(
  props: Pick<OptionsFormProps, 'testing' | 'testResult' | 'testError' | 'onTestConnection'>,
) {
  return (
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
  );
}
