// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, type ConfirmDialogProps } from '@/lib/pages/confirm/ConfirmDialog';
import { changesFrom, formFieldErrors, sentRows } from '@/lib/pages/confirm/describe';

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
      armDelayMs={0}
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
    expect(dialog.textContent).toContain('Demo Investor (demo@example.com), plan Pro');
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
      rows: sentRows({ playbookId: 'pb_1' }),
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
        playbookId: 'pb_1',
        body: { start: '2020-01-01', end: '2024-12-31', benchmark: 'SPY' },
      }),
    });
    const text = screen.getByRole('dialog').textContent ?? '';
    for (const part of ['pb_1', 'Start date', 'Jan 1, 2020', 'Dec 31, 2024', 'Benchmark', 'SPY'])
      expect(text).toContain(part);
    // A day is said once, in the user's format, not followed by its ISO spelling.
    expect(text).not.toContain('2020-01-01');
  });

  it('shows field errors next to their fields, and the rest in the alert', () => {
    renderDialog({
      initial: fields,
      error: { message: 'Some fields need attention.' },
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
    const { onRetry } = renderDialog({
      initial: fields,
      error: { message: 'The service failed.' },
      canRetry: true,
    });
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

describe('what is sent, and when Confirm arms', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('shows the method and path the document resolved, and its deprecation warning', () => {
    renderDialog({
      operation: 'pausePlaybook',
      consequence: 'Live automation stops.',
      resolved: {
        method: 'POST',
        path: '/v1/playbooks/pb_1/pause',
        deprecated: true,
        warnings: ['The service marks pausePlaybook as deprecated. It is still sent as itself.'],
      },
    });
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('POST /v1/playbooks/pb_1/pause');
    expect(screen.getByRole('note').textContent).toContain('deprecated');
  });

  it('keeps Confirm off when the write cannot be sent, and says why', () => {
    renderDialog({ initial: fields, refusal: 'createPlaybook reached its sunset on 2025-01-01.' });
    expect(screen.getByRole('alert').textContent).toContain('sunset');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Confirm' }).disabled).toBe(true);
  });

  function renderArmed(delay: number) {
    const onConfirm = vi.fn();
    render(
      <ConfirmDialog
        operation="runBacktest"
        consequence="A backtest is queued."
        armDelayMs={delay}
        onConfirm={onConfirm}
        onRetry={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    return { onConfirm, confirm: screen.getByRole<HTMLButtonElement>('button', { name: 'Confirm' }) };
  }

  it('arms Confirm only after the window was visible and focused for the delay', () => {
    vi.useFakeTimers();
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const { confirm, onConfirm } = renderArmed(800);
    expect(confirm.disabled).toBe(true);
    fireEvent.click(confirm);
    expect(onConfirm).not.toHaveBeenCalled();
    void act(() => void vi.advanceTimersByTime(799));
    expect(confirm.disabled).toBe(true);
    void act(() => void vi.advanceTimersByTime(1));
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it('disarms when the window loses focus and starts the delay again when it comes back', () => {
    vi.useFakeTimers();
    const focus = vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const { confirm } = renderArmed(800);
    void act(() => void vi.advanceTimersByTime(800));
    expect(confirm.disabled).toBe(false);
    focus.mockReturnValue(false);
    void act(() => void globalThis.dispatchEvent(new Event('blur')));
    expect(confirm.disabled).toBe(true);
    void act(() => void vi.advanceTimersByTime(5_000));
    expect(confirm.disabled).toBe(true);
    focus.mockReturnValue(true);
    void act(() => void globalThis.dispatchEvent(new Event('focus')));
    void act(() => void vi.advanceTimersByTime(500));
    expect(confirm.disabled).toBe(true);
    void act(() => void vi.advanceTimersByTime(300));
    expect(confirm.disabled).toBe(false);
  });

  it('never arms while the window has no focus', () => {
    vi.useFakeTimers();
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    const { confirm } = renderArmed(800);
    void act(() => void vi.advanceTimersByTime(10_000));
    expect(confirm.disabled).toBe(true);
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
