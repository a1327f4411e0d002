// @vitest-environment happy-dom
/** The options page's "Catalyst reminders" select and quiet hours (CONTRACT.md section 6). */
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OptionsForm } from '@/lib/pages/options/OptionsForm';
import type { AppState } from '@/lib/messaging/protocol';

afterEach(cleanup);

function renderForm(settings: Partial<AppState['settings']> = {}) {
  const onSave = vi.fn();
  const state: AppState = {
    version: '0.1.0',
    settings: {
      serviceUrl: 'https://svc.example',
      apiUrl: 'https://api.svc.example/v1',
      pollMinutes: 5,
      ...settings,
    },
    key: { set: true },
    hostAccess: { missingOrigins: [] },
  };
  const sites = { builtIn: [], extra: [], onAdd: vi.fn(), onRemove: vi.fn() };
  render(
    <OptionsForm
      state={state}
      sites={sites}
      onSave={onSave}
      onRemoveKey={vi.fn()}
      onGrantAccess={vi.fn()}
      onTestConnection={vi.fn()}
    />,
  );
  return onSave;
}

const select = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Catalyst reminders' });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('reminder settings', () => {
  it('offers off, on the day, 1, 3 and 7 days before, with 1 day by default and no quiet hours', () => {
    const onSave = renderForm();
    expect([...select().options].map((o) => o.text)).toEqual([
      'Off',
      'On the day',
      '1 day before',
      '3 days before',
      '1 week before',
    ]);
    expect(select().value).toBe('1-day');
    save();
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ reminderLead: '1-day', quietHours: null }));
  });

  it('saves the chosen lead and quiet hours as minutes since midnight', () => {
    const onSave = renderForm();
    fireEvent.change(select(), { target: { value: '3-days' } });
    fireEvent.input(screen.getByLabelText('Quiet hours start'), { target: { value: '22:00' } });
    fireEvent.input(screen.getByLabelText('Quiet hours end'), { target: { value: '07:30' } });
    save();
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ reminderLead: '3-days', quietHours: { start: 1320, end: 450 } }),
    );
  });

  it('shows saved quiet hours, and refuses only one end of them', () => {
    const onSave = renderForm({ reminderLead: 'off', quietHours: { start: 1380, end: 420 } });
    expect(select().value).toBe('off');
    expect(screen.getByLabelText<HTMLInputElement>('Quiet hours start').value).toBe('23:00');
    fireEvent.input(screen.getByLabelText('Quiet hours end'), { target: { value: '' } });
    save();
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByText('Give both a start and an end, or neither.')).toBeTruthy();
  });
});
