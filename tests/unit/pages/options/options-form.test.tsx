// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OptionsForm, type OptionsFormProps } from '@/lib/pages/options/OptionsForm';
import type { AppState } from '@/lib/messaging/protocol';
import { formatDateTime } from '@/lib/i18n';

afterEach(cleanup);

const SECRET = 'pbk_live_0123456789abcdefWXYZ';

function appState(over: Partial<AppState> = {}): AppState {
  return {
    version: '0.1.0',
    settings: { serviceUrl: 'https://svc.example', apiUrl: 'https://api.svc.example/v1', pollMinutes: 5 },
    key: { set: true, savedAt: Date.UTC(2026, 10, 2, 9, 30) },
    hostAccess: { missingOrigins: [] },
    ...over,
  };
}

function renderForm(props: Partial<OptionsFormProps> = {}) {
  const handlers = {
    onSave: vi.fn(),
    onRemoveKey: vi.fn(),
    onGrantAccess: vi.fn(),
    onTestConnection: vi.fn(),
  };
  const sites = {
    builtIn: ['Yahoo Finance', 'Reuters'],
    extra: ['https://*.example.org/*'],
    onAdd: vi.fn(),
    onRemove: vi.fn(),
  };
  render(<OptionsForm state={appState()} sites={sites} {...handlers} {...props} />);
  return { ...handlers, sites };
}

const input = (name: string) => screen.getByLabelText<HTMLInputElement>(name);

