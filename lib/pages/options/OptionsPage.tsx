import { useState } from 'preact/hooks';
import { OptionsForm } from './OptionsForm';
import { useConnectionTest } from './useConnectionTest';
import { useSettingsSave } from './useSettingsSave';
import { useSites } from './useSites';
import { t } from '@/lib/i18n';
import { sendMessage } from '@/lib/messaging/client';
import type { AppState } from '@/lib/messaging/protocol';
import { useAsync } from '@/lib/pages/useAsync';
import { DEFAULT_SETTINGS } from '@/lib/store/settings';

/** The options page's controller: loads the settings, saves them, tests the connection, edits the sites. */
export function OptionsPage() {
  const loaded = useAsync(() => sendMessage('getState', {}));
  const [state, setState] = useState<AppState>();
  const current = state ?? loaded.value;
  const connection = useConnectionTest();
  const sites = useSites();
  if (!current)
    return (
      <main class="options">
        {loaded.error ? <p class="error">{loaded.error}</p> : <p class="hint">{t('options.loading')}</p>}
      </main>
    );
  return <LoadedOptions current={current} setState={setState} connection={connection} sites={sites} />;
}

function LoadedOptions({
  current,
  setState,
  connection,
  sites,
}: {
  current: AppState;
  setState: (next: AppState) => void;
  connection: ReturnType<typeof useConnectionTest>;
  sites: ReturnType<typeof useSites>;
}) {
  const saving = useSettingsSave(current, setState, connection);
  const { busy: sitesBusy, ...sitesProps } = sites;
  const busy = saving.busy || sitesBusy;
  return (
    <OptionsForm
      state={current}
      busy={busy}
      message={saving.message}
      fieldErrors={saving.fieldErrors}
      testing={connection.testing}
      testResult={connection.result}
      testError={connection.error}
      sites={sitesProps}
      onSave={saving.save}
      // The development build's default service is the sandbox: the welcome says how to try it.
      welcome={{ demoService: DEFAULT_SETTINGS.serviceUrl || undefined }}
      onRemoveKey={saving.removeKey}
      onGrantAccess={saving.grantAccess}
      onTestConnection={connection.test}
    />
  );
}
