// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppState } from '@/lib/messaging/protocol';
import { OptionsForm } from '@/lib/pages/options/OptionsForm';
import { apiPathUnder, followingApiUrl } from '@/lib/pages/options/apiUrlFollow';

afterEach(cleanup);

function renderForm(settings: Pick<AppState['settings'], 'serviceUrl' | 'apiUrl'>) {
  const onSave = vi.fn();
  const state: AppState = {
    version: '0.1.0',
    settings: { ...settings, pollMinutes: 5 },
    key: { set: true },
    hostAccess: { missingOrigins: [] },
  };
  render(
    <OptionsForm
      state={state}
      sites={{ builtIn: [], extra: [], onAdd: vi.fn(), onRemove: vi.fn() }}
      onSave={onSave}
      onRemoveKey={vi.fn()}
      onGrantAccess={vi.fn()}
      onTestConnection={vi.fn()}
    />,
  );
  return onSave;
}

const field = (name: string) => screen.getByRole<HTMLInputElement>('textbox', { name });
const type = (name: string, value: string) => fireEvent.input(field(name), { target: { value } });

describe('The API URL follows a changed service URL', () => {
  it('moves an API URL under the old service URL to the new one, and saves it so', () => {
    const onSave = renderForm({
      serviceUrl: 'http://127.0.0.1:8787',
      apiUrl: 'http://127.0.0.1:8787/api/v1',
    });
    type('Service URL', 'https://svc.example');
    expect(field('API URL').value).toBe('https://svc.example/api/v1');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ serviceUrl: 'https://svc.example', apiUrl: 'https://svc.example/api/v1' }),
    );
  });

  it('keeps the path discovery found under the service (a prefix of its own)', () => {
    renderForm({ serviceUrl: 'https://old.example/', apiUrl: 'https://old.example/gateway/v2' });
    type('Service URL', 'https://new.example');
    expect(field('API URL').value).toBe('https://new.example/gateway/v2');
  });

  it('suggests the conventional API URL when there was none', () => {
    renderForm({ serviceUrl: '', apiUrl: '' });
    type('Service URL', 'https://svc.example/');
    expect(field('API URL').value).toBe('https://svc.example/api/v1');
  });

  it('never changes an API URL on another origin', () => {
    renderForm({ serviceUrl: 'https://svc.example', apiUrl: 'https://api.svc.example/v1' });
    type('Service URL', 'https://other.example');
    expect(field('API URL').value).toBe('https://api.svc.example/v1');
  });

  it('never changes an API URL the user typed', () => {
    renderForm({ serviceUrl: 'https://svc.example', apiUrl: 'https://svc.example/api/v1' });
    type('API URL', 'https://svc.example/api/v2');
    type('Service URL', 'https://other.example');
    expect(field('API URL').value).toBe('https://svc.example/api/v2');
  });
});

describe('apiPathUnder', () => {
  it.each([
    ['https://svc.example', 'https://svc.example/api/v1', '/api/v1'],
    ['https://svc.example/', 'https://svc.example/api/v1', '/api/v1'],
    ['https://svc.example', 'https://svc.example', ''],
    ['https://svc.example', '', '/api/v1'],
    ['https://svc.example', '   ', '/api/v1'],
    // A longer host that merely starts with the service's is not under it.
    ['https://svc.example', 'https://svc.example.evil/api', undefined],
    ['https://svc.example', 'https://svc.examplefoo/api', undefined],
    ['https://svc.example', 'https://api.svc.example/v1', undefined],
    ['', 'https://api.example/v1', undefined],
  ])('service %j, API %j → %j', (service, api, path) => {
    expect(apiPathUnder(service, api)).toBe(path);
  });

  it.each([
    ['https://svc.example', '/api/v1', 'https://svc.example/api/v1'],
    ['https://svc.example///', '/api/v1', 'https://svc.example/api/v1'],
    ['', '/api/v1', ''],
    ['  ', '/api/v1', ''],
  ])('follows %j at %j → %j', (service, path, url) => {
    expect(followingApiUrl(service, path)).toBe(url);
  });
});
