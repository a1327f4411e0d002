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
      welcome={{}}
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

  it('welcomes a new user: what it does, the service and the key, on a page that says it is not advice', () => {
    renderFirstRun();
    const welcome = screen.getByRole('region', { name: 'Welcome to Playbook Companion' });
    expect(welcome.textContent).toMatch(/brings your AI investing agent service into the browser/);
    expect(welcome.querySelectorAll('li')).toHaveLength(2);
    // The page's one disclaimer (components/Disclaimer), not a second copy in the welcome.
    expect(screen.getAllByText('Decision support, not financial advice.')).toHaveLength(1);
    // The store build has no sandbox to point at.
    expect(welcome.textContent).not.toContain('npm start');
  });
});

describe('the welcome of a development build', () => {
  const state = {
    version: '0.1.0',
    settings: { serviceUrl: 'http://127.0.0.1:8787', apiUrl: 'http://127.0.0.1:8787/api/v1', pollMinutes: 5 },
    hostAccess: { missingOrigins: [] },
  };
  const form = (key: { set: boolean }) => (
    <OptionsForm
      state={{ ...state, key }}
      sites={{ builtIn: [], extra: [], onAdd: vi.fn(), onRemove: vi.fn() }}
      onSave={vi.fn()}
      onRemoveKey={vi.fn()}
      onGrantAccess={vi.fn()}
      onTestConnection={vi.fn()}
      welcome={{ demoService: 'http://127.0.0.1:8787' }}
    />
  );

  it('names the sandbox, its demo key file and a demo page, until a key is stored', () => {
    const { rerender } = render(form({ set: false }));
    const welcome = screen.getByRole('region', { name: 'Welcome to Playbook Companion' });
    expect(welcome.textContent).toContain('http://127.0.0.1:8787/demo/quote/AAPL');
    expect(welcome.textContent).toContain('.sandbox/demo-key');
    rerender(form({ set: true }));
    expect(screen.queryByRole('region', { name: 'Welcome to Playbook Companion' })).toBeNull();
  });
});
