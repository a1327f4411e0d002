import { useState } from 'preact/hooks';
import type { AppState } from '@/lib/messaging/protocol';
import { Disclaimer } from './Disclaimer';

export interface OptionsSubmit {
  serviceUrl: string;
  apiUrl: string;
  /** Empty when the user left the key field alone. */
  apiKey: string;
}

export interface OptionsFormProps {
  state: AppState;
  busy?: boolean;
  message?: { kind: 'ok' | 'error'; text: string };
  fieldErrors?: Record<string, string>;
  onSave: (values: OptionsSubmit) => void;
  onRemoveKey: () => void;
  onGrantAccess: (origins: string[]) => void;
}

export function OptionsForm({
  state,
  busy,
  message,
  fieldErrors = {},
  onSave,
  onRemoveKey,
  onGrantAccess,
}: OptionsFormProps) {
  const [serviceUrl, setServiceUrl] = useState(state.settings.serviceUrl);
  const [apiUrl, setApiUrl] = useState(state.settings.apiUrl);
  const [apiKey, setApiKey] = useState('');
  const missing = state.hostAccess.missingOrigins;

  return (
    <main class="stack options">
      <h1>Playbook companion settings</h1>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          onSave({ serviceUrl, apiUrl, apiKey });
          setApiKey('');
        }}
      >
        <label>
          Service URL
          <input
            type="url"
            required
            value={serviceUrl}
            onInput={(e) => setServiceUrl(e.currentTarget.value)}
            aria-invalid={fieldErrors.serviceUrl ? true : undefined}
          />
          {fieldErrors.serviceUrl ? <span class="error">{fieldErrors.serviceUrl}</span> : null}
        </label>
        <label>
          API URL
          <input
            type="url"
            required
            value={apiUrl}
            onInput={(e) => setApiUrl(e.currentTarget.value)}
            aria-invalid={fieldErrors.apiUrl ? true : undefined}
          />
          {fieldErrors.apiUrl ? <span class="error">{fieldErrors.apiUrl}</span> : null}
        </label>
        <label>
          API key
          <input
            type="password"
            autocomplete="off"
            value={apiKey}
            placeholder={
              state.key.set ? `Stored key ends in ${state.key.last4 ?? '????'}` : 'Paste your API key'
            }
            onInput={(e) => setApiKey(e.currentTarget.value)}
            aria-invalid={fieldErrors.key ? true : undefined}
          />
          <span class="hint">
            {state.key.set
              ? `A key ending in ${state.key.last4 ?? '????'} is stored. Leave empty to keep it.`
              : 'No key stored yet.'}
          </span>
          {fieldErrors.key ? <span class="error">{fieldErrors.key}</span> : null}
        </label>
        <p>
          <a href={`${state.settings.serviceUrl}/apikey`} target="_blank" rel="noreferrer">
            Create an API key
          </a>
        </p>
        <div class="row">
          <button type="submit" class="primary" disabled={busy}>
            Save
          </button>
          {state.key.set ? (
            <button type="button" onClick={onRemoveKey} disabled={busy}>
              Remove key
            </button>
          ) : null}
        </div>
        <p role="status" class={message?.kind === 'error' ? 'error' : 'ok'}>
          {message?.text ?? ''}
        </p>
      </form>
      {missing.length > 0 ? (
        <section class="stack" aria-label="Access">
          <p class="warn">The browser has not yet allowed the extension to reach {missing.join(', ')}.</p>
          <div>
            <button type="button" onClick={() => onGrantAccess(missing)}>
              Grant access
            </button>
          </div>
        </section>
      ) : null}
      <Disclaimer />
    </main>
  );
}
