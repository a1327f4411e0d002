// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { AppState } from '@/lib/messaging/protocol';
import { OptionsPage } from '@/lib/pages/options/OptionsPage';
import { serveMessages, type StubHandlers } from '../support';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const state: AppState = {
  version: '0.1.0',
  settings: { serviceUrl: 'http://127.0.0.1:8787', apiUrl: 'http://127.0.0.1:8787/api/v1', pollMinutes: 5 },
  key: { set: false },
  hostAccess: { missingOrigins: [] },
};

/** The options page is the sender. */
const serveOptions = (handlers: StubHandlers) => serveMessages(handlers, '/options.html');

const account = {
  id: 'acct_1',
  name: 'Demo',
  email: 'demo@example.com',
  plan: 'pro',
  permissions: [],
  brokerage_linked: false,
};

const refused = {
  name: 'ApiError' as const,
  kind: 'unauthorized' as const,
  operationId: 'getAccount',
  message: 'getAccount failed after 1 attempt: 401',
  status: 401,
};

const input = (label: string) => screen.getByLabelText<HTMLInputElement>(label);

describe('OptionsPage', () => {
  it('asks for a custom origin inside the click, and Save does not wait on the prompt', async () => {
    // The prompt never answers: Save must still finish.
    const request = vi
      .spyOn(fakeBrowser.permissions, 'request')
      .mockReturnValue(new Promise(() => undefined));
    const worker = serveOptions({
      getState: () => state,
      listSites: () => ({ extra: [] }),
      saveSettings: (request) => ({
        ...state,
        settings: { ...state.settings, ...request },
        hostAccess: { missingOrigins: ['https://svc.example', 'https://api.svc.example'] },
      }),
      saveApiKey: () => ({ set: true, savedAt: Date.UTC(2026, 10, 2, 9, 30) }),
      testConnection: () => ({ account, deprecations: [] }),
    });
    render(<OptionsPage />);
    fireEvent.input(await screen.findByRole('textbox', { name: 'Service URL' }), {
      target: { value: 'https://svc.example' },
    });
    fireEvent.input(input('API URL'), { target: { value: 'https://api.svc.example/v1' } });
    fireEvent.input(input('API key'), { target: { value: 'pbk_live_0123456789WXYZ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // Synchronously, inside the click's user gesture.
    expect(request).toHaveBeenCalledWith({ origins: ['https://svc.example/*', 'https://api.svc.example/*'] });
    expect(
      await screen.findByText(
        'Saved. Everything cached from the previous service was cleared. The service accepted the key.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Grant access' })).toBeTruthy();
    expect(screen.getByText(/^A key saved on .*2026.* is stored\. Leave empty to keep it\.$/)).toBeTruthy();
    expect(document.body.textContent).not.toContain('WXYZ');
    expect(worker.received.find((m) => m.type === 'saveSettings')?.payload).toEqual({
      serviceUrl: 'https://svc.example',
      apiUrl: 'https://api.svc.example/v1',
      pollMinutes: 5,
      reminderLead: '1-day',
      quietHours: null,
    });
    // The key names the API URL just saved, so the worker binds it to nothing else.
    expect(worker.received.find((m) => m.type === 'saveApiKey')?.payload).toEqual({
      key: 'pbk_live_0123456789WXYZ',
      apiUrl: 'https://api.svc.example/v1',
    });
  });

  it('checks a new key at once and says right there that the service refused it', async () => {
    const worker = serveOptions({
      getState: () => state,
      listSites: () => ({ extra: [] }),
      saveSettings: () => state,
      saveApiKey: () => ({ set: true, savedAt: Date.UTC(2026, 10, 2, 9, 30) }),
      testConnection: () => ({ accountError: refused, deprecations: [] }),
    });
    render(<OptionsPage />);
    fireEvent.input(await screen.findByLabelText('API key'), { target: { value: 'pbk_wrong_0123456789' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const said = await screen.findByText(
      'This key was refused by the service: check that you copied all of it, then paste it again. Until then it stays stored.',
    );
    expect(said.className).toBe('error');
    expect(worker.received.map((m) => m.type)).toContain('testConnection');
    expect(document.body.textContent).not.toContain('0123456789');
  });

  it('says when a new key could not be checked, without calling it refused', async () => {
    serveOptions({
      getState: () => state,
      listSites: () => ({ extra: [] }),
      saveSettings: () => state,
      saveApiKey: () => ({ set: true, savedAt: Date.UTC(2026, 10, 2, 9, 30) }),
      testConnection: () => ({
        accountError: {
          ...refused,
          kind: 'network',
          message: 'The service could not be reached.',
          status: undefined,
        },
        deprecations: [],
      }),
    });
    render(<OptionsPage />);
    fireEvent.input(await screen.findByLabelText('API key'), { target: { value: 'pbk_live_0123456789' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const said = await screen.findByText(/^Saved\. The key could not be checked now: /);
    expect(said.className).toBe('ok');
  });

  it('does not prompt for the loopback sandbox, which the extension may always reach', async () => {
    const request = vi.spyOn(fakeBrowser.permissions, 'request');
    serveOptions({ getState: () => state, listSites: () => ({ extra: [] }), saveSettings: () => state });
    render(<OptionsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();
  });

  it('adds a finance site only after the browser grants it', async () => {
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
    const worker = serveOptions({
      getState: () => state,
      listSites: () => ({ extra: [] }),
      addSite: (request) => ({ extra: [request.site] }),
    });
    render(<OptionsPage />);
    fireEvent.input(await screen.findByLabelText('Site address'), { target: { value: 'news.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add site' }));
    expect(request).toHaveBeenCalledWith({ origins: ['https://news.example.com/*'] });
    expect(await screen.findByText('https://news.example.com/*')).toBeTruthy();
    expect(worker.received.find((m) => m.type === 'addSite')?.payload).toEqual({
      site: 'https://news.example.com/*',
    });
  });

  it('does not add a site the user refused', async () => {
    vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(false);
    const worker = serveOptions({ getState: () => state, listSites: () => ({ extra: [] }) });
    render(<OptionsPage />);
    fireEvent.input(await screen.findByLabelText('Site address'), { target: { value: 'news.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add site' }));
    expect(await screen.findByText('Access to news.example.com was not granted.')).toBeTruthy();
    expect(worker.received.some((m) => m.type === 'addSite')).toBe(false);
  });
});
