// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PendingWrite, WriteDraft } from '@/lib/messaging/protocol';
import type { OutboxEntry } from '@/lib/contract/outbox';
import { DRAFT_ID, entry } from './fixtures';
import { ConfirmPage } from '@/lib/pages/confirm/ConfirmPage';
import { ConfirmDialog } from '@/lib/pages/confirm/ConfirmDialog';
import { serveMessages, workerFailure, type StubHandlers } from '../support';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const GAVE_UP =
  'createPlaybook failed after 2 attempts: the service answered 503 (the retry budget is spent).';

const pending = (over: Partial<OutboxEntry<WriteDraft>> = {}): PendingWrite => ({
  entry: entry(over),
  consequence: 'A draft playbook is created.',
});

const serveConfirm = (handlers: StubHandlers) => serveMessages(handlers, '/confirm.html');

/** The text a user sees without opening anything: a closed "Details" shows its summary only. */
function visibleText(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('details > :not(summary)')) hidden.remove();
  return copy.textContent ?? '';
}

/** What the "Details" disclosure that follows the alert holds. */
function detailsAfter(alert: Element): string {
  const details = alert.nextElementSibling;
  expect(details?.tagName).toBe('DETAILS');
  expect(details?.querySelector('summary')?.textContent).toBe('Details');
  return details?.textContent ?? '';
}

function expectUserTerms(shown: string) {
  for (const technical of ['failed after', 'createPlaybook', 'getPlaybook', 'retry budget', 'attempts'])
    expect(shown).not.toContain(technical);
}

describe('The confirm window says failures in the user’s words', () => {
  it('leads a failed send with the table’s words; the operation and its retries under Details', async () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    serveConfirm({
      getPendingWrite: () => pending(),
      confirmWrite: () => {
        throw workerFailure({
          code: 'api.server',
          message: GAVE_UP,
          details: { operationId: 'createPlaybook' },
        });
      },
    });
    render(<ConfirmPage draftId={DRAFT_ID} />);
    const confirm = await screen.findByRole<HTMLButtonElement>('button', { name: 'Confirm' });
    await waitFor(() => expect(confirm.disabled).toBe(false), { timeout: 3000 });
    fireEvent.click(confirm);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The service is having trouble right now.');
    // The request record names the operation too, under its own Details: nothing technical is in view.
    expectUserTerms(visibleText(screen.getByRole('dialog')));
    expectUserTerms(alert.textContent ?? '');
    expect(detailsAfter(alert)).toContain(GAVE_UP);
  });

  it('says an earlier failure the outbox stored in the same words; a stored refusal stays whole', async () => {
    const refusal =
      'The service changed how this action is sent. Nothing was sent. Review and confirm again.';
    // One worker for both windows: the draft as stored changes between them.
    let stored: Partial<OutboxEntry<WriteDraft>> = {
      status: 'failed',
      error: { code: 'api.server', message: GAVE_UP },
    };
    serveConfirm({ getPendingWrite: () => pending(stored) });
    render(<ConfirmPage draftId={DRAFT_ID} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The service is having trouble right now.');
    expectUserTerms(alert.textContent ?? '');
    expect(detailsAfter(alert)).toContain(GAVE_UP);
    cleanup();

    stored = { error: { code: 'operation-changed', message: refusal } };
    render(<ConfirmPage draftId={DRAFT_ID} />);
    const refused = await screen.findByRole('alert');
    expect(refused.textContent).toBe(refusal);
    expect(refused.nextElementSibling?.tagName).not.toBe('DETAILS');
  });

  it('says why an update cannot be shown without the read’s technical text', async () => {
    const readGaveUp =
      'getPlaybook failed after 2 attempts: the service could not be reached (no attempts left).';
    serveConfirm({
      getPendingWrite: () =>
        pending({ operationId: 'updatePlaybook', draft: { playbookId: 'pb-1', body: { title: 'New' } } }),
      getPlaybook: () => {
        throw workerFailure({
          code: 'api.network',
          message: readGaveUp,
          details: { operationId: 'getPlaybook' },
        });
      },
    });
    render(<ConfirmPage draftId={DRAFT_ID} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The playbook could not be read');
    expect(alert.textContent).toContain('The service could not be reached.');
    expectUserTerms(alert.textContent ?? '');
    expect(detailsAfter(alert)).toContain(readGaveUp);
  });
});

describe('The Source block', () => {
  it('says where the draft was captured from, not a second "Title"', () => {
    render(
      <ConfirmDialog
        operation="createPlaybook"
        consequence="A draft is created."
        armDelayMs={0}
        initial={{
          title: 'AAPL services',
          thesis: 'Services grow.',
          tickers: ['AAPL'],
          visibility: 'private',
        }}
        source={{
          url: 'https://news.example/aapl',
          title: 'Apple beats on services',
          excerpt: 'Revenue rose.',
        }}
        onConfirm={vi.fn()}
        onRetry={vi.fn()}
        onCancel={vi.fn()}
      />,
    );
    const source = screen.getByRole('region', { name: 'Source' });
    const terms = [...source.querySelectorAll('dt')].map((term) => term.textContent);
    expect(terms).toEqual(['Captured from', 'Excerpt']);
    const capturedFrom = source.querySelector('dd')!;
    expect(capturedFrom.textContent).toContain('Apple beats on services');
    expect(capturedFrom.textContent).toContain('https://news.example/aapl');
  });
});
