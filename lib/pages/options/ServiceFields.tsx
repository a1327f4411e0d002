import type { AppState } from '@/lib/messaging/protocol';
import { formatDateTime, t } from '@/lib/i18n';
import { Field } from './Field';
import { isolatedMessage } from '@/components/ServiceText';
import type { OptionsFields } from './useOptionsFields';

/** The key's hint: never a character of it; when it was saved, where the record says. */
function keyHint(key: AppState['key']): string {
  if (!key.set) return t('options.keyHintNone');
  const when = key.savedAt === undefined ? '' : formatDateTime(key.savedAt);
  return when ? t('options.keyHintStoredOn', { when }) : t('options.keyHintStored');
}

/** Where the service is and the key to it: the service URL, the API URL, the key and where to get one. */
export function ServiceFields({
  state,
  fields,
  errors,
}: {
  state: AppState;
  fields: OptionsFields;
  errors: Record<string, string>;
}) {
  const keyPage = `${state.settings.serviceUrl}/apikey`;
  return (
    <>
      <Field
        name="serviceUrl"
        label={t('options.serviceUrl')}
        hint={t('options.serviceUrlHint')}
        error={errors.serviceUrl}
      >
        {(aria) => (
          <input
            type="url"
            required
            value={fields.serviceUrl}
            onInput={(e) => fields.setServiceUrl(e.currentTarget.value)}
            {...aria}
          />
        )}
      </Field>
      <Field name="apiUrl" label={t('options.apiUrl')} error={errors.apiUrl}>
        {(aria) => (
          <input
            type="url"
            required
            value={fields.apiUrl}
            onInput={(e) => fields.setApiUrl(e.currentTarget.value)}
            {...aria}
          />
        )}
      </Field>
      <Field name="key" label={t('options.apiKey')} hint={keyHint(state.key)} error={errors.key}>
        {(aria) => (
          <input
            type="password"
            autocomplete="off"
            spellcheck={false}
            value={fields.apiKey}
            placeholder={state.key.set ? t('options.keyPlaceholderStored') : t('options.keyPlaceholder')}
            onInput={(e) => fields.setApiKey(e.currentTarget.value)}
            {...aria}
          />
        )}
      </Field>
      <p class="row key-links">
        <a href={keyPage} target="_blank" rel="noreferrer">
          {t('options.createKey')}
        </a>
        <span class="hint">{isolatedMessage(t('options.createKeyAt'), { url: keyPage }, ['url'])}</span>
      </p>
    </>
  );
}
