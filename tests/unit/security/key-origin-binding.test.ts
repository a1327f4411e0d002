import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/api';
import { forgetSecrets } from '@/lib/log';
import { loadApiKey, removeApiKey, storeApiKey } from '@/lib/store/apiKey';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import {
  API_ORIGIN,
  API_URL,
  SENTINEL_KEY,
  SITE_URL,
  account,
  clientFor,
  json,
  rejection,
} from '../api/support';

/**
 * A key is bound to the API origin it was saved for. A client the worker built for the old API
 * URL (a walk, a stream, a write still in flight) must not be handed the key the user saves for
 * a new one, or it would send that key to the old origin.
 */
afterEach(() => forgetSecrets());

describe('a client built for one API origin, after the key of another was saved', () => {
  const OTHER_URL = 'https://api.other.test/v1';
  const OTHER_KEY = 'pbk_other_service_key_77aa99cc';

  beforeEach(async () => {
    await removeApiKey();
    await saveSettings(DEFAULT_SETTINGS);
  });

  it('never sends the new key to the old origin', async () => {
    // The worker built (and still holds) a client for API_URL: a walk, a stream, a write in flight.
    await saveSettings({ serviceUrl: SITE_URL, apiUrl: API_URL });
    await storeApiKey(SENTINEL_KEY);
    const { client, requests } = clientFor(() => json(account), {
      getApiKey: loadApiKey,
      backoff: { maxAttempts: 1 },
    });
    await client.call('getAccount');
    expect(requests[0]?.headers.authorization).toBe(`Bearer ${SENTINEL_KEY}`);

    // Meanwhile the user points the settings at another service and saves that service's key.
    await saveSettings({ serviceUrl: 'https://www.other.test', apiUrl: OTHER_URL });
    await storeApiKey(OTHER_KEY);
    expect(await loadApiKey()).toBe(OTHER_KEY);

    const error = await rejection(client.call('getAccount'));
    expect(isApiError(error) && error.kind).toBe('unauthorized');
    for (const request of requests) {
      expect(request.origin).toBe(API_ORIGIN);
      expect(JSON.stringify(request)).not.toContain(OTHER_KEY);
    }
  });
});
