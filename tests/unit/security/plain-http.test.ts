import { urlProblemText } from '@/lib/i18n/problems';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { readAppState } from '@/lib/background/state';
import { wireErrorOf } from '@/lib/background/errors';
import { fetchDiscoveryDocument } from '@/lib/discovery/fetchDocument';
import { connectMcp } from '@/lib/mcp/client';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import {
  INSECURE_SETTINGS_MESSAGE,
  InsecureServiceUrlError,
  serviceUrlProblem,
} from '@/lib/contract/origins';
import { clientFor, json, rejection } from '../api/support';
import { database } from '@/lib/store/db';

/** The key travels only over https, unless the host is this computer. */
const HTTPS_ONLY = 'Use https for a service that is not on this computer.';

describe('serviceUrlProblem', () => {
  it.each([
    ['https://svc.example.com', undefined],
    ['http://127.0.0.1:8787', undefined],
    ['http://127.255.10.3/api', undefined],
    ['http://localhost:8787', undefined],
    ['http://LOCALHOST:8787', undefined],
    ['http://[::1]:8787', undefined],
    ['http://svc.example.com', HTTPS_ONLY],
    ['http://128.0.0.1', HTTPS_ONLY],
    ['http://10.0.0.1', HTTPS_ONLY],
    ['http://127.0.0.1.evil.example', HTTPS_ONLY],
    ['http://localhost.evil.example', HTTPS_ONLY],
    ['http://[::2]', HTTPS_ONLY],
    ['http://0x7f000001', undefined],
    ['ftp://svc.example.com', 'Only http and https URLs work.'],
    ['https://user:pw@svc.example.com', 'Leave out any user name or password.'],
    ['svc.example.com', 'Enter a full URL, like https://example.com'],
    ['', 'Enter a URL.'],
  ])('%s → %s', (url, problem) => {
    const found = serviceUrlProblem(url);
    // The code, worded as the English locale says it.
    expect(found && urlProblemText(found)).toBe(problem);
  });
});

describe('settings saved by an older version over plain http', () => {
  beforeEach(async () => {
    await saveSettings(DEFAULT_SETTINGS);
    vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue({
      manifest_version: 3,
      name: 'x',
      version: '1.0.0',
    });
    vi.spyOn(fakeBrowser.permissions, 'contains').mockResolvedValue(true);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('are flagged in the state every page reads', async () => {
    const settings = {
      serviceUrl: 'http://example.com',
      apiUrl: 'http://example.com/api/v1',
      pollMinutes: 5,
    };
    await (await database()).put('settings', settings, 'settings');
    const state = await readAppState();
    expect(state.insecureSettings).toEqual({
      urls: ['http://example.com'],
      message: INSECURE_SETTINGS_MESSAGE,
    });
  });

  it('are not flagged when they follow the rule', async () => {
    expect((await readAppState()).insecureSettings).toBeUndefined();
  });

  it('cannot be saved again through the settings module', async () => {
    await expect(saveSettings({ apiUrl: 'http://example.com/api/v1' })).rejects.toBeInstanceOf(
      InsecureServiceUrlError,
    );
  });
});

describe('no request goes out to a plain-http, non-loopback URL', () => {
  it('the API client is not even built for such an API URL, and fetch is never called', () => {
    const fetch = vi.fn();
    const error = (() => {
      try {
        clientFor(() => json({}), { apiUrl: 'http://api.example.test/v1', fetch });
        return undefined;
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(InsecureServiceUrlError);
    expect(fetch).not.toHaveBeenCalled();
    expect(wireErrorOf(error)).toEqual({ code: 'settings.insecure', message: INSECURE_SETTINGS_MESSAGE });
  });

  it('discovery fails the document without fetching it', async () => {
    const fetch = vi.fn();
    const result = await fetchDiscoveryDocument('http://svc.example.com/llms.txt', 'text/plain', {
      fetch,
      now: () => 0,
      cache: { get: () => Promise.resolve(undefined), set: () => Promise.resolve() } as never,
    });
    expect(result).toMatchObject({ status: 'failed', error: INSECURE_SETTINGS_MESSAGE });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('the MCP client refuses the endpoint without connecting', async () => {
    const fetch = vi.fn();
    const error = await rejection(connectMcp('http://svc.example.com/mcp', { fetch }));
    expect(String((error as Error).message)).toContain('https');
    expect(fetch).not.toHaveBeenCalled();
  });
});
