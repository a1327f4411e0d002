// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, type ConfirmDialogProps } from '@/components/ConfirmDialog';
import { changesFrom, formFieldErrors, sentRows } from '@/components/confirm/describe';

afterEach(cleanup);

const account = { name: 'Demo Investor', email: 'demo@example.com', plan: 'pro' };
const fields = {
  title: 'AAPL services',
  thesis: 'Services grow.',
  tickers: ['AAPL'],
  visibility: 'private' as const,
};

function renderDialog(props: Partial<ConfirmDialogProps>) {
  const handlers = { onConfirm: vi.fn(), onRetry: vi.fn(), onCancel: vi.fn() };
  render(
    <ConfirmDialog
      operation="createPlaybook"
      consequence="A draft is created."
      account={account}
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

describe('ConfirmDialog', () => {
  it('shows the operation, account, consequence and disclaimer, and a private default', () => {
    renderDialog({ initial: fields });
    const dialog = screen.getByRole('dialog', { name: 'Confirm' });
    expect(dialog.textContent).toContain('createPlaybook');
    expect(dialog.textContent).toContain('Demo Investor (demo@example.com), plan pro');
    expect(dialog.textContent).toContain('A draft is created.');
    expect(dialog.textContent).toContain('Decision support, not financial advice');
    expect(screen.getByLabelText<HTMLSelectElement>('Visibility').value).toBe('private');
  });

  it('sends the edited fields on Confirm', () => {
    const { onConfirm } = renderDialog({ initial: fields });
    fireEvent.input(screen.getByLabelText('Title'), { target: { value: 'New title' } });
    fireEvent.input(screen.getByLabelText('Tickers'), { target: { value: 'aapl, brk.b  msft' } });
    fireEvent.change(screen.getByLabelText('Visibility'), { target: { value: 'unlisted' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledWith({
      fields: { ...fields, title: 'New title', tickers: ['AAPL', 'BRK.B', 'MSFT'], visibility: 'unlisted' },
      typed: undefined,
    });
  });

  it('renders hostile page text as text', () => {
    const payload = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>';
    renderDialog({
      initial: { ...fields, title: payload, thesis: payload },
      source: { url: 'https://x.test/?q=<b>', title: payload, excerpt: `${payload} excerpt` },
    });
    expect(screen.getByLabelText<HTMLInputElement>('Title').value).toBe(payload);
    expect(document.querySelector('img, script, b')).toBeNull();
    expect(screen.getByRole('dialog').textContent).toContain('https://x.test/?q=<b>');
    // Every word the page supplied is shown before it is sent, as text.
    const source = screen.getByRole('region', { name: 'Source' });
    expect(source.textContent).toContain(payload);
    expect(source.textContent).toContain(`${payload} excerpt`);
  });

  it('keeps Confirm disabled until the playbook name is typed exactly', () => {
    const { onConfirm } = renderDialog({
      operation: 'activatePlaybook',
      consequence: 'Live automation starts.',
      rows: sentRows({ path: { id: 'pb_1' } }),
      typeToConfirm: 'Dividend growers',
    });
    const confirm = screen.getByRole<HTMLButtonElement>('button', { name: 'Confirm' });
    const typed = screen.getByLabelText('Type “Dividend growers” to confirm');
    expect(confirm.disabled).toBe(true);
    fireEvent.input(typed, { target: { value: 'Dividend grower' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.input(typed, { target: { value: 'Dividend growers' } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith({ fields: undefined, typed: 'Dividend growers' });
    expect(screen.queryByLabelText('Title')).toBeNull();
  });

  it('lists every field of a non-editable write', () => {
    renderDialog({
      operation: 'runBacktest',
      consequence: 'A backtest is queued.',
      rows: sentRows({
        path: { id: 'pb_1' },
        body: { start: '2020-01-01', end: '2024-12-31', benchmark: 'SPY' },
      }),
    });
    const text = screen.getByRole('dialog').textContent ?? '';
    for (const part of ['pb_1', 'Start date', '2020-01-01', '2024-12-31', 'Benchmark', 'SPY'])
      expect(text).toContain(part);
  });

  it('shows field errors next to their fields, and the rest in the alert', () => {
    renderDialog({
      initial: fields,
      error: 'Some fields need attention.',
      fieldErrors: {
        title: 'must not be empty',
        '/tickers/0': 'is not a ticker symbol',
        '/owner': 'not allowed',
      },
    });
    const title = screen.getByLabelText(/^Title/);
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(title.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'must not be empty',
    );
    expect(screen.getByLabelText(/^Tickers/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toContain('owner: not allowed');
  });

  it('offers Retry after a failed send', () => {
    const { onRetry } = renderDialog({ initial: fields, error: 'The service failed.', canRetry: true });
    expect(screen.getByRole('alert').textContent).toContain('The draft is kept');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('lists the changes of an update against the playbook as it is', () => {
    renderDialog({
      operation: 'updatePlaybook',
      consequence: 'The playbook is changed.',
      initial: { ...fields, title: 'Renamed' },
      current: fields,
    });
    const changes = screen.getByRole('region', { name: 'Changes' });
    expect(changes.textContent).toContain('AAPL services');
    expect(changes.textContent).toContain('Renamed');
    expect(changes.textContent).not.toContain('thesis');
  });
});

describe('describe helpers', () => {
  it.each([
    [{ title: 'x' }, { title: 'x' }],
    [{ 'tickers.3': 'bad' }, { tickers: 'bad' }],
    [{ '/source/url': 'bad' }, { source: 'bad' }],
    [{ '/': 'whole body' }, { body: 'whole body' }],
  ])('maps %o to %o', (input, expected) => expect(formFieldErrors(input)).toEqual(expected));

  it('finds no changes for equal fields', () => expect(changesFrom(fields, { ...fields })).toEqual([]));
});
