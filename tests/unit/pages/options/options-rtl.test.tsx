// @vitest-environment happy-dom
/**
 * The options page in Arabic: every address, origin, pattern and e-mail it shows is laid out left to
 * right on its own (a `dir="ltr"` element holding it whole), so an origin pattern keeps its trailing
 * wildcard path at its end and a key page keeps its path after its host.
 */
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OptionsForm } from '@/lib/pages/options/OptionsForm';
import { ConnectionResult } from '@/lib/pages/options/ConnectionResult';
import type { AppState, ServiceOverview } from '@/lib/messaging/protocol';
import { localizeDocument } from '@/lib/i18n';
import { useLocale } from '../../../fixtures/i18n';

afterEach(() => {
  cleanup();
  document.documentElement.removeAttribute('dir');
});

/** The `dir` of the innermost element holding exactly `text`. */
function directionOf(container: Element, text: string): string | null | undefined {
  const holders = [...container.querySelectorAll('*')].filter((element) => element.textContent === text);
  return holders.at(-1)?.closest('[dir]')?.getAttribute('dir');
}

const state: AppState = {
  version: '0.1.0',
  settings: { serviceUrl: 'https://svc.example', apiUrl: 'https://svc.example/api/v1', pollMinutes: 5 },
  key: { set: true },
  hostAccess: { missingOrigins: ['https://svc.example/*', 'https://cdn.svc.example/*'] },
};

describe('the options page in Arabic', () => {
  it('keeps the key page, the origins to allow and the extra sites left to right', () => {
    useLocale('ar');
    localizeDocument(document);
    const sites = {
      builtIn: ['Reuters'],
      extra: ['https://*.example.org/*'],
      onAdd: vi.fn(),
      onRemove: vi.fn(),
    };
    const handlers = {
      onSave: vi.fn(),
      onRemoveKey: vi.fn(),
      onGrantAccess: vi.fn(),
      onTestConnection: vi.fn(),
    };
    const { container } = render(<OptionsForm state={state} sites={sites} {...handlers} />);
    expect(directionOf(container, 'https://svc.example/apikey')).toBe('ltr');
    expect(directionOf(container, 'https://svc.example/*')).toBe('ltr');
    expect(directionOf(container, 'https://cdn.svc.example/*')).toBe('ltr');
    expect(directionOf(container, 'https://*.example.org/*')).toBe('ltr');
  });

  it("keeps the account's e-mail left to right and its name in its own direction", () => {
    useLocale('ar');
    localizeDocument(document);
    const result = {
      discovery: { documentsOk: 5, documentsFailed: 0, skillsVerified: 3, skillsFailed: 0 },
      status: { status: 'operational' },
      account: { name: 'Demo Investor', email: 'demo@example.com', plan: 'pro' },
    } as unknown as ServiceOverview;
    const { container } = render(<ConnectionResult result={result} />);
    expect(directionOf(container, 'demo@example.com')).toBe('ltr');
    expect(directionOf(container, 'Demo Investor')).toBe('auto');
  });
});
