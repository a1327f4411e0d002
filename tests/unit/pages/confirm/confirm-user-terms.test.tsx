// @vitest-environment happy-dom
/**
 * The confirm window speaks the user's terms first (the action in words, the playbook's
 * title, dates in the UI language), keeps the request it binds in a quieter place and the ids,
 * operation names and versions behind "Details"; it behaves like a dialog (focus on its heading,
 * Escape answers as Cancel does); a live execution that cannot succeed says so before anything is
 * typed and offers the brokerage link instead of Confirm.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, type ConfirmDialogProps } from '@/lib/pages/confirm/ConfirmDialog';
import { actionSummary, sentRows } from '@/lib/pages/confirm/describe';
import { useLocale } from '../../../fixtures/i18n';

afterEach(cleanup);

const account = { name: 'Demo Investor', email: 'demo@example.com', plan: 'pro' };
const TITLE = 'Grid modernization';

function renderDialog(props: Partial<ConfirmDialogProps>) {
  const handlers = { onConfirm: vi.fn(), onRetry: vi.fn(), onCancel: vi.fn(), onLinkBrokerage: vi.fn() };
  render(
    <ConfirmDialog
      operation="runBacktest"
      consequence="A backtest is queued."
      account={account}
      armDelayMs={0}
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

/** The dialog's text outside the quiet request record (which holds the request and "Details"). */
function mainText(): string {
  const dialog = screen.getByRole('dialog', { name: 'Confirm' }).cloneNode(true) as HTMLElement;
  dialog.querySelector('.request')?.remove();
  return dialog.textContent ?? '';
}

const backtest: Partial<ConfirmDialogProps> = {
  operation: 'runBacktest',
  playbookTitle: TITLE,
  body: { start: '2021-01-04', end: '2024-12-31', benchmark: 'SPY' },
  resolved: {
    method: 'POST',
    path: '/api/v1/playbooks/pb_d07MfnkYsei7/backtests',
    url: 'http://127.0.0.1:4010/api/v1/playbooks/pb_d07MfnkYsei7/backtests',
  },
  rows: sentRows({
    playbookId: 'pb_d07MfnkYsei7',
    body: { start: '2021-01-04', end: '2024-12-31', benchmark: 'SPY' },
  }),
};

