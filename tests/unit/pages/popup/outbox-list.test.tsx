// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutboxList } from '@/lib/pages/popup/OutboxList';
import type { OutboxEntryView } from '@/lib/messaging/protocol';
import { isWriteOperation, writeWords } from '@/lib/api/writeOperations';
import type { PopupDraft } from '@/lib/store/snapshot';

afterEach(cleanup);

const NOW = Date.parse('2026-03-01T12:00:00Z');
/** The worker labels each draft from the table of writes (lib/background/reads.ts); so does this fixture. */
function entry(id: string, over: Partial<OutboxEntryView> = {}): PopupDraft {
  const operationId = over.operationId ?? 'createPlaybook';
  return {
    id,
    origin: 'content-script',
    operationId,
    draft: { body: { title: `Draft ${id}` } },
    status: 'pending',
    createdAt: '2026-03-01T11:00:00Z',
    updatedAt: '2026-03-01T11:50:00Z',
    ...over,
    label: isWriteOperation(operationId) ? writeWords(operationId).label : operationId,
  };
}

function renderList(entries: PopupDraft[], busyIds: string[] = []) {
  const handlers = { onReopen: vi.fn(), onDiscard: vi.fn(), onRetry: vi.fn() };
  render(<OutboxList entries={entries} now={NOW} busyIds={busyIds} {...handlers} />);
  return handlers;
}

describe('OutboxList', () => {
  it('renders nothing when no draft waits (sent ones do not count)', () => {
    renderList([entry('a', { status: 'sent' })]);
    expect(screen.queryByRole('list', { name: 'Drafts' })).toBeNull();
  });

  it('names drafts by title, else by what they will do', () => {
    renderList([entry('a'), entry('b', { operationId: 'runBacktest', draft: { path: { id: 'pb_1' } } })]);
    expect(screen.getByText('Drafts waiting (2)')).toBeTruthy();
    expect(screen.getByText('Draft a')).toBeTruthy();
    expect(screen.getAllByText('Backtest').length).toBeGreaterThan(0);
  });

  it('names a draft that acts on a playbook by that playbook’s title, never by its id', () => {
    const handlers = { onReopen: vi.fn(), onDiscard: vi.fn(), onRetry: vi.fn() };
    render(
      <OutboxList
        entries={[entry('b', { operationId: 'runBacktest', draft: { playbookId: 'pb_d07Mf', body: {} } })]}
        now={NOW}
        playbooks={[{ id: 'pb_d07Mf', title: 'Grid modernization' }]}
        {...handlers}
      />,
    );
    const drafts = screen.getByRole('list', { name: 'Drafts' });
    expect(within(drafts).getByText('Grid modernization').tagName).toBe('STRONG');
    expect(drafts.textContent).not.toContain('pb_d07Mf');
    fireEvent.click(screen.getByRole('button', { name: 'Review Grid modernization' }));
    expect(handlers.onReopen).toHaveBeenCalledWith('b');
  });

  it('reopens and discards a pending draft; only failed ones offer Retry with their error', () => {
    const handlers = renderList([
      entry('a'),
      entry('b', { status: 'failed', error: { message: 'The service answered 503.' } }),
    ]);
    const [pending, failed] = screen.getAllByRole('listitem');
    expect(within(pending).queryByRole('button', { name: /^Retry/ })).toBeNull();
    fireEvent.click(within(pending).getByRole('button', { name: 'Review Draft a' }));
    expect(handlers.onReopen).toHaveBeenCalledWith('a');
    fireEvent.click(within(pending).getByRole('button', { name: 'Discard Draft a' }));
    expect(handlers.onDiscard).toHaveBeenCalledWith('a');
    expect(failed.textContent).toContain('The service answered 503.');
    fireEvent.click(within(failed).getByRole('button', { name: 'Retry Draft b' }));
    expect(handlers.onRetry).toHaveBeenCalledWith('b');
  });

  it('disables the buttons of a draft with an action under way or being sent', () => {
    renderList([entry('a'), entry('b', { status: 'sending' })], ['a']);
    for (const button of screen.getAllByRole('button'))
      expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it('renders a hostile title as text', () => {
    renderList([entry('a', { draft: { body: { title: '<img src=x onerror=alert(1)>' } } })]);
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
  });
});
