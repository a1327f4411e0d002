import { t } from '@/lib/i18n';
import { REMINDER_LEADS } from '@/lib/contract/wire';
import { Field } from './Field';
import { LEAD_LABELS, leadOf } from './reminderFields';
import type { OptionsFields } from './useOptionsFields';

/** When the extension looks and reminds: the polling interval, the reminder lead and quiet hours. */
export function ScheduleFields({
  fields,
  errors,
}: {
  fields: OptionsFields;
  errors: Record<string, string>;
}) {
  return (
    <>
      <div class="narrow">
        <Field name="pollMinutes" label={t('options.pollMinutes')} error={errors.pollMinutes}>
          {(aria) => (
            <input
              type="number"
              min={1}
              max={60}
              step={1}
              value={fields.pollMinutes}
              onInput={(e) => fields.setPollMinutes(e.currentTarget.value)}
              {...aria}
            />
          )}
        </Field>
        <Field name="reminderLead" label={t('options.reminderLead')} error={errors.reminderLead}>
          {(aria) => (
            <select
              value={fields.reminderLead}
              onChange={(e) => fields.setReminderLead(leadOf(e.currentTarget.value))}
              {...aria}
            >
              {REMINDER_LEADS.map((lead) => (
                <option key={lead} value={lead}>
                  {t(LEAD_LABELS[lead])}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <fieldset class="narrow">
        <legend>{t('options.quietHours')}</legend>
        <Field
          name="quietStart"
          label={t('options.quietStart')}
          hint={t('options.quietHint')}
          error={errors.quietStart}
        >
          {(aria) => (
            <input
              type="time"
              value={fields.quietStart}
              onInput={(e) => fields.setQuietStart(e.currentTarget.value)}
              {...aria}
            />
          )}
        </Field>
        <Field name="quietEnd" label={t('options.quietEnd')} error={errors.quietEnd}>
          {(aria) => (
            <input
              type="time"
              value={fields.quietEnd}
              onInput={(e) => fields.setQuietEnd(e.currentTarget.value)}
              {...aria}
            />
          )}
        </Field>
      </fieldset>
    </>
  );
}
