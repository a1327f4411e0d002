// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OptionsForm } from '@/lib/pages/options/OptionsForm';
import { defaultSettingsFor } from '@/lib/store/settings';
import { STORE_MODE } from '@/lib/contract/buildMode';

afterEach(cleanup);

/** The options page as a fresh store install opens it: no service yet. */
function renderFirstRun() {
  const onSave = vi.fn();
  const onTestConnection = vi.fn();
  render(
    <OptionsForm
      state={{
        version: '0.1.0',
        settings: defaultSettingsFor(STORE_MODE),
        key: { set: false },
        hostAccess: { missingOrigins: [] },
      }}
      sites={{ builtIn: [], extra: [], onAdd: vi.fn(), onRemove: vi.fn() }}
      onSave={onSave}
      onRemoveKey={vi.fn()}
      onGrantAccess={vi.fn()}
      onTestConnection={onTestConnection}
    />,
  );
  return { onSave, onTestConnection };
}

describe('the first-run setup', () => {
  it('asks for the service, says nothing is sent before saving, and offers no connection test', () => {
    renderFirstRun();
    expect(screen.getByRole('heading', { level: 1, name: 'Set up Playbook Companion' })).toBeTruthy();
    expect(screen.getByText(/Nothing is sent to any service until you do\./)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Test connection' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('does not save without a service', () => {
    const { onSave } = renderFirstRun();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).not.toHaveBeenCalled();
  });
});
