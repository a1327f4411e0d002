import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { OptionsForm, type OptionsSubmit } from '@/components/OptionsForm';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import type { AppState } from '@/lib/messaging/protocol';
import { errorText, useAsync } from './useAsync';

export function OptionsPage() {
  const loaded = useAsync(() => sendMessage('getState', {}));
  const [state, setState] = useState<AppState>();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const current = state ?? loaded.value;

  if (!current)
    return <main>{loaded.error ? <p class="error">{loaded.error}</p> : <p>Loading settings…</p>}</main>;

  const run = async (action: () => Promise<AppState>, done: string) => {
    setBusy(true);
    setFieldErrors({});
    try {
      setState(await action());
      setMessage({ kind: 'ok', text: done });
    } catch (error) {
      if (error instanceof MessageError && error.wire.fields) setFieldErrors(error.wire.fields);
      setMessage({ kind: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  const save = ({ serviceUrl, apiUrl, apiKey }: OptionsSubmit) =>
    run(async () => {
      // Saving stores at once; access to a custom origin is granted separately (a user gesture).
      let next = await sendMessage('saveSettings', { serviceUrl, apiUrl });
      if (apiKey.trim()) next = { ...next, key: await sendMessage('saveApiKey', { key: apiKey }) };
      return next;
    }, 'Saved.');

  return (
    <OptionsForm
      state={current}
      busy={busy}
      message={message}
      fieldErrors={fieldErrors}
      onSave={(values) => void save(values)}
      onRemoveKey={() =>
        void run(async () => ({ ...current, key: await sendMessage('removeApiKey', {}) }), 'Key removed.')
      }
      onGrantAccess={(origins) =>
        void run(async () => {
          const granted = await browser.permissions.request({
            origins: origins.map((origin) => `${origin}/*`),
          });
          if (!granted)
            throw new MessageError({ code: 'permission-denied', message: 'Access was not granted.' });
          return sendMessage('getState', {});
        }, 'Access granted.')
      }
    />
  );
}
