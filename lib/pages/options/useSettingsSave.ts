import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import type { Notice, OptionsSubmit } from './OptionsForm';
import { originsNeedingAccess } from './accessOrigins';
import type { ConnectionTest } from './useConnectionTest';
import { t } from '@/lib/i18n';
import { log } from '@/lib/log';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { apiCode, meaningOf } from '@/lib/messaging/errors';
import type { AppState, ServiceOverview } from '@/lib/messaging/protocol';
import { errorParts, errorText } from '@/lib/pages/errorText';
import { hostAccessPattern } from '@/lib/contract/origins';

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

/** Whether the account read that followed a saved key says the service refused it. */
export function keyRefused(overview: ServiceOverview): boolean {
  // The error table says what a kind means: "fix the account" is a key the service refused.
  return (
    overview.account === undefined &&
    overview.accountError !== undefined &&
    meaningOf(apiCode(overview.accountError.kind)).next === 'fix-account'
  );
}

/** What Save says of a key it just stored: a refusal alone (never after "Saved."), else the save and the check. */
export function keyNotice(overview: ServiceOverview | undefined, saved: string): Notice {
  if (overview && keyRefused(overview)) return { kind: 'error', text: t('options.keyRefused') };
  return {
    kind: 'ok',
    text: overview?.account ? t('options.keyAccepted', { saved }) : t('options.keyUnchecked', { saved }),
  };
}

export interface SettingsSave {
  busy: boolean;
  message?: Notice;
  fieldErrors: Record<string, string>;
  save: (values: OptionsSubmit) => void;
  removeKey: () => void;
  grantAccess: (origins: string[]) => void;
}

type Done = (next: AppState) => string | Notice | Promise<Notice>;

/** Runs one action at a time and says how it went on the form's one status line. */
function useStatusLine() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Notice>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const run = async (action: () => Promise<AppState>, setState: (next: AppState) => void, done: Done) => {
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
      // The service's failure in the user's words; the operation and its retries under Details.
      const parts = errorParts(error);
      setMessage({ kind: 'error', text: parts.message, details: parts.details });
    } finally {
      setBusy(false);
    }
  };
  return { busy, message, fieldErrors, run };
}

/** Saving the settings and the key, removing the key, granting host access: one status line for all. */
export function useSettingsSave(
  current: AppState,
  setState: (next: AppState) => void,
  connection: ConnectionTest,
): SettingsSave {
  const { run: runWith, ...status } = useStatusLine();
  const run = (action: () => Promise<AppState>, done: Done) => runWith(action, setState, done);

  // A new key is asked about at once (getAccount, through "Test connection"): a refused key is said
  // here, where it was typed, not later in the popup beside an empty list. One status line: the
  // earlier test's result, about another key, goes.
  const checkSavedKey = async (saved: string): Promise<Notice> => {
    connection.clear();
    const overview = await sendMessage('testConnection', {}).catch((error: unknown) => {
      log.warn('options.key-check-failed', { error: errorText(error) });
      return undefined;
    });
    return keyNotice(overview, saved);
  };

  const save = ({ serviceUrl, apiUrl, apiKey, pollMinutes, reminderLead, quietHours }: OptionsSubmit) => {
    const access = requestAccess(originsNeedingAccess([serviceUrl, apiUrl]));
    const before = current.settings;
    const key = apiKey.trim();
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
        if (key)
          next = { ...next, key: await sendMessage('saveApiKey', { key, apiUrl: next.settings.apiUrl }) };
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
        return key ? checkSavedKey(saved) : { kind: 'ok', text: saved };
      },
    );
  };

  const removeKey = () =>
    void run(
      async () => ({ ...current, key: await sendMessage('removeApiKey', {}) }),
      () => t('options.keyRemoved'),
    );

  const grantAccess = (origins: string[]) => {
    const access = requestAccess(origins);
    void run(
      async () => {
        if (!(await access))
          throw new MessageError({ code: 'site.permission-denied', message: t('options.accessDenied') });
        return sendMessage('getState', {});
      },
      () => t('options.accessGranted'),
    );
  };

  return { ...status, save, removeKey, grantAccess };
}