describe('OptionsForm', () => {
  it('keeps the contract names and links Create an API key to {base_url}/apikey', () => {
    renderForm();
    expect(screen.getByRole('textbox', { name: 'Service URL' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'API URL' })).toBeTruthy();
    expect(input('API key').type).toBe('password');
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create an API key' }).getAttribute('href')).toBe(
      'https://svc.example/apikey',
    );
    expect(screen.getByText('Decision support, not financial advice.')).toBeTruthy();
  });

  it('shows whether a key is stored and when it was saved, never a character of it', () => {
    renderForm();
    expect(input('API key').value).toBe('');
    const saved = formatDateTime(Date.UTC(2026, 10, 2, 9, 30));
    expect(saved).toMatch(/2026/);
    expect(screen.getByText(`A key saved on ${saved} is stored. Leave empty to keep it.`)).toBeTruthy();
    expect(input('API key').placeholder).toBe('A key is stored');
    cleanup();
    // A record saved before the date was kept says only that a key is stored.
    renderForm({ state: appState({ key: { set: true } }) });
    expect(screen.getByText('A key is stored. Leave empty to keep it.')).toBeTruthy();
    cleanup();
    renderForm({ state: appState({ key: { set: false } }) });
    expect(screen.getByText('No key stored yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove key' })).toBeNull();
  });

  it('saves the typed values, then clears the key field so it is never echoed back', () => {
    const { onSave } = renderForm();
    fireEvent.input(input('API key'), { target: { value: SECRET } });
    fireEvent.input(input('Check for events every (minutes)'), { target: { value: '15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith({
      serviceUrl: 'https://svc.example',
      apiUrl: 'https://api.svc.example/v1',
      apiKey: SECRET,
      pollMinutes: 15,
      reminderLead: '1-day',
      quietHours: null,
    });
    expect(input('API key').value).toBe('');
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it.each([
    ['Service URL', 'not a url', 'Enter a full URL, like https://example.com'],
    ['API URL', 'http://api.svc.example', 'Use https for a service that is not on this computer.'],
    ['Check for events every (minutes)', '0', 'A whole number of minutes from 1 to 60.'],
    ['API key', 'short', 'That is too short to be an API key.'],
  ])('refuses %s = %j with a message tied to the field', (label, value, message) => {
    const { onSave } = renderForm();
    fireEvent.input(input(label), { target: { value } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).not.toHaveBeenCalled();
    const field = input(label);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const described = (field.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain(message);
  });

  it('shows server field errors from the background', () => {
    renderForm({ fieldErrors: { serviceUrl: 'Enter a full http(s) URL' } });
    expect(input('Service URL').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter a full http(s) URL')).toBeTruthy();
  });

  it('offers Grant access for origins the browser has not allowed', () => {
    const { onGrantAccess } = renderForm({
      state: appState({ hostAccess: { missingOrigins: ['https://svc.example'] } }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Grant access' }));
    expect(onGrantAccess).toHaveBeenCalledWith(['https://svc.example']);
  });

  it('Test connection reports discovery, the service and the account', () => {
    const { onTestConnection } = renderForm({
      testResult: {
        deprecations: [],
        discovery: {
          fetchedAt: '2026-03-01T00:00:00Z',
          documentsOk: 22,
          documentsFailed: 0,
          skillsVerified: 3,
          skillsFailed: 0,
          stale: false,
        },
        status: { status: 'operational', components: [], updated_at: '2026-03-01T00:00:00Z' },
        account: {
          id: 'u',
          name: 'Demo Investor',
          email: 'd@x.test',
          plan: 'pro',
          permissions: [],
          brokerage_linked: false,
        },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(onTestConnection).toHaveBeenCalledOnce();
    const result = screen.getByRole('status', { name: 'Connection test result' });
    expect(result.textContent).toContain('Connected.');
    expect(result.textContent).toContain('22 documents fetched, 0 failed');
    expect(result.textContent).toContain('Demo Investor (d@x.test) · Pro plan');
  });

  it('Test connection says when the key is rejected', () => {
    renderForm({
      testResult: {
        deprecations: [],
        accountError: {
          name: 'ApiError',
          kind: 'unauthorized',
          operationId: 'getAccount',
          message: 'getAccount needs a valid API key.',
        },
      },
    });
    const result = screen.getByRole('status', { name: 'Connection test result' });
    expect(result.textContent).toContain('Connected with problems.');
    expect(result.textContent).toContain('getAccount needs a valid API key.');
  });

  it('Test connection with the service out of reach says "Not connected", not "connected with problems"', () => {
    const unreachable = (operationId: string) => ({
      name: 'ApiError' as const,
      kind: 'network' as const,
      operationId,
      message: `${operationId} failed after 2 attempts: fetch failed`,
    });
    renderForm({
      testResult: {
        deprecations: [],
        // An earlier discovery's documents, from the cache.
        discovery: {
          fetchedAt: '2026-11-29T10:00:00Z',
          documentsOk: 22,
          documentsFailed: 0,
          skillsVerified: 3,
          skillsFailed: 0,
          stale: true,
        },
        statusError: unreachable('getStatus'),
        accountError: unreachable('getAccount'),
      },
    });
    const result = screen.getByRole('status', { name: 'Connection test result' });
    expect(result.textContent).toContain('Not connected');
    expect(result.textContent).not.toContain('Connected');
  });

  it('Test connection answered by a service in trouble (503) says so, not "check your connection"', () => {
    const troubled = (operationId: string) => ({
      name: 'ApiError' as const,
      kind: 'server' as const,
      status: 503,
      operationId,
      message: `${operationId} failed after 2 attempts: the service answered 503`,
    });
    renderForm({
      testResult: {
        deprecations: [],
        statusError: troubled('getStatus'),
        accountError: troubled('getAccount'),
      },
    });
    const result = screen.getByRole('status', { name: 'Connection test result' });
    expect(result.textContent).toContain('Connected with problems.');
    expect(result.textContent).toContain(
      'The service is having trouble right now. Try again in a little while.',
    );
    expect(result.textContent).not.toContain('connection');
  });

  it('lists the finance sites and adds or removes extra ones', () => {
    const { sites } = renderForm();
    expect(screen.getByText(/Yahoo Finance, Reuters/)).toBeTruthy();
    const extra = screen.getByRole('list', { name: 'Extra sites' });
    fireEvent.click(within(extra).getByRole('button', { name: 'Remove https://*.example.org/*' }));
    expect(sites.onRemove).toHaveBeenCalledWith('https://*.example.org/*');
    fireEvent.input(input('Site address'), { target: { value: 'news.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add site' }));
    expect(sites.onAdd).toHaveBeenCalledWith('news.example.com');
  });
});
