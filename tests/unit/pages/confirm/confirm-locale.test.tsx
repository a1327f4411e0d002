// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '@/lib/pages/confirm/ConfirmDialog';
import { writeWords } from '@/lib/api/writeOperations';
import { sentRows } from '@/lib/pages/confirm/describe';
import { useLocale } from '../../../fixtures/i18n';

afterEach(cleanup);

const handlers = () => ({ onConfirm: vi.fn(), onRetry: vi.fn(), onCancel: vi.fn() });

describe('the confirm dialog in German', () => {
  it('names the dialog, its fields and buttons in German, and keeps the service text as sent', () => {
    useLocale('de');
    render(
      <ConfirmDialog
        operation="createPlaybook"
        consequence={writeWords('createPlaybook').consequence}
        account={{ name: 'Demo Investor', email: 'demo@example.com', plan: 'pro' }}
        initial={{
          title: 'AAPL services',
          thesis: 'Services grow.',
          tickers: ['AAPL'],
          visibility: 'private',
        }}
        source={{ url: 'https://finance.example/a', title: 'Apple: services', excerpt: 'Services grow.' }}
        armDelayMs={0}
        {...handlers()}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Bestätigen' });
    expect(within(dialog).getByRole('heading', { level: 1 }).textContent).toBe(
      'Playbook „AAPL services“ erstellen',
    );
    expect(dialog.textContent).toContain('Es wird nichts gehandelt.');
    expect(dialog.textContent).toContain('Demo Investor (demo@example.com), Tarif Pro');
    expect(screen.getByLabelText<HTMLInputElement>('Titel').value).toBe('AAPL services');
    expect(screen.getByLabelText<HTMLSelectElement>('Sichtbarkeit').value).toBe('private');
    expect(screen.getByRole('option', { name: 'Privat' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Quelle' }).textContent).toContain('Apple: services');
    expect(screen.getByRole('button', { name: 'Bestätigen' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Abbrechen' })).toBeTruthy();
  });

  it('shows a backtest’s dates and numbers in German formats, each day once', () => {
    useLocale('de');
    render(
      <ConfirmDialog
        operation="runBacktest"
        consequence={writeWords('runBacktest').consequence}
        rows={sentRows({
          playbookId: 'pb_1',
          body: { start: '2020-01-01', end: '2024-12-31', capital: 12500.5 },
        })}
        armDelayMs={0}
        {...handlers()}
      />,
    );
    const text = screen.getByRole('dialog').textContent ?? '';
    expect(text).toContain('Startdatum01.01.2020');
    expect(text).not.toContain('2020-01-01');
    expect(text).toContain('Enddatum31.12.2024');
    expect(text).not.toContain('(2024-12-31)');
    expect(text).toContain('12.500,5');
    expect(text).toContain('Ihr Konto konnte nicht gelesen werden');
  });

  it('shows a day that does not exist only as sent', () => {
    useLocale('de');
    expect(sentRows({ body: { start: '2024-02-30' } })).toEqual([
      { label: 'Startdatum', value: '2024-02-30' },
    ]);
  });

  it('says why Confirm is not armed yet, until it is', () => {
    useLocale('de');
    render(<ConfirmDialog operation="pausePlaybook" consequence="" armDelayMs={60_000} {...handlers()} />);
    expect(screen.getByText(/sobald dieses Fenster einen Moment im Vordergrund ist/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Bestätigen' }).disabled).toBe(true);
  });

  it('in Arabic, isolates the title, the days and the account so they do not run into each other', () => {
    useLocale('ar');
    render(
      <ConfirmDialog
        operation="runBacktest"
        consequence={writeWords('runBacktest').consequence}
        playbookTitle="Grid modernization: 6-month valuation band"
        body={{ start: '2021-01-04', end: '2024-12-31', benchmark: 'SPY' }}
        account={{ name: 'Demo Investor', email: 'demo@investing-agent.test', plan: 'pro' }}
        armDelayMs={0}
        {...handlers()}
      />,
    );
    const heading = within(screen.getByRole('dialog')).getByRole('heading', { level: 1 });
    const isolated = [...heading.querySelectorAll('bdi')].map((bdi) => bdi.textContent);
    expect(isolated).toContain('Grid modernization: 6-month valuation band');
    expect(isolated).toContain('SPY');
    expect(isolated.length).toBeGreaterThanOrEqual(4);
    const email = [...screen.getByRole('dialog').querySelectorAll('bdi[dir="ltr"]')].map(
      (b) => b.textContent,
    );
    expect(email).toContain('demo@investing-agent.test');
  });

  it('has every write’s words in every locale', () => {
    for (const file of ['en', 'de', 'fr', 'es', 'ja', 'zh_CN', 'pt_BR', 'ar']) {
      useLocale(file);
      for (const operation of [
        'createPlaybook',
        'updatePlaybook',
        'runBacktest',
        'activatePlaybook',
        'pausePlaybook',
        'createCheckoutSession',
        'createBrokerageLink',
      ] as const) {
        const words = writeWords(operation);
        expect(words.heading, `${file} ${operation}`).not.toMatch(/^confirm\./);
        expect(words.consequence, `${file} ${operation}`).not.toMatch(/^confirm\./);
      }
    }
  });
});
