// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OptionsForm } from '@/lib/pages/options/OptionsForm';
import { PopupView } from '@/lib/pages/popup/PopupView';
import type { AppState } from '@/lib/messaging/protocol';
import { INSECURE_SETTINGS_MESSAGE } from '@/lib/contract/origins';

afterEach(cleanup);

const state: AppState = {
  version: '0.1.0',
  settings: { serviceUrl: 'http://example.com', apiUrl: 'http://example.com/api/v1', pollMinutes: 5 },
  key: { set: true, savedAt: Date.UTC(2026, 10, 2, 9, 30) },
  hostAccess: { missingOrigins: [] },
  insecureSettings: { urls: ['http://example.com'], message: INSECURE_SETTINGS_MESSAGE },
};

describe('saved settings over plain http', () => {
  it('the popup says so, with the way to Options', () => {
    render(
      <PopupView
        state={state}
        scope="mine"
        visibility="all"
        list={{ items: [], hasMore: false, loading: false, loadingMore: false }}
        optionsUrl="chrome-extension://x/options.html"
        now={0}
        onOpenSidePanel={vi.fn()}
        onOpenSetup={vi.fn()}
        onOpenPlaybook={vi.fn()}
        onScope={vi.fn()}
        onVisibility={vi.fn()}
        onLoadMore={vi.fn()}
        onRetry={vi.fn()}
        onRefreshStatus={vi.fn()}
        onReopenDraft={vi.fn()}
        onDiscardDraft={vi.fn()}
        onRetryDraft={vi.fn()}
      />,
    );
    const alert = screen.getAllByRole('alert').find((node) => node.textContent?.includes('plain http'));
    expect(alert?.textContent).toContain(INSECURE_SETTINGS_MESSAGE);
    expect(screen.getByRole('link', { name: 'Open Options' }).getAttribute('href')).toBe(
      'chrome-extension://x/options.html',
    );
  });

  it('the options page says so above the service fields', () => {
    render(
      <OptionsForm
        state={state}
        sites={{ builtIn: ['Yahoo Finance'], extra: [], onAdd: vi.fn(), onRemove: vi.fn() }}
        onSave={vi.fn()}
        onRemoveKey={vi.fn()}
        onGrantAccess={vi.fn()}
        onTestConnection={vi.fn()}
      />,
    );
    expect(screen.getAllByRole('alert').map((node) => node.textContent)).toContain(INSECURE_SETTINGS_MESSAGE);
  });
});