describe('the action in the user’s words first', () => {
  it('leads a backtest with its playbook’s title, dates and benchmark, in the UI language', () => {
    useLocale('en');
    renderDialog(backtest);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Run a backtest of “Grid modernization”, Jan 4, 2021 – Dec 31, 2024, against SPY',
    );
    useLocale('de');
    expect(
      actionSummary('runBacktest', { title: TITLE, body: { start: '2021-01-04', end: '2024-12-31' } }),
    ).toBe('Backtest von „Grid modernization“ starten, 04.01.2021 – 31.12.2024');
  });

  it('keeps ids, the operation’s name and the version out of the main text, inside Details', () => {
    useLocale('en');
    renderDialog({
      operation: 'updatePlaybook',
      consequence: 'The playbook is changed.',
      current: { title: TITLE, thesis: 'T', tickers: ['NEE'], visibility: 'private' },
      initial: { title: `${TITLE} 2`, thesis: 'T', tickers: ['NEE', 'XLU'], visibility: 'private' },
      resolved: { method: 'PATCH', path: '/api/v1/playbooks/pb_d07MfnkYsei7' },
      rows: sentRows({ playbookId: 'pb_d07MfnkYsei7', ifMatch: '"cGFnZS0x"' }),
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Change “Grid modernization”: title, tickers',
    );
    const main = mainText();
    for (const technical of ['pb_', 'updatePlaybook', 'cGFn', 'Operation'])
      expect(main, technical).not.toContain(technical);
    // The request the confirmation binds stays on the window, in its quieter place…
    const record = screen.getByRole('region', { name: 'What is sent' });
    expect(record.textContent).toContain('PATCH /api/v1/playbooks/pb_d07MfnkYsei7');
    expect(record.textContent).toContain('Demo Investor (demo@example.com), plan Pro');
    // …and the operation, the id and the version are one click away.
    const details = record.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(within(details).getByText('Details').tagName).toBe('SUMMARY');
    for (const technical of ['updatePlaybook', 'pb_d07MfnkYsei7', '"cGFnZS0x"'])
      expect(details.textContent).toContain(technical);
  });

  it('says the backtest’s terms in the main text and the playbook id only under Details', () => {
    useLocale('en');
    renderDialog(backtest);
    const main = mainText();
    expect(main).toContain('Start date');
    expect(main).toContain('SPY');
    expect(main).not.toContain('pb_');
    expect(main).not.toContain('runBacktest');
    expect(
      screen.getByRole('region', { name: 'What is sent' }).querySelector('details')?.textContent,
    ).toContain('http://127.0.0.1:4010/api/v1/playbooks/pb_d07MfnkYsei7/backtests');
  });

  it.each([
    ['createPlaybook', { title: TITLE }, 'Create the playbook “Grid modernization”'],
    ['activatePlaybook', { title: TITLE }, 'Start live automation of “Grid modernization”'],
    ['pausePlaybook', { title: TITLE }, 'Pause live automation of “Grid modernization”'],
    ['createCheckoutSession', { body: { plan: 'team' } }, 'Change your plan to Team'],
    [
      'createBrokerageLink',
      { body: { provider: 'sandbox-broker' } },
      'Link your brokerage account at sandbox-broker',
    ],
    // Without the title, the write's own question: never an id.
    ['runBacktest', {}, 'Run a backtest?'],
  ] as const)('%s reads “%s”', (operation, input, expected) => {
    useLocale('en');
    expect(actionSummary(operation, input)).toBe(expected);
  });

  it('names a new playbook as the user types its title', () => {
    useLocale('en');
    renderDialog({
      operation: 'createPlaybook',
      initial: { title: 'Draft', thesis: '', tickers: [], visibility: 'private' },
    });
    fireEvent.input(screen.getByLabelText('Title'), { target: { value: TITLE } });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Create the playbook “Grid modernization”',
    );
  });
});

describe('a dialog', () => {
  it('puts focus on its heading when it opens', () => {
    useLocale('en');
    renderDialog(backtest);
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading.getAttribute('tabindex')).toBe('-1');
    expect(document.activeElement).toBe(heading);
  });

  it('answers Escape as Cancel, but not while an input method composes or while busy', () => {
    useLocale('en');
    const { onCancel } = renderDialog(backtest);
    fireEvent.keyDown(document.body, { key: 'Escape', isComposing: true });
    expect(onCancel).not.toHaveBeenCalled();
    fireEvent.keyDown(screen.getByRole('heading', { level: 1 }), { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledOnce();
    cleanup();
    const busy = renderDialog({ ...backtest, busy: true });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(busy.onCancel).not.toHaveBeenCalled();
  });
});

describe('a live execution no linked brokerage can carry out', () => {
  it('says so before anything is typed, and offers the link instead of Confirm', () => {
    useLocale('en');
    const { onLinkBrokerage, onConfirm } = renderDialog({
      operation: 'activatePlaybook',
      consequence: 'Live automation starts.',
      playbookTitle: TITLE,
      typeToConfirm: TITLE,
      brokerageMissing: true,
    });
    expect(screen.getByRole('note').textContent).toContain('No brokerage account is linked');
    // Nothing starts, so the window does not also say that live automation starts, nor call it a draft.
    expect(document.body.textContent).not.toContain('Live automation starts.');
    expect(screen.getByRole('note').textContent).not.toContain('draft then');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Link a brokerage account' }));
    expect(onLinkBrokerage).toHaveBeenCalledOnce();
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('asks for the typed name as before when the brokerage is linked', () => {
    useLocale('en');
    renderDialog({
      operation: 'activatePlaybook',
      consequence: 'Live automation starts.',
      playbookTitle: TITLE,
      typeToConfirm: TITLE,
    });
    expect(screen.getByLabelText(`Type “${TITLE}” to confirm`)).toBeTruthy();
    expect(document.body.textContent).toContain('Live automation starts.');
    expect(screen.queryByRole('button', { name: 'Link a brokerage account' })).toBeNull();
  });
});
