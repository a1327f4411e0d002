import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { OptionsForm, type Notice, type OptionsSubmit } from './OptionsForm';
import { originsNeedingAccess } from './accessOrigins';
import { FINANCE_SITES, parseSitePattern } from '@/lib/finance/sites';
import { siteProblemText } from '@/lib/i18n/problems';
import { t } from '@/lib/i18n';
import { log } from '@/lib/log';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { apiCode, meaningOf } from '@/lib/messaging/errors';
import type { AppState, ServiceOverview } from '@/lib/messaging/protocol';
import { useAsync } from '@/lib/pages/useAsync';
import { errorText } from '@/lib/pages/errorText';
import { hostAccessPattern } from '@/lib/contract/origins';
import { DEFAULT_SETTINGS } from '@/lib/store/settings';

const BUILT_IN_SITES = FINANCE_SITES.map((site) => site.name);

/** Asks for host access inside the click; Save never waits on the prompt (CONTRACT.md §4). */
function requestAccess(origins: string[]): Promise<boolean> {
  if (origins.length === 0) return Promise.resolve(true);
  return browser.permissions
    .request({ origins: origins.map((origin) => hostAccessPattern(origin)) })
    .catch((error: unknown) => {
      log.warn('options.permission-request-failed', { error: errorText(error) });
      return false;
    });
}

/** What Save says of a key it just stored, from the account read that followed. */
export function keyNotice(saved: string, overview: ServiceOverview): Notice {
  if (overview.account) return { kind: 'ok', text: t('options.keyAccepted', { saved }) };
  // The error table says what a kind means: "fix the account" is a key the service refused.
  if (overview.accountError && meaningOf(apiCode(overview.accountError.kind)).next === 'fix-account')
    return { kind: 'error', text: t('options.keyRefused') };
  return { kind: 'ok', text: t('options.keyUnchecked', { saved }) };
}

export function OptionsPage() {
  const loaded = useAsync(() => sendMessage('getState', {}));
  const [state, setState] = useState<AppState>();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Notice>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [testing, setTesting] = useState(false);
  const [testResult, setTestResult] = useState<ServiceOverview>();
  const [testError, setTestError] = useState<string>();
  const [extraSites, setExtraSites] = useState<string[]>([]);
  const [siteError, setSiteError] = useState<string>();
  const current = state ?? loaded.value;

  useEffect(() => {
    sendMessage('listSites', {}).then(
      ({ extra }) => setExtraSites(extra),
      (error: unknown) => setSiteError(errorText(error)),
    );
  }, []);

  if (!current)
    return (
      <main class="options">
        {loaded.error ? <p class="error">{loaded.error}</p> : <p class="hint">{t('options.loading')}</p>}
      </main>
    );

  const run = async (
    action: () => Promise<AppState>,
    done: (next: AppState) => string | Notice | Promise<Notice>,
  ) => {
    setBusy(true);
    setFieldErrors({});
    // No stale "Saved." while the next action runs.
    setMessage(undefined);
    try {
      const next = await action();
      setState(next);
      const notice = await done(next);
      setMessage(typeof notice === 'string' ? { kind: 'ok', text: notice } : notice);
    } catch (error) {
      if (error instanceof MessageError && error.wire.fields) setFieldErrors(error.wire.fields);
      setMessage({ kind: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  const save = ({ serviceUrl, apiUrl, apiKey, pollMinutes, reminderLead, quietHours }: OptionsSubmit) => {
    const access = requestAccess(originsNeedingAccess([serviceUrl, apiUrl]));
    const before = current.settings;
    void run(
      async () => {
        let next = await sendMessage('saveSettings', {
          serviceUrl,
          apiUrl,
          pollMinutes,
          reminderLead,
          quietHours,
        });
        // The key goes with the API URL just saved: should another window change it meanwhile,
        // the worker stores nothing rather than bind the key to a service the user did not see.
        if (apiKey.trim())
          next = {
            ...next,
            key: await sendMessage('saveApiKey', { key: apiKey.trim(), apiUrl: next.settings.apiUrl }),
          };
        // The prompt may still be open; once it settles, show the access it left.
        access
          .then(
            () => sendMessage('getState', {}).then(setState),
            () => undefined,
          )
          .catch((error: unknown) => log.warn('options.state-refresh-failed', { error: errorText(error) }));
        return next;
      },
      async (next) => {
        const saved =
          next.settings.serviceUrl !== before.serviceUrl || next.settings.apiUrl !== before.apiUrl
            ? t('options.savedCleared')
            : t('options.saved');
        return apiKey.trim() ? checkSavedKey(saved) : { kind: 'ok', text: saved };
      },
    );
  };

  // A new key is asked about at once (getAccount, through "Test connection"): a refused key is said
  // here, where it was typed, not later in the popup beside an empty list. One status line: the
  // earlier test's result, about another key, goes.
  const checkSavedKey = async (saved: string): Promise<Notice> => {
    setTestResult(undefined);
    setTestError(undefined);
    try {
      return keyNotice(saved, await sendMessage('testConnection', {}));
    } catch (error) {
      log.warn('options.key-check-failed', { error: errorText(error) });
      return { kind: 'ok', text: t('options.keyUnchecked', { saved }) };
    }
  };

  const addSite = (input: string) => {
    setSiteError(undefined);
    const parsed = parseSitePattern(input);
    if (!parsed.ok) {
      setSiteError(siteProblemText(parsed.problem, parsed.input));
      return;
    }
    // Called inside the click: the permission prompt needs the user gesture.
    const granted = browser.permissions.request({ origins: [parsed.pattern] });
    setBusy(true);
    granted
      .then((ok) => {
        if (!ok)
          throw new MessageError({
            code: 'site.permission-denied',
            message: t('options.siteDenied', { host: parsed.host }),
          });
        return sendMessage('addSite', { site: parsed.pattern });
      })
      .then(({ extra }) => setExtraSites(extra))
      .catch((error: unknown) => setSiteError(errorText(error)))
      .finally(() => setBusy(false));
  };

  const removeSite = (pattern: string) => {
    setBusy(true);
    sendMessage('removeSite', { site: pattern })
      .then(({ extra }) => setExtraSites(extra))
      .catch((error: unknown) => setSiteError(errorText(error)))
      .finally(() => setBusy(false));
  };

  const testConnection = () => {
    setTesting(true);
    setTestError(undefined);
    sendMessage('testConnection', {})
      .then(setTestResult, (error: unknown) => {
        setTestResult(undefined);
        setTestError(errorText(error));
      })
      .finally(() => setTesting(false));
  };

  return (
    <OptionsForm
      state={current}
      busy={busy}
      message={message}
      fieldErrors={fieldErrors}
      testing={testing}
      testResult={testResult}
      testError={testError}
      sites={{
        builtIn: BUILT_IN_SITES,
        extra: extraSites,
        error: siteError,
        onAdd: addSite,
        onRemove: removeSite,
      }}
      onSave={save}
      // The development build's default service is the sandbox: the welcome says how to try it.
      welcome={{ demoService: DEFAULT_SETTINGS.serviceUrl || undefined }}
      onRemoveKey={() =>
        void run(
          async () => ({ ...current, key: await sendMessage('removeApiKey', {}) }),
          () => t('options.keyRemoved'),
        )
      }
      onGrantAccess={(origins) => {
        const access = requestAccess(origins);
        void run(
          async () => {
            if (!(await access))
              throw new MessageError({ code: 'site.permission-denied', message: t('options.accessDenied') });
            return sendMessage('getState', {});
          },
          () => t('options.accessGranted'),
        );
      }}
      onTestConnection={testConnection}
    />
  );
}
