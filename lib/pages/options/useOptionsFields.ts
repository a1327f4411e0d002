import { useState } from 'preact/hooks';
import type { AppState } from '@/lib/messaging/protocol';
import { serviceUrlProblem } from '@/lib/contract/origins';
import { urlProblemText } from '@/lib/i18n/problems';
import { t } from '@/lib/i18n';
import type { QuietHours, ReminderLead } from '@/lib/contract/wire';
import { leadOf, quietHoursOf, timeOf } from './reminderFields';
import { apiPathUnder, followingApiUrl } from './apiUrlFollow';

export interface OptionsSubmit {
  serviceUrl: string;
  apiUrl: string;
  /** Empty when the user left the key field alone. */
  apiKey: string;
  pollMinutes: number;
  reminderLead: ReminderLead;
  quietHours: QuietHours | null;
}

/**
 * The service and API URL fields. The API URL follows the service URL while it is empty or lies
 * under it (the default `/api/v1`, or the path discovery found there): a changed service URL, once
 * it is a usable address, then moves it along. Once the user types an API URL, or it lies elsewhere, it is theirs and stays.
 */
function useServiceUrls(settings: AppState['settings']) {
  const [serviceUrl, setServiceUrlOnly] = useState(settings.serviceUrl);
  const [apiUrl, setApiUrlOnly] = useState(settings.apiUrl);
  const [apiPath, setApiPath] = useState(() => apiPathUnder(settings.serviceUrl, settings.apiUrl));
  const setServiceUrl = (value: string) => {
    setServiceUrlOnly(value);
    // Only to a usable address: a half-typed or refused one leaves the API URL as it was.
    if (apiPath !== undefined && !serviceUrlProblem(value)) setApiUrlOnly(followingApiUrl(value, apiPath));
  };
  const setApiUrl = (value: string) => {
    setApiUrlOnly(value);
    setApiPath(undefined);
  };
  return { serviceUrl, setServiceUrl, apiUrl, setApiUrl };
}

/** The form's fields as typed, and Submit: checked here first, then handed to `onSave`. */
export function useOptionsFields(state: AppState, onSave: (values: OptionsSubmit) => void) {
  const settings = state.settings;
  const urls = useServiceUrls(settings);
  const [apiKey, setApiKey] = useState('');
  const [pollMinutes, setPollMinutes] = useState(String(settings.pollMinutes));
  const [reminderLead, setReminderLead] = useState(leadOf(settings.reminderLead));
  const [quietStart, setQuietStart] = useState(timeOf(settings.quietHours?.start));
  const [quietEnd, setQuietEnd] = useState(timeOf(settings.quietHours?.end));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const { serviceUrl, apiUrl } = urls;

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
    onSave({ serviceUrl, apiUrl, apiKey, pollMinutes: minutes, reminderLead, quietHours });
    setApiKey('');
  };

  return {
    ...urls,
    apiKey,
    setApiKey,
    pollMinutes,
    setPollMinutes,
    reminderLead,
    setReminderLead,
    quietStart,
    setQuietStart,
    quietEnd,
    setQuietEnd,
    localErrors,
    submit,
  };
}

export type OptionsFields = ReturnType<typeof useOptionsFields>;
